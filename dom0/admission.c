/* SPDX-License-Identifier: MIT */
/*
 * Admission of paused requests (ConVGPU §III-C): what does not fit is paused
 * instead of refused, and every release lets a policy pick the paused
 * request that memory goes to next. Resources are the three a vGPU holds
 * alone: places in slots under the share limit (a create's run of slots, an
 * expansion's new slots), guest fence registers (reserved at create while
 * admission is on) and pages of the fence memory space pool (a guest fence's
 * range).
 *
 * ConVGPU assigns freed memory to the chosen container until it holds what
 * it asked for. Slots are places, not amounts, so here the chosen request
 * (the head) keeps what frees by holding the queue: no other paused request
 * runs and new ones pause behind it, until all it asked for fits at once.
 * FIFO, RU and RAND keep their head until it runs; BF chooses again at every
 * release, as its closest fit changes with what freed (the starvation
 * ConVGPU §IV reports for it comes from there).
 */
#include "dom0/admission.h"
#include "dom0/fence_pool.h"
#include "dom0/phys.h"
#include "dom0/pvinfo.h"
#include "dom0/runtime_internal.h"
#include "dom0/slots.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "hw/fence.h"

void dom0_pause(struct dom0_runtime *rt, struct vgpu *v, enum dom0_pause kind)
{
	v->pause.kind = kind;
	v->pause.since_ms = rt->sim_ms;
	v->pause.order = ++rt->pause_orders;
	rt->n_paused++;
	rt->c.paused++;
}

static void unpause(struct dom0_runtime *rt, struct vgpu *v, bool admitted)
{
	if (admitted) {
		v->paused_ms += rt->sim_ms - v->pause.since_ms;
		rt->c.paused_ms += rt->sim_ms - v->pause.since_ms;
		rt->c.admitted++;
	}
	if (rt->admit_head == v->id)
		rt->admit_head = 0;
	v->pause = (struct vgpu_pause){ 0 };
	rt->n_paused--;
}

void dom0_pause_drop(struct dom0_runtime *rt, struct vgpu *v)
{
	unpause(rt, v, false);
}

/* Whether every expansion split of v by q (the selector's or another) fits now. */
static bool expand_fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned q)
{
	if ((uint64_t)v->slots + q > rt->lay.num_slots)
		return false;
	for (unsigned l = 0; l <= q; l++)
		if (l <= v->first_slot && v->first_slot + v->slots + (q - l) <= rt->lay.num_slots &&
		    dom0_sides_fit(rt, v, l, q - l))
			return true;
	return false;
}

static uint64_t fence_pages(const struct dom0_runtime *rt, const struct vgpu *v)
{
	struct hw_fence f;

	hw_fence_decode(rt->dev->info.plat, v->pause.val, &f);
	return f.size / 4096;
}

/* Whether all the paused request asks for is free now. */
static bool fits(const struct dom0_runtime *rt, const struct vgpu *v)
{
	switch (v->pause.kind) {
	case DOM0_PAUSE_CREATE:
		return dom0_place_slots(rt, v->pause.slots) >= 0 &&
		       rt->fences_reserved + v->fences <= rt->lay.guest_fences;
	case DOM0_PAUSE_EXPAND:
		return expand_fits(rt, v, v->pause.slots);
	case DOM0_PAUSE_FENCE:
		return dom0_pool_fits(rt, v, v->pause.fence, fence_pages(rt, v));
	default:
		return false;
	}
}

/* What it asks for in bytes of graphics memory (BF's sizes), and what of that kind is free. */
static void need_free(const struct dom0_runtime *rt, const struct vgpu *v, uint64_t *need, uint64_t *free)
{
	uint64_t slot_room = 0;

	if (v->pause.kind == DOM0_PAUSE_FENCE) {
		uint64_t used = 0;
		for (uint64_t i = 0; i < rt->pool_pages; i++)
			used += rt->pool_map[i] != 0;
		*need = fence_pages(rt, v) * 4096;
		*free = (rt->pool_pages - used) * 4096;
		return;
	}
	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		slot_room += rt->cfg.share_limit ?
			(rt->slot_occ[s] < rt->cfg.share_limit ? rt->cfg.share_limit - rt->slot_occ[s] : 0) : 1;
	*need = (uint64_t)v->pause.slots * rt->lay.slot_size;
	*free = slot_room * rt->lay.slot_size;
}

static uint64_t next_rand(struct dom0_runtime *rt)
{
	/* xorshift64*, seeded from the config's seed (never 0) */
	uint64_t x = rt->rand_state ? rt->rand_state : (rt->cfg.seed ^ 0x9e3779b97f4a7c15ull) | 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rt->rand_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static struct vgpu *choose(struct dom0_runtime *rt)
{
	struct vgpu *best = NULL;
	uint64_t best_need = 0, best_short = 0;
	bool best_fits = false;
	unsigned n = 0, pick = 0;
	enum dom0_admission a = rt->cfg.admission;

	if (a == DOM0_ADMIT_FIFO && rt->cfg.faults.admit_newest)
		a = DOM0_ADMIT_RU;
	if (a == DOM0_ADMIT_RAND)
		pick = (unsigned)(next_rand(rt) % rt->n_paused);
	for (int i = 1; i <= rt->n_ids; i++) {
		struct vgpu *v = rt->v[i];
		if (!v || !v->pause.kind)
			continue;
		switch (a) {
		case DOM0_ADMIT_FIFO:
			if (!best || v->pause.order < best->pause.order)
				best = v;
			break;
		case DOM0_ADMIT_RU:
			if (!best || v->pause.order > best->pause.order)
				best = v;
			break;
		case DOM0_ADMIT_RAND:
			if (n++ == pick)
				best = v;
			break;
		case DOM0_ADMIT_BF: {
			/* the largest that fits (closest to the free memory without exceeding it), else the least short */
			uint64_t need, free;
			bool f = fits(rt, v);
			need_free(rt, v, &need, &free);
			uint64_t sh = need > free ? need - free : 0;
			if (!best || (f && !best_fits) ||
			    (f == best_fits && (f ? need > best_need : sh < best_short)) ||
			    (f == best_fits && (f ? need == best_need : sh == best_short) && v->pause.order < best->pause.order)) {
				best = v;
				best_fits = f;
				best_need = need;
				best_short = sh;
			}
			break;
		}
		default:
			break;
		}
	}
	return best;
}

/* Run what the paused request asked for. */
static int run(struct dom0_runtime *rt, struct vgpu *v, struct gtt_err *err)
{
	struct vgpu_pause p = v->pause;
	int rc;

	switch (p.kind) {
	case DOM0_PAUSE_CREATE:
		rc = dom0_place_now(rt, v, p.slots, -1, err);
		break;
	case DOM0_PAUSE_EXPAND:
		rc = dom0_expand_now(rt, v, p.slots, NULL, NULL, err);
		if (!rc && p.channel) {
			rt->pol.granted++;
			dom0_gm_answer(v, GTTLAB_GM_ST_GRANTED, p.seq);
		}
		break;
	case DOM0_PAUSE_FENCE:
		rc = dom0_fence_now(rt, v, p.fence, p.val, err);	/* the guest's write, as it made it */
		break;
	default:
		rc = GTT_EINVAL;
	}
	return rc;
}

/*
 * Let the policy admit what now fits. Runs only from dom0_op_done, after the
 * operation that freed has completed; the runs it makes (dom0_place_now,
 * dom0_expand_now, dom0_fence_now) are mechanisms that report what they free
 * and never call back here, so this loop is never re-entered.
 */
static int admit(struct dom0_runtime *rt, struct gtt_err *err)
{
	while (rt->n_paused) {
		struct vgpu *h = rt->admit_head && rt->cfg.admission != DOM0_ADMIT_BF ? rt->v[rt->admit_head] : NULL;
		if (!h || !h->pause.kind) {
			if (!(h = choose(rt)))
				return GTT_OK;
			rt->admit_head = h->id;
		}
		if (!fits(rt, h) && !rt->cfg.faults.admit_short)
			return GTT_OK;	/* it keeps what freed: nothing else runs before it */
		rt->admitting = true;
		int rc = run(rt, h, err);
		rt->admitting = false;
		if (rc && rt->cfg.faults.admit_short)
			return GTT_OK;
		if (rc)
			return rc;
		unpause(rt, h, true);
	}
	return GTT_OK;
}

int dom0_op_done(struct dom0_runtime *rt, int rc, struct gtt_err *err)
{
	if (!rt->freed || rt->in_admit)
		return rc;
	rt->freed = false;
	if (!dom0_admission_on(rt))
		return rc;
	rt->in_admit = true;
	int arc = admit(rt, rc ? NULL : err);
	rt->in_admit = false;
	rt->freed = false;	/* what its own runs freed, its loop has seen */
	return rc ? rc : arc;
}

void dom0_withdraw_now(struct dom0_runtime *rt, struct vgpu *v)
{
	if (v->pause.channel)
		dom0_gm_answer(v, GTTLAB_GM_ST_WITHDRAWN, v->pause.seq);
	unpause(rt, v, false);
	v->c.withdrawn++;
	/* the head may be what left: what waited behind it may fit now */
	dom0_freed(rt);
}
