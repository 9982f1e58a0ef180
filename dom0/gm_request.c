/* SPDX-License-Identifier: MIT */
/*
 * The graphics-memory request channel's answers (gBalloon Figure 3, step
 * 4, policy): pending requests served oldest first by the policy's class,
 * their status words and the new non-mappable base and size. The page's
 * read, write trap and answer words are dom0/pvinfo.c's.
 */
#include "dom0/admission.h"
#include "dom0/gm_request.h"
#include "dom0/migrate_queue.h"
#include "dom0/ops.h"
#include "dom0/policy.h"
#include "dom0/pvinfo.h"
#include "dom0/state_types.h"
#include "dom0/state.h"

static struct vgpu *oldest_pending(struct dom0_runtime *rt)
{
	struct vgpu *best = NULL;

	/* a migrating vGPU's request waits: it moves with the vGPU, or stays if the move rolls back */
	for (int i = 1; i <= rt->n_ids; i++)
		if (rt->v[i] && rt->v[i]->pv.req_arrival && !dom0_vgpu_locked(rt->v[i]) &&
		    (!best || rt->v[i]->pv.req_arrival < best->pv.req_arrival))
			best = rt->v[i];
	return best;
}

/* An expansion of q slots, if the policy approves it now. */
static uint32_t grow(struct dom0_runtime *rt, struct vgpu *v, unsigned q, struct gtt_err *err, int *rc)
{
	*rc = GTT_OK;
	if (!dom0_policy_approves(rt)) {
		rt->chan.refused_policy++;
		return GTTLAB_GM_ST_REFUSED_POLICY;
	}
	int r = dom0_expand(rt, v->id, q, NULL, NULL, err);
	if (r == GTT_EINVAL || r == GTT_EBUSY) {	/* Algorithm 1's refusal, or the share limit's: it does not fit */
		rt->chan.refused_room++;
		return GTTLAB_GM_ST_REFUSED_ROOM;
	}
	if (r) {
		*rc = r;
		return GTTLAB_GM_ST_PENDING;
	}
	if (dom0_pause_of(v).kind == DOM0_PAUSE_EXPAND)
		return GTTLAB_GM_ST_PAUSED;	/* admission answers it GRANTED when it runs */
	rt->chan.granted++;
	return GTTLAB_GM_ST_GRANTED;
}

static int answer(struct dom0_runtime *rt, struct vgpu *v, struct gtt_err *err)
{
	uint32_t code = v->pv.req_code, q = v->pv.req_count, seq = v->pv.req_seq;
	uint32_t st = GTTLAB_GM_ST_NOTED;
	int rc = GTT_OK;

	if (code == GTTLAB_GM_REQ_EXPAND) {
		st = grow(rt, v, q, err, &rc);
	} else if (code == GTTLAB_GM_REQ_REDUCE) {
		if (q > v->slots) {
			rt->chan.refused_room++;
			st = GTTLAB_GM_ST_REFUSED_ROOM;
		} else if (!(rc = dom0_reduce(rt, v->id, q, NULL, NULL, err))) {
			rt->chan.granted++;
			st = GTTLAB_GM_ST_GRANTED;
		}
	} else {
		/* gBalloon §3.1: objects evicted again means too little memory; a count that rose asks for more */
		bool rose = q > v->pv.evictions;
		v->pv.evictions = q;
		if (rose) {
			st = grow(rt, v, dom0_policy_state(rt)->p.evict_slots ? dom0_policy_state(rt)->p.evict_slots : 1, err, &rc);
			if (st == GTTLAB_GM_ST_GRANTED)
				rt->chan.evict_expansions++;
		} else {
			rt->chan.noted++;
		}
	}
	if (rc)
		return rc;	/* the runtime failed (not a refusal): the request stays pending */
	if (st == GTTLAB_GM_ST_PAUSED) {
		dom0_pause_channel(v, seq);
	}
	v->pv.req_arrival = 0;
	dom0_gm_answer(v, st, seq);
	return GTT_OK;
}

int dom0_serve_requests(struct dom0_runtime *rt, unsigned *answered, struct gtt_err *err)
{
	unsigned n = 0;
	struct vgpu *v;
	int rc = GTT_OK;

	while ((v = oldest_pending(rt)) && !(rc = answer(rt, v, err)))
		n++;
	if (answered)
		*answered = n;
	return rc;
}
