/* SPDX-License-Identifier: MIT */
/* The context switch (mechanism). */
#ifndef DOM0_SWITCH_H
#define DOM0_SWITCH_H

#include "dom0/switch_types.h"
#include "dom0/types.h"

/* Context switch: make `to` the render owner, copying only what must change. */
int dom0_switch(struct dom0_runtime *rt, int to, struct dom0_switch_stats *stats, struct gtt_err *err);

/* ---- dom0/ only ---- */
struct vgpu;
/* Copy the vGPU's shadow into the physical GTT where it does not hold its entries yet, then invalidate. */
int dom0_copy_in(struct dom0_runtime *rt, struct vgpu *v, struct dom0_switch_stats *s, struct gtt_err *err);
/*
 * The same, timed, and charged to the runtime's counters: PTEs written and
 * skipped, and R_copy's copy time (gBalloon eq. 1). A switch copies through
 * it, and so does an expansion of the running vGPU (its new slots at once).
 */
int dom0_copy_in_charged(struct dom0_runtime *rt, struct vgpu *v, struct dom0_switch_stats *s, struct gtt_err *err);

/* How the switches' copy time is charged (c.copy_ns, gBalloon's C): measured (0), or this many ps per PTE written. */
void dom0_switch_charge(struct dom0_runtime *rt, uint64_t ps_per_pte);

#endif
