/* SPDX-License-Identifier: MIT */
/*
 * The runtime's operations that can wait or free: each runs its mechanism
 * (dom0/vgpu.c, slots.c, fence_pool.c) and then lets admission decide. What
 * does not fit is paused here, never inside a mechanism; what a mechanism
 * freed (it says so with dom0_freed) goes to admission only once the
 * operation has completed (dom0_op_done), so no admission runs inside an
 * operation half done and none re-enters itself.
 */
#include "dom0/faults.h"
#include "dom0/admission.h"
#include "dom0/fence_pool.h"
#include "dom0/migrate_queue.h"
#include "dom0/ops.h"
#include "dom0/pvinfo.h"
#include "dom0/runtime.h"
#include "dom0/state_types.h"
#include "dom0/slots.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"

int dom0_vgpu_create(struct dom0_runtime *rt, const struct dom0_vgpu_params *p, int *id, struct gtt_err *err)
{
	struct vgpu *v;
	int rc;

	if ((rc = dom0_vgpu_new(rt, p, &v, err)))
		return rc;
	/* while requests wait, a new one queues behind them: what frees is theirs */
	rc = dom0_admission_on(rt) && dom0_paused_count(rt) ? GTT_EBUSY :
		dom0_place_now(rt, v, p->high_slots, p->place ? (int)p->at_slot : -1, err);
	if (rc == GTT_EBUSY && dom0_admission_on(rt)) {
		dom0_pause(rt, v, &(struct vgpu_pause){ .kind = DOM0_PAUSE_CREATE, .slots = p->high_slots });
	} else if (rc) {
		bool freed = dom0_freed_take(rt);
		dom0_vgpu_remove(rt, v);	/* it held nothing yet: nothing freed for anyone */
		dom0_freed_keep(rt, freed);
		return rc;
	}
	dom0_pvinfo_fill(rt, v);
	*id = v->id;
	return GTT_OK;
}

int dom0_vgpu_destroy(struct dom0_runtime *rt, int id, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	if (dom0_vgpu_locked(v))
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d is migrating: it is destroyed after the migration unlocks it", id);
	if (dom0_pause_of(v).kind)
		dom0_pause_drop(rt, v);		/* its place in the queue goes with it */
	dom0_vgpu_remove(rt, v);
	return dom0_op_done(rt, GTT_OK, err);
}

int dom0_expand(struct dom0_runtime *rt, int id, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);
	int rc;

	if (!v)
		return GTT_EINVAL;
	if (left)
		*left = 0;
	if (right)
		*right = 0;
	if (dom0_vgpu_locked(v))
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d is migrating: its high range is resized after the migration unlocks it", id);
	if (dom0_pause_of(v).kind)
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: its %s is paused, waiting for admission; one request at a time",
				   id, dom0_pause_name(dom0_pause_of(v).kind));
	if ((rc = dom0_expand_check(rt, v, q, err)))
		return rc;	/* it could never fit: refused at once, with or without admission */
	/* while requests wait, a new one queues behind them: what frees is theirs */
	if (dom0_admission_on(rt) && dom0_paused_count(rt))
		rc = GTT_EBUSY;
	else
		rc = dom0_expand_now(rt, v, q, left, right, err);
	if (rc != GTT_EBUSY || !dom0_admission_on(rt))
		return rc;
	dom0_pause(rt, v, &(struct vgpu_pause){ .kind = DOM0_PAUSE_EXPAND, .slots = q });
	return GTT_OK;
}

int dom0_reduce(struct dom0_runtime *rt, int id, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	if (dom0_vgpu_locked(v))
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d is migrating: its high range is resized after the migration unlocks it", id);
	return dom0_op_done(rt, dom0_reduce_now(rt, v, q, left, right, err), err);
}

/* A paused write of the same fence is the guest's to take back: the new write replaces it. */
static int take_back_fence(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, struct gtt_err *err)
{
	if (dom0_pause_of(v).kind != DOM0_PAUSE_FENCE)
		return GTT_OK;
	if (dom0_pause_of(v).fence != fence) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: its write of fence %u is paused, waiting for admission; one at a time",
				   v->id, dom0_pause_of(v).fence);
	}
	dom0_withdraw_now(rt, v);
	return GTT_OK;
}

int dom0_guest_fence_write(struct dom0_runtime *rt, int id, unsigned fence, uint64_t val, struct gtt_err *err)
{
	if (dom0_queues(rt, id)) {
		struct dom0_queued op = { .kind = DOM0_Q_FENCE, .a = fence, .val = val };
		return dom0_queue_op(rt, rt->v[id], &op, NULL, err);
	}
	struct vgpu *v = dom0_guest_vgpu(rt, id, err);
	uint64_t pages;
	int rc;

	if (!v)
		return dom0_no_guest(rt, id);
	if (fence >= v->fences && v->fences && DOM0_FAULT(rt, honour_high_fence))
		fence %= v->fences;
	if (fence >= v->fences) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: fence id %u is beyond its %u fences", id, fence, v->fences);
	}
	if ((rc = take_back_fence(rt, v, fence, err)) || (rc = dom0_fence_check(rt, v, fence, val, &pages, err)))
		return dom0_op_done(rt, rc, err);
	if (!pages) {
		dom0_fence_off(rt, v, fence, val);
		return dom0_op_done(rt, GTT_OK, err);
	}
	/*
	 * admission: a fence that does not fit, or any while requests wait, is
	 * paused; one that cannot fit the pool beside the vGPU's own other fences
	 * (which it cannot turn off while the write waits) never fits, and is
	 * refused at once (dom0_fence_now says why) instead of holding the queue
	 * forever
	 */
	if (dom0_admission_on(rt) && !dom0_pause_of(v).kind && pages + dom0_pool_pages_held(v, fence) <= dom0_pool_pages(rt) &&
	    (dom0_paused_count(rt) || !dom0_pool_fits(rt, v, fence, pages))) {
		dom0_pause(rt, v, &(struct vgpu_pause){ .kind = DOM0_PAUSE_FENCE, .fence = fence, .val = val });
		return dom0_op_done(rt, GTT_OK, err);
	}
	return dom0_op_done(rt, dom0_fence_now(rt, v, fence, val, err), err);
}

int dom0_withdraw(struct dom0_runtime *rt, int id, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	if (dom0_pause_of(v).kind == DOM0_PAUSE_NONE)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: nothing of it is paused, there is nothing to withdraw", id);
	if (dom0_pause_of(v).kind == DOM0_PAUSE_CREATE)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: its create is paused; a create is taken back by destroying the vGPU", id);
	dom0_withdraw_now(rt, v);
	return dom0_op_done(rt, GTT_OK, err);
}

/* The guest's write of a PVINFO word: queued behind a migration's lock, else trapped; a withdrawal of a paused request acted on. */
int dom0_pvinfo_write(struct dom0_runtime *rt, int id, uint32_t off, uint32_t val, struct gtt_err *err)
{
	if (dom0_queues(rt, id)) {
		struct dom0_queued op = { .kind = DOM0_Q_PVINFO, .a = off, .val = val };
		return dom0_queue_op(rt, rt->v[id], &op, NULL, err);
	}
	bool withdraw_paused = false;
	int rc = dom0_pvinfo_trap(rt, id, off, val, &withdraw_paused, err);

	if (!rc && withdraw_paused)
		rc = dom0_withdraw(rt, id, err);	/* answers it WITHDRAWN; what waited behind it may run */
	return rc;
}

int dom0_fini(struct dom0_runtime *rt, struct gtt_err *err)
{
	if (!rt)
		return GTT_OK;
	dom0_admission_off(rt);	/* going away: nothing paused is admitted on the way */
	for (int id = 1; id <= rt->n_ids; id++)
		if (rt->v[id])
			dom0_vgpu_remove(rt, rt->v[id]);
	return dom0_runtime_end(rt, err);
}
