/* SPDX-License-Identifier: MIT */
/* Slots of high graphics memory (mechanism): occupancy, placement and resizing. */
#ifndef DOM0_SLOTS_H
#define DOM0_SLOTS_H

#include "dom0/types.h"

/* Slots. */
unsigned dom0_slot_occupancy(const struct dom0_runtime *rt, unsigned slot);
unsigned dom0_shared_slots(const struct dom0_runtime *rt);	/* slots held by two or more vGPUs */

/* ---- dom0/ only ---- */
struct vgpu;
/* Give v `slots` slots at `at` (or where they share least, at < 0): GTT_EBUSY when they or its fences do not fit. */
int dom0_place_now(struct dom0_runtime *rt, struct vgpu *v, unsigned slots, int at, struct gtt_err *err);
/* Where S slots go: least shared, every slot with room for anyone; -1 none. */
int dom0_place_slots(const struct dom0_runtime *rt, unsigned S);
/* Whether the new slots of an expansion by L left and R right are all under the share limit. */
bool dom0_sides_fit(const struct dom0_runtime *rt, const struct vgpu *v, unsigned L, unsigned R);
/* Recount shadow_high entries off scratch. */
void dom0_recount_mapped(const struct dom0_runtime *rt, struct vgpu *v);
/* An expansion by q that could ever fit (GTT_EINVAL naming the rule otherwise); changes nothing. */
int dom0_expand_check(struct dom0_runtime *rt, struct vgpu *v, unsigned q, struct gtt_err *err);
/* Grow / shrink now, on the selector's sides: GTT_EBUSY when the share limit leaves no room. */
int dom0_expand_now(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);
int dom0_reduce_now(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);

/* The slots' occupancy table for the layout, and its end. */
int dom0_slots_init(struct dom0_runtime *rt, struct gtt_err *err);
void dom0_slots_free(struct dom0_runtime *rt);
/* Each slot of [first, first + n) outside [apart, apart + apart_n) gains (delta 1) or loses (-1) an occupant: a move's runs. */
void dom0_slot_occupy_apart(struct dom0_runtime *rt, unsigned first, unsigned n, unsigned apart, unsigned apart_n, int delta);
/* v's one run of slots starts at `first` now (a move; its occupancy is the mover's to keep). */
void dom0_slot_rebase(struct vgpu *v, unsigned first);

#endif
