/* SPDX-License-Identifier: MIT */
/*
 * The scheduler model: round robin with a 16 ms quantum over busy vGPUs; idle
 * vGPUs are skipped and never switched in (gScale's optimized scheduler).
 * With slot awareness the next vGPU is, where possible, one from another slot
 * than the one just run (gScale's slot-aware scheduler, sched.c), so that
 * vGPUs sharing a slot do not evict each other back to back.
 *
 * Among the vGPUs of other slots the one waiting longest runs. And slot
 * awareness never starves: a runnable busy vGPU that has waited N quanta, N
 * the runnable busy vGPUs, is due and runs next, the one waiting longest
 * first. So each runs within 2N - 1 quanta of its last turn (at most N - 1
 * others are due before it), where plain round robin gives N.
 */
#include "dom0/admission.h"
#include "dom0/faults.h"
#include "dom0/migrate_queue.h"
#include "dom0/policy.h"
#include "dom0/state_types.h"
#include "dom0/sched.h"
#include "dom0/state.h"
#include "dom0/switch.h"

int dom0_set_busy(struct dom0_runtime *rt, int id, bool busy, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	if (busy && !v->sched.busy)
		v->sched.ran_q = rt->sched.quantum;	/* its wait starts now */
	v->sched.busy = busy;
	return GTT_OK;
}

/* Busy and allowed to run: not idle, waiting for admission, or locked by a migration. */
static bool runnable(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return v && v->sched.busy && (!dom0_pause_of(v).kind || DOM0_FAULT(rt, run_paused)) && !dom0_vgpu_locked(v);
}

/* Whether v holds another slot than the vGPU cur (or cur is none). */
static bool other_slot(const struct dom0_runtime *rt, const struct vgpu *v, int cur)
{
	return !cur || !dom0_vgpu_exists(rt, cur) || !v->slots || v->first_slot != rt->v[cur]->first_slot;
}

/*
 * Slot-aware choice: a vGPU that is due (has waited as many quanta as there
 * are runnable ones) first, else one from another slot than cur; among
 * those the longest waiting, then one from another slot, then round-robin
 * order from cur. None in another slot and none due: round robin.
 */
static int slot_aware_next(const struct dom0_runtime *rt, int cur, int rr)
{
	uint64_t n = 0, best_wait = 0;
	int best = 0;
	bool best_due = false, best_other = false;

	for (int k = 1; k <= rt->n_ids; k++) {
		int id = (cur + k - 1) % rt->n_ids + 1;
		n += runnable(rt, rt->v[id]);
	}
	for (int k = 1; k <= rt->n_ids; k++) {
		int id = (cur + k - 1) % rt->n_ids + 1;
		const struct vgpu *v = rt->v[id];
		if (!runnable(rt, v) || id == cur)
			continue;
		uint64_t wait = rt->sched.quantum - v->sched.ran_q;
		bool is_due = wait >= n, other = other_slot(rt, v, cur);
		if (!is_due && !other)
			continue;
		if (!best || (is_due && !best_due) ||
		    (is_due == best_due && (wait > best_wait || (wait == best_wait && other && !best_other)))) {
			best = id;
			best_wait = wait;
			best_due = is_due;
			best_other = other;
		}
	}
	return best ? best : rr;
}

int dom0_sched_next(const struct dom0_runtime *rt)
{
	int cur = dom0_render_owner(rt), rr = 0;

	for (int k = 1; k <= rt->n_ids && !rr; k++) {
		int id = (cur + k - 1) % rt->n_ids + 1;
		if (runnable(rt, rt->v[id]))
			rr = id;
	}
	return rt->cfg.slot_aware && rr ? slot_aware_next(rt, cur, rr) : rr;
}

int dom0_run_quanta(struct dom0_runtime *rt, unsigned n,
		    void (*on_switch)(void *ctx, const struct dom0_switch_stats *s), void *ctx,
		    struct gtt_err *err)
{
	for (unsigned q = 0; q < n; q++) {
		int next = dom0_sched_next(rt);
		if (next && next != dom0_render_owner(rt)) {
			struct dom0_switch_stats s;
			int rc = dom0_switch(rt, next, &s, err);
			if (rc)
				return rc;
			if (on_switch)
				on_switch(ctx, &s);
		}
		rt->sched.quantum++;
		if (next) {
			rt->v[next]->c.quanta++;
			rt->v[next]->sched.ran_q = rt->sched.quantum;
		}
		dom0_clock_advance(rt, DOM0_QUANTUM_MS);
		if (dom0_paused_count(rt)) {
			int rc = dom0_admission_tick(rt, err);
			if (rc)
				return rc;
		}
		if (dom0_policy_state(rt)->enabled && !dom0_policy_state(rt)->p.caller_ticks) {
			int rc = dom0_policy_tick(rt, dom0_sim_time_ms(rt), NULL, err);
			if (rc)
				return rc;
		}
	}
	return GTT_OK;
}

bool dom0_vgpu_busy(const struct vgpu *v)
{
	return v->sched.busy;
}

void dom0_sched_take_busy(struct vgpu *dst, const struct vgpu *src)
{
	dst->sched.busy = src->sched.busy;
}
