/* SPDX-License-Identifier: MIT */
/*
 * Compaction for a paused create. A create needs a run of slots; on a
 * partitioned layout the free slots may add up to enough while no run of
 * them does. Moving the vGPUs that hold some run to free runs elsewhere
 * clears it. The plan is made on a copy of the occupancy, then carried out
 * with dom0_migrate (VOCL's steps, each a release after which admission
 * runs). A run is only chosen when every holder has somewhere to go.
 */
#include "dom0/admission.h"
#include "dom0/compact.h"
#include "dom0/migrate.h"
#include "dom0/migrate_queue.h"
#include "dom0/state_types.h"
#include "dom0/state.h"

#define MAX_MOVES 64

struct plan {
	int run;			/* first slot of the run cleared, -1 none */
	unsigned n, moved;		/* moves, slots moved */
	int ids[MAX_MOVES];
	unsigned to[MAX_MOVES];
};

/* The first run of n slots in map that is free (0), -1 none. */
static int first_free(const int *map, unsigned M, unsigned n)
{
	for (unsigned p = 0, k = 0; p < M; p++) {
		k = map[p] ? 0 : k + 1;
		if (k == n)
			return (int)(p + 1 - n);
	}
	return -1;
}

/*
 * Whether run [p, p+S) can be cleared for `self`: map is 0 free, -1 taken
 * (the run, a place held by a request self does not outrank, a locked
 * holder), or a holder's id. Holders go, largest first, to the first free
 * run outside [p, p+S).
 */
static bool try_run(const struct dom0_runtime *rt, int self, unsigned p, unsigned S, int *map, struct plan *pl)
{
	unsigned M = rt->lay.num_slots;

	*pl = (struct plan){ .run = (int)p };
	for (unsigned s = 0; s < M; s++) {
		int r = rt->slot_resv[s];
		map[s] = r && r != self && !dom0_outranks(rt, rt->v[self], rt->v[r]) ? -1 : 0;
	}
	for (int i = 1; i <= rt->n_ids; i++) {
		const struct vgpu *v = rt->v[i];
		if (!v || dom0_pause_of(v).kind == DOM0_PAUSE_CREATE || !v->slots)
			continue;
		for (unsigned s = v->first_slot; s < v->first_slot + v->slots; s++)
			map[s] = dom0_vgpu_locked(v) ? -1 : i;
	}
	/* the holders of the run, to move; none may be locked or someone's held place */
	int hold[MAX_MOVES];
	unsigned nh = 0;
	for (unsigned s = p; s < p + S; s++) {
		if (map[s] < 0)
			return false;
		if (map[s] && (!nh || hold[nh - 1] != map[s])) {
			if (nh == MAX_MOVES)
				return false;
			hold[nh++] = map[s];
		}
	}
	for (unsigned k = 0; k < nh; k++)
		for (unsigned s = 0; s < M; s++)
			if (map[s] == hold[k])
				map[s] = 0;
	for (unsigned s = p; s < p + S; s++)
		map[s] = -1;
	/* largest first, each to the first free run left */
	for (unsigned done = 0; done < nh; done++) {
		unsigned big = done;
		for (unsigned k = done + 1; k < nh; k++)
			if (rt->v[hold[k]]->slots > rt->v[hold[big]]->slots)
				big = k;
		int t = hold[big];
		hold[big] = hold[done];
		hold[done] = t;
		unsigned n = rt->v[t]->slots;
		int to = first_free(map, M, n);
		if (to < 0)
			return false;
		for (unsigned s = (unsigned)to; s < (unsigned)to + n; s++)
			map[s] = t;
		pl->ids[pl->n] = t;
		pl->to[pl->n++] = (unsigned)to;
		pl->moved += n;
	}
	return true;
}

int dom0_compact_for(struct dom0_runtime *rt, int id, unsigned *moved, unsigned *slots_moved, struct gtt_err *err)
{
	const struct vgpu *v = dom0_vgpu_exists(rt, id) ? rt->v[id] : NULL;
	unsigned M = rt->lay.num_slots;
	struct plan best = { .run = -1 }, pl;
	int rc = GTT_OK;

	*moved = 0;
	if (slots_moved)
		*slots_moved = 0;
	if (rt->cfg.share_limit != 1)
		return gtt_err_set(err, GTT_EINVAL, "compaction clears runs of a partitioned layout: the share limit is %u, not 1",
				   rt->cfg.share_limit);
	if (rt->cfg.slot_runs >= 2)
		return gtt_err_set(err, GTT_EINVAL, "compaction moves whole runs: with non-contiguous slots (slot runs %u) a create takes any free slots",
				   rt->cfg.slot_runs);
	if (!v || dom0_pause_of(v).kind != DOM0_PAUSE_CREATE)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: %s", id, v ? "its create is not paused" : "no such vGPU");
	int *map = gtt_calloc(rt->env, M, sizeof(*map));
	if (!map)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for a map of %u slots", M);
	for (unsigned p = 0; dom0_pause_of(v).slots <= M && p + dom0_pause_of(v).slots <= M; p++)
		if (try_run(rt, id, p, dom0_pause_of(v).slots, map, &pl) &&
		    (best.run < 0 || pl.n < best.n || (pl.n == best.n && pl.moved < best.moved)))
			best = pl;
	rt->env->free(rt->env, map);
	if (best.run < 0 || !best.n)
		return GTT_OK;	/* no run can be cleared, or one is free already (admission's to run) */
	for (unsigned k = 0; k < best.n && !rc; k++) {
		unsigned n = dom0_vgpu_exists(rt, best.ids[k]) ? rt->v[best.ids[k]]->slots : 0;
		/* places held there, by requests ranked after id or by id elsewhere than its new run, are given up */
		for (unsigned s = best.to[k]; s < best.to[k] + n; s++)
			dom0_place_give_up(rt, s);
		if (!(rc = dom0_migrate(rt, best.ids[k], best.to[k], NULL, err))) {
			(*moved)++;
			if (slots_moved)
				*slots_moved += n;
		}
	}
	return rc;
}

/* Slots of [first, first + n) that a vGPU other than id holds, or a paused create other than id holds a place in. */
static unsigned others_in(const struct dom0_runtime *rt, int id, unsigned first, unsigned n)
{
	const struct vgpu *v = rt->v[id];
	unsigned k = 0;

	for (unsigned s = first; s < first + n; s++) {
		bool own = s >= v->first_slot && s < v->first_slot + v->slots;
		k += rt->slot_occ[s] - own > 0 || (rt->slot_resv[s] && rt->slot_resv[s] != id);
	}
	return k;
}

int dom0_move_to_grow(struct dom0_runtime *rt, int id, unsigned q, bool *moved, struct dom0_migration *m,
		      struct gtt_err *err)
{
	const struct vgpu *v = dom0_vgpu_exists(rt, id) ? rt->v[id] : NULL;
	unsigned M = rt->lay.num_slots;

	*moved = false;
	if (!v || !v->slots || dom0_pause_of(v).kind || dom0_vgpu_locked(v) || v->n_runs)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: %s", id,
				   !v ? "no such vGPU" : !v->slots ? "it holds no slots" : v->n_runs ? "its slots are in runs: it grows where it likes" :
				   "it is paused or migrating");
	unsigned n = v->slots + q;
	if (!q || n > M)
		return GTT_OK;
	/* any split where it is that adds no slot someone else holds: it grows there */
	for (unsigned L = 0; L <= q; L++)
		if (L <= v->first_slot && v->first_slot + v->slots + (q - L) <= M &&
		    !others_in(rt, id, v->first_slot - L, n))
			return GTT_OK;
	for (unsigned p = 0; p + n <= M; p++)
		if (p != v->first_slot && !others_in(rt, id, p, n)) {
			int rc = dom0_migrate(rt, id, p, m, err);
			*moved = !rc;
			return rc;
		}
	return GTT_OK;
}
