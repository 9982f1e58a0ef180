/* SPDX-License-Identifier: MIT */
/* The fence memory space pool (mechanism): guest fences re-homed into the pool. */
#ifndef DOM0_FENCE_POOL_H
#define DOM0_FENCE_POOL_H

#include "dom0/types.h"

int dom0_guest_fence_read(struct dom0_runtime *rt, int id, unsigned fence, uint64_t *val, struct gtt_err *err);

/* ---- dom0/ only ---- */
struct vgpu;
struct pool_fence;
/*
 * A guest's write of fence `fence`: checks it and decodes the value into *pages
 * (0 for a fence turned off); GTT_EINVAL / GTT_ERANGE naming the rule. Changes nothing.
 */
int dom0_fence_check(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, uint64_t *pages,
		     struct gtt_err *err);
/* Turn the guest's fence off (its pool range and physical fence given back). */
void dom0_fence_off(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val);
/* Re-home a checked, valid guest fence into the pool: GTT_ENOMEM / GTT_EBUSY when it does not fit. */
int dom0_fence_now(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, struct gtt_err *err);
bool dom0_pool_fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned fence, uint64_t pages);
/* Release every pool fence of the vGPU. */
void dom0_pool_release_all(struct dom0_runtime *rt, struct vgpu *v);
/* The pool fence covering a guest address, if any. */
struct pool_fence *dom0_pool_fence_at(struct vgpu *v, uint64_t gm);
/* The pool's map, every fence as found, the host's fences taken (reads every fence register). */
int dom0_fence_pool_init(struct dom0_runtime *rt, struct gtt_err *err);
void dom0_fence_pool_free(struct dom0_runtime *rt);
/* Every fence register read back against its value as found: each difference a failure in `f`. */
struct hw_restore_failures;
void dom0_fence_pool_verify(struct dom0_runtime *rt, struct hw_restore_failures *f);
/* Fence register `fence` as the runtime found it. */
uint64_t dom0_fence_as_found(const struct dom0_runtime *rt, unsigned fence);
/* Pages in the pool, and how many of them are free. */
uint64_t dom0_pool_pages(const struct dom0_runtime *rt);
uint64_t dom0_pool_free_pages(const struct dom0_runtime *rt);
/* Pool pages v's active fences other than `except` hold. */
uint64_t dom0_pool_pages_held(const struct vgpu *v, unsigned except);
/* Guest fence `fence` as the guest last wrote it (0 past the guest fences). */
uint64_t dom0_guest_fence_value(const struct vgpu *v, unsigned fence);
/* The pool home of guest fence `fence` (inactive when the fence is off; NULL past the guest fences). */
const struct pool_fence *dom0_pool_fence(const struct vgpu *v, unsigned fence);
/* Fence registers the admitted vGPUs hold (admission counts them before it places a vGPU). */
unsigned dom0_fences_reserved(const struct dom0_runtime *rt);
/* v's fence registers counted as held (once), and given back. */
void dom0_fences_reserve(struct dom0_runtime *rt, struct vgpu *v);
void dom0_fences_unreserve(struct dom0_runtime *rt, struct vgpu *v);
/* Keep the pool copy of a guest PTE in step with the guest's write. */
int dom0_pool_update_pte(struct dom0_runtime *rt, struct vgpu *v, uint64_t index, uint64_t pte,
			 struct gtt_err *err);

#endif
