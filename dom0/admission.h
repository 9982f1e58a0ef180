/* SPDX-License-Identifier: MIT */
/* Admission of paused requests (policy, ConVGPU): what waits, and what runs when resources free. */
#ifndef DOM0_ADMISSION_H
#define DOM0_ADMISSION_H

#include "dom0/vgpu_types.h"
#include "dom0/types.h"



/* ---- dom0/ only: the operations (dom0/ops.c) and the policies call these; mechanisms never do ---- */
struct vgpu;
/* Pause what of v does not fit: `want` says its kind and what it asks (slots, or the fence and its value). */
void dom0_pause(struct dom0_runtime *rt, struct vgpu *v, const struct vgpu_pause *want);
/* The paused expansion was asked over PVINFO, as request `seq`: answered when it runs. */
void dom0_pause_channel(struct vgpu *v, uint32_t seq);
/* Time v has spent paused, the current pause included. */
uint64_t dom0_paused_ms(const struct dom0_runtime *rt, const struct vgpu *v);
/* A pause that ends without running: the vGPU goes away, or its owner takes the request back. */
void dom0_pause_drop(struct dom0_runtime *rt, struct vgpu *v);
/* Take back what of v is paused (a request asked over PVINFO answered WITHDRAWN with its SEQ). */
void dom0_withdraw_now(struct dom0_runtime *rt, struct vgpu *v);
/*
 * The end of an operation that may have freed (destroy, reduce, a guest
 * fence write, a migration, a withdrawal): when a mechanism reported
 * dom0_freed, admission runs now. Returns rc, or admission's own error
 * when rc was GTT_OK.
 */
int dom0_op_done(struct dom0_runtime *rt, int rc, struct gtt_err *err);
/*
 * Whether paused request v's claim on a place r holds comes first in the
 * policy's order outside a release (FIFO: older created; RU: paused later;
 * BF: fewer slots short of its run, the older if equal; RAND: v is the
 * head). Compaction uses it to know which held places it may move into.
 */
bool dom0_outranks(const struct dom0_runtime *rt, const struct vgpu *v, const struct vgpu *r);
/*
 * The runtime's clock moved (a quantum): a paused expansion or fence write
 * past its deadline (config.admit_deadline_ms) that holds the queue is
 * refused, and admission runs for what waited behind it.
 */
int dom0_admission_tick(struct dom0_runtime *rt, struct gtt_err *err);

/* The table of places paused creates hold, for the layout, and its end (dom0/runtime.c). */
int dom0_admission_init(struct dom0_runtime *rt, struct gtt_err *err);
void dom0_admission_free(struct dom0_runtime *rt);
/* The place a paused create holds in slot s, if any, is given up (a move clears the slot for another). */
void dom0_place_give_up(struct dom0_runtime *rt, unsigned s);

#endif
