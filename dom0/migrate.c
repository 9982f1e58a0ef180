/* SPDX-License-Identifier: MIT */
/*
 * Moving a vGPU while it exists (VOCL's live migration, in graphics-memory
 * terms): to other slots of the same device, or to another device with its
 * guest memory. VOCL's steps, over our state:
 *
 *   lock      the guest's writes to the vGPU are queued (VOCL's internal
 *             queue, dom0/migrate_queue.c) and its reads wait behind them;
 *             at the unlock the queue is forwarded to the vGPU's home, its
 *             addresses moved with the ranges (dom0/migrate_forward.c)
 *   drain     it is not the render owner afterwards (the scheduler's
 *             switch away: nothing of the target is written until it runs)
 *   select    slot to slot: the target run is checked (inside high memory,
 *             under the share limit); device to device: a vGPU of the same
 *             sizes is created on the target runtime
 *   transfer  slot to slot: the shadow entries move with the range (they are
 *             kept relative to it) and PVINFO's non-mappable base follows;
 *             device to device: the guest's pages are copied into the
 *             target's pages (VOCL's "copy")
 *   map       device to device (VOCL's "update the mapping"): every guest
 *             PTE is written again on the target, so its shadow names the
 *             target's pages; every guest fence is written again (re-homed
 *             into the target's pool); the guest's PVINFO words follow, and
 *             its EPOCH moves on from the source's (the ranges may differ)
 *   release   slot to slot: the source slots go back to their original
 *             entries, and a guest write there is refused from then on;
 *             device to device: the source vGPU is destroyed (the source
 *             GGTT and fences as before it existed)
 *   unlock
 *
 * A failure before release (the target refusing, a hook's injected fault)
 * rolls back: the target vGPU is destroyed, the source unlocked with its
 * ranges, entries and render ownership as they were. The physical GTT of
 * the target takes the new range at its next switch.
 */
#include "dom0/faults.h"
#include "dom0/admission.h"
#include "dom0/fence_pool.h"
#include "dom0/guest_gtt.h"
#include "dom0/migrate.h"
#include "dom0/migrate_forward.h"
#include "dom0/migrate_queue.h"
#include "dom0/ops.h"
#include "dom0/phys.h"
#include "dom0/pvinfo.h"
#include "dom0/sched.h"
#include "dom0/slots.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "hw/fence.h"
#include "hw/pte.h"

static const char *const step_names[] = { "lock", "drain", "select", "transfer", "map", "release", "unlock" };

const char *dom0_migrate_step_name(enum dom0_migrate_step s)
{
	return (unsigned)s < sizeof(step_names) / sizeof(step_names[0]) ? step_names[s] : "?";
}

/*
 * After each step: its time (since the step before ended: VOCL's Figure 8
 * breakdown) goes to m->step_ns, then the hook may inject a failure there;
 * the hook's own time is nobody's step.
 */
static int step(struct dom0_runtime *rt, int id, enum dom0_migrate_step s, struct dom0_migration *m, struct gtt_err *err)
{
	const struct dom0_migrate_hooks *h = &rt->cfg.migrate_hooks;
	uint64_t now = rt->env->now_ns(rt->env);
	int rc = GTT_OK;

	m->step_ns[s] = now - m->mark_ns;
	if (h->after_step && h->after_step(h->ctx, rt, id, s))
		rc = gtt_err_set(err, GTT_EIO, "vGPU %d: migration failed after its %s step (injected)", id,
				 dom0_migrate_step_name(s));
	m->mark_ns = rt->env->now_ns(rt->env);
	return rc;
}

/*
 * A step of a device migration, with the target vGPU t locked too while the
 * hook runs: host work between steps keeps out of both halves of the move
 * (the migration's own writes to t are made outside the hook).
 */
static int step_with(struct dom0_runtime *rt, int id, struct vgpu *t, enum dom0_migrate_step s, struct dom0_migration *m,
		     struct gtt_err *err)
{
	t->migration.migrating = t->migration.move_target = true;	/* not the guest's home yet: its operations there are refused */
	int rc = step(rt, id, s, m, err);
	t->migration.migrating = t->migration.move_target = false;
	return rc;
}

/* The ranges v has now, as a queue's from and to (a rollback's forward, before a move changes them). */
static struct dom0_rebase ranges_of(const struct dom0_runtime *rt, const struct vgpu *v)
{
	uint64_t hb = dom0_high_base(rt, v);

	return (struct dom0_rebase){ .low_from = v->low_base, .low_to = v->low_base, .low_size = v->low_size,
				     .high_from = hb, .high_to = hb, .high_size = dom0_high_size(rt, v),
				     .fp = rt->dev->info.plat, .tp = rt->dev->info.plat,
				     .tp_aperture = rt->lay.aperture_size };
}

/* The queue q[0..n) taken off a vGPU of rt (which made it), run on vGPU home_id of home. */
static void run_queue(const struct dom0_runtime *rt, struct dom0_queued *q, unsigned n, struct dom0_runtime *home,
		      int home_id, const struct dom0_rebase *b, struct dom0_migration *m)
{
	if (DOM0_FAULT(rt, migrate_drop_queue)) {	/* the fault: the queued writes are lost */
		dom0_queue_free(rt->env, q, n);
		q = NULL;
		n = 0;
	}
	dom0_forward_queue(home, home_id, q, n, b, rt->env, m);
}

/* The lock's queue, taken off v and run on vGPU home_id of home. */
static void forward(struct dom0_runtime *rt, struct vgpu *v, struct dom0_runtime *home, int home_id,
		    const struct dom0_rebase *b, struct dom0_migration *m)
{
	struct dom0_queued *q = v->migration.q;
	unsigned n = v->migration.q_n;

	v->migration.q = NULL;
	v->migration.q_n = 0;
	v->migration.q_bytes = 0;
	run_queue(rt, q, n, home, home_id, b, m);
}

static int locked(struct dom0_runtime *rt, struct vgpu *v, struct gtt_err *err)
{
	if (dom0_pause_of(v).kind)
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: its %s is paused, waiting for admission; a paused vGPU does not migrate",
				   v->id, dom0_pause_name(dom0_pause_of(v).kind));
	if (v->migration.migrating)
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d is migrating already", v->id);
	(void)rt;
	return GTT_OK;
}

/*
 * Whether the drained vGPU takes the render back on a rollback: only when
 * nothing was switched in since the drain. Host work between steps (the
 * scheduler) may have made another vGPU the owner, whose entries are in the
 * GTT now; the vGPU then gets its own back at its next switch.
 */
static void undrain(struct dom0_runtime *rt, int id, bool was_owner, uint64_t switches_at_drain)
{
	if (was_owner && dom0_gtt_owner(rt) == 0 && rt->c.switches == switches_at_drain)
		dom0_gtt_switched_to(rt, id);	/* its entries never left the physical GTT */
}


/* Whether v's run may move to start at to_slot: it holds one, the target fits and is under the share limit. */
static int slot_target_ok(const struct dom0_runtime *rt, const struct vgpu *v, unsigned to_slot, struct gtt_err *err)
{
	const struct dom0_layout *l = &rt->lay;
	unsigned from = v->first_slot, n = v->slots;
	int id = v->id;

	if (!n)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d holds no slots: there is nothing to move", id);
	if (v->n_runs)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d holds its slots in %u runs: a migration moves one run", id, v->n_runs);
	if (to_slot >= l->num_slots || n > l->num_slots - to_slot)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: %u slots from slot %u do not fit high memory's %u slots", id, n,
				   to_slot, l->num_slots);
	if (to_slot == from)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d holds slots %u-%u already", id, from, from + n - 1);
	for (unsigned s = to_slot; rt->cfg.share_limit && s < to_slot + n; s++) {
		unsigned others = rt->slot_occ[s] - (s >= from && s < from + n);
		others += rt->slot_resv[s] && rt->slot_resv[s] != id;	/* a paused create's place */
		if (others >= rt->cfg.share_limit)
			return gtt_err_set(err, GTT_EBUSY, "vGPU %d: slot %u is held by %u other vGPUs or paused requests; the share limit is %u", id, s,
					   others, rt->cfg.share_limit);
	}
	return GTT_OK;
}

static int migrate(struct dom0_runtime *rt, int id, unsigned to_slot, struct dom0_migration *out, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);
	const struct dom0_layout *l = &rt->lay;
	uint64_t t0 = rt->env->now_ns(rt->env), pps = l->slot_size / 4096;
	struct dom0_migration m = { .from_slot = 0, .to_slot = to_slot, .mark_ns = t0 };
	int rc;

	if (!v)
		return GTT_EINVAL;
	if ((rc = locked(rt, v, err)) || (rc = slot_target_ok(rt, v, to_slot, err)))
		return rc;
	unsigned from = v->first_slot, n = v->slots;
	struct dom0_rebase b = ranges_of(rt, v);
	m.from_slot = from;

	/*
	 * Lock, and hold the target run from now on: host work between the steps
	 * (creates, expansions, admission) sees it taken, and the source run stays
	 * held until its entries go back at release. A slot of both counts once.
	 */
	bool was_owner = false;
	uint64_t switches_at_drain = 0;
	v->migration.migrating = true;
	dom0_slot_occupy_apart(rt, to_slot, n, from, n, 1);
	if ((rc = step(rt, id, DOM0_MIGRATE_LOCK, &m, err)))
		goto unlock;
	/* drain: whoever the owner is now (host work after the lock may have switched it away already) */
	if ((was_owner = dom0_gtt_drain(rt, id)))
		m.drained = true;
	switches_at_drain = rt->c.switches;
	if ((rc = step(rt, id, DOM0_MIGRATE_DRAIN, &m, err)) || (rc = step(rt, id, DOM0_MIGRATE_SELECT, &m, err)))
		goto undrain;
	/* transfer: the shadow is relative to the range; PVINFO's range words follow */
	uint32_t pv_was[DOM0_PV_RANGE_WORDS];
	dom0_pvinfo_ranges_save(v, pv_was);
	dom0_phys_settle_owner(rt, id);	/* the shadow's entries change place: no chunk recorded against them */
	dom0_slot_rebase(v, to_slot);
	dom0_pvinfo_ranges(rt, v);
	if ((rc = step(rt, id, DOM0_MIGRATE_TRANSFER, &m, err)) || (rc = step(rt, id, DOM0_MIGRATE_MAP, &m, err))) {
		dom0_slot_rebase(v, from);
		dom0_pvinfo_ranges_restore(v, pv_was);	/* as they were, the epoch too; no other word is the move's */
		goto undrain;
	}
	/* release: the source slots' entries go back; nothing of the vGPU stays mapped there */
	if (!DOM0_FAULT(rt, migrate_no_release))
		m.ptes_released = dom0_phys_release(rt, GM_PAGE(l->slots_base) + from * pps, n * pps, id);
	if (m.ptes_released)
		dom0_invalidate(rt);
	dom0_slot_occupy_apart(rt, from, n, to_slot, n, -1);
	dom0_freed(rt);
	dom0_undo_settle(rt);
	rt->c.migrations++;
	step(rt, id, DOM0_MIGRATE_RELEASE, &m, NULL);	/* past the release nothing rolls back */
	v->migration.migrating = false;
	b.high_to = dom0_high_base(rt, v);
	forward(rt, v, rt, id, &b, &m);		/* before anything else of the guest's runs */
	step(rt, id, DOM0_MIGRATE_UNLOCK, &m, NULL);
	m.ns = rt->env->now_ns(rt->env) - t0;
	if (out)
		*out = m;
	return GTT_OK;
undrain:
	undrain(rt, id, was_owner, switches_at_drain);
unlock:
	dom0_slot_occupy_apart(rt, to_slot, n, from, n, -1);
	v->migration.migrating = false;
	forward(rt, v, rt, id, &b, &m);		/* b: the ranges as they were, and are again */
	return rc;
}

int dom0_migrate(struct dom0_runtime *rt, int id, unsigned to_slot, struct dom0_migration *out, struct gtt_err *err)
{
	return dom0_op_done(rt, migrate(rt, id, to_slot, out, err), err);
}

/* A guest PTE of the source in the target's format: the same bits on the same platform, else re-encoded uncached. */
static int translate_pte(const struct gtt_platform *from, const struct gtt_platform *to, uint64_t gpte, uint64_t *out,
			 struct gtt_err *err)
{
	struct hw_pte d;

	if (from == to) {
		*out = gpte;
		return GTT_OK;
	}
	hw_pte_decode(from, gpte, &d);
	if (!d.valid) {
		*out = 0;
		return GTT_OK;
	}
	return hw_pte_encode(to, d.addr, HW_CACHE_NONE, out, err);
}

/*
 * A guest PTE written again on the target. A frame beyond the guest's memory
 * was refused on the source too and kept with the scratch page mapped: the
 * target does the same (GTT_EINVAL with the entry stored), which is no failure
 * of the move.
 */
static int map_pte(struct dom0_runtime *src, struct vgpu *v, struct dom0_runtime *dst, struct vgpu *t, uint64_t index,
		   uint64_t gpte, struct dom0_migration *m, struct gtt_err *err)
{
	struct hw_pte d;
	uint64_t g;
	int rc;

	if ((rc = translate_pte(src->dev->info.plat, dst->dev->info.plat, gpte, &g, err)))
		return rc;
	hw_pte_decode(src->dev->info.plat, gpte, &d);
	rc = dom0_guest_pte_write(dst, t->id, index, g, err);
	if (rc == GTT_EINVAL && d.valid && (d.addr >> 12) >= v->mem_pages) {
		t->c.rejected--;	/* the source counted the guest's refusal; the move makes none */
		rc = GTT_OK;
	}
	if (!rc)
		m->ptes_mapped++;
	return rc;
}

/* Transfer and map onto the target vGPU t. */
static int move_state(struct dom0_runtime *src, struct vgpu *v, struct dom0_runtime *dst, struct vgpu *t,
		      struct dom0_migration *m, struct gtt_err *err)
{
	const struct gtt_platform *fp = src->dev->info.plat, *tp = dst->dev->info.plat;
	uint64_t n_high = GM_PAGE(dom0_high_size(src, v));
	int rc;

	/* transfer: the guest's pages into the target's */
	for (unsigned i = 0; i < v->mem_pages; i++) {
		if (!v->mem[i].cpu || !t->mem[i].cpu)
			return gtt_err_set(err, GTT_EIO, "vGPU %d: guest page %u has no CPU mapping to copy through", v->id, i);
		if (!DOM0_FAULT(src, migrate_skip_copy))
			gtt_memcpy(t->mem[i].cpu, v->mem[i].cpu, 4096);
		m->bytes_copied += 4096;
	}
	if ((rc = step_with(src, v->id, t, DOM0_MIGRATE_TRANSFER, m, err)))
		return rc;
	/* map: every guest PTE written again on the target (its shadow names the target's pages) */
	for (uint64_t i = 0; i < GM_PAGE(v->low_size); i++)
		if (v->guest_low[i] && (rc = map_pte(src, v, dst, t, GM_PAGE(t->low_base) + i, v->guest_low[i], m, err)))
			return rc;
	for (uint64_t i = 0; i < n_high; i++)
		if (v->guest_high[i] &&
		    (rc = map_pte(src, v, dst, t, GM_PAGE(dom0_high_base(dst, t)) + i, v->guest_high[i], m, err)))
			return rc;
	/* the guest's fences, their low-range addresses moved with the range, re-homed into the target's pool */
	for (unsigned f = 0; f < v->fences; f++) {
		struct hw_fence d;
		uint64_t val;
		hw_fence_decode(fp, dom0_guest_fence_value(v, f), &d);
		if (!d.valid)
			continue;
		d.start = d.start - v->low_base + t->low_base;
		if ((rc = hw_fence_encode(tp, dst->lay.aperture_size, &d, &val, err)) ||
		    (rc = dom0_guest_fence_write(dst, t->id, f, val, err)))
			return rc;
		if (dom0_pause_of(t).kind)
			return gtt_err_set(err, GTT_EBUSY, "vGPU %d: the target's pool has no room for fence %u (it would wait)",
					   v->id, f);
		m->fences_moved++;
	}
	dom0_pvinfo_copy(t, v);
	dom0_sched_take_busy(t, v);
	if ((rc = step_with(src, v->id, t, DOM0_MIGRATE_MAP, m, err)))
		return rc;
	/* a request the source had not answered yet waits on the target (its doorbell rung there) */
	dom0_request_move(dst, t, v);
	return GTT_OK;
}

int dom0_migrate_device(struct dom0_runtime *src, int id, struct dom0_runtime *dst, int *new_id,
			struct dom0_migration *out, struct gtt_err *err)
{
	return dom0_migrate_device_onto(src, id, dst, NULL, new_id, out, err);
}

/* A valid fence keeps its bit-6 swizzling on the target, or the guest's tiled bytes would read otherwise there. */
static int same_swizzle(const struct dom0_runtime *src, const struct vgpu *v, const struct dom0_runtime *dst,
			struct gtt_err *err)
{
	const struct gtt_platform *fp = src->dev->info.plat, *tp = dst->dev->info.plat;

	for (unsigned f = 0; f < v->fences; f++) {
		struct hw_fence d;
		hw_fence_decode(fp, dom0_guest_fence_value(v, f), &d);
		int sw_from = d.tiling == HW_TILING_Y ? fp->swizzle_y : fp->swizzle_x;
		int sw_to = d.tiling == HW_TILING_Y ? tp->swizzle_y : tp->swizzle_x;
		if (d.valid && sw_from != sw_to)
			return gtt_err_set(err, GTT_EINVAL,
					   "vGPU %d: its fence %u is %s-tiled and %s detiles with bit-6 swizzle mode %d, %s with %d: the guest's tiled bytes would read otherwise there",
					   v->id, f, hw_tiling_name(d.tiling), fp->name, sw_from, tp->name, sw_to);
	}
	return GTT_OK;
}

/*
 * Release: the source vGPU goes, the source device as before it existed;
 * the lock's queue runs on the target before anything else of the guest's.
 */
static int release_source(struct dom0_runtime *src, struct vgpu *v, struct dom0_runtime *dst, struct vgpu *t,
			  struct dom0_migration *m, struct gtt_err *err)
{
	struct dom0_rebase b = ranges_of(src, v);
	struct dom0_queued *q = v->migration.q;
	unsigned qn = v->migration.q_n;
	int tid = t->id;

	b.low_to = t->low_base;
	b.high_to = dom0_high_base(dst, t);
	b.tp = dst->dev->info.plat;
	b.tp_aperture = dst->lay.aperture_size;
	v->migration.q = NULL;
	v->migration.q_n = 0;
	v->migration.migrating = false;
	int rc = dom0_vgpu_destroy(src, v->id, err);	/* v is gone from here */
	run_queue(src, q, qn, dst, tid, &b, m);
	return rc;
}

int dom0_migrate_device_onto(struct dom0_runtime *src, int id, struct dom0_runtime *dst, const struct hw_page *mem,
			     int *new_id, struct dom0_migration *out, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(src, id, err);
	uint64_t t0 = src->env->now_ns(src->env);
	struct dom0_migration m = { .mark_ns = t0 };
	int rc, tid = 0;

	if (!v)
		return GTT_EINVAL;
	if (src == dst || src->dev == dst->dev)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: the target is the same device; migrate to a slot instead", id);
	if (v->n_runs)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d holds its slots in %u runs: a migration moves one run", id, v->n_runs);
	if ((rc = locked(src, v, err)) || (rc = same_swizzle(src, v, dst, err)))
		return rc;
	m.from_slot = v->first_slot;
	bool was_owner = false;
	uint64_t switches_at_drain = 0;
	v->migration.migrating = true;
	if ((rc = step(src, id, DOM0_MIGRATE_LOCK, &m, err)))
		goto unlock;
	if ((was_owner = dom0_gtt_drain(src, id)))
		m.drained = true;
	switches_at_drain = src->c.switches;
	if ((rc = step(src, id, DOM0_MIGRATE_DRAIN, &m, err)))
		goto undrain;
	/* select: a vGPU of the same sizes on the target, placed by it */
	struct dom0_vgpu_params p = { .low_size = v->low_size, .high_slots = v->slots, .fences = v->fences,
				      .mem_pages = v->mem_pages, .mem = mem };
	if ((rc = dom0_vgpu_create(dst, &p, &tid, err)))
		goto undrain;
	struct vgpu *t = dst->v[tid];
	if (dom0_pause_of(t).kind) {
		rc = gtt_err_set(err, GTT_EBUSY, "vGPU %d: %u slots and %u fences do not fit the target now (it would wait for admission)",
				 id, v->slots, v->fences);
		goto drop;
	}
	m.to_slot = t->first_slot;
	if ((rc = step_with(src, id, t, DOM0_MIGRATE_SELECT, &m, err)) || (rc = move_state(src, v, dst, t, &m, err)))
		goto drop;
	if ((rc = release_source(src, v, dst, t, &m, err)))
		return rc;	/* the move is made: the target holds the vGPU; the source's release is what failed */
	src->c.migrations++;
	dst->c.migrations++;
	step(src, id, DOM0_MIGRATE_RELEASE, &m, NULL);
	step(src, id, DOM0_MIGRATE_UNLOCK, &m, NULL);
	m.ns = src->env->now_ns(src->env) - t0;
	if (new_id)
		*new_id = tid;
	if (out)
		*out = m;
	return GTT_OK;
drop:
	if (!DOM0_FAULT(src, migrate_no_rollback))
		dom0_vgpu_destroy(dst, tid, NULL);
undrain:
	undrain(src, id, was_owner, switches_at_drain);
unlock:
	v->migration.migrating = false;
	struct dom0_rebase same = ranges_of(src, v);
	forward(src, v, src, id, &same, &m);
	return rc;
}
