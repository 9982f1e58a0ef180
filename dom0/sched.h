/* SPDX-License-Identifier: MIT */
/* The scheduler model (policy): busy/idle vGPUs, round-robin quanta, the balloon policy's periods. */
#ifndef DOM0_SCHED_H
#define DOM0_SCHED_H

#include "dom0/switch_types.h"
#include "dom0/types.h"

/* Scheduler model: busy/idle, and round-robin quanta of DOM0_QUANTUM_MS over busy vGPUs. */
int dom0_set_busy(struct dom0_runtime *rt, int id, bool busy, struct gtt_err *err);
/* The vGPU the scheduler runs next (0 when none is busy); does not switch. */
int dom0_sched_next(const struct dom0_runtime *rt);
/* Run n quanta: pick, switch, account. Calls `on_switch` after each switch when given. */
int dom0_run_quanta(struct dom0_runtime *rt, unsigned n,
		    void (*on_switch)(void *ctx, const struct dom0_switch_stats *s), void *ctx,
		    struct gtt_err *err);

/* ---- dom0/ only ---- */
struct vgpu;
/* Whether v has GPU work (dom0_set_busy). */
bool dom0_vgpu_busy(const struct vgpu *v);
/* A moved vGPU has work on its target as on its source (its wait there starts from the target's first quantum). */
void dom0_sched_take_busy(struct vgpu *dst, const struct vgpu *src);

#endif
