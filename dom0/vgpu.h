/* SPDX-License-Identifier: MIT */
/* vGPUs (mechanism): their tables, memory, placement and the PVINFO words placement sets; queries of their state. */
#ifndef DOM0_VGPU_H
#define DOM0_VGPU_H

#include "dom0/state.h"
#include "dom0/vgpu_types.h"
#include "dom0/types.h"

/* Host page of guest page `gfn`, for checks and tests. */
int dom0_guest_page(const struct dom0_runtime *rt, int id, uint64_t gfn, struct hw_page *out);
/* What of it waits for admission (DOM0_PAUSE_NONE: nothing), whether a migration holds it, and how many wait. */
enum dom0_pause dom0_vgpu_paused(const struct dom0_runtime *rt, int id);
bool dom0_vgpu_migrating(const struct dom0_runtime *rt, int id);

/* ---- dom0/ only ---- */
struct vgpu;
/* A vGPU with its tables, memory and scratch page, registered under a free id, holding no slots yet. */
int dom0_vgpu_new(struct dom0_runtime *rt, const struct dom0_vgpu_params *p, struct vgpu **out, struct gtt_err *err);
/* Take a vGPU out: its pool fences, entries, slots, reservation, pages and tables (what it held is reported freed). */
void dom0_vgpu_remove(struct dom0_runtime *rt, struct vgpu *v);
/* High-range tables for `slots` slots, every shadow entry on `scratch_pte`. */
int dom0_alloc_high(struct dom0_runtime *rt, unsigned slots, uint64_t scratch_pte, uint64_t **guest, uint64_t **shadow);
/* The vGPU a guest operation names: not paused in its create, not migrating. */
struct vgpu *dom0_guest_vgpu(struct dom0_runtime *rt, int id, struct gtt_err *err);
/* dom0_guest_vgpu's refusal: GTT_EBUSY for a paused or migrating vGPU, GTT_EINVAL for no vGPU. */
static inline int dom0_no_guest(const struct dom0_runtime *rt, int id)
{
	return dom0_vgpu_exists(rt, id) ? GTT_EBUSY : GTT_EINVAL;
}

#endif
