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
 * ConVGPU assigns freed memory to the chosen container as it frees, until it
 * holds what it asked for, and what remains to the next choice (its Figure
 * 3d). Slots are places, not amounts, and a create needs a run of them: so
 * at every release the policy's choices are taken in its order, and each
 * create holds the places of the run of slots where it has most, free or
 * held by a request the policy ranks after it this time (dom0_slot_room
 * counts held places as taken for anyone else). It runs there once its run
 * is whole; what it cannot use goes on to the next choice (so a later
 * request runs first only on places no earlier choice could use, and the
 * first choice always gets its run once what runs there ends). A paused
 * expansion or fence write holds the queue instead: nothing else runs until
 * it fits. New requests pause while any request waits, and are considered
 * from the next release.
 * RU and RAND keep their head until it runs. FIFO is the oldest *created*,
 * a total order, so its first choice is always the oldest waiting: a paused
 * expansion or fence write ranks by its vGPU's creation, as a container's
 * later allocations are the container's. RU is the most recently paused.
 * BF chooses again at every release, as its closest fit changes with what
 * freed; held places pass only towards the request nearest to its run, so
 * what its earlier choices hold stays theirs against requests further off
 * (the starvation ConVGPU §IV reports for BF comes from there).
 */
#include "dom0/faults.h"
#include "dom0/admission.h"
#include "dom0/fence_pool.h"
#include "dom0/phys.h"
#include "dom0/pvinfo.h"
#include "dom0/state_types.h"
#include "dom0/slots.h"
#include "dom0/slots_runs.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "hw/fence.h"

void dom0_pause(struct dom0_runtime *rt, struct vgpu *v, const struct vgpu_pause *want)
{
	v->adm.pause = *want;
	v->adm.pause.since_ms = dom0_sim_time_ms(rt);
	v->adm.pause.order = ++rt->adm.pause_orders;
	rt->adm.n_paused++;
	rt->c.paused++;
}

/* Give back every place v holds for its paused create. */
static void release_places(struct dom0_runtime *rt, struct vgpu *v)
{
	for (unsigned s = 0; v->held_places && s < rt->lay.num_slots; s++)
		if (rt->slot_resv[s] == v->id) {
			rt->slot_resv[s] = 0;
			v->held_places--;
		}
}

static void unpause(struct dom0_runtime *rt, struct vgpu *v, bool admitted)
{
	release_places(rt, v);
	if (admitted) {
		v->adm.paused_ms += dom0_sim_time_ms(rt) - v->adm.pause.since_ms;
		rt->c.paused_ms += dom0_sim_time_ms(rt) - v->adm.pause.since_ms;
		rt->c.admitted++;
	}
	if (rt->adm.admit_head == v->id)
		rt->adm.admit_head = 0;
	v->adm.pause = (struct vgpu_pause){ 0 };
	rt->adm.n_paused--;
}

void dom0_pause_drop(struct dom0_runtime *rt, struct vgpu *v)
{
	unpause(rt, v, false);
}

/* Whether every expansion split of v by q (the selector's or another) fits now. */
static bool expand_fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned q)
{
	bool set[DOM0_MAX_SLOTS];

	if ((uint64_t)v->slots + q > rt->lay.num_slots)
		return false;
	if (dom0_runs_on(rt))
		return !dom0_runs_choose(rt, v, DOM0_RUNS_GROW, q, NULL, set, NULL);
	for (unsigned l = 0; l <= q; l++)
		if (l <= v->first_slot && v->first_slot + v->slots + (q - l) <= rt->lay.num_slots &&
		    dom0_sides_fit(rt, v, l, q - l))
			return true;
	return false;
}

static uint64_t fence_pages(const struct dom0_runtime *rt, const struct vgpu *v)
{
	struct hw_fence f;

	hw_fence_decode(rt->dev->info.plat, v->adm.pause.val, &f);
	return f.size / 4096;
}

bool dom0_outranks(const struct dom0_runtime *rt, const struct vgpu *v, const struct vgpu *r)
{
	switch (rt->cfg.admission) {
	case DOM0_ADMIT_FIFO:
		return v->created < r->created;
	case DOM0_ADMIT_RU:
		return v->adm.pause.order > r->adm.pause.order;
	case DOM0_ADMIT_BF: {
		unsigned sv = v->adm.pause.slots - v->held_places, sr = r->adm.pause.slots - r->held_places;
		return sr > sv || (sr == sv && r->created > v->created);
	}
	default:
		return v->id == rt->adm.admit_head && r->id != v->id;
	}
}

/*
 * Whether v may take a place r holds during this release. FIFO, RU, RAND:
 * r was not taken before v this round (the head, taken first, may take
 * any). BF: dom0_outranks (r is further from its run than v), so held
 * places pass only towards the request nearest to running, as ConVGPU's
 * assigned memory is never taken back from the least short. Either is a
 * strict order: no two requests wait on each other's places.
 */
static bool may_take(const struct dom0_runtime *rt, const struct vgpu *v, const struct vgpu *r, unsigned round)
{
	return rt->cfg.admission == DOM0_ADMIT_BF ? dom0_outranks(rt, v, r) : r->adm.admit_round != round;
}

/* A place in slot s for v in this round: free, its own, or one it may take. */
static bool room(const struct dom0_runtime *rt, unsigned s, const struct vgpu *v, unsigned round)
{
	unsigned lim = rt->cfg.share_limit, held = rt->slot_occ[s];
	int r = rt->slot_resv[s];

	if (!lim)
		return true;
	if (r && r != v->id && rt->v[r] && !may_take(rt, v, rt->v[r], round) && !DOM0_FAULT(rt, admit_ignore_held))
		held++;
	return held < lim;
}

/*
 * The run of S slots with most places for v this round; among equals the
 * one with most of the places it holds already (what it was given stays
 * its own), then the least shared, then the lowest; *have: its places; -1:
 * S > slots.
 */
static int best_run(const struct dom0_runtime *rt, const struct vgpu *v, unsigned S, unsigned round, unsigned *have)
{
	unsigned M = rt->lay.num_slots, h = 0, best_h = 0, own = 0, best_own = 0;
	unsigned long occ = 0, best_occ = 0;
	int best = -1;

	*have = 0;
	if (!S || S > M)
		return -1;
	for (unsigned s = 0; s < M; s++) {
		h += room(rt, s, v, round);
		own += rt->slot_resv[s] == v->id;
		occ += rt->slot_occ[s];
		if (s >= S) {
			h -= room(rt, s - S, v, round);
			own -= rt->slot_resv[s - S] == v->id;
			occ -= rt->slot_occ[s - S];
		}
		if (s + 1 >= S && (best < 0 || h > best_h || (h == best_h && own > best_own) ||
				   (h == best_h && own == best_own && occ < best_occ))) {
			best = (int)(s + 1 - S);
			best_h = h;
			best_own = own;
			best_occ = occ;
		}
	}
	*have = best_h;
	return best;
}

/*
 * Non-contiguous slots: the most places for v this round (n of them, at
 * most its S) that fit cfg.slot_runs runs, its own held ones first; *n 0:
 * none.
 */
static void best_set(const struct dom0_runtime *rt, const struct vgpu *v, unsigned round, bool *set, unsigned *n)
{
	bool ok[DOM0_MAX_SLOTS];
	unsigned k = 0;

	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		k += ok[s] = room(rt, s, v, round);
	for (*n = k < v->adm.pause.slots ? k : v->adm.pause.slots; *n; --*n)
		if (!dom0_runs_choose(rt, v, DOM0_RUNS_PLACE, *n, ok, set, NULL))
			return;
}

/*
 * Hold the places of set[] (those with room for v), then give back what it
 * held outside: in that order, as BF's ranking counts the places held.
 */
static void hold_set(struct dom0_runtime *rt, struct vgpu *v, unsigned round, const bool *set)
{
	for (unsigned s = 0; s < rt->lay.num_slots; s++) {
		int r = rt->slot_resv[s];
		if (!set[s] || r == v->id || !room(rt, s, v, round))
			continue;
		if (r && rt->v[r])
			rt->v[r]->held_places--;
		rt->slot_resv[s] = v->id;
		v->held_places++;
	}
	/* what it held outside goes back, for the choices after it */
	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		if (!set[s] && rt->slot_resv[s] == v->id) {
			rt->slot_resv[s] = 0;
			v->held_places--;
		}
}

/* A chosen create holds the places of its best run: its own until it runs or leaves, or one ranked before takes them. */
static void hold_places(struct dom0_runtime *rt, struct vgpu *v, unsigned round)
{
	bool set[DOM0_MAX_SLOTS];
	unsigned have, S = v->adm.pause.slots;

	if (dom0_runs_on(rt)) {
		best_set(rt, v, round, set, &have);
		if (have)
			hold_set(rt, v, round, set);
		return;
	}
	int p = best_run(rt, v, S, round, &have);
	if (p < 0)
		return;
	v->held_first = (unsigned)p;
	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		set[s] = s >= (unsigned)p && s < (unsigned)p + S;
	hold_set(rt, v, round, set);
}

/* An expansion or fence write taken now outranks the creates not yet taken: what they hold is free for it. */
static void release_untaken(struct dom0_runtime *rt, unsigned round)
{
	for (unsigned s = 0; s < rt->lay.num_slots; s++) {
		struct vgpu *r = rt->slot_resv[s] ? rt->v[rt->slot_resv[s]] : NULL;
		if (r && r->adm.admit_round != round) {
			rt->slot_resv[s] = 0;
			r->held_places--;
		}
	}
}

static bool holds_places(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return v->adm.pause.kind == DOM0_PAUSE_CREATE && rt->cfg.share_limit;
}

/* Whether all the paused request asks for is free now (its held places included). */
static bool fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned round)
{
	unsigned have;

	switch (v->adm.pause.kind) {
	case DOM0_PAUSE_CREATE:
		if (dom0_fences_reserved(rt) + v->fences > rt->lay.guest_fences)
			return false;
		if (dom0_runs_on(rt)) {
			bool set[DOM0_MAX_SLOTS];
			best_set(rt, v, round, set, &have);
			return have == v->adm.pause.slots;
		}
		if (!rt->cfg.share_limit)
			return dom0_place_slots(rt, v->adm.pause.slots) >= 0;
		return best_run(rt, v, v->adm.pause.slots, round, &have) >= 0 && have == v->adm.pause.slots;
	case DOM0_PAUSE_EXPAND:
		return expand_fits(rt, v, v->adm.pause.slots);
	case DOM0_PAUSE_FENCE:
		return dom0_pool_fits(rt, v, v->adm.pause.fence, fence_pages(rt, v));
	default:
		return false;
	}
}

/* What it asks for in bytes of graphics memory (BF's sizes), and what of that kind is free. */
static void need_free(const struct dom0_runtime *rt, const struct vgpu *v, unsigned round, uint64_t *need,
		      uint64_t *free)
{
	uint64_t slot_room = 0;

	if (v->adm.pause.kind == DOM0_PAUSE_FENCE) {
		*need = fence_pages(rt, v) * 4096;
		*free = dom0_pool_free_pages(rt) * 4096;
		return;
	}
	if (holds_places(rt, v)) {
		unsigned have;
		bool set[DOM0_MAX_SLOTS];
		if (dom0_runs_on(rt))
			best_set(rt, v, round, set, &have);
		else
			best_run(rt, v, v->adm.pause.slots, round, &have);
		slot_room = have;	/* what it can use: its best run's (or set's) places */
	} else {
		for (unsigned s = 0; s < rt->lay.num_slots; s++) {
			unsigned held = rt->slot_occ[s] + (rt->slot_resv[s] && rt->slot_resv[s] != v->id);
			slot_room += rt->cfg.share_limit ? (held < rt->cfg.share_limit ? rt->cfg.share_limit - held : 0) : 1;
		}
	}
	*need = (uint64_t)v->adm.pause.slots * rt->lay.slot_size;
	*free = slot_room * rt->lay.slot_size;
}

static uint64_t next_rand(struct dom0_runtime *rt)
{
	/* xorshift64*, seeded from the config's seed (never 0) */
	uint64_t x = rt->adm.rand_state ? rt->adm.rand_state : (rt->cfg.seed ^ 0x9e3779b97f4a7c15ull) | 1;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rt->adm.rand_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Paused and not yet found short in this admission round. */
static bool candidate(const struct vgpu *v, unsigned round)
{
	return v && v->adm.pause.kind && v->adm.admit_round != round;
}

/* The policy's choice among the candidates of this round; NULL none. */
static struct vgpu *choose(struct dom0_runtime *rt, unsigned round)
{
	struct vgpu *best = NULL;
	uint64_t best_need = 0, best_short = 0;
	bool best_fits = false;
	unsigned n = 0, pick = 0;
	enum dom0_admission a = rt->cfg.admission;

	if (a == DOM0_ADMIT_FIFO && DOM0_FAULT(rt, admit_newest))
		a = DOM0_ADMIT_RU;
	if (a == DOM0_ADMIT_RAND) {
		for (int i = 1; i <= rt->n_ids; i++)
			n += candidate(rt->v[i], round);
		if (!n)
			return NULL;
		pick = (unsigned)(next_rand(rt) % n);
		n = 0;
	}
	for (int i = 1; i <= rt->n_ids; i++) {
		struct vgpu *v = rt->v[i];
		if (!candidate(v, round))
			continue;
		switch (a) {
		case DOM0_ADMIT_FIFO:
			if (!best || v->created < best->created)
				best = v;
			break;
		case DOM0_ADMIT_RU:
			if (!best || v->adm.pause.order > best->adm.pause.order)
				best = v;
			break;
		case DOM0_ADMIT_RAND:
			if (n++ == pick)
				best = v;
			break;
		case DOM0_ADMIT_BF: {
			/* the largest that fits (closest to the free memory without exceeding it), else the least short */
			uint64_t need, free;
			bool f = fits(rt, v, round);
			need_free(rt, v, round, &need, &free);
			uint64_t sh = need > free ? need - free : 0;
			if (!best || (f && !best_fits) ||
			    (f == best_fits && (f ? need > best_need : sh < best_short)) ||
			    (f == best_fits && (f ? need == best_need : sh == best_short) && v->adm.pause.order < best->adm.pause.order)) {
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
	struct vgpu_pause p = v->adm.pause;
	int rc;

	switch (p.kind) {
	case DOM0_PAUSE_CREATE: {
		rc = dom0_place_now(rt, v, p.slots, holds_places(rt, v) && !dom0_runs_on(rt) ? (int)v->held_first : -1, err);
		break;
	}
	case DOM0_PAUSE_EXPAND:
		rc = dom0_expand_now(rt, v, p.slots, NULL, NULL, err);
		if (!rc && p.channel) {
			rt->chan.granted++;
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
/* Whether the policy's first choice keeps its turn until it runs (RU, RAND) or is chosen afresh each time. */
static bool keeps_head(const struct dom0_runtime *rt)
{
	return rt->cfg.admission == DOM0_ADMIT_RU || rt->cfg.admission == DOM0_ADMIT_RAND;
}

/* The head keeps its turn until taken this round; then the policy's next choice. */
static struct vgpu *next_choice(struct dom0_runtime *rt, unsigned round)
{
	struct vgpu *h = rt->adm.admit_head ? rt->v[rt->adm.admit_head] : NULL;

	if (keeps_head(rt) && candidate(h, round))
		return h;
	h = choose(rt, round);
	if (h && !rt->adm.admit_head && keeps_head(rt))
		rt->adm.admit_head = h->id;
	return h;
}

static uint64_t deadline_ms(const struct dom0_runtime *rt)
{
	return rt->cfg.admit_deadline_ms ? rt->cfg.admit_deadline_ms : DOM0_ADMIT_DEADLINE_MS;
}

/*
 * A paused expansion or fence write that holds the queue and still does not
 * fit after the deadline is refused with its own answer (REFUSED_ROOM over
 * the channel; a fence write is not made, the fence keeps its value); what
 * waited behind it is considered next. Whether it was.
 */
static bool expire(struct dom0_runtime *rt, struct vgpu *v)
{
	if (v->adm.pause.kind == DOM0_PAUSE_CREATE || dom0_sim_time_ms(rt) - v->adm.pause.since_ms < deadline_ms(rt))
		return false;
	if (v->adm.pause.channel) {
		rt->chan.refused_room++;
		dom0_gm_answer(v, GTTLAB_GM_ST_REFUSED_ROOM, v->adm.pause.seq);
	}
	unpause(rt, v, false);
	v->c.rejected++;
	v->c.expired++;
	rt->c.expired++;
	return true;
}

static int admit(struct dom0_runtime *rt, struct gtt_err *err)
{
	unsigned round = ++rt->adm.admit_rounds;

	while (rt->adm.n_paused) {
		struct vgpu *h = next_choice(rt, round);
		if (!h)
			return GTT_OK;
		bool ok;
		if (holds_places(rt, h)) {
			hold_places(rt, h, round);
			ok = h->held_places == h->adm.pause.slots && dom0_fences_reserved(rt) + h->fences <= rt->lay.guest_fences;
		} else {
			release_untaken(rt, round);
			ok = fits(rt, h, round);
		}
		h->adm.admit_round = round;	/* taken this round: what it holds, later choices leave to it */
		if (!ok && !DOM0_FAULT(rt, admit_short)) {
			if (!holds_places(rt, h) && !expire(rt, h))
				return GTT_OK;	/* an expansion or fence write: nothing else runs before it, until its deadline */
			continue;	/* it keeps its places (a create), or went at its deadline; the next choice may use what it cannot */
		}
		rt->adm.admitting = true;
		int rc = run(rt, h, err);
		rt->adm.admitting = false;
		if (rc && DOM0_FAULT(rt, admit_short))
			return GTT_OK;
		if (rc)
			return rc;
		unpause(rt, h, true);
	}
	return GTT_OK;
}

int dom0_op_done(struct dom0_runtime *rt, int rc, struct gtt_err *err)
{
	if (rt->adm.in_admit || !dom0_freed_take(rt))
		return rc;
	if (!dom0_admission_on(rt))
		return rc;
	rt->adm.in_admit = true;
	int arc = admit(rt, rc ? NULL : err);
	rt->adm.in_admit = false;
	dom0_freed_take(rt);	/* what its own runs freed, its loop has seen */
	return rc ? rc : arc;
}

int dom0_admission_tick(struct dom0_runtime *rt, struct gtt_err *err)
{
	for (int i = 1; rt->adm.n_paused && i <= rt->n_ids; i++) {
		const struct vgpu *v = rt->v[i];
		if (v && v->adm.pause.kind && v->adm.pause.kind != DOM0_PAUSE_CREATE && dom0_sim_time_ms(rt) - v->adm.pause.since_ms >= deadline_ms(rt)) {
			dom0_freed(rt);		/* a round of admission: the overdue head goes, what waits behind it may run */
			return dom0_op_done(rt, GTT_OK, err);
		}
	}
	return GTT_OK;
}

void dom0_withdraw_now(struct dom0_runtime *rt, struct vgpu *v)
{
	if (v->adm.pause.channel)
		dom0_gm_answer(v, GTTLAB_GM_ST_WITHDRAWN, v->adm.pause.seq);
	unpause(rt, v, false);
	v->c.withdrawn++;
	/* the head may be what left: what waited behind it may fit now */
	dom0_freed(rt);
}

void dom0_pause_channel(struct vgpu *v, uint32_t seq)
{
	v->adm.pause.channel = true;
	v->adm.pause.seq = seq;
}

uint64_t dom0_paused_ms(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return v->adm.paused_ms + (v->adm.pause.kind ? dom0_sim_time_ms(rt) - v->adm.pause.since_ms : 0);
}

int dom0_admission_init(struct dom0_runtime *rt, struct gtt_err *err)
{
	rt->slot_resv = gtt_calloc(rt->env, rt->lay.num_slots, sizeof(*rt->slot_resv));
	if (!rt->slot_resv)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the places of %u slots", rt->lay.num_slots);
	return GTT_OK;
}

void dom0_admission_free(struct dom0_runtime *rt)
{
	rt->env->free(rt->env, rt->slot_resv);
	rt->slot_resv = NULL;
}

void dom0_place_give_up(struct dom0_runtime *rt, unsigned s)
{
	int r = rt->slot_resv[s];

	if (r && rt->v[r]) {
		rt->v[r]->held_places--;
		rt->slot_resv[s] = 0;
	}
}
