/* SPDX-License-Identifier: MIT */
/*
 * VOCL §III-D: when a migration starts, the proxy stops issuing the calls
 * it receives and keeps them in its internal queue; after the move they go
 * to the destination. Here the lock's queue holds the guest's writes (GTT
 * entries, fence registers, PVINFO words, bytes through the aperture) in
 * their order, bounded in entries and bytes so a guest cannot make the host
 * hold more while it waits; a read waits behind them (refused GTT_EBUSY
 * until the unlock), so the guest never reads around its own queued write.
 */
#include "dom0/migrate_queue.h"
#include "dom0/state_types.h"
#include "dom0/state.h"

bool dom0_queues(const struct dom0_runtime *rt, int id)
{
	return dom0_vgpu_exists(rt, id) && rt->v[id]->migration.migrating && !rt->v[id]->migration.move_target;
}

int dom0_queue_op(struct dom0_runtime *rt, struct vgpu *v, const struct dom0_queued *op, const void *bytes,
		  struct gtt_err *err)
{
	size_t len = op->kind == DOM0_Q_APERTURE ? op->a : 0;

	/* what does not depend on where the vGPU will be is judged now, as the trap would */
	if (op->kind == DOM0_Q_FENCE && op->a >= v->fences) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: fence id %u is beyond its %u fences", v->id, op->a, v->fences);
	}
	if (op->kind == DOM0_Q_PVINFO && (op->a % 4 || op->a >= VGT_PVINFO_SIZE)) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "PVINFO offset 0x%x: must be a multiple of 4 below 0x%x", op->a,
				   VGT_PVINFO_SIZE);
	}
	if (v->migration.q_n == DOM0_MIGRATE_QUEUE || len > DOM0_MIGRATE_QUEUE_BYTES - v->migration.q_bytes) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EBUSY,
				   "vGPU %d is migrating and its queue is full (%u writes, %zu of %u bytes): the write waits for the unlock",
				   v->id, v->migration.q_n, v->migration.q_bytes, DOM0_MIGRATE_QUEUE_BYTES);
	}
	if (!v->migration.q && !(v->migration.q = gtt_calloc(rt->env, DOM0_MIGRATE_QUEUE, sizeof(*v->migration.q))))
		return gtt_err_set(err, GTT_ENOMEM, "vGPU %d is migrating: out of memory for its queue", v->id);
	struct dom0_queued *e = &v->migration.q[v->migration.q_n];
	*e = *op;
	e->bytes = NULL;
	if (len) {
		if (!(e->bytes = rt->env->alloc(rt->env, len)))
			return gtt_err_set(err, GTT_ENOMEM, "vGPU %d is migrating: out of memory for a %zu-byte write", v->id, len);
		gtt_memcpy(e->bytes, bytes, len);
	}
	v->migration.q_n++;
	v->migration.q_bytes += len;
	v->c.queued++;
	return GTT_OK;
}

int dom0_queue_read_waits(struct dom0_runtime *rt, int id, struct gtt_err *err)
{
	if (!dom0_vgpu_exists(rt, id) || !rt->v[id]->migration.q_n)
		return GTT_OK;
	rt->v[id]->c.rejected++;
	return gtt_err_set(err, GTT_EBUSY, "vGPU %d is migrating: the read waits behind its %u queued writes until the unlock", id,
			   rt->v[id]->migration.q_n);
}

void dom0_queue_free(const struct gtt_env *env, struct dom0_queued *q, unsigned n)
{
	if (!q)
		return;
	for (unsigned i = 0; i < n; i++)
		if (q[i].bytes)
			env->free(env, q[i].bytes);
	env->free(env, q);
}

bool dom0_vgpu_locked(const struct vgpu *v)
{
	return v->migration.migrating;
}

void dom0_queue_drop(struct dom0_runtime *rt, struct vgpu *v)
{
	dom0_queue_free(rt->env, v->migration.q, v->migration.q_n);
	v->migration.q = NULL;
	v->migration.q_n = 0;
	v->migration.q_bytes = 0;
}
