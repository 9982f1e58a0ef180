/* SPDX-License-Identifier: MIT */
/*
 * Slots of high graphics memory and their resizing (gBalloon §3.3). A vGPU
 * holds a contiguous run of slots; it grows or shrinks at both ends, by as
 * many slots left and right as Algorithm 1 (or the equivalent occupancy
 * selector) says. The shadow GTT and PVINFO change at once; the physical GTT
 * takes the new range at the vGPU's next switch (at once for the vGPU that is
 * running), and slots it gives up are put back at once, so they are never
 * written for it again.
 */
#include "dom0/faults.h"
#include "dom0/fence_pool.h"
#include "dom0/phys.h"
#include "dom0/pvinfo.h"
#include "dom0/slots.h"
#include "dom0/slots_runs.h"
#include "dom0/slots_select.h"
#include "dom0/state.h"
#include "dom0/switch.h"
#include "dom0/vgpu.h"

_Static_assert(DOM0_MAX_SLOTS <= SLOTS_SELECT_MAX_SLOTS, "every layout dom0_init takes fits the selectors");

unsigned dom0_slot_occupancy(const struct dom0_runtime *rt, unsigned slot)
{
	return slot < rt->lay.num_slots ? rt->slot_occ[slot] : 0;
}

unsigned dom0_shared_slots(const struct dom0_runtime *rt)
{
	unsigned n = 0;

	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		n += rt->slot_occ[s] >= 2;
	return n;
}

/* The layout as Algorithm 1 sees it; returns K, the index of `id`. */
static unsigned snapshot(const struct dom0_runtime *rt, int id, unsigned *P, unsigned *S, struct slot_layout *l)
{
	unsigned n = 0, K = 0;

	for (int i = 1; i <= rt->n_ids; i++) {
		if (!rt->v[i])
			continue;
		if (i == id)
			K = n;
		P[n] = rt->v[i]->first_slot;
		S[n] = rt->v[i]->slots;
		n++;
	}
	*l = (struct slot_layout){ rt->lay.num_slots, n, P, S };
	return K;
}

static int retable(struct dom0_runtime *rt, struct vgpu *v, unsigned first, unsigned slots, unsigned keep_from,
		   unsigned keep_to, unsigned keep_at, struct gtt_err *err)
{
	uint64_t *g, *s, pps = rt->lay.slot_size / 4096;

	if (dom0_alloc_high(rt, slots, v->scratch_pte, &g, &s))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for vGPU %d's shadow GTT", v->id);
	/* old slots [keep_from, keep_to) land at new slot keep_at */
	for (uint64_t i = 0; i < (uint64_t)(keep_to - keep_from) * pps; i++) {
		g[keep_at * pps + i] = v->guest_high[keep_from * pps + i];
		s[keep_at * pps + i] = v->shadow_high[keep_from * pps + i];
	}
	dom0_phys_settle_owner(rt, v->id);	/* the GTT's chunks held from the old table: their mirror level first */
	rt->env->free(rt->env, v->guest_high);
	rt->env->free(rt->env, v->shadow_high);
	v->guest_high = g;
	v->shadow_high = s;
	v->first_slot = first;
	v->slots = slots;
	dom0_recount_mapped(rt, v);
	dom0_pvinfo_ranges(rt, v);
	return GTT_OK;
}

static int select(struct dom0_runtime *rt, int id, unsigned q, bool grow, unsigned *L, unsigned *R, struct gtt_err *err)
{
	if (!q)
		return gtt_err_set(err, GTT_EINVAL, "resizing vGPU %d by 0 slots: the count must be at least 1", id);
	/* the layout as the selectors see it: one entry per vGPU, as many as there are */
	unsigned *P = gtt_calloc(rt->env, (size_t)rt->n_ids + 1, 2 * sizeof(unsigned));
	if (!P)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the slot layout of %d vGPUs", rt->n_ids);
	unsigned *S = P + rt->n_ids + 1;
	struct slot_layout l;
	unsigned K = snapshot(rt, id, P, S, &l);
	int rc;
	if (rt->cfg.algorithm1_selector)
		rc = grow ? gballoon_expand(&l, K, q, L, R, err) : gballoon_reduce(&l, K, q, L, R, err);
	else
		rc = grow ? occupancy_expand(&l, K, q, L, R, err) : occupancy_reduce(&l, K, q, L, R, err);
	if (!rc && DOM0_FAULT(rt, swap_resize_sides)) {
		unsigned t = *L;
		/* only where the swapped choice stays inside high memory */
		if (grow ? *R <= P[K] && P[K] + S[K] + t <= l.M : true) {
			*L = *R;
			*R = t;
		}
	}
	rt->env->free(rt->env, P);
	return rc;
}

/* Sides the share limit allows: the selector's choice, else the first split from the left that fits. */
static bool limit_sides(const struct dom0_runtime *rt, const struct vgpu *v, unsigned q, unsigned *L, unsigned *R)
{
	if (dom0_sides_fit(rt, v, *L, *R))
		return true;
	for (unsigned l = 0; l <= q; l++)
		if (l <= v->first_slot && v->first_slot + v->slots + (q - l) <= rt->lay.num_slots &&
		    dom0_sides_fit(rt, v, l, q - l)) {
			*L = l;
			*R = q - l;
			return true;
		}
	return false;
}

/* Non-contiguous slots: the set after op, the admit_short fault's admission ignoring the share limit. */
static int choose_runs(struct dom0_runtime *rt, struct vgpu *v, enum dom0_runs_op op, unsigned q, bool *set,
		       struct gtt_err *err)
{
	bool any[DOM0_MAX_SLOTS];
	int rc = dom0_runs_choose(rt, v, op, q, NULL, set, err);

	if (rc == GTT_EBUSY && op != DOM0_RUNS_SHRINK && DOM0_FAULT(rt, admit_short) && dom0_admitting(rt)) {
		for (unsigned s = 0; s < rt->lay.num_slots; s++)
			any[s] = true;
		rc = dom0_runs_choose(rt, v, op, q, any, set, err);
	}
	return rc;
}

/* The slots where set and v's differ: *left those below its first slot, *right the rest (NULL: not wanted); their occupancy moves by dir. */
static void runs_delta(struct dom0_runtime *rt, const struct vgpu *v, const bool *set, int dir, unsigned *left,
		       unsigned *right)
{
	bool mine[DOM0_MAX_SLOTS];
	unsigned L = 0, R = 0;

	dom0_runs_mine(rt, v, mine);
	for (unsigned s = 0; s < rt->lay.num_slots; s++) {
		if (set[s] == mine[s])
			continue;
		*(s < v->first_slot ? &L : &R) += 1;
		if (dir > 0)
			rt->slot_occ[s]++;
		else
			rt->slot_occ[s]--;
	}
	if (left)
		*left = L;
	if (right)
		*right = R;
}

static int expand_runs(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right,
		       struct gtt_err *err)
{
	bool set[DOM0_MAX_SLOTS];
	int rc;

	if ((rc = choose_runs(rt, v, DOM0_RUNS_GROW, q, set, err)))
		return rc;
	runs_delta(rt, v, set, 1, left, right);
	if ((rc = dom0_runs_retable(rt, v, set, err)))
		return rc;
	if (dom0_gtt_owner(rt) == v->id) {
		struct dom0_switch_stats st = { .from = v->id, .to = v->id };
		if ((rc = dom0_copy_in_charged(rt, v, &st, err)))
			return rc;
		dom0_undo_settle(rt);
	}
	rt->c.expansions++;
	return GTT_OK;
}

static int reduce_runs(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right,
		       struct gtt_err *err)
{
	uint64_t pps = rt->lay.slot_size / 4096, base = GM_PAGE(rt->lay.slots_base), gone = 0;
	bool set[DOM0_MAX_SLOTS], mine[DOM0_MAX_SLOTS];
	int rc;

	if ((rc = dom0_runs_choose(rt, v, DOM0_RUNS_SHRINK, q, NULL, set, err)))
		return rc;
	dom0_runs_mine(rt, v, mine);
	/* released slots go back now: nothing of this vGPU stays mapped there */
	for (unsigned s = 0; s < rt->lay.num_slots && !DOM0_FAULT(rt, keep_released_slots); s++)
		if (mine[s] && !set[s])
			gone += dom0_phys_release(rt, base + s * pps, pps, v->id);
	if (gone)
		dom0_invalidate(rt);
	runs_delta(rt, v, set, -1, left, right);
	if ((rc = dom0_runs_retable(rt, v, set, err)))
		return rc;
	rt->c.reductions++;
	dom0_undo_settle(rt);
	if (q)
		dom0_freed(rt);
	return GTT_OK;
}

int dom0_expand_now(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right,
		    struct gtt_err *err)
{
	int id = v->id;
	unsigned L, R;
	int rc;

	if (dom0_runs_on(rt))
		return expand_runs(rt, v, q, left, right, err);
	if ((rc = select(rt, id, q, true, &L, &R, err)))
		return rc;
	if (!limit_sides(rt, v, q, &L, &R) && !(DOM0_FAULT(rt, admit_short) && dom0_admitting(rt)))
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: no %u slots next to its slots %u-%u are held by fewer than %u vGPUs (the share limit)",
				   id, q, v->first_slot, v->first_slot + v->slots - 1, rt->cfg.share_limit);
	unsigned first = v->first_slot - L, old = v->slots;
	if ((rc = retable(rt, v, first, old + q, 0, old, L, err)))
		return rc;
	for (unsigned s = 0; s < L; s++)
		rt->slot_occ[first + s]++;
	for (unsigned s = 0; s < R; s++)
		rt->slot_occ[first + L + old + s]++;
	if (dom0_gtt_owner(rt) == id) {
		/* the running vGPU's next switch is now: its new slots must be its own at once */
		struct dom0_switch_stats st = { .from = id, .to = id };
		if ((rc = dom0_copy_in_charged(rt, v, &st, err)))
			return rc;
		dom0_undo_settle(rt);
	}
	rt->c.expansions++;
	if (left)
		*left = L;
	if (right)
		*right = R;
	return GTT_OK;
}

int dom0_expand_check(struct dom0_runtime *rt, struct vgpu *v, unsigned q, struct gtt_err *err)
{
	int rc;

	if (!q || (uint64_t)v->slots + q > rt->lay.num_slots) {
		unsigned L, R;	/* the selector's refusal names the rule */
		return (rc = select(rt, v->id, q, true, &L, &R, err)) ? rc :
			gtt_err_set(err, GTT_EINVAL, "vGPU %d: expanding by %u slots does not fit %u", v->id, q, rt->lay.num_slots);
	}
	return GTT_OK;
}

int dom0_reduce_now(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right,
		    struct gtt_err *err)
{
	uint64_t pps = rt->lay.slot_size / 4096, gone = 0;
	int id = v->id;
	unsigned L, R;
	int rc;

	if (dom0_runs_on(rt))
		return reduce_runs(rt, v, q, left, right, err);
	if ((rc = select(rt, id, q, false, &L, &R, err)))
		return rc;
	unsigned old_first = v->first_slot, old = v->slots;
	uint64_t base = GM_PAGE(rt->lay.slots_base);
	/* released slots go back now: nothing of this vGPU stays mapped there */
	if (!DOM0_FAULT(rt, keep_released_slots)) {
		gone += dom0_phys_release(rt, base + old_first * pps, L * pps, id);
		gone += dom0_phys_release(rt, base + (old_first + old - R) * pps, R * pps, id);
	}
	if (gone)
		dom0_invalidate(rt);
	for (unsigned s = 0; s < L; s++)
		rt->slot_occ[old_first + s]--;
	for (unsigned s = 0; s < R; s++)
		rt->slot_occ[old_first + old - R + s]--;
	if ((rc = retable(rt, v, old_first + L, old - q, L, old - R, 0, err)))
		return rc;
	rt->c.reductions++;
	dom0_undo_settle(rt);
	if (left)
		*left = L;
	if (right)
		*right = R;
	if (L + R)
		dom0_freed(rt);
	return GTT_OK;
}

int dom0_place_slots(const struct dom0_runtime *rt, unsigned S)
{
	unsigned M = rt->lay.num_slots, lim = rt->cfg.share_limit;
	unsigned long best = (unsigned long)-1;
	int at = -1;

	if (!lim)
		return slots_place(rt->slot_occ, M, S);
	if (S > M)
		return -1;
	/* least shared start among those whose every slot is under the limit */
	for (unsigned p = 0; p + S <= M; p++) {
		unsigned long sum = 0;
		bool ok = true;
		for (unsigned s = p; s < p + S && ok; s++) {
			ok = dom0_slot_room(rt, s, 0);
			sum += rt->slot_occ[s];
		}
		if (ok && sum < best) {
			best = sum;
			at = (int)p;
		}
	}
	return at;
}

bool dom0_sides_fit(const struct dom0_runtime *rt, const struct vgpu *v, unsigned L, unsigned R)
{
	for (unsigned s = 0; s < L; s++)
		if (!dom0_slot_room(rt, v->first_slot - L + s, v->id))
			return false;
	for (unsigned s = 0; s < R; s++)
		if (!dom0_slot_room(rt, v->first_slot + v->slots + s, v->id))
			return false;
	return true;
}

void dom0_recount_mapped(const struct dom0_runtime *rt, struct vgpu *v)
{
	uint64_t n = 0, entries = (uint64_t)v->slots * (rt->lay.slot_size / 4096);

	for (uint64_t i = 0; i < entries; i++)
		n += v->shadow_high[i] != v->scratch_pte;
	v->high_mapped = n;
}

/* Under admission, the guest fence registers it asks for are not all held by others. */
static bool fences_fit(struct dom0_runtime *rt, const struct vgpu *v, struct gtt_err *err)
{
	const struct dom0_layout *l = &rt->lay;

	if (dom0_admission_on(rt) && dom0_fences_reserved(rt) + v->fences > l->guest_fences && !(DOM0_FAULT(rt, admit_short) && dom0_admitting(rt))) {
		gtt_err_set(err, GTT_EBUSY, "vGPU %d: %u fences: %u of the %u guest fence registers are held",
			    v->id, v->fences, dom0_fences_reserved(rt), l->guest_fences);
		return false;
	}
	return true;
}

static void reserve_fences(struct dom0_runtime *rt, struct vgpu *v)
{
	if (dom0_admission_on(rt))
		dom0_fences_reserve(rt, v);
}

/* A new vGPU's slots in up to cfg.slot_runs runs, where they share least. */
static int place_runs(struct dom0_runtime *rt, struct vgpu *v, unsigned slots, struct gtt_err *err)
{
	bool set[DOM0_MAX_SLOTS];
	int rc;

	if ((rc = choose_runs(rt, v, DOM0_RUNS_PLACE, slots, set, err)))
		return rc;
	if (!fences_fit(rt, v, err))
		return GTT_EBUSY;
	if ((rc = dom0_runs_retable(rt, v, set, err)))
		return rc;
	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		rt->slot_occ[s] += set[s];
	reserve_fences(rt, v);
	return GTT_OK;
}

int dom0_place_now(struct dom0_runtime *rt, struct vgpu *v, unsigned slots, int at, struct gtt_err *err)
{
	const struct dom0_layout *l = &rt->lay;
	uint64_t *g, *sh;

	if (dom0_runs_on(rt) && at < 0)
		return place_runs(rt, v, slots, err);
	int first = at >= 0 ? at : dom0_place_slots(rt, slots);
	bool fits = first >= 0;

	/* the share limit: every slot of the run held by fewer vGPUs than it allows */
	for (unsigned s = 0; fits && at >= 0 && rt->cfg.share_limit && s < slots; s++)
		fits = dom0_slot_room(rt, (unsigned)first + s, v->id);
	if (!fits && (DOM0_FAULT(rt, admit_short) && dom0_admitting(rt))) {
		first = at >= 0 ? at : slots_place(rt->slot_occ, l->num_slots, slots);
		fits = first >= 0;
	}
	if (!fits)
		return at >= 0 ?
			gtt_err_set(err, GTT_EBUSY, "vGPU %d: slots %u-%u are not all below the share limit (%u vGPUs a slot)",
				    v->id, (unsigned)at, (unsigned)at + slots - 1, rt->cfg.share_limit) :
			gtt_err_set(err, GTT_EBUSY, "vGPU %d: no run of %u slots is below the share limit (%u vGPUs a slot) in every slot",
				    v->id, slots, rt->cfg.share_limit);
	if (!fences_fit(rt, v, err))
		return GTT_EBUSY;
	if (dom0_alloc_high(rt, slots, v->scratch_pte, &g, &sh))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for vGPU %d's shadow GTT", v->id);
	dom0_phys_settle_owner(rt, v->id);	/* the GTT's chunks held from the old table: their mirror level first */
	rt->env->free(rt->env, v->guest_high);
	rt->env->free(rt->env, v->shadow_high);
	v->guest_high = g;
	v->shadow_high = sh;
	v->first_slot = (unsigned)first;
	v->slots = slots;
	v->high_mapped = 0;
	for (unsigned s = 0; s < slots; s++)
		rt->slot_occ[first + s]++;
	reserve_fences(rt, v);
	dom0_pvinfo_ranges(rt, v);
	return GTT_OK;
}

int dom0_slots_init(struct dom0_runtime *rt, struct gtt_err *err)
{
	rt->slot_occ = gtt_calloc(rt->env, rt->lay.num_slots, sizeof(*rt->slot_occ));
	if (!rt->slot_occ)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the occupancy of %u slots", rt->lay.num_slots);
	return GTT_OK;
}

void dom0_slots_free(struct dom0_runtime *rt)
{
	rt->env->free(rt->env, rt->slot_occ);
	rt->slot_occ = NULL;
}

void dom0_slot_occupy_apart(struct dom0_runtime *rt, unsigned first, unsigned n, unsigned apart, unsigned apart_n, int delta)
{
	for (unsigned s = first; s < first + n; s++)
		if (s < apart || s >= apart + apart_n)
			rt->slot_occ[s] += (unsigned)delta;
}

void dom0_slot_rebase(struct vgpu *v, unsigned first)
{
	v->first_slot = first;
}
