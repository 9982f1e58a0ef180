/* SPDX-License-Identifier: MIT */
/*
 * The migration suite: VOCL's live migration on graphics memory, judged from
 * outside. While a migration locks the vGPU, a guest write is queued, a read
 * waits behind it and a switch to it is refused; the write is forwarded at
 * the unlock. Slot to slot: the vGPU's high range moves, PVINFO says where,
 * the source slots read back as they were before the vGPU existed, a guest
 * write there is refused, and after a switch the GPU reads the guest's bytes at
 * the new addresses. Device to device (to a second device the front-end
 * presents): the source device's GGTT and fences read back as before the
 * vGPU existed there, the target's physical GTT equals the shadow after a
 * switch, and the guest reads its own bytes through its aperture and its
 * fence there; a failure injected after every step, and a target whose pool
 * is too small, leave the target as it was and the vGPU running on the source.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_dom0_common.h"
#include "dom0/ops.h"
#include "env/fmt.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "regs/pvinfo.h"

#define LOW		(4ull << 20)
#define FRAMES		32

/* The whole GSM and every fence register of a device. */
struct capture {
	uint64_t *ptes, fences[I915_MAX_NUM_FENCES];
};

static enum check_status capture(struct check_ctx *c, struct hw_device *dev, struct capture *k)
{
	struct gtt_err err = { 0 };

	if (!k->ptes && !(k->ptes = gtt_alloc_uninit(dev->env, (size_t)dev->info.n_ptes, sizeof(uint64_t))))
		return ck_fail(c, "out of memory for a copy of %llu PTEs", (unsigned long long)dev->info.n_ptes);
	if (hw_ggtt_read_range(dev, 0, (size_t)dev->info.n_ptes, k->ptes, &err))
		return ck_error(c, "reading the GTT", &err);
	for (unsigned i = 0; i < dev->info.num_fences; i++)
		if (hw_fence_read(dev, i, &k->fences[i], &err))
			return ck_error(c, "reading a fence", &err);
	return CHECK_PASS;
}

/* The device reads back as in k: the first entry or fence that does not is named. */
static enum check_status same_as(struct check_ctx *c, struct hw_device *dev, const struct capture *k, const char *what)
{
	struct capture now = { 0 };
	enum check_status st = capture(c, dev, &now);

	uint64_t e = 0, n = dev->info.n_ptes;
	for (; !st && e + 4 <= n; e += 4)	/* four compared a branch; the one that differs found below */
		if ((now.ptes[e] ^ k->ptes[e]) | (now.ptes[e + 1] ^ k->ptes[e + 1]) | (now.ptes[e + 2] ^ k->ptes[e + 2]) |
		    (now.ptes[e + 3] ^ k->ptes[e + 3]))
			break;
	for (; !st && e < n; e++)
		if (now.ptes[e] != k->ptes[e])
			st = ck_fail(c, "%s: PTE %llu (GM 0x%llx) reads 0x%llx; it held 0x%llx", what, (unsigned long long)e,
				     (unsigned long long)(e << 12), (unsigned long long)now.ptes[e], (unsigned long long)k->ptes[e]);
	for (unsigned i = 0; !st && i < dev->info.num_fences; i++)
		if (now.fences[i] != k->fences[i])
			st = ck_fail(c, "%s: fence %u reads 0x%llx; it held 0x%llx", what, i, (unsigned long long)now.fences[i],
				     (unsigned long long)k->fences[i]);
	dev->env->free(dev->env, now.ptes);
	return st;
}

/* Guest frame g holds "gfn G of vGPU" bytes: 16 bytes the reads compare. */
static void pattern(uint8_t *b, unsigned g)
{
	for (unsigned i = 0; i < 16; i++)
		b[i] = (uint8_t)(0xa0 + g * 7 + i);
}

/* The vGPU's first FRAMES frames get their pattern; every 7th high entry and the first FRAMES low ones map them. */
static enum check_status fill(struct check_ctx *c, struct dck_rt *r, int id)
{
	struct dom0_vgpu_info in;

	dom0_vgpu_info(r->rt, id, &in);
	for (unsigned g = 0; g < FRAMES; g++) {
		struct hw_page pg;
		if (dom0_guest_page(r->rt, id, g, &pg) || !pg.cpu)
			return ck_fail(c, "vGPU %d: guest page %u has no CPU mapping", id, g);
		pattern(pg.cpu, g);
	}
	for (uint64_t i = 0; i < FRAMES; i++)
		if (dom0_guest_pte_write(r->rt, id, in.low_base / 4096 + i, dck_guest_pte(c, i), &r->err))
			return ck_error(c, "guest PTE write", &r->err);
	for (uint64_t i = 0; i < in.high_size / 4096; i += 7)
		if (dom0_guest_pte_write(r->rt, id, in.high_base / 4096 + i, dck_guest_pte(c, (i / 7) % FRAMES), &r->err))
			return ck_error(c, "guest PTE write", &r->err);
	return CHECK_PASS;
}

/* The GPU reads frame (i / 7) % FRAMES's bytes at every 7th page of the high range (the render owner's). */
static enum check_status gpu_reads_high(struct check_ctx *c, struct hw_device *dev, uint64_t base, uint64_t size,
					const char *who)
{
	struct gtt_err err = { 0 };
	uint8_t got[16], want[16];

	for (uint64_t i = 0; i < size / 4096; i += 7 * 61) {
		pattern(want, (unsigned)((i / 7) % FRAMES));
		int rc = hw_gpu_read(dev, base + i * 4096, got, sizeof(got), &err);
		if (rc == GTT_ENOTSUP)
			return CHECK_PASS;	/* no GPU-side accessor (real hardware): the PTEs were compared */
		if (rc)
			return ck_error(c, "a GPU-side read", &err);
		for (unsigned k = 0; k < sizeof(got); k++)
			if (got[k] != want[k])
				return ck_fail(c, "%s: the GPU reads 0x%02x at GM 0x%llx; the guest's frame %llu holds 0x%02x", who,
					       got[k], (unsigned long long)(base + i * 4096 + k),
					       (unsigned long long)((i / 7) % FRAMES), want[k]);
	}
	return CHECK_PASS;
}

/* The guest reads its frames' bytes through its aperture (ladder map, and the pool where fenced). */
static enum check_status guest_reads(struct check_ctx *c, struct dck_rt *r, int id, const char *where)
{
	struct dom0_vgpu_info in;
	uint8_t got[16], want[16];

	dom0_vgpu_info(r->rt, id, &in);
	for (unsigned g = 0; g < FRAMES; g += 3) {
		/* inside the X-tiled fence (the first 16 pages) a linear offset lands on another
		 * frame; the tile row's first 512 bytes of page 0 are page 0's */
		uint64_t gm = in.low_base + (uint64_t)g * 4096;
		if (g && g < 16)
			continue;
		pattern(want, g);
		if (dom0_guest_aperture_read(r->rt, id, gm, got, sizeof(got), &r->err))
			return ck_error(c, "a guest aperture read", &r->err);
		for (unsigned k = 0; k < sizeof(got); k++)
			if (got[k] != want[k])
				return ck_fail(c, "vGPU %d %s: the guest reads 0x%02x at GM 0x%llx through its aperture; it wrote 0x%02x",
					       id, where, got[k], (unsigned long long)(gm + k), want[k]);
	}
	return CHECK_PASS;
}

struct lock_probe {
	int id;
	enum dom0_migrate_step fail_at;		/* > MAP: never */
	bool tried, queued;
};

static int probe(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	struct lock_probe *p = ctx;

	if (s == DOM0_MIGRATE_LOCK) {
		struct dom0_vgpu_info in;
		dom0_vgpu_info(rt, id, &in);
		uint64_t idx = in.low_base / 4096, pte = 0, again;
		p->tried = true;
		/* the guest writes its first PTE again, as it is: queued; a read then waits behind it */
		p->queued = !dom0_guest_pte_read(rt, id, idx, &pte, NULL) && !dom0_guest_pte_write(rt, id, idx, pte, NULL) &&
			    dom0_guest_pte_read(rt, id, idx, &again, NULL) == GTT_EBUSY &&
			    dom0_switch(rt, id, NULL, NULL) == GTT_EBUSY;
	}
	return s == p->fail_at;
}

static enum check_status check_migration_slots(struct check_ctx *c)
{
	struct lock_probe pr = { .fail_at = DOM0_MIGRATE_UNLOCK + 1 };
	struct dom0_config cfg = { .migrate_hooks = { probe, &pr } };
	struct dck_rt r = { 0 };
	struct dom0_migration m;
	int a, b;
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	const struct dom0_layout *l = dom0_layout(r.rt);
	if (l->num_slots < 6)
		return dck_stop(c, &r, ck_skip(c, "%u slots of high graphics memory: the check needs 6", l->num_slots));
	uint64_t pps = l->slot_size / 4096, old_first = l->slots_base / 4096;
	uint64_t *boot = gtt_calloc(c->dev->env, (size_t)(2 * pps), sizeof(uint64_t)), *now = NULL;
	if (!boot || hw_ggtt_read_range(c->dev, old_first, (size_t)(2 * pps), boot, &r.err)) {
		c->dev->env->free(c->dev->env, boot);
		return dck_stop(c, &r, ck_fail(c, "reading slots 0-1 as found"));
	}
	/* a in slots 0-1 next to b in 2-3: crowded; it moves to the last two */
	if (dck_create(c, &r, LOW, 2, 0, 0, &a) || dck_create(c, &r, LOW, 2, 0, 2, &b) || (st = fill(c, &r, a)) ||
	    (st = fill(c, &r, b)) || (st = dck_agree(c, &r, b)) || (st = dck_agree(c, &r, a)))
		goto out;
	pr.id = a;
	unsigned to = l->num_slots - 2;
	if (dom0_migrate(r.rt, a, to, &m, &r.err)) {
		st = ck_error(c, "migrating a", &r.err);
		goto out;
	}
	if (!pr.tried || !pr.queued || m.forwarded != 1 || m.forward_refused) {
		st = ck_fail(c, "vGPU %d locked for its migration: %s; %u queued writes forwarded at the unlock, %u refused there",
			     a, !pr.tried ? "never tried" : !pr.queued ? "a guest PTE write was not queued, a read did not "
			     "wait behind it, or a switch to it was accepted" : "its one queued write", m.forwarded,
			     m.forward_refused);
		goto out;
	}
	uint64_t base = l->slots_base + (uint64_t)to * l->slot_size;
	if (dck_pv(&r, a, VGT_IF_NONMAPPABLE_BASE) != (uint32_t)base || !m.drained || dom0_render_owner(r.rt) == a) {
		st = ck_fail(c, "vGPU %d moved to slot %u: PVINFO non-mappable base (0x%x) 0x%x, expected 0x%llx; drained %d, render owner %d",
			     a, to, VGT_IF_NONMAPPABLE_BASE, dck_pv(&r, a, VGT_IF_NONMAPPABLE_BASE), (unsigned long long)base,
			     m.drained, dom0_render_owner(r.rt));
		goto out;
	}
	/* the source slots: as before the vGPU existed, and closed to its guest */
	if (!(now = gtt_calloc(c->dev->env, (size_t)(2 * pps), sizeof(uint64_t))) ||
	    hw_ggtt_read_range(c->dev, old_first, (size_t)(2 * pps), now, &r.err)) {
		st = ck_fail(c, "reading slots 0-1 back");
		goto out;
	}
	for (uint64_t i = 0; i < 2 * pps && !st; i++)
		if (now[i] != boot[i])
			st = ck_fail(c, "PTE %llu of the released slots reads 0x%llx; before vGPU %d existed it held 0x%llx",
				     (unsigned long long)(old_first + i), (unsigned long long)now[i], a, (unsigned long long)boot[i]);
	if (st)
		goto out;
	if (dom0_guest_pte_write(r.rt, a, old_first, dck_guest_pte(c, 1), NULL) != GTT_ERANGE) {
		st = ck_fail(c, "vGPU %d: a guest write to PTE %llu of its released slots was not refused as outside its ranges", a,
			     (unsigned long long)old_first);
		goto out;
	}
	/* after a switch: the GTT is its shadow, and the GPU reads its bytes at the new addresses */
	if ((st = dck_agree(c, &r, a)) || (st = gpu_reads_high(c, c->dev, base, 2 * l->slot_size, "after the move")) ||
	    (st = dck_agree(c, &r, b)))
		goto out;
	if (dom0_counters(r.rt)->migrations != 1)
		st = ck_fail(c, "the runtime counted %llu migrations, one was made",
			     (unsigned long long)dom0_counters(r.rt)->migrations);
out:
	c->dev->env->free(c->dev->env, boot);
	c->dev->env->free(c->dev->env, now);
	return dck_stop(c, &r, st);
}

/* The vGPU on the source: its fence, PVINFO word, bytes; switched in. */
static enum check_status source_vgpu(struct check_ctx *c, struct dck_rt *r, int *id)
{
	const struct dom0_layout *l = dom0_layout(r->rt);
	struct hw_fence f = { .valid = true, .start = l->guest_low_base, .size = 16 * 4096, .stride = 4096,
			      .tiling = HW_TILING_X };
	uint64_t val;
	enum check_status st;

	if (dck_create(c, r, LOW, 1, 1, -1, id))
		return CHECK_FAIL;
	if ((st = fill(c, r, *id)))
		return st;
	if (hw_fence_encode(c->dev->info.plat, l->aperture_size, &f, &val, &r->err) ||
	    dom0_guest_fence_write(r->rt, *id, 0, val, &r->err) ||
	    dom0_pvinfo_write(r->rt, *id, VGT_IF_DISPLAY_READY - VGT_PVINFO_PAGE, VGT_DRV_DISPLAY_READY, &r->err))
		return ck_error(c, "the guest's fence and PVINFO", &r->err);
	if ((st = dck_agree(c, r, *id)))
		return st;
	return guest_reads(c, r, *id, "on the source");
}

/* A migration that fails (at a step, or refused by the target) leaves the target as it was and the vGPU on the source. */
static enum check_status rolled_back(struct check_ctx *c, struct dck_rt *src, int a, struct hw_device *peer,
				     struct dck_rt *dst, const struct capture *before, const char *why)
{
	char what[96];
	enum check_status st;

	gtt_snprintf(what, sizeof(what), "after a migration that failed (%s), the target", why);
	if ((st = same_as(c, peer, before, what)))
		return st;
	if (dom0_vgpu_exists(dst->rt, 1))
		return ck_fail(c, "after a migration that failed (%s), the target still holds a vGPU", why);
	if (!dom0_vgpu_exists(src->rt, a) || dom0_vgpu_migrating(src->rt, a) || dom0_render_owner(src->rt) != a)
		return ck_fail(c, "after a migration that failed (%s), vGPU %d is %s on the source", why, a,
			       !dom0_vgpu_exists(src->rt, a) ? "gone" :
			       dom0_vgpu_migrating(src->rt, a) ? "still locked" : "no longer the render owner");
	return CHECK_PASS;
}

static enum check_status check_migration_device(struct check_ctx *c)
{
	struct lock_probe pr = { .fail_at = DOM0_MIGRATE_UNLOCK + 1 };
	struct dom0_config cfg = { .migrate_hooks = { probe, &pr } }, pcfg = { 0 };
	struct dck_rt r = { 0 }, p = { 0 };
	struct capture src0 = { 0 }, peer0 = { 0 };
	struct hw_device *peer = NULL;
	struct dom0_migration m;
	int a, t;
	enum check_status st;

	if (ck_open_peer(c, &peer))
		return CHECK_FAIL;
	if ((st = capture(c, c->dev, &src0)) || (st = dck_start(c, &cfg, &r)))
		goto close;
	if ((st = source_vgpu(c, &r, &a)))
		goto stop;
	pr.id = a;
	/* a target whose pool cannot hold the guest's fence refuses: rolled back */
	pcfg.pool_size = 4 * 4096;
	if ((st = capture(c, peer, &peer0)) || (st = dck_start_on(c, peer, &pcfg, &p)))
		goto stop;
	if (!dom0_migrate_device(r.rt, a, p.rt, &t, &m, &r.err)) {
		st = ck_fail(c, "vGPU %d moved to a target whose 4-page pool cannot hold its 16-page fence", a);
		goto stop_peer;
	}
	if ((st = rolled_back(c, &r, a, peer, &p, &peer0, "the target's pool is full")))
		goto stop_peer;
	dck_stop(c, &p, CHECK_PASS);
	p.rt = NULL;
	pcfg.pool_size = 0;
	if ((st = dck_start_on(c, peer, &pcfg, &p)))
		goto stop;
	/* a failure after every step before the release */
	for (enum dom0_migrate_step s = DOM0_MIGRATE_LOCK; s <= DOM0_MIGRATE_MAP && !st; s++) {
		pr.fail_at = s;
		if (!dom0_migrate_device(r.rt, a, p.rt, &t, &m, &r.err))
			st = ck_fail(c, "a migration with a failure after its %s step succeeded", dom0_migrate_step_name(s));
		else
			st = rolled_back(c, &r, a, peer, &p, &peer0, dom0_migrate_step_name(s));
	}
	if (st || (st = dck_agree(c, &r, a)) || (st = guest_reads(c, &r, a, "on the source after the failed migrations")))
		goto stop_peer;
	/* and one that succeeds */
	pr.fail_at = DOM0_MIGRATE_UNLOCK + 1;
	if (dom0_migrate_device(r.rt, a, p.rt, &t, &m, &r.err)) {
		st = ck_error(c, "migrating to the second device", &r.err);
		goto stop_peer;
	}
	if ((st = same_as(c, c->dev, &src0, "after the vGPU left, the source device")))
		goto stop_peer;
	if (m.bytes_copied != 32 * 4096 || m.fences_moved != 1 || !pr.queued || m.forwarded != 1 || m.forward_refused) {
		st = ck_fail(c, "the migration copied %llu bytes and moved %u fences (the guest has 32 pages and 1 fence); a "
			     "write while locked %s, %u forwarded to the target, %u refused there",
			     (unsigned long long)m.bytes_copied, m.fences_moved, pr.queued ? "was queued" : "was not queued",
			     m.forwarded, m.forward_refused);
		goto stop_peer;
	}
	struct dom0_vgpu_info in;
	dom0_vgpu_info(p.rt, t, &in);
	if ((st = dck_agree_on(c, peer, &p, t)) || (st = guest_reads(c, &p, t, "on the target")) ||
	    (st = gpu_reads_high(c, peer, in.high_base, in.high_size, "on the target")))
		goto stop_peer;
	if (dck_pv(&p, t, VGT_IF_DISPLAY_READY) != VGT_DRV_DISPLAY_READY)
		st = ck_fail(c, "vGPU %d on the target: PVINFO display_ready (0x%x) reads %u; the guest wrote %u", t,
			     VGT_IF_DISPLAY_READY, dck_pv(&p, t, VGT_IF_DISPLAY_READY), VGT_DRV_DISPLAY_READY);
stop_peer:
	if (p.rt)
		st = dck_stop(c, &p, st);
stop:
	st = dck_stop(c, &r, st);
close:
	c->dev->env->free(c->dev->env, src0.ptes);
	c->dev->env->free(c->dev->env, peer0.ptes);
	if (peer)
		hw_close(peer);
	return st;
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "migration-slots", "migration", "VOCL's migration to other slots: locked while it moves, PVINFO's new base, the source slots as found and closed to the guest, the GPU reads its bytes at the new range",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_migration_slots },
	{ "migration-device", "migration", "a vGPU moved to a second device with its memory, shadow, fence and PVINFO: the source as before it existed, the target's GTT its shadow, its bytes through aperture and fence; failures roll back",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_migration_device },
};

const struct check_rows checks_migration = { rows, sizeof(rows) / sizeof(rows[0]) };
