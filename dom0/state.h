/* SPDX-License-Identifier: MIT */
/* What the runtime holds, for every part and every caller (dom0/state.c): lookups and queries, no change. */
#ifndef DOM0_STATE_H
#define DOM0_STATE_H

#include "dom0/admission_types.h"
#include "dom0/runtime_types.h"
#include "dom0/vgpu_types.h"
#include "dom0/types.h"

const struct dom0_layout *dom0_layout(const struct dom0_runtime *rt);
const struct dom0_counters *dom0_counters(const struct dom0_runtime *rt);
struct hw_device *dom0_device(const struct dom0_runtime *rt);
/* Which vGPU's entry the physical GTT holds at index (0: none, the boot value). */
int dom0_physical_owner(const struct dom0_runtime *rt, uint64_t index);
bool dom0_vgpu_exists(const struct dom0_runtime *rt, int id);
int dom0_render_owner(const struct dom0_runtime *rt);
uint64_t dom0_sim_time_ms(const struct dom0_runtime *rt);	/* the simulated clock, ms */
const char *dom0_admission_name(enum dom0_admission a);	/* "off", "fifo", "bf", "ru", "rand" */
const char *dom0_pause_name(enum dom0_pause p);		/* "none", "create", "expand", "fence" */
/* Whether [gm, gm + len) lies in one run of the high range `in` describes (dom0_vgpu_info's runs). */
bool dom0_high_holds(const struct dom0_runtime *rt, const struct dom0_vgpu_info *in, uint64_t gm, uint64_t len);
/* Whether the config turns admission on (mechanisms that reserve for it read this; they never call it). */
bool dom0_admission_on(const struct dom0_runtime *rt);
/* Requests paused by admission now. */
unsigned dom0_paused_count(const struct dom0_runtime *rt);

/* ---- dom0/ only ---- */
struct vgpu;
/*
 * A mechanism gave slots, fence registers or pool pages back. It only says
 * so: admission (a policy) acts when the operation has completed
 * (dom0/admission.h's dom0_op_done, called by dom0/ops.c and the policies),
 * never inside the mechanism, so no admission can re-enter an operation half
 * done.
 */
void dom0_freed(struct dom0_runtime *rt);
/* Whether something was freed since the last take; the flag is cleared. */
bool dom0_freed_take(struct dom0_runtime *rt);
/* Put the flag back as a caller found it (a step that freed nothing anyone held). */
void dom0_freed_keep(struct dom0_runtime *rt, bool was);
/* What of v waits for admission (dom0/admission.c's; kind DOM0_PAUSE_NONE: nothing). */
struct vgpu_pause dom0_pause_of(const struct vgpu *v);
/* Whether admission is running a paused request now (the admit_short fault's window). */
bool dom0_admitting(const struct dom0_runtime *rt);
/* The simulated clock moves on (the scheduler, a quantum at a time). */
void dom0_clock_advance(struct dom0_runtime *rt, uint64_t ms);
struct vgpu *dom0_vgpu_get(struct dom0_runtime *rt, int id, struct gtt_err *err);
uint64_t dom0_high_base(const struct dom0_runtime *rt, const struct vgpu *v);
/* The high range's first run (all of it when its slots are in one run). */
uint64_t dom0_high_size(const struct dom0_runtime *rt, const struct vgpu *v);
/* The runs of its slots, ascending (one when contiguous, none without slots); returns how many. */
unsigned dom0_runs_of(const struct vgpu *v, struct dom0_run out[DOM0_MAX_RUNS]);
/*
 * Whether slot s has a place for vGPU self under the share limit: fewer
 * holders than it allows, a place a paused create holds for itself not
 * counted free unless it is self's (self 0: nobody's). No limit: always.
 */
bool dom0_slot_room(const struct dom0_runtime *rt, unsigned s, int self);

#endif
