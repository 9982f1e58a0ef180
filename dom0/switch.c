/* SPDX-License-Identifier: MIT */
/*
 * The context switch: copy the incoming vGPU's private shadow GTT into the
 * physical GTT on demand, for its own ranges only, skipping every entry the
 * physical GTT already holds for it (slot sharing, applied to low and high
 * ranges alike) and writing, of the rest, exactly the entries whose physical
 * value differs (the runtime's mirror decides; the device is never read),
 * then one GGTT invalidate.
 */
#include "dom0/faults.h"
#include "dom0/migrate_queue.h"
#include "dom0/phys.h"
#include "dom0/state.h"
#include "dom0/switch.h"

/*
 * Make the entries of [first, first + n) that `id` does not hold yet hold its
 * shadow, in runs; of those, only the ones whose physical value differs are
 * written (dom0_phys_copy_in compares with what the GTT holds, never reads the device).
 */
static int copy_range(struct dom0_runtime *rt, int id, uint64_t first, uint64_t n, const uint64_t *shadow,
		      struct dom0_switch_stats *s, struct gtt_err *err)
{
	uint64_t written = 0;
	int rc = GTT_OK;

	for (uint64_t i = 0; i < n && !rc;) {
		if (i + DOM0_CHUNK <= n && dom0_chunk_held(rt, first + i, id)) {
			i += DOM0_CHUNK;	/* a whole chunk still holds its entries */
			continue;
		}
		if (dom0_phys_owner(rt, first + i) == id) {
			i++;
			continue;
		}
		/* whole chunks another vGPU holds all of are not held, unscanned; the rest entry by entry */
		uint64_t run = i;
		while (run + DOM0_CHUNK <= n && dom0_chunk_held_by_other(rt, first + run, id))
			run += DOM0_CHUNK;
		run += dom0_phys_not_held(rt, first + run, n - run, id);
		if (DOM0_FAULT(rt, swap_copy_pair) && run - i >= 2 && !s->ptes_written && !written) {
			uint64_t pair[2] = { shadow[i + 1], shadow[i] };
			rc = dom0_phys_write(rt, first + i, 2, pair, id, &written, err);
			if (!rc && run - i > 2)
				rc = dom0_phys_copy_in(rt, first + i + 2, (size_t)(run - i - 2), shadow + i + 2, id, &written, err);
		} else {
			rc = dom0_phys_copy_in(rt, first + i, (size_t)(run - i), shadow + i, id, &written, err);
		}
		i = run;
	}
	s->ptes_written += written;
	s->ptes_skipped += n - written;
	return rc;
}

int dom0_copy_in(struct dom0_runtime *rt, struct vgpu *v, struct dom0_switch_stats *s, struct gtt_err *err)
{
	int rc;

	struct dom0_run run[DOM0_MAX_RUNS];
	unsigned n = dom0_runs_of(v, run);
	uint64_t pps = rt->lay.slot_size / 4096, off = 0;

	if ((rc = copy_range(rt, v->id, GM_PAGE(v->low_base), GM_PAGE(v->low_size), v->shadow_low, s, err)))
		return rc;
	if (DOM0_FAULT(rt, runs_copy_first) && n > 1)
		n = 1;
	for (unsigned i = 0; i < n; off += run[i].n * pps, i++)
		if ((rc = copy_range(rt, v->id, GM_PAGE(rt->lay.slots_base) + run[i].first * pps, run[i].n * pps,
				     v->shadow_high + off, s, err)))
			return rc;
	dom0_invalidate(rt);
	return GTT_OK;
}

int dom0_copy_in_charged(struct dom0_runtime *rt, struct vgpu *v, struct dom0_switch_stats *s, struct gtt_err *err)
{
	uint64_t t0 = rt->env->now_ns(rt->env);
	int rc = dom0_copy_in(rt, v, s, err);

	if (rc)
		return rc;
	s->ns = rt->env->now_ns(rt->env) - t0;
	rt->c.ptes_written += s->ptes_written;
	rt->c.ptes_skipped += s->ptes_skipped;
	/* R_copy's C (gBalloon eq. 1): the copy's measured time, or a fixed cost per PTE written for exact runs */
	rt->c.copy_ns += rt->copy_cost_ps ? s->ptes_written * rt->copy_cost_ps / 1000 : s->ns;
	return GTT_OK;
}

int dom0_switch(struct dom0_runtime *rt, int to, struct dom0_switch_stats *stats, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, to, err);
	struct dom0_switch_stats s = { .from = dom0_gtt_owner(rt), .to = to };
	int rc;

	if (!v)
		return GTT_EINVAL;
	if (dom0_vgpu_locked(v))
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d is migrating: it is not switched in until the migration unlocks it", to);
	if (dom0_pause_of(v).kind && !DOM0_FAULT(rt, run_paused))
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: its %s is paused, waiting for admission; a paused vGPU is never switched in",
				   to, dom0_pause_name(dom0_pause_of(v).kind));
	if ((rc = dom0_copy_in_charged(rt, v, &s, err)))
		return rc;
	dom0_gtt_switched_to(rt, to);
	v->c.switches_in++;
	rt->c.switches++;
	dom0_undo_settle(rt);
	if (stats)
		*stats = s;
	return GTT_OK;
}

void dom0_switch_charge(struct dom0_runtime *rt, uint64_t ps_per_pte)
{
	rt->copy_cost_ps = ps_per_pte;
}
