/* SPDX-License-Identifier: MIT */
/*
 * The scheduler model: round robin with a 16 ms quantum over busy vGPUs; idle
 * vGPUs are skipped and never switched in (gScale's optimized scheduler).
 * With slot awareness the next vGPU is, where possible, one from another slot
 * than the one just run (gScale's slot-aware scheduler, sched.c), so that
 * vGPUs sharing a slot do not evict each other back to back.
 */
#include "dom0/policy.h"
#include "dom0/runtime_internal.h"
#include "dom0/sched.h"
#include "dom0/state.h"
#include "dom0/switch.h"

int dom0_set_busy(struct dom0_runtime *rt, int id, bool busy, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	v->busy = busy;
	return GTT_OK;
}

int dom0_sched_next(const struct dom0_runtime *rt)
{
	int cur = rt->render_owner, rr = 0;

	for (int k = 1; k <= rt->n_ids; k++) {
		int id = (cur + k - 1) % rt->n_ids + 1;
		const struct vgpu *v = rt->v[id];
		if (!v || !v->busy || (v->pause.kind && !rt->cfg.faults.run_paused) || v->migrating)
			continue;	/* idle, waiting for admission, or locked by a migration: never switched in */
		if (!rr)
			rr = id;
		if (!rt->cfg.slot_aware || !cur || !dom0_vgpu_exists(rt, cur))
			break;
		if (v->first_slot != rt->v[cur]->first_slot || !v->slots)
			return id;
	}
	return rr;
}

int dom0_run_quanta(struct dom0_runtime *rt, unsigned n,
		    void (*on_switch)(void *ctx, const struct dom0_switch_stats *s), void *ctx,
		    struct gtt_err *err)
{
	for (unsigned q = 0; q < n; q++) {
		int next = dom0_sched_next(rt);
		if (next && next != rt->render_owner) {
			struct dom0_switch_stats s;
			int rc = dom0_switch(rt, next, &s, err);
			if (rc)
				return rc;
			if (on_switch)
				on_switch(ctx, &s);
		}
		if (next)
			rt->v[next]->c.quanta++;
		rt->sim_ms += DOM0_QUANTUM_MS;
		if (rt->pol.enabled) {
			int rc = dom0_policy_tick(rt, rt->sim_ms, NULL, err);
			if (rc)
				return rc;
		}
	}
	return GTT_OK;
}
