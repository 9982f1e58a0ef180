/* SPDX-License-Identifier: MIT */
/*
 * Non-contiguous slots (cfg.slot_runs >= 2; gBalloon §6): a vGPU's high
 * memory as several runs of slots, chosen by the generalised Algorithm 1
 * (dom0/slots_pick.h) and laid end to end in its shadow GTT.
 */
#ifndef DOM0_SLOTS_RUNS_H
#define DOM0_SLOTS_RUNS_H

#include "dom0/types.h"

struct vgpu;

enum dom0_runs_op {
	DOM0_RUNS_PLACE,	/* a new vGPU: q slots */
	DOM0_RUNS_GROW,		/* q slots more */
	DOM0_RUNS_SHRINK,	/* q slots fewer */
};

bool dom0_runs_on(const struct dom0_runtime *rt);
/* Slots v holds, as a set of lay.num_slots (at most DOM0_MAX_SLOTS). */
void dom0_runs_mine(const struct dom0_runtime *rt, const struct vgpu *v, bool *set);
/*
 * The set of slots v would hold after op by q: placing and growing take
 * slots with room for v under the share limit (`room` NULL: dom0_slot_room;
 * otherwise room[s]) whose holders sum least, its own held places first;
 * shrinking keeps the slots shared least. GTT_EBUSY: none in cfg.slot_runs
 * runs. Changes nothing.
 */
int dom0_runs_choose(const struct dom0_runtime *rt, const struct vgpu *v, enum dom0_runs_op op, unsigned q,
		     const bool *room, bool *set, struct gtt_err *err);
/* Give v exactly the slots of set (its shadow entries kept where it keeps a slot), PVINFO updated. */
int dom0_runs_retable(struct dom0_runtime *rt, struct vgpu *v, const bool *set, struct gtt_err *err);

#endif
