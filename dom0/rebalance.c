/* SPDX-License-Identifier: MIT */
/*
 * VOCL's load balancing over the runtime's state. VOCL measures a physical
 * GPU's load as the function calls issued to it and not completed, and
 * rebalances when two GPUs differ by more than half its queue depth; a vGPU
 * here has work issued while it is busy, so a device's load is its busy
 * vGPUs that can run, and the threshold is in vGPUs. The target of a move is
 * VOCL's "physical GPU with the least computational load"; for a move within
 * a device, the least-shared run of slots (what a switch then copies least).
 */
#include "dom0/migrate.h"
#include "dom0/migrate_queue.h"
#include "dom0/rebalance.h"
#include "dom0/state_types.h"
#include "dom0/sched.h"
#include "dom0/state.h"

unsigned dom0_load(const struct dom0_runtime *rt)
{
	unsigned n = 0;

	for (int i = 1; i <= rt->n_ids; i++) {
		const struct vgpu *v = rt->v[i];
		n += v && dom0_vgpu_busy(v) && !dom0_pause_of(v).kind && !dom0_vgpu_locked(v);
	}
	return n;
}

int dom0_least_loaded(struct dom0_runtime *const *rts, unsigned n, int except)
{
	int best = -1;
	unsigned best_load = 0;

	for (unsigned k = 0; k < n; k++) {
		if ((int)k == except || !rts[k])
			continue;
		unsigned l = dom0_load(rts[k]);
		if (best < 0 || l < best_load) {
			best = (int)k;
			best_load = l;
		}
	}
	return best;
}

int dom0_migrate_target_slot(const struct dom0_runtime *rt, int id, unsigned *to, struct gtt_err *err)
{
	const struct vgpu *v = dom0_vgpu_exists(rt, id) ? rt->v[id] : NULL;
	unsigned M = rt->lay.num_slots, lim = rt->cfg.share_limit;
	unsigned long best_sum = 0;
	int best = -1;

	if (!v || !v->slots || v->n_runs)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: %s", id,
				   !v ? "no such vGPU" : v->n_runs ? "its slots are in runs: a migration moves one run" : "it holds no slots to move");
	for (unsigned p = 0; p + v->slots <= M; p++) {
		unsigned long sum = 0;
		bool ok = p != v->first_slot;
		for (unsigned s = p; ok && s < p + v->slots; s++) {
			bool own = s >= v->first_slot && s < v->first_slot + v->slots;
			unsigned others = rt->slot_occ[s] - own + (rt->slot_resv[s] && rt->slot_resv[s] != id);
			ok = !lim || others < lim;
			sum += others;
		}
		if (ok && (best < 0 || sum < best_sum)) {
			best = (int)p;
			best_sum = sum;
		}
	}
	if (best < 0)
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: no other run of %u slots has room under the share limit (%u vGPUs a slot)",
				   id, v->slots, lim);
	*to = (unsigned)best;
	return GTT_OK;
}

/* The busy vGPU of rt that is cheapest to move: the least guest memory, the lowest id of equals; 0 none. */
static int cheapest_busy(const struct dom0_runtime *rt)
{
	int best = 0;

	for (int i = 1; i <= rt->n_ids; i++) {
		const struct vgpu *v = rt->v[i];
		if (v && dom0_vgpu_busy(v) && !dom0_pause_of(v).kind && !dom0_vgpu_locked(v) && (!best || v->mem_pages < rt->v[best]->mem_pages))
			best = i;
	}
	return best;
}

int dom0_rebalance(struct dom0_runtime *const *rts, unsigned n, unsigned threshold, struct dom0_rebalance *out,
		   struct gtt_err *err)
{
	struct dom0_rebalance r = { .from = -1, .to = -1 };
	int rc = GTT_OK;

	for (unsigned k = 0; k < n; k++) {
		unsigned l = rts[k] ? dom0_load(rts[k]) : 0;
		if (rts[k] && (r.from < 0 || l > r.load_from)) {
			r.from = (int)k;
			r.load_from = l;
		}
	}
	r.to = r.from < 0 ? -1 : dom0_least_loaded(rts, n, r.from);
	if (r.to >= 0)
		r.load_to = dom0_load(rts[r.to]);
	if (r.to >= 0 && r.load_from > r.load_to + threshold && (r.id = cheapest_busy(rts[r.from])) != 0) {
		rc = dom0_migrate_device(rts[r.from], r.id, rts[r.to], &r.new_id, &r.m, err);
		r.moved = !rc;
	}
	if (out)
		*out = r;
	return rc;
}
