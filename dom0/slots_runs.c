/* SPDX-License-Identifier: MIT */
#include "dom0/phys.h"
#include "dom0/pvinfo.h"
#include "dom0/state_types.h"
#include "dom0/slots_pick.h"
#include "dom0/slots_runs.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"

_Static_assert(DOM0_MAX_RUN_SLOTS <= SLOTS_PICK_MAX_SLOTS, "a layout with runs must fit the pick's tables");
_Static_assert(DOM0_MAX_RUNS <= SLOTS_PICK_MAX_RUNS, "config.slot_runs must fit the pick's tables");

bool dom0_runs_on(const struct dom0_runtime *rt)
{
	return rt->cfg.slot_runs >= 2;
}

void dom0_runs_mine(const struct dom0_runtime *rt, const struct vgpu *v, bool *set)
{
	struct dom0_run run[DOM0_MAX_RUNS];
	unsigned n = dom0_runs_of(v, run);

	for (unsigned s = 0; s < rt->lay.num_slots; s++)
		set[s] = false;
	for (unsigned i = 0; i < n; i++)
		for (unsigned s = 0; s < run[i].n; s++)
			set[run[i].first + s] = true;
}

int dom0_runs_choose(const struct dom0_runtime *rt, const struct vgpu *v, enum dom0_runs_op op, unsigned q,
		     const bool *room, bool *set, struct gtt_err *err)
{
	unsigned M = rt->lay.num_slots, cost[DOM0_MAX_RUN_SLOTS];
	bool mine[DOM0_MAX_RUN_SLOTS], cand[DOM0_MAX_RUN_SLOTS], pick[DOM0_MAX_RUN_SLOTS];
	struct slots_pick p = { .M = M, .n = q, .R = rt->cfg.slot_runs, .cost = cost, .cand = cand };
	int rc;

	if (M > DOM0_MAX_RUN_SLOTS)
		return gtt_err_set(err, GTT_EINVAL, "%u slots: non-contiguous slots support at most %u", M, DOM0_MAX_RUN_SLOTS);
	dom0_runs_mine(rt, v, op == DOM0_RUNS_PLACE ? cand : mine);
	if (op == DOM0_RUNS_PLACE)
		for (unsigned s = 0; s < M; s++)
			mine[s] = false;
	if (op == DOM0_RUNS_SHRINK) {
		if (q > v->slots)
			return gtt_err_set(err, GTT_EINVAL, "reducing vGPU %d by %u slots: it holds only %u", v->id, q, v->slots);
		/* keep slots - q of its own, those the others hold least: what goes back is shared most */
		p.n = v->slots - q;
		for (unsigned s = 0; s < M; s++) {
			cand[s] = mine[s];
			cost[s] = rt->slot_occ[s] - mine[s];
		}
	} else {
		if (q > M - v->slots)
			return gtt_err_set(err, GTT_EINVAL, "vGPU %d: %u slots more than its %u do not fit the %u slots", v->id, q,
					   v->slots, M);
		/* holders summed (Algorithm 1's count, line 3), x2; a place held for another +1, so its own come first */
		for (unsigned s = 0; s < M; s++) {
			cand[s] = !mine[s] && (room ? room[s] : dom0_slot_room(rt, s, v->id));
			cost[s] = 2 * rt->slot_occ[s] + (rt->slot_resv[s] != v->id);
		}
		p.fixed = mine;
	}
	if ((rc = slots_pick(rt->env, &p, pick, err)))
		return rc == GTT_EBUSY ?
			gtt_err_set(err, GTT_EBUSY, "vGPU %d: no %u slots below the share limit (%u vGPUs a slot) fit with its %u in %u runs",
				    v->id, q, rt->cfg.share_limit, op == DOM0_RUNS_PLACE ? 0 : v->slots, p.R) : rc;
	for (unsigned s = 0; s < M; s++)
		set[s] = op == DOM0_RUNS_SHRINK ? pick[s] : mine[s] || pick[s];
	return GTT_OK;
}

/* The runs of set into v (one run: first_slot and slots alone, as a contiguous vGPU); set has at most DOM0_MAX_RUNS. */
static void set_runs(struct vgpu *v, const bool *set, unsigned M)
{
	unsigned n = 0, total = 0;

	for (unsigned s = 0; s < M; s++) {
		if (!set[s])
			continue;
		if ((!s || !set[s - 1]) && n < DOM0_MAX_RUNS)
			v->run[n++] = (struct dom0_run){ s, 0 };
		v->run[n - 1].n++;
		total++;
	}
	v->first_slot = n ? v->run[0].first : 0;
	v->slots = total;
	v->n_runs = n > 1 ? n : 0;
}

int dom0_runs_retable(struct dom0_runtime *rt, struct vgpu *v, const bool *set, struct gtt_err *err)
{
	unsigned M = rt->lay.num_slots, total = 0;
	uint64_t pps = rt->lay.slot_size / 4096, old_off[DOM0_MAX_RUN_SLOTS], off = 0, *g, *sh;
	bool had[DOM0_MAX_RUN_SLOTS];
	unsigned runs = slots_runs(set, M);

	/* the layout's check (dom0_init) makes both impossible; a table past its end would be worse than a refusal */
	if (M > DOM0_MAX_RUN_SLOTS)
		return gtt_err_set(err, GTT_EINVAL, "%u slots: non-contiguous slots support at most %u", M, DOM0_MAX_RUN_SLOTS);
	if (runs > DOM0_MAX_RUNS || runs > rt->cfg.slot_runs)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: a set of slots in %u runs; config.slot_runs is %u (at most %u)", v->id,
				   runs, rt->cfg.slot_runs, DOM0_MAX_RUNS);
	dom0_runs_mine(rt, v, had);
	for (unsigned s = 0; s < M; s++) {
		old_off[s] = off;
		off += had[s] ? pps : 0;
		total += set[s];
	}
	if (dom0_alloc_high(rt, total, v->scratch_pte, &g, &sh))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for vGPU %d's shadow GTT", v->id);
	off = 0;
	v->high_mapped = 0;
	for (unsigned s = 0; s < M; s++) {
		if (!set[s])
			continue;
		for (uint64_t i = 0; had[s] && i < pps; i++) {
			g[off + i] = v->guest_high[old_off[s] + i];
			sh[off + i] = v->shadow_high[old_off[s] + i];
			v->high_mapped += sh[off + i] != v->scratch_pte;
		}
		off += pps;
	}
	dom0_phys_settle_owner(rt, v->id);	/* the GTT's chunks held from the old table: their mirror level first */
	rt->env->free(rt->env, v->guest_high);
	rt->env->free(rt->env, v->shadow_high);
	v->guest_high = g;
	v->shadow_high = sh;
	set_runs(v, set, M);
	dom0_pvinfo_ranges(rt, v);
	return GTT_OK;
}
