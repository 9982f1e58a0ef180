/* SPDX-License-Identifier: MIT */
/*
 * The queue of a migration's lock (mechanism, VOCL §III-D): while a vGPU is
 * locked, its guest's writes are queued instead of run, and its reads wait
 * behind them; dom0/migrate.c forwards the queue at the unlock.
 */
#ifndef DOM0_MIGRATE_QUEUE_H
#define DOM0_MIGRATE_QUEUE_H

#include "dom0/migrate_types.h"
#include "dom0/types.h"

/* ---- dom0/ only ---- */
struct vgpu;
struct dom0_queued;
/* Whether a guest write to vGPU id is queued now: it exists and a migration locks it (not as a move's target). */
bool dom0_queues(const struct dom0_runtime *rt, int id);
/* Queue a guest write (bytes: an aperture write's a bytes, copied). GTT_EBUSY naming the bound when full. */
int dom0_queue_op(struct dom0_runtime *rt, struct vgpu *v, const struct dom0_queued *op, const void *bytes,
		  struct gtt_err *err);
/* A guest read of vGPU id: GTT_EBUSY when writes of its are queued (it waits behind them), else GTT_OK. */
int dom0_queue_read_waits(struct dom0_runtime *rt, int id, struct gtt_err *err);
/* Whether a migration locks v (its guest writes are queued, its reads wait). */
bool dom0_vgpu_locked(const struct vgpu *v);
/* Free v's queue (a vGPU that goes). */
void dom0_queue_drop(struct dom0_runtime *rt, struct vgpu *v);
/* Free a queue (its entries' data and the array) with the env that made it. */
void dom0_queue_free(const struct gtt_env *env, struct dom0_queued *q, unsigned n);

#endif
