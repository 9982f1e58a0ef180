/* SPDX-License-Identifier: MIT */
/*
 * Migration (VOCL, dom0/migrate.c), judged from the model's side.
 *
 * Slot to slot: the high range moves to start at slots_base + to_slot *
 * slot_size (PVINFO says so), the render owner is drained, the source slots
 * read back byte-identical to before the vGPU existed and refuse guest
 * writes (GTT_ERANGE), and after the next switch the new range's physical
 * entries equal the shadow, name the guest's own pages, and the GPU reads
 * the guest's bytes there. Refusals change nothing. The steps run in VOCL's
 * order, and while locked guest operations and a switch to it are refused.
 * A failure injected after any step before release changes nothing.
 *
 * Device to device: the source device reads back as before the vGPU was
 * created there, the guest's memory is copied, the target's physical GTT
 * equals its shadow and names its own pages after a switch, and the guest
 * reads the same bytes through its aperture (ladder map and fence) and the
 * GPU on the target. A failure at any step, a target pool too small for the
 * fence, or a target without room rolls back: the target reads back as
 * before, the vGPU runs on the source as it did. A retry then succeeds.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hw/fence.h"
#include "hw/sim/sim.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

/* ------------------------------------------------------------------ helpers */

static uint32_t pv(struct dom0_runtime *rt, int id, uint32_t reg)
{
	uint32_t v = 0xdeadbeefu;
	struct gtt_err err = { 0 };

	cr_assert_eq(dom0_pvinfo_read(rt, id, reg - VGT_PVINFO_PAGE, &v, &err), 0, "pvinfo read 0x%x: %s", reg, err.msg);
	return v;
}

static void pv_page(struct dom0_runtime *rt, int id, uint32_t *w)
{
	for (uint32_t i = 0; i < VGT_PVINFO_WORDS; i++)
		cr_assert_eq(dom0_pvinfo_read(rt, id, i * 4, &w[i], NULL), 0);
}

/* A page's bytes, distinct for every seed. */
static void fill(void *page, uint32_t seed)
{
	uint8_t *b = page;

	for (uint32_t i = 0; i < 4096; i++)
		b[i] = (uint8_t)((seed * 131u + i * 7u + (i >> 8) * 13u + (seed >> 3)) ^ (seed * 0x9eu));
}

/* PTEs [first, first + n) as the model's GSM window holds them, in one run (the same reads as d0_phys). */
static void read_ptes(const struct d0 *t, uint64_t first, size_t n, uint64_t *out)
{
	unsigned ps = t->dev->info.pte_size;

	sim_gsm_read_run(t->sim, t->dev->info.gsm_offset + (uint32_t)(first * ps), out, n, ps);
}

#define RUN 8192u

/*
 * d0_capture's bytes (the whole GSM, then every fence register), read in runs
 * through the model's GSM window: the same reads without 2 M calls.
 * slot_to_slot checks it against d0_capture.
 */
static struct spare {
	uint8_t *b;
	size_t len;
} spares[6];

/* Captures are 8 MiB: their buffers are kept for the next one (fresh pages fault in one by one, slowly). */
static void drop(uint8_t *b, size_t len)
{
	for (unsigned i = 0; i < 6; i++)
		if (!spares[i].b) {
			spares[i] = (struct spare){ b, len };
			return;
		}
	free(b);
}

static uint8_t *snap(const struct d0 *t, size_t *len)
{
	static uint64_t run[RUN];
	unsigned ps = t->dev->info.pte_size;
	size_t gsm = t->dev->info.gsm_size, n = gsm / ps, fences = t->dev->info.num_fences * 8;
	uint8_t *b = NULL;

	for (unsigned i = 0; i < 6 && !b; i++)
		if (spares[i].b && spares[i].len == gsm + fences) {
			b = spares[i].b;
			spares[i].b = NULL;
		}
	if (!b)
		b = malloc(gsm + fences);
	cr_assert_not_null(b);
	for (size_t i = 0; i < n; i += RUN) {
		size_t k = n - i < RUN ? n - i : RUN;
		read_ptes(t, i, k, run);
		for (size_t j = 0; j < k; j++)
			memcpy(b + (i + j) * ps, &run[j], ps);
	}
	for (size_t off = 0; off < fences; off += 4) {
		uint32_t v = sim_mmio_read32(t->sim, FENCE_REG_GEN6_BASE + (uint32_t)off);
		memcpy(b + gsm + off, &v, 4);
	}
	*len = gsm + fences;
	return b;
}

static uint64_t cap_pte(const struct d0 *t, const uint8_t *cap, uint64_t index)
{
	uint64_t v = 0;

	memcpy(&v, cap + index * t->dev->info.pte_size, t->dev->info.pte_size);
	return v;
}

/* The device's whole GSM and fences read back as `want` (a snap): the first difference is named. */
static void expect_capture(const struct d0 *t, const uint8_t *want, size_t len, const char *what)
{
	static uint64_t run[RUN];
	unsigned ps = t->dev->info.pte_size;
	size_t gsm = t->dev->info.gsm_size, n = gsm / ps, fences = t->dev->info.num_fences * 8;

	cr_assert_eq(len, gsm + fences);
	for (size_t i = 0; i < n; i += RUN) {
		size_t k = n - i < RUN ? n - i : RUN;
		read_ptes(t, i, k, run);
		for (size_t j = 0; j < k; j++)
			if (run[j] != cap_pte(t, want, i + j)) {
				cr_expect(false, "%s: PTE %zu (GM 0x%llx) reads 0x%llx; it held 0x%llx", what, i + j,
					  (unsigned long long)(i + j) << 12, (unsigned long long)run[j],
					  (unsigned long long)cap_pte(t, want, i + j));
				return;
			}
	}
	for (size_t off = 0; off < fences; off += 4) {
		uint32_t v = sim_mmio_read32(t->sim, FENCE_REG_GEN6_BASE + (uint32_t)off), w;
		memcpy(&w, want + gsm + off, 4);
		cr_expect_eq(v, w, "%s: fence %zu reads 0x%x in its %s half; it held 0x%x", what, off / 8, v,
			     off % 8 ? "high" : "low", w);
	}
}

static void expect_same_info(const struct dom0_vgpu_info *a, const struct dom0_vgpu_info *b, const char *what)
{
	cr_expect(a->low_base == b->low_base && a->low_size == b->low_size, "%s: low range changed", what);
	cr_expect(a->high_base == b->high_base && a->high_size == b->high_size, "%s: high range 0x%llx+0x%llx, was 0x%llx+0x%llx",
		  what, (unsigned long long)a->high_base, (unsigned long long)a->high_size, (unsigned long long)b->high_base,
		  (unsigned long long)b->high_size);
	cr_expect(a->first_slot == b->first_slot && a->slots == b->slots, "%s: slots %u+%u, were %u+%u", what, a->first_slot,
		  a->slots, b->first_slot, b->slots);
	cr_expect(a->fences == b->fences && a->mem_pages == b->mem_pages && a->scratch_phys == b->scratch_phys &&
		  a->busy == b->busy && a->paused == b->paused, "%s: vGPU info changed", what);
	cr_expect(!memcmp(&a->counters, &b->counters, sizeof(a->counters)), "%s: vGPU counters changed", what);
}

/* After a switch to id: every entry of its ranges equals its shadow, and names its page or its scratch page. */
static void expect_phys_is_shadow(const struct d0 *t, int id, const char *what)
{
	struct dom0_vgpu_info in;
	struct hw_page pg;
	uint64_t ranges[2][2];

	cr_assert_eq(dom0_vgpu_info(t->rt, id, &in), 0);
	ranges[0][0] = in.low_base >> 12;
	ranges[0][1] = (in.low_base + in.low_size) >> 12;
	ranges[1][0] = in.high_base >> 12;
	ranges[1][1] = (in.high_base + in.high_size) >> 12;
	for (int r = 0; r < 2; r++)
		for (uint64_t i = ranges[r][0]; i < ranges[r][1]; i++) {
			uint64_t sh = 0, ph = d0_phys(t, i), g = 0;
			cr_assert_eq(dom0_shadow_pte(t->rt, id, i, &sh, NULL), 0);
			cr_assert_eq(ph, sh, "%s: PTE %llu is 0x%llx, the shadow 0x%llx", what, (unsigned long long)i,
				     (unsigned long long)ph, (unsigned long long)sh);
			cr_assert_eq(dom0_guest_pte_read(t->rt, id, i, &g, NULL), 0);
			uint64_t want = in.scratch_phys;
			if (g & 1) {
				cr_assert_eq(dom0_guest_page(t->rt, id, d0_pte_addr(t, g) >> 12, &pg), 0);
				want = pg.phys;
			}
			cr_assert_eq(d0_pte_addr(t, ph), want, "%s: PTE %llu names 0x%llx, not 0x%llx", what, (unsigned long long)i,
				     (unsigned long long)d0_pte_addr(t, ph), (unsigned long long)want);
		}
}

/* A migration hook: records the steps, can fail at one, can probe the locked vGPU. */
struct rec {
	enum dom0_migrate_step steps[16];
	bool migrating[16];
	int pte_rc[16], fence_rc[16], switch_rc[16], pvinfo_rc[16], aperture_rc[16], read_rc[16];
	unsigned n;
	int fail_at;			/* -1: never */
	bool probe;
	uint64_t probe_index, probe_pte, probe_fence, probe_gm;
};

static int after_step(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	struct rec *r = ctx;

	if (r->n < 16) {
		r->steps[r->n] = s;
		r->migrating[r->n] = dom0_vgpu_migrating(rt, id);
		if (r->probe && s <= DOM0_MIGRATE_MAP) {
			r->pte_rc[r->n] = dom0_guest_pte_write(rt, id, r->probe_index, r->probe_pte, NULL);
			r->fence_rc[r->n] = dom0_guest_fence_write(rt, id, 0, r->probe_fence, NULL);
			r->switch_rc[r->n] = dom0_switch(rt, id, NULL, NULL);
			r->pvinfo_rc[r->n] = dom0_pvinfo_write(rt, id, VGT_IF_DISPLAY_READY - VGT_PVINFO_PAGE, 1, NULL);
			r->aperture_rc[r->n] = dom0_guest_aperture_write(rt, id, r->probe_gm, "x", 1, NULL);
			uint64_t g;
			r->read_rc[r->n] = dom0_guest_pte_read(rt, id, r->probe_index, &g, NULL);
		}
		r->n++;
	}
	return r->fail_at == (int)s;
}

static uint64_t fence_val(const struct d0 *t, uint64_t start, uint64_t size, uint32_t stride, enum hw_tiling tiling)
{
	struct hw_fence f = { .start = start, .size = size, .stride = stride, .tiling = tiling, .valid = true };
	struct gtt_err err = { 0 };
	uint64_t v = 0;

	cr_assert_eq(hw_fence_encode(t->dev->info.plat, t->dev->info.aperture_size, &f, &v, &err), 0, "%s", err.msg);
	return v;
}

/* --------------------------------------------------------- slot to slot */

#define NMAP 8

/* High-range entries the slot tests map: spread over both slots of a 2-slot range. */
static uint64_t slot_off(const struct dom0_layout *l, unsigned k)
{
	return k * (2 * (l->slot_size >> 12) / NMAP) + 3 * k + 1;
}

/* A vGPU of 2 slots at slot `at`, NMAP high entries on frames 2.. with distinct bytes, one low entry, switched in. */
static int slot_guest(struct d0 *t, unsigned at)
{
	const struct dom0_layout *l = dom0_layout(t->rt);
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 2, .fences = 2, .mem_pages = 32, .place = true,
				      .at_slot = at };
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	struct hw_page pg;
	int id = 0;

	cr_assert_eq(dom0_vgpu_create(t->rt, &p, &id, &err), 0, "create: %s", err.msg);
	dom0_vgpu_info(t->rt, id, &in);
	cr_assert_eq(in.first_slot, at);
	for (unsigned g = 0; g < 32; g++) {
		cr_assert_eq(dom0_guest_page(t->rt, id, g, &pg), 0);
		fill(pg.cpu, 0x100 * (unsigned)id + g);
	}
	for (unsigned k = 0; k < NMAP; k++)
		cr_assert_eq(dom0_guest_pte_write(t->rt, id, (in.high_base >> 12) + slot_off(l, k), d0_guest_pte(t, 2 + k), &err),
			     0, "%s", err.msg);
	cr_assert_eq(dom0_guest_pte_write(t->rt, id, (in.low_base >> 12) + 1, d0_guest_pte(t, 1), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_switch(t->rt, id, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_render_owner(t->rt), id);
	return id;
}

static void slot_to_slot(const char *spec)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	struct dom0_migration m;
	struct dom0_vgpu_info in, old;
	struct hw_page pg;

	d0_start(&t, spec, NULL);
	const struct dom0_layout *l = dom0_layout(t.rt);
	uint64_t pps = l->slot_size >> 12;
	cr_assert_geq(l->num_slots, 7, "%s: %u slots", spec, l->num_slots);
	size_t len;
	uint8_t *boot = snap(&t, &len);
	size_t len2;
	uint8_t *slow = d0_capture(&t, &len2);
	cr_assert(len2 == len && !memcmp(slow, boot, len), "snap() does not read what d0_capture reads");
	free(slow);
	int id = slot_guest(&t, 0);
	dom0_vgpu_info(t.rt, id, &old);
	uint64_t old_hi = old.high_base >> 12;
	cr_assert_eq(old.high_base, l->slots_base);
	for (uint64_t i = 0; i < 2 * pps; i++)
		cr_assert_eq(dom0_physical_owner(t.rt, old_hi + i), id);

	cr_assert_eq(dom0_migrate(t.rt, id, 5, &m, &err), 0, "%s: migrate: %s", spec, err.msg);
	cr_expect(m.from_slot == 0 && m.to_slot == 5, "m: %u -> %u", m.from_slot, m.to_slot);
	cr_expect(m.drained, "it was the render owner");
	cr_expect_eq(m.ptes_released, 2 * pps, "released %llu entries; it held the whole source range",
		     (unsigned long long)m.ptes_released);
	cr_expect_eq(dom0_render_owner(t.rt), 0);
	cr_expect_not(dom0_vgpu_migrating(t.rt, id));
	dom0_vgpu_info(t.rt, id, &in);
	uint64_t new_base = l->slots_base + 5 * l->slot_size, new_hi = new_base >> 12;
	cr_expect(in.first_slot == 5 && in.slots == 2, "slots %u+%u", in.first_slot, in.slots);
	cr_expect_eq(in.high_base, new_base);
	cr_expect_eq(in.high_size, 2 * l->slot_size);
	cr_expect(in.low_base == old.low_base && in.low_size == old.low_size, "the low range does not move");
	cr_expect_eq(pv(t.rt, id, VGT_IF_NONMAPPABLE_BASE), (uint32_t)new_base);
	cr_expect_eq(pv(t.rt, id, VGT_IF_NONMAPPABLE_SIZE), (uint32_t)(2 * l->slot_size));
	cr_expect_eq(pv(t.rt, id, GTTLAB_IF_GM_SLOTS), 2);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 0), 0);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 1), 0);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 5), 1);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 6), 1);

	/* the source slots: byte-identical to before the vGPU existed, held by no one */
	for (uint64_t i = old_hi; i < old_hi + 2 * pps; i++) {
		cr_assert_eq(d0_phys(&t, i), cap_pte(&t, boot, i), "%s: old PTE %llu not back to its boot value", spec,
			     (unsigned long long)i);
		cr_assert_eq(dom0_physical_owner(t.rt, i), 0);
	}
	/* ...and refused to the guest */
	cr_expect_eq(dom0_guest_pte_write(t.rt, id, old_hi + slot_off(l, 0), d0_guest_pte(&t, 3), &err), GTT_ERANGE);
	cr_expect_eq(dom0_guest_pte_write(t.rt, id, old_hi, d0_guest_pte(&t, 3), &err), GTT_ERANGE);
	cr_expect_eq(d0_phys(&t, old_hi), cap_pte(&t, boot, old_hi));
	/* the guest's entries moved with the range; the GTT takes them at the next switch only */
	for (unsigned k = 0; k < NMAP; k++) {
		uint64_t g = 0;
		cr_assert_eq(dom0_guest_pte_read(t.rt, id, new_hi + slot_off(l, k), &g, NULL), 0);
		cr_expect_eq(g, d0_guest_pte(&t, 2 + k), "guest PTE %u did not move with the range", k);
		cr_expect_eq(d0_phys(&t, new_hi + slot_off(l, k)), cap_pte(&t, boot, new_hi + slot_off(l, k)),
			     "the new range is written before the switch");
	}

	struct dom0_switch_stats s;
	cr_assert_eq(dom0_switch(t.rt, id, &s, &err), 0, "%s", err.msg);
	cr_expect_eq(s.ptes_written + s.ptes_skipped, (old.low_size >> 12) + 2 * pps);
	cr_expect_geq(s.ptes_written, NMAP);
	expect_phys_is_shadow(&t, id, spec);
	for (unsigned k = 0; k < NMAP; k++) {
		uint64_t idx = new_hi + slot_off(l, k), ph = d0_phys(&t, idx);
		cr_assert_eq(dom0_guest_page(t.rt, id, 2 + k, &pg), 0);
		cr_expect_eq(d0_pte_addr(&t, ph), pg.phys, "PTE %llu names 0x%llx, not frame %u's 0x%llx", (unsigned long long)idx,
			     (unsigned long long)d0_pte_addr(&t, ph), 2 + k, (unsigned long long)pg.phys);
		/* the data path: the GPU reads the guest's bytes at the new address */
		uint8_t buf[4096];
		cr_assert_eq(sim_gpu_read(t.sim, idx << 12, buf, sizeof(buf)), 0);
		cr_expect(!memcmp(buf, pg.cpu, sizeof(buf)), "%s: the GPU does not read frame %u at GM 0x%llx", spec, 2 + k,
			  (unsigned long long)(idx << 12));
	}
	for (uint64_t i = old_hi; i < old_hi + 2 * pps; i++)
		cr_assert_eq(d0_phys(&t, i), cap_pte(&t, boot, i), "the switch wrote the old range at %llu", (unsigned long long)i);
	/* a new write lands in the new range, physically too (it runs) */
	cr_assert_eq(dom0_guest_pte_write(t.rt, id, new_hi + 7, d0_guest_pte(&t, 20), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_guest_page(t.rt, id, 20, &pg), 0);
	cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, new_hi + 7)), pg.phys);
	cr_expect_eq(dom0_counters(t.rt)->migrations, 1);
	drop(boot, len);
	d0_stop(&t);
}

Test(dom0_migrate, slot_to_slot_skl) { slot_to_slot("sim:skl"); }
Test(dom0_migrate, slot_to_slot_hsw) { slot_to_slot("sim:hsw"); }

/* A run that overlaps its own: 0-1 to 1-2. Slot 1 changes meaning; slot 0 goes back. */
Test(dom0_migrate, overlapping_move)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	struct dom0_migration m;
	struct dom0_config cfg = { .share_limit = 1 };

	d0_start(&t, "sim:skl", &cfg);
	const struct dom0_layout *l = dom0_layout(t.rt);
	uint64_t pps = l->slot_size >> 12, s0 = l->slots_base >> 12;
	size_t len;
	uint8_t *boot = snap(&t, &len);
	int id = slot_guest(&t, 0);
	/* its own slot does not count against the share limit */
	cr_assert_eq(dom0_migrate(t.rt, id, 1, &m, &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 0), 0);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 1), 1);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 2), 1);
	for (uint64_t i = s0; i < s0 + pps; i++)
		cr_assert_eq(d0_phys(&t, i), cap_pte(&t, boot, i), "slot 0 PTE %llu not back", (unsigned long long)i);
	cr_expect_eq(dom0_guest_pte_write(t.rt, id, s0, d0_guest_pte(&t, 3), &err), GTT_ERANGE);
	cr_assert_eq(dom0_switch(t.rt, id, NULL, &err), 0, "%s", err.msg);
	expect_phys_is_shadow(&t, id, "after an overlapping move");
	for (uint64_t i = s0; i < s0 + pps; i++)
		cr_assert_eq(d0_phys(&t, i), cap_pte(&t, boot, i), "slot 0 PTE %llu written by the switch", (unsigned long long)i);
	drop(boot, len);
	d0_stop(&t);
}

/* ------------------------------------------------------------- refusals */

/* A refused move: rc `want`, and the device (as in `cap`), the vGPU, its PVINFO and the runtime unchanged. */
static void expect_refused(struct d0 *t, int id, unsigned to, int want, const uint8_t *cap, size_t len, const char *what)
{
	struct gtt_err err = { 0 };
	struct dom0_migration m = { .from_slot = 77, .to_slot = 77 };
	struct dom0_vgpu_info a, b;
	uint32_t pa[VGT_PVINFO_WORDS], pb[VGT_PVINFO_WORDS];
	int owner = dom0_render_owner(t->rt);
	struct dom0_counters c = *dom0_counters(t->rt);
	unsigned occ[256];

	for (unsigned s = 0; s < dom0_layout(t->rt)->num_slots && s < 256; s++)
		occ[s] = dom0_slot_occupancy(t->rt, s);
	dom0_vgpu_info(t->rt, id, &a);
	pv_page(t->rt, id, pa);
	cr_expect_eq(dom0_migrate(t->rt, id, to, &m, &err), want, "%s: to slot %u", what, to);
	cr_expect(err.msg[0], "%s: no message", what);
	cr_expect(m.from_slot == 77 && m.to_slot == 77, "%s: the report is written on a refusal", what);
	expect_capture(t, cap, len, what);
	dom0_vgpu_info(t->rt, id, &b);
	expect_same_info(&b, &a, what);
	pv_page(t->rt, id, pb);
	cr_expect(!memcmp(pa, pb, sizeof(pa)), "%s: PVINFO changed", what);
	cr_expect_eq(dom0_render_owner(t->rt), owner, "%s", what);
	cr_expect_not(dom0_vgpu_migrating(t->rt, id), "%s", what);
	cr_expect(!memcmp(&c, dom0_counters(t->rt), sizeof(c)), "%s: the runtime's counters changed", what);
	for (unsigned s = 0; s < dom0_layout(t->rt)->num_slots && s < 256; s++)
		cr_expect_eq(dom0_slot_occupancy(t->rt, s), occ[s], "%s: slot %u held by %u, was %u", what, s,
			     dom0_slot_occupancy(t->rt, s), occ[s]);
}

Test(dom0_migrate, refusals_change_nothing)
{
	struct d0 t;
	struct dom0_config lim = { .share_limit = 1 };
	size_t len;
	uint8_t *cap;

	/* high memory and the same slot */
	d0_start(&t, "sim:skl", &lim);
	unsigned M = dom0_layout(t.rt)->num_slots;
	int a = slot_guest(&t, 0);
	cap = snap(&t, &len);
	expect_refused(&t, a, M - 1, GTT_EINVAL, cap, len, "2 slots from the last slot");
	expect_refused(&t, a, M, GTT_EINVAL, cap, len, "the slot past high memory");
	expect_refused(&t, a, 0xffffffffu, GTT_EINVAL, cap, len, "slot 2^32-1");
	expect_refused(&t, a, 0xfffffffeu, GTT_EINVAL, cap, len, "slot 2^32-2 (to + n wraps)");
	expect_refused(&t, a, 0, GTT_EINVAL, cap, len, "the same slot");
	drop(cap, len);
	/* the share limit (1): b holds slot 5; 4-5 and 5-6 are refused, 6-7 is not */
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 4, .place = true, .at_slot = 5 };
	int b = 0;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &b, NULL), 0);
	cr_assert_eq(dom0_switch(t.rt, b, NULL, NULL), 0);
	cr_assert_eq(dom0_switch(t.rt, a, NULL, NULL), 0);
	cap = snap(&t, &len);
	expect_refused(&t, a, 4, GTT_EBUSY, cap, len, "slot 5 at the share limit");
	expect_refused(&t, a, 5, GTT_EBUSY, cap, len, "slot 5 at the share limit (first)");
	expect_refused(&t, b, 0, GTT_EBUSY, cap, len, "slot 0 at the share limit");
	expect_refused(&t, b, 1, GTT_EBUSY, cap, len, "slot 1 at the share limit");
	drop(cap, len);
	cr_expect_eq(dom0_migrate(t.rt, a, 6, NULL, NULL), 0, "6-7 are free");
	d0_stop(&t);

	/* share limit 2: a slot held by two others is full; one held by one is not */
	struct dom0_config lim2 = { .share_limit = 2 };
	d0_start(&t, "sim:skl", &lim2);
	a = slot_guest(&t, 0);
	struct dom0_vgpu_params q = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 4, .place = true, .at_slot = 3 };
	int c1, c2;
	cr_assert_eq(dom0_vgpu_create(t.rt, &q, &c1, NULL), 0);
	cr_assert_eq(dom0_vgpu_create(t.rt, &q, &c2, NULL), 0);
	cap = snap(&t, &len);
	struct dom0_vgpu_info ia, ib;
	dom0_vgpu_info(t.rt, a, &ia);
	cr_expect_eq(dom0_migrate(t.rt, a, 2, NULL, NULL), GTT_EBUSY, "slot 3 is held by two, the limit is 2");
	expect_capture(&t, cap, len, "share limit 2");
	dom0_vgpu_info(t.rt, a, &ib);
	expect_same_info(&ib, &ia, "share limit 2");
	cr_expect_eq(dom0_slot_occupancy(t.rt, 3), 2);
	drop(cap, len);
	cr_expect_eq(dom0_migrate(t.rt, c1, 1, NULL, NULL), 0, "slot 1 is held by one: the limit allows a second");
	cr_expect_eq(dom0_slot_occupancy(t.rt, 1), 2);
	d0_stop(&t);

	/* a paused vGPU (admission): no slots, waiting; it does not migrate */
	struct dom0_config adm = { .share_limit = 1, .admission = DOM0_ADMIT_FIFO };
	d0_start(&t, "sim:skl", &adm);
	M = dom0_layout(t.rt)->num_slots;
	struct dom0_vgpu_params all = { .low_size = 4 * MiB, .high_slots = M, .mem_pages = 1 };
	struct dom0_vgpu_params one = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 4 };
	int full, paused;
	cr_assert_eq(dom0_vgpu_create(t.rt, &all, &full, NULL), 0);
	cr_assert_eq(dom0_vgpu_create(t.rt, &one, &paused, NULL), 0);
	cr_assert_eq(dom0_vgpu_paused(t.rt, paused), DOM0_PAUSE_CREATE);
	cap = snap(&t, &len);
	struct gtt_err e = { 0 };
	for (unsigned to = 0; to < 3; to++) {
		dom0_vgpu_info(t.rt, paused, &ia);
		cr_expect_eq(dom0_migrate(t.rt, paused, to, NULL, &e), GTT_EBUSY, "a paused vGPU to slot %u", to);
		cr_expect(strstr(e.msg, "paused"), "%s", e.msg);
		dom0_vgpu_info(t.rt, paused, &ib);
		expect_same_info(&ib, &ia, "a paused vGPU");
	}
	expect_capture(&t, cap, len, "a paused vGPU");
	cr_expect_eq(dom0_vgpu_paused(t.rt, paused), DOM0_PAUSE_CREATE, "still paused");
	cr_expect_eq(dom0_counters(t.rt)->migrations, 0);
	drop(cap, len);
	d0_stop(&t);
}

/* A migration is a release: admission runs after it, and a create waiting for two free slots in a run gets them. */
Test(dom0_migrate, a_migration_admits_what_now_fits)
{
	struct dom0_config adm = { .share_limit = 1, .admission = DOM0_ADMIT_FIFO };
	struct gtt_err err = { 0 };
	struct d0 t;

	d0_start(&t, "sim:skl", &adm);
	unsigned M = dom0_layout(t.rt)->num_slots;
	/* a holds 1..M-2: slots 0 and M-1 are free, but not two in a run */
	struct dom0_vgpu_params pa = { .low_size = 4 * MiB, .high_slots = M - 2, .mem_pages = 1, .place = true, .at_slot = 1 };
	struct dom0_vgpu_params pb = { .low_size = 4 * MiB, .high_slots = 2, .mem_pages = 4 };
	int a, b;
	cr_assert_eq(dom0_vgpu_create(t.rt, &pa, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_create(t.rt, &pb, &b, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_CREATE);
	cr_assert_eq(dom0_migrate(t.rt, a, 0, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_NONE, "b still waits for the two slots a left");
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, b, &in);
	cr_expect(in.first_slot == M - 2 && in.slots == 2, "b holds %u+%u", in.first_slot, in.slots);
	cr_expect_eq(dom0_counters(t.rt)->admitted, 1);
	d0_stop(&t);
}

/* ----------------------------------------------------------------- lock */

static const enum dom0_migrate_step all_steps[] = {
	DOM0_MIGRATE_LOCK, DOM0_MIGRATE_DRAIN, DOM0_MIGRATE_SELECT, DOM0_MIGRATE_TRANSFER,
	DOM0_MIGRATE_MAP, DOM0_MIGRATE_RELEASE, DOM0_MIGRATE_UNLOCK,
};

static void expect_locked_steps(const struct rec *r, const char *kind)
{
	cr_assert_eq(r->n, 7, "%s: %u steps", kind, r->n);
	for (unsigned i = 0; i < 7; i++)
		cr_expect_eq(r->steps[i], all_steps[i], "%s: step %u is %s, not %s", kind, i, dom0_migrate_step_name(r->steps[i]),
			     dom0_migrate_step_name(all_steps[i]));
	for (unsigned i = 0; i <= DOM0_MIGRATE_MAP; i++) {
		const char *sn = dom0_migrate_step_name(all_steps[i]);
		/* VOCL's queue: every guest write is taken and waits; a read waits behind them; no switch */
		cr_expect(r->migrating[i], "%s: not migrating at %s", kind, sn);
		cr_expect_eq(r->pte_rc[i], 0, "%s: a guest PTE write at %s: %d", kind, sn, r->pte_rc[i]);
		cr_expect_eq(r->fence_rc[i], 0, "%s: a guest fence write at %s: %d", kind, sn, r->fence_rc[i]);
		cr_expect_eq(r->switch_rc[i], GTT_EBUSY, "%s: a switch to it at %s: %d", kind, sn, r->switch_rc[i]);
		cr_expect_eq(r->pvinfo_rc[i], 0, "%s: a PVINFO write at %s: %d", kind, sn, r->pvinfo_rc[i]);
		cr_expect_eq(r->aperture_rc[i], 0, "%s: an aperture write at %s: %d", kind, sn, r->aperture_rc[i]);
		cr_expect_eq(r->read_rc[i], GTT_EBUSY, "%s: a guest PTE read behind queued writes at %s: %d", kind, sn,
			     r->read_rc[i]);
	}
	cr_expect_not(r->migrating[6], "%s: still migrating at unlock", kind);
}

/*
 * The guest's operations at every step before the release are queued and
 * forwarded at the unlock, in order, to the vGPU's home, its high-range
 * address moved with the range (VOCL §III-D).
 */
Test(dom0_migrate, steps_in_order_and_queued)
{
	struct rec r = { .fail_at = -1, .probe = true };
	struct dom0_config cfg = { .migrate_hooks = { after_step, &r } };
	struct gtt_err err = { 0 };
	struct d0 t, u;

	/* slot to slot */
	d0_start(&t, "sim:skl", &cfg);
	int id = slot_guest(&t, 0);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, id, &in);
	r.probe_index = (in.high_base >> 12) + 9;
	r.probe_pte = d0_guest_pte(&t, 9);
	r.probe_fence = fence_val(&t, in.low_base, 8192, 1024, HW_TILING_X);
	r.probe_gm = in.low_base;
	uint64_t before_rejected = in.counters.rejected;
	struct dom0_migration m;
	cr_assert_eq(dom0_migrate(t.rt, id, 4, &m, &err), 0, "%s", err.msg);
	expect_locked_steps(&r, "slot to slot");
	cr_expect(r.migrating[5], "slot to slot: the release runs locked");
	cr_expect_not(dom0_vgpu_migrating(t.rt, id));
	dom0_vgpu_info(t.rt, id, &in);
	/* 4 guest writes at each of 5 steps, all forwarded; the 5 reads waited (refused) */
	cr_expect(m.forwarded == 4 * 5 && !m.forward_refused, "%u forwarded, %u refused", m.forwarded, m.forward_refused);
	cr_expect_eq(in.counters.queued, 4 * 5);
	cr_expect_eq(in.counters.rejected, before_rejected + 5, "the reads that waited are counted, nothing else");
	cr_expect_eq(in.counters.fence_writes, 5, "the queued fence writes went through at the unlock");
	uint64_t g;
	cr_assert_eq(dom0_guest_pte_read(t.rt, id, (in.high_base >> 12) + 9, &g, NULL), 0);
	cr_expect_eq(g, r.probe_pte, "the PTE written at the old range's entry 9 is at the new range's entry 9: 0x%llx",
		     (unsigned long long)g);
	uint8_t x = 0;
	cr_assert_eq(dom0_guest_aperture_read(t.rt, id, r.probe_gm, &x, 1, NULL), 0);
	cr_expect_eq(x, 'x', "the queued aperture write reached the guest's memory");
	/* unlocked: everything works again */
	cr_expect_eq(dom0_guest_pte_write(t.rt, id, (in.high_base >> 12) + 9, d0_guest_pte(&t, 9), &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_guest_fence_write(t.rt, id, 0, r.probe_fence, &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_switch(t.rt, id, NULL, &err), 0, "%s", err.msg);

	/* device to device (the hook runs on the source) */
	struct rec rd = { .fail_at = -1, .probe = true };
	struct dom0_config cfg2 = { .migrate_hooks = { after_step, &rd } };
	d0_start(&u, "sim:skl", &cfg2);
	struct d0 dst;
	d0_start(&dst, "sim:kbl", NULL);
	int v = slot_guest(&u, 2);
	dom0_vgpu_info(u.rt, v, &in);
	rd.probe_index = (in.high_base >> 12) + 9;
	rd.probe_pte = d0_guest_pte(&u, 9);
	rd.probe_fence = fence_val(&u, in.low_base, 8192, 1024, HW_TILING_X);
	rd.probe_gm = in.low_base;
	int nid = 0;
	cr_assert_eq(dom0_migrate_device(u.rt, v, dst.rt, &nid, &m, &err), 0, "%s", err.msg);
	expect_locked_steps(&rd, "device to device");
	cr_expect_not(dom0_vgpu_exists(u.rt, v));
	cr_expect_not(dom0_vgpu_migrating(dst.rt, nid));
	cr_expect(m.forwarded == 4 * 5 && !m.forward_refused, "device: %u forwarded, %u refused", m.forwarded,
		  m.forward_refused);
	struct dom0_vgpu_info tin;
	dom0_vgpu_info(dst.rt, nid, &tin);
	cr_assert_eq(dom0_guest_pte_read(dst.rt, nid, (tin.high_base >> 12) + 9, &g, NULL), 0);
	cr_expect_eq(g, rd.probe_pte, "device: the queued PTE write did not reach the target's entry 9: 0x%llx",
		     (unsigned long long)g);
	cr_expect_eq(dom0_guest_pte_write(dst.rt, nid, (in.low_base >> 12) + 2, d0_guest_pte(&dst, 2), &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_switch(dst.rt, nid, NULL, &err), 0, "%s", err.msg);
	d0_stop(&dst);
	d0_stop(&u);
	d0_stop(&t);
}

/* The queue's order and bounds: what the guest wrote last wins; past DOM0_MIGRATE_QUEUE writes or its bytes, GTT_EBUSY. */
struct order_probe {
	bool bytes;			/* fill the queue with aperture bytes instead of writes */
	uint64_t idx, pte_a, pte_b, gm;
	unsigned accepted;
	int over_rc;
	char over_msg[GTT_ERR_MSG_MAX];
};

static int order_hook(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	static uint8_t big[64 * 1024];
	struct order_probe *p = ctx;
	struct gtt_err err = { 0 };

	if (s != DOM0_MIGRATE_LOCK)
		return 0;
	p->accepted = !dom0_guest_pte_write(rt, id, p->idx, p->pte_a, NULL) +
		      !dom0_guest_aperture_write(rt, id, p->gm, "1", 1, NULL) +
		      !dom0_guest_pte_write(rt, id, p->idx, p->pte_b, NULL) +
		      !dom0_guest_aperture_write(rt, id, p->gm, "2", 1, NULL);
	if (p->bytes) {
		memset(big, '2', sizeof(big));
		while (!dom0_guest_aperture_write(rt, id, p->gm, big, sizeof(big), NULL))
			p->accepted++;
		p->over_rc = dom0_guest_aperture_write(rt, id, p->gm, big, sizeof(big), &err);
	} else {
		while (p->accepted < DOM0_MIGRATE_QUEUE && !dom0_guest_pte_write(rt, id, p->idx, p->pte_b, NULL))
			p->accepted++;
		p->over_rc = dom0_guest_pte_write(rt, id, p->idx, p->pte_a, &err);	/* refused: a not-b would win */
	}
	snprintf(p->over_msg, sizeof(p->over_msg), "%s", err.msg);
	return 0;
}

Test(dom0_migrate, queued_writes_run_in_order_and_the_queue_is_bounded)
{
	for (int bytes = 0; bytes < 2; bytes++) {
		struct order_probe pr = { .bytes = bytes };
		struct dom0_config cfg = { .migrate_hooks = { order_hook, &pr } };
		struct gtt_err err = { 0 };
		struct dom0_migration m;
		struct dom0_vgpu_info in;
		struct d0 t;

		d0_start(&t, "sim:skl", &cfg);
		int id = slot_guest(&t, 0);
		dom0_vgpu_info(t.rt, id, &in);
		pr.idx = (in.low_base >> 12) + 3;
		pr.pte_a = d0_guest_pte(&t, 5);
		pr.pte_b = d0_guest_pte(&t, 6);
		pr.gm = in.low_base + 3 * 4096 + 17;
		cr_assert_eq(dom0_migrate(t.rt, id, 4, &m, &err), 0, "%s", err.msg);
		cr_expect_eq(pr.over_rc, GTT_EBUSY, "%s: one past the bound: rc %d", bytes ? "bytes" : "writes", pr.over_rc);
		cr_expect(strstr(pr.over_msg, "queue is full"), "%s", pr.over_msg);
		if (bytes)
			cr_expect_eq(pr.accepted, 4 + DOM0_MIGRATE_QUEUE_BYTES / (64 * 1024) - 1, "%u writes taken", pr.accepted);
		else
			cr_expect_eq(pr.accepted, DOM0_MIGRATE_QUEUE, "%u writes taken", pr.accepted);
		cr_expect(m.forwarded == pr.accepted && !m.forward_refused, "%u forwarded, %u refused, %u taken", m.forwarded,
			  m.forward_refused, pr.accepted);
		uint64_t g = 0;
		uint8_t x = 0;
		cr_assert_eq(dom0_guest_pte_read(t.rt, id, pr.idx, &g, NULL), 0);
		cr_expect_eq(g, pr.pte_b, "the PTE the guest wrote last is not the one it holds: 0x%llx", (unsigned long long)g);
		cr_assert_eq(dom0_guest_aperture_read(t.rt, id, pr.gm, &x, 1, NULL), 0);
		cr_expect_eq(x, '2', "the byte the guest wrote last reads '%c'", x);
		d0_stop(&t);
	}
}

/* ------------------------------------------------------ slot rollback */

Test(dom0_migrate, slot_rollback_at_every_step)
{
	struct rec r = { .fail_at = -1 };
	struct dom0_config cfg = { .migrate_hooks = { after_step, &r } };
	struct gtt_err err = { 0 };
	struct d0 t;

	d0_start(&t, "sim:skl", &cfg);
	const struct dom0_layout *l = dom0_layout(t.rt);
	int id = slot_guest(&t, 0);
	for (enum dom0_migrate_step s = DOM0_MIGRATE_LOCK; s <= DOM0_MIGRATE_MAP; s++) {
		const char *sn = dom0_migrate_step_name(s);
		struct dom0_vgpu_info a, b;
		size_t len;
		uint8_t *cap = snap(&t, &len);
		dom0_vgpu_info(t.rt, id, &a);
		uint32_t base = pv(t.rt, id, VGT_IF_NONMAPPABLE_BASE);
		r.fail_at = (int)s;
		r.n = 0;
		cr_expect_eq(dom0_migrate(t.rt, id, 5, NULL, &err), GTT_EIO, "failing at %s", sn);
		cr_expect(strstr(err.msg, sn), "%s: %s", sn, err.msg);
		cr_expect_eq(r.n, (unsigned)s + 1, "%s: the steps after the failure ran (%u steps)", sn, r.n);
		dom0_vgpu_info(t.rt, id, &b);
		expect_same_info(&b, &a, sn);
		cr_expect_eq(b.first_slot, 0, "%s", sn);
		cr_expect_eq(pv(t.rt, id, VGT_IF_NONMAPPABLE_BASE), base, "%s: PVINFO base", sn);
		cr_expect_eq(base, (uint32_t)l->slots_base);
		cr_expect_eq(dom0_render_owner(t.rt), id, "%s: render ownership not restored", sn);
		cr_expect_not(dom0_vgpu_migrating(t.rt, id), "%s: left locked", sn);
		cr_expect_eq(dom0_slot_occupancy(t.rt, 0), 1, "%s", sn);
		cr_expect_eq(dom0_slot_occupancy(t.rt, 5), 0, "%s", sn);
		cr_expect_eq(dom0_counters(t.rt)->migrations, 0, "%s", sn);
		expect_capture(&t, cap, len, sn);
		drop(cap, len);
		/* it runs as before: its writes reach the GTT at once (it is the render owner) */
		struct hw_page pg;
		uint64_t idx = (l->slots_base >> 12) + 100 + (uint64_t)s;
		cr_assert_eq(dom0_guest_pte_write(t.rt, id, idx, d0_guest_pte(&t, 25), &err), 0, "%s: %s", sn, err.msg);
		dom0_guest_page(t.rt, id, 25, &pg);
		cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, idx)), pg.phys, "%s: a write after the rollback", sn);
	}
	/* past the release a hook's failure is ignored: nothing rolls back */
	r.fail_at = DOM0_MIGRATE_RELEASE;
	cr_expect_eq(dom0_migrate(t.rt, id, 5, NULL, &err), 0, "%s", err.msg);
	cr_expect_not(dom0_vgpu_migrating(t.rt, id));
	cr_assert_eq(dom0_switch(t.rt, id, NULL, &err), 0);
	expect_phys_is_shadow(&t, id, "after the retry");
	d0_stop(&t);
}

/*
 * "Nothing changes on a refusal or a rollback" (dom0.h): the guest's PVINFO
 * page included: GM_EPOCH ("+1 at every change of the vGPU's high range")
 * too, since a rolled-back move changed no range (found by this test: the
 * rollback re-derived the words and bumped the epoch twice).
 */
Test(dom0_migrate, slot_rollback_leaves_pvinfo_as_it_was)
{
	struct rec r = { .fail_at = -1 };
	struct dom0_config cfg = { .migrate_hooks = { after_step, &r } };
	struct d0 t;

	d0_start(&t, "sim:skl", &cfg);
	int id = slot_guest(&t, 0);
	for (enum dom0_migrate_step s = DOM0_MIGRATE_LOCK; s <= DOM0_MIGRATE_MAP; s++) {
		uint32_t a[VGT_PVINFO_WORDS], b[VGT_PVINFO_WORDS];
		pv_page(t.rt, id, a);
		r.fail_at = (int)s;
		cr_expect_neq(dom0_migrate(t.rt, id, 5, NULL, NULL), 0);
		pv_page(t.rt, id, b);
		for (unsigned w = 0; w < VGT_PVINFO_WORDS; w++)
			cr_expect_eq(b[w], a[w], "failing at %s: PVINFO 0x%03x is 0x%x, was 0x%x", dom0_migrate_step_name(s), w * 4,
				     b[w], a[w]);
	}
	d0_stop(&t);
}

/* ----------------------------------------------------- device to device */

#define GLOW	(8 * MiB)
#define GMEM	64u
#define NLOW	16u		/* low pages 0..15 on frames 0..15 */
#define NHIGH	8u		/* high entries on frames 16.. */
#define FPAGE	4u		/* the fence: low pages 4..7, X, stride 1024 (two 8 KiB tile rows) */
#define RDLEN	((NLOW + 1) * 4096)	/* what the guest reads back: its mapped pages and one not mapped */

struct guest {
	int id;
	uint8_t low[RDLEN];		/* through its aperture before the move */
	uint8_t high[NHIGH][4096];	/* through the GPU before the move */
	uint64_t fence;
};

static uint64_t dev_off(const struct dom0_layout *l, unsigned k)
{
	return k * ((l->slot_size >> 12) / NHIGH) + 5;
}

/* A vGPU on t with low and high entries, distinct bytes, an X fence, PVINFO words, switched in. */
static void make_guest(struct d0 *t, struct guest *g)
{
	const struct dom0_layout *l = dom0_layout(t->rt);
	struct dom0_vgpu_params p = { .low_size = GLOW, .high_slots = 1, .fences = 2, .mem_pages = GMEM };
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	struct hw_page pg;

	cr_assert_eq(dom0_vgpu_create(t->rt, &p, &g->id, &err), 0, "create: %s", err.msg);
	dom0_vgpu_info(t->rt, g->id, &in);
	for (unsigned f = 0; f < GMEM; f++) {
		cr_assert_eq(dom0_guest_page(t->rt, g->id, f, &pg), 0);
		fill(pg.cpu, 0x5000 + f);
	}
	for (unsigned i = 0; i < NLOW; i++)
		cr_assert_eq(dom0_guest_pte_write(t->rt, g->id, (in.low_base >> 12) + i, d0_guest_pte(t, i), &err), 0, "%s", err.msg);
	for (unsigned k = 0; k < NHIGH; k++)
		cr_assert_eq(dom0_guest_pte_write(t->rt, g->id, (in.high_base >> 12) + dev_off(l, k), d0_guest_pte(t, NLOW + k), &err),
			     0, "%s", err.msg);
	g->fence = fence_val(t, in.low_base + FPAGE * 4096, 4 * 4096, 1024, HW_TILING_X);
	cr_assert_eq(dom0_guest_fence_write(t->rt, g->id, 1, g->fence, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(t->rt, g->id, VGT_IF_DISPLAY_READY - VGT_PVINFO_PAGE, VGT_DRV_DISPLAY_READY, &err), 0,
		     "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(t->rt, g->id, VGT_IF_CURSOR_X_HOT - VGT_PVINFO_PAGE, 17, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(t->rt, g->id, VGT_IF_CURSOR_Y_HOT - VGT_PVINFO_PAGE, 23, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(t->rt, g->id, GTTLAB_IF_GM_SEQ - VGT_PVINFO_PAGE, 0x77, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_switch(t->rt, g->id, NULL, &err), 0, "%s", err.msg);
	/* what the guest sees before: its aperture (the ladder map, and the pool for the fenced pages) and the GPU */
	cr_assert_eq(dom0_guest_aperture_read(t->rt, g->id, in.low_base, g->low, RDLEN, &err), 0, "%s", err.msg);
	dom0_guest_page(t->rt, g->id, 0, &pg);
	cr_assert(!memcmp(g->low, pg.cpu, 4096), "the ladder map does not show frame 0");
	dom0_guest_page(t->rt, g->id, FPAGE, &pg);
	cr_assert(memcmp(g->low + FPAGE * 4096, pg.cpu, 4096), "the fenced pages read as linear: the fence is not in effect");
	for (unsigned k = 0; k < NHIGH; k++) {
		cr_assert_eq(sim_gpu_read(t->sim, in.high_base + dev_off(l, k) * 4096, g->high[k], 4096), 0);
		dom0_guest_page(t->rt, g->id, NLOW + k, &pg);
		cr_assert(!memcmp(g->high[k], pg.cpu, 4096), "the GPU does not read frame %u before the move", NLOW + k);
	}
}

/* The moved guest on the target: everything the guest sees, after a switch there. */
static void expect_guest_on(struct d0 *t, const struct guest *g, int id)
{
	const struct dom0_layout *l = dom0_layout(t->rt);
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	struct hw_page pg;
	uint8_t low[RDLEN], buf[4096];

	cr_assert_eq(dom0_vgpu_info(t->rt, id, &in), 0);
	cr_expect(in.low_size == GLOW && in.slots == 1 && in.fences == 2 && in.mem_pages == GMEM, "sizes on the target");
	cr_expect_eq(pv(t->rt, id, VGT_IF_DISPLAY_READY), VGT_DRV_DISPLAY_READY, "display_ready not copied");
	cr_expect_eq(pv(t->rt, id, VGT_IF_CURSOR_X_HOT), 17);
	cr_expect_eq(pv(t->rt, id, VGT_IF_CURSOR_Y_HOT), 23);
	cr_expect_eq(pv(t->rt, id, GTTLAB_IF_GM_SEQ), 0x77);
	cr_expect_eq(pv(t->rt, id, VGT_IF_NONMAPPABLE_BASE), (uint32_t)in.high_base);
	cr_expect_eq(pv(t->rt, id, VGT_IF_NONMAPPABLE_SIZE), (uint32_t)in.high_size);
	cr_expect_eq(pv(t->rt, id, VGT_IF_MAPPABLE_BASE), (uint32_t)in.low_base);
	cr_expect_eq(pv(t->rt, id, VGT_IF_VGT_ID), (uint32_t)id, "PVINFO names the target's id");
	uint64_t f;
	cr_assert_eq(dom0_guest_fence_read(t->rt, id, 1, &f, NULL), 0);
	cr_expect_eq(f, fence_val(t, in.low_base + FPAGE * 4096, 4 * 4096, 1024, HW_TILING_X), "guest fence on the target");

	cr_assert_eq(dom0_switch(t->rt, id, NULL, &err), 0, "%s", err.msg);
	expect_phys_is_shadow(t, id, "on the target");
	for (unsigned i = 0; i < NLOW; i++) {
		dom0_guest_page(t->rt, id, i, &pg);
		cr_expect_eq(d0_pte_addr(t, d0_phys(t, (in.low_base >> 12) + i)), pg.phys, "low PTE %u: not the target's page", i);
		/* the GPU (no fences) reads the page's bytes; outside the fence they are what the guest read */
		cr_assert_eq(sim_gpu_read(t->sim, in.low_base + i * 4096ull, buf, sizeof(buf)), 0);
		cr_expect(!memcmp(buf, pg.cpu, 4096), "the target's GPU does not read low page %u's bytes", i);
		if (i < FPAGE || i >= FPAGE + 4)
			cr_expect(!memcmp(buf, g->low + i * 4096, 4096), "the target's GPU reads other bytes at low page %u", i);
	}
	for (unsigned k = 0; k < NHIGH; k++) {
		uint64_t idx = (in.high_base >> 12) + dev_off(l, k);
		dom0_guest_page(t->rt, id, NLOW + k, &pg);
		cr_expect_eq(d0_pte_addr(t, d0_phys(t, idx)), pg.phys, "high entry %u: not the target's page", k);
		cr_assert_eq(sim_gpu_read(t->sim, idx << 12, buf, sizeof(buf)), 0);
		cr_expect(!memcmp(buf, g->high[k], 4096), "the target's GPU does not read the guest's bytes at high entry %u", k);
	}
	cr_assert_eq(dom0_guest_aperture_read(t->rt, id, in.low_base, low, RDLEN, &err), 0, "%s", err.msg);
	for (unsigned p = 0; p < RDLEN / 4096; p++)
		cr_expect(!memcmp(low + p * 4096, g->low + p * 4096, 4096), "the guest reads other bytes at its low page %u%s", p,
			  p >= FPAGE && p < FPAGE + 4 ? " (fenced)" : "");
}

static void device_to_device(const char *from, const char *to)
{
	struct d0 s, d;
	struct gtt_err err = { 0 };
	struct dom0_migration m;
	static struct guest g;

	d0_start(&s, from, NULL);
	d0_start(&d, to, NULL);
	size_t slen, dlen;
	uint8_t *src0 = snap(&s, &slen);
	uint8_t *dst0 = snap(&d, &dlen);
	make_guest(&s, &g);
	int nid = -1;
	cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, &m, &err), 0, "%s -> %s: %s", from, to, err.msg);
	cr_expect_gt(nid, 0);
	cr_expect(m.drained, "it was the render owner on the source");
	cr_expect_eq(m.bytes_copied, GMEM * 4096ull);
	cr_expect_eq(m.ptes_mapped, NLOW + NHIGH);
	cr_expect_eq(m.fences_moved, 1);
	cr_expect_not(dom0_vgpu_exists(s.rt, g.id), "the source vGPU stays");
	cr_expect_eq(dom0_render_owner(s.rt), 0);
	expect_capture(&s, src0, slen, "the source after the move");
	cr_expect_eq(dom0_counters(s.rt)->migrations, 1);
	cr_expect_eq(dom0_counters(d.rt)->migrations, 1);
	cr_expect_eq(dom0_counters(s.rt)->pool_pages_used, 0);
	cr_expect_eq(dom0_counters(d.rt)->pool_pages_used, 4);
	expect_guest_on(&d, &g, nid);
	/* it keeps running there: a guest write reaches the target's GTT */
	struct dom0_vgpu_info in;
	struct hw_page pg;
	dom0_vgpu_info(d.rt, nid, &in);
	cr_assert_eq(dom0_guest_pte_write(d.rt, nid, (in.high_base >> 12) + 1, d0_guest_pte(&d, 40), &err), 0, "%s", err.msg);
	dom0_guest_page(d.rt, nid, 40, &pg);
	cr_expect_eq(d0_pte_addr(&d, d0_phys(&d, (in.high_base >> 12) + 1)), pg.phys);
	cr_assert_eq(dom0_vgpu_destroy(d.rt, nid, &err), 0);
	expect_capture(&d, dst0, dlen, "the target after the moved vGPU is destroyed");
	drop(src0, slen);
	drop(dst0, dlen);
	d0_stop(&d);
	d0_stop(&s);
}

Test(dom0_migrate, device_skl_to_kbl) { device_to_device("sim:skl", "sim:kbl"); }
Test(dom0_migrate, device_skl_to_skl) { device_to_device("sim:skl", "sim:skl"); }
/*
 * Across PTE formats and bit-6 swizzling (skl: none; hsw: i915's swizzle on
 * symmetric DIMMs, regs/platform.c): the guest's X-tiled bytes would read
 * otherwise through its fence on the target, so the move is refused, naming
 * the fence and both modes, and changes nothing; with the fence turned off the
 * same move goes through, its PTEs re-encoded in hsw's 32-bit format.
 */
Test(dom0_migrate, device_skl_to_hsw_refused_while_fenced)
{
	struct gtt_err err = { 0 };
	struct dom0_migration m;
	struct dom0_vgpu_info was, now;
	struct d0 s, d;
	static struct guest g;
	size_t slen, dlen;
	int nid = 0;

	d0_start(&s, "sim:skl", NULL);
	d0_start(&d, "sim:hsw", NULL);
	uint8_t *dst0 = snap(&d, &dlen);
	make_guest(&s, &g);
	uint8_t *src0 = snap(&s, &slen);
	dom0_vgpu_info(s.rt, g.id, &was);
	cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, &m, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "fence 1") && strstr(err.msg, "swizzle"), "%s", err.msg);
	expect_capture(&d, dst0, dlen, "after the refusal, the target");
	expect_capture(&s, src0, slen, "after the refusal, the source");
	dom0_vgpu_info(s.rt, g.id, &now);
	expect_same_info(&now, &was, "after the refusal");
	cr_expect_eq(dom0_render_owner(s.rt), g.id);
	cr_assert_eq(dom0_guest_fence_write(s.rt, g.id, 1, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, &m, &err), 0, "%s", err.msg);
	cr_expect_eq(m.fences_moved, 0);
	cr_assert_eq(dom0_switch(d.rt, nid, NULL, &err), 0, "%s", err.msg);
	expect_phys_is_shadow(&d, nid, "on hsw");
	drop(src0, slen);
	drop(dst0, dlen);
	d0_stop(&d);
	d0_stop(&s);
}

/* ------------------------------------------------------ device rollback */

/* After a failed device move: the target as captured, the vGPU on the source as it was. */
static void expect_rolled_back(struct d0 *s, const struct guest *g, const struct dom0_vgpu_info *was, const uint32_t *pvwas,
			       const uint8_t *scap, size_t slen, struct d0 *d, const uint8_t *dcap, size_t dlen,
			       const char *what)
{
	struct dom0_vgpu_info now;
	uint32_t pvnow[VGT_PVINFO_WORDS];
	uint8_t low[RDLEN];
	struct gtt_err err = { 0 };

	expect_capture(d, dcap, dlen, what);
	cr_expect_eq(dom0_counters(d->rt)->migrations, 0, "%s", what);
	cr_assert(dom0_vgpu_exists(s->rt, g->id), "%s: the source vGPU is gone", what);
	cr_expect_not(dom0_vgpu_migrating(s->rt, g->id), "%s: left locked", what);
	dom0_vgpu_info(s->rt, g->id, &now);
	expect_same_info(&now, was, what);
	pv_page(s->rt, g->id, pvnow);
	cr_expect(!memcmp(pvnow, pvwas, sizeof(pvnow)), "%s: the source's PVINFO changed", what);
	cr_expect_eq(dom0_render_owner(s->rt), g->id, "%s: render ownership not restored", what);
	cr_expect_eq(dom0_counters(s->rt)->migrations, 0, "%s", what);
	expect_capture(s, scap, slen, what);
	cr_assert_eq(dom0_guest_aperture_read(s->rt, g->id, was->low_base, low, RDLEN, &err), 0, "%s", err.msg);
	cr_expect(!memcmp(low, g->low, RDLEN), "%s: the guest reads other bytes on the source", what);
	cr_assert_eq(dom0_switch(s->rt, g->id, NULL, &err), 0, "%s: %s", what, err.msg);
	expect_phys_is_shadow(s, g->id, what);
	uint64_t f;
	cr_assert_eq(dom0_guest_fence_read(s->rt, g->id, 1, &f, NULL), 0);
	cr_expect_eq(f, g->fence, "%s", what);
}

Test(dom0_migrate, device_rollback_at_every_step)
{
	struct rec r = { .fail_at = -1 };
	struct dom0_config cfg = { .migrate_hooks = { after_step, &r } };
	struct gtt_err err = { 0 };
	struct d0 s, d;
	static struct guest g;

	d0_start(&s, "sim:skl", &cfg);
	d0_start(&d, "sim:kbl", NULL);
	size_t slen, dlen;
	uint8_t *dcap = snap(&d, &dlen);
	make_guest(&s, &g);
	uint8_t *scap = snap(&s, &slen);
	struct dom0_vgpu_info was;
	uint32_t pvwas[VGT_PVINFO_WORDS];
	dom0_vgpu_info(s.rt, g.id, &was);
	pv_page(s.rt, g.id, pvwas);
	for (enum dom0_migrate_step st = DOM0_MIGRATE_LOCK; st <= DOM0_MIGRATE_MAP; st++) {
		const char *sn = dom0_migrate_step_name(st);
		int nid = -7;
		r.fail_at = (int)st;
		r.n = 0;
		cr_expect_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), GTT_EIO, "failing at %s", sn);
		cr_expect(strstr(err.msg, sn), "%s: %s", sn, err.msg);
		cr_expect_eq(nid, -7, "%s: new id written on a failure", sn);
		cr_expect_eq(r.n, (unsigned)st + 1, "%s: %u steps ran", sn, r.n);
		for (int i = 1; i <= 4; i++)
			cr_expect_not(dom0_vgpu_exists(d.rt, i), "%s: vGPU %d left on the target", sn, i);
		cr_expect_eq(dom0_counters(d.rt)->pool_pages_used, 0, "%s", sn);
		expect_rolled_back(&s, &g, &was, pvwas, scap, slen, &d, dcap, dlen, sn);
		dom0_vgpu_info(s.rt, g.id, &was);	/* the check's switch counts one more switch in */
	}
	/* the retry: a hook's failure past the release is ignored */
	r.fail_at = DOM0_MIGRATE_RELEASE;
	int nid = 0;
	cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), 0, "retry: %s", err.msg);
	cr_expect_not(dom0_vgpu_exists(s.rt, g.id));
	expect_guest_on(&d, &g, nid);
	drop(dcap, dlen);
	drop(scap, slen);
	d0_stop(&d);
	d0_stop(&s);
}

Test(dom0_migrate, device_rollback_on_target_faults)
{
	struct gtt_err err = { 0 };
	struct d0 s, d;
	static struct guest g;
	size_t slen, dlen;
	struct dom0_vgpu_info was;
	uint32_t pvwas[VGT_PVINFO_WORDS];
	int nid;

	d0_start(&s, "sim:skl", NULL);
	make_guest(&s, &g);
	uint8_t *scap = snap(&s, &slen);
	dom0_vgpu_info(s.rt, g.id, &was);
	pv_page(s.rt, g.id, pvwas);

	/* (a) a target pool of 2 pages: the 4-page fence does not fit */
	struct dom0_config small = { .pool_size = 2 * 4096 };
	d0_start(&d, "sim:kbl", &small);
	uint8_t *dcap = snap(&d, &dlen);
	nid = -7;
	cr_expect_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), GTT_ENOMEM, "pool of 2 pages: %s", err.msg);
	cr_expect_eq(nid, -7);
	cr_expect_not(dom0_vgpu_exists(d.rt, 1), "the target vGPU stays");
	expect_rolled_back(&s, &g, &was, pvwas, scap, slen, &d, dcap, dlen, "a target pool too small");
	dom0_vgpu_info(s.rt, g.id, &was);
	drop(dcap, dlen);
	d0_stop(&d);

	/* (b) share limit 1, every slot taken on the target: the create does not fit */
	struct dom0_config lim = { .share_limit = 1 };
	d0_start(&d, "sim:kbl", &lim);
	struct dom0_vgpu_params all = { .low_size = 4 * MiB, .high_slots = dom0_layout(d.rt)->num_slots, .mem_pages = 1 };
	int blocker;
	cr_assert_eq(dom0_vgpu_create(d.rt, &all, &blocker, &err), 0, "%s", err.msg);
	dcap = snap(&d, &dlen);
	nid = -7;
	cr_expect_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), GTT_EBUSY, "no slot on the target: %s", err.msg);
	cr_expect_eq(nid, -7);
	cr_expect_not(dom0_vgpu_exists(d.rt, blocker + 1), "the target vGPU stays");
	expect_rolled_back(&s, &g, &was, pvwas, scap, slen, &d, dcap, dlen, "a target without room");
	drop(dcap, dlen);

	/* the retry, with room */
	cr_assert_eq(dom0_vgpu_destroy(d.rt, blocker, &err), 0);
	cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), 0, "retry: %s", err.msg);
	expect_guest_on(&d, &g, nid);
	cr_expect_not(dom0_vgpu_exists(s.rt, g.id));
	drop(scap, slen);
	d0_stop(&d);
	d0_stop(&s);
}

/*
 * A guest PTE naming a frame beyond the guest's memory is refused
 * (GTT_EINVAL) and its scratch page mapped, yet kept as the guest wrote it
 * (dom0_guest_pte_read returns it). The move writes it again on the target,
 * where it is refused the same way, and that is no failure of the move (found
 * by this test: one stray PTE, written by the guest itself, pinned it to its
 * device).
 */
Test(dom0_migrate, device_move_with_a_refused_guest_pte)
{
	struct gtt_err err = { 0 };
	struct d0 s, d;
	static struct guest g;

	d0_start(&s, "sim:skl", NULL);
	d0_start(&d, "sim:kbl", NULL);
	make_guest(&s, &g);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(s.rt, g.id, &in);
	uint64_t idx = (in.low_base >> 12) + 100;
	cr_assert_eq(dom0_guest_pte_write(s.rt, g.id, idx, d0_guest_pte(&s, GMEM + 5), &err), GTT_EINVAL);
	uint64_t sh;
	dom0_shadow_pte(s.rt, g.id, idx, &sh, NULL);
	cr_assert_eq(d0_pte_addr(&s, sh), in.scratch_phys, "a refused frame maps the scratch page");
	int nid = 0;
	cr_expect_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), 0, "a refused guest PTE blocks the move: %s",
		     err.msg);
	if (nid > 0 && dom0_vgpu_exists(d.rt, nid)) {
		dom0_vgpu_info(d.rt, nid, &in);
		cr_assert_eq(dom0_shadow_pte(d.rt, nid, (in.low_base >> 12) + 100, &sh, NULL), 0);
		cr_expect_eq(d0_pte_addr(&d, sh), in.scratch_phys, "the stray entry maps the target's scratch page");
	}
	d0_stop(&d);
	d0_stop(&s);
}

/*
 * The guest's request words and the last answer move with it (docs/dom0.md,
 * map step), and a request pending on the source when it moves waits on the
 * target, which answers its SEQ (found by this test: it was answered nowhere,
 * the guest waiting forever).
 */
Test(dom0_migrate, device_move_keeps_a_pending_request)
{
	struct gtt_err err = { 0 };
	struct d0 s, d;
	static struct guest g;

	d0_start(&s, "sim:skl", NULL);
	d0_start(&d, "sim:kbl", NULL);
	make_guest(&s, &g);
	cr_assert_eq(dom0_pvinfo_write(s.rt, g.id, GTTLAB_IF_GM_CODE - VGT_PVINFO_PAGE, GTTLAB_GM_REQ_EXPAND, &err), 0);
	cr_assert_eq(dom0_pvinfo_write(s.rt, g.id, GTTLAB_IF_GM_COUNT - VGT_PVINFO_PAGE, 1, &err), 0);
	cr_assert_eq(dom0_pvinfo_write(s.rt, g.id, GTTLAB_IF_GM_SEQ - VGT_PVINFO_PAGE, 0x99, &err), 0);
	cr_assert_eq(dom0_pvinfo_write(s.rt, g.id, VGT_IF_G2V_NOTIFY - VGT_PVINFO_PAGE, GTTLAB_G2V_GM_REQUEST, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(dom0_requests_pending(s.rt), 1);
	cr_assert_eq(pv(s.rt, g.id, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_PENDING);
	int nid = 0;
	cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_requests_pending(s.rt), 0);
	unsigned answered = 0;
	cr_assert_eq(dom0_serve_requests(d.rt, &answered, &err), 0, "%s", err.msg);
	uint32_t st = pv(d.rt, nid, GTTLAB_IF_GM_STATUS), seq = pv(d.rt, nid, GTTLAB_IF_GM_ANSWER_SEQ);
	cr_expect(st != GTTLAB_GM_ST_PENDING && seq == 0x99, "the guest's pending request (SEQ 0x99) is never answered: "
		  "STATUS %u, ANSWER_SEQ 0x%x on the target, %u answered there", st, seq, answered);
	d0_stop(&d);
	d0_stop(&s);
}

/* The release puts back only what the vGPU holds: a vGPU sharing the source slots keeps its entries there. */
Test(dom0_migrate, release_leaves_a_sharers_entries)
{
	struct gtt_err err = { 0 };
	struct dom0_migration m;
	struct d0 t;

	d0_start(&t, "sim:skl", NULL);
	const struct dom0_layout *l = dom0_layout(t.rt);
	uint64_t s0 = l->slots_base >> 12, pps = l->slot_size >> 12;
	int a = slot_guest(&t, 0), b = slot_guest(&t, 0);	/* b switched in last: slots 0-1 hold b's entries */
	struct hw_page pg;
	cr_assert_eq(dom0_guest_page(t.rt, b, 2, &pg), 0);
	cr_assert_eq(d0_pte_addr(&t, d0_phys(&t, s0 + slot_off(l, 0))), pg.phys);
	size_t len;
	uint8_t *cap = snap(&t, &len);
	cr_assert_eq(dom0_migrate(t.rt, a, 5, &m, &err), 0, "%s", err.msg);
	cr_expect_not(m.drained, "a was not the render owner");
	cr_expect_eq(m.ptes_released, 0, "a held none of the source slots' entries");
	cr_expect_eq(dom0_render_owner(t.rt), b);
	expect_capture(&t, cap, len, "b's entries in the slots a left");
	for (uint64_t i = s0; i < s0 + 2 * pps; i += 97)
		cr_expect_eq(dom0_physical_owner(t.rt, i), b);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 0), 1);
	drop(cap, len);
	/* both run, each from its own range */
	cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0);
	expect_phys_is_shadow(&t, a, "a at slot 5");
	cr_assert_eq(dom0_switch(t.rt, b, NULL, &err), 0);
	expect_phys_is_shadow(&t, b, "b at slot 0");
	d0_stop(&t);
}

/* ------------------------------- host work between a migration's steps (issue 22, 5) */

/* The host's work a hook does at one step; what each call returned. */
struct host_work {
	enum dom0_migrate_step at;
	int fail_at;			/* -1: never */
	int other;			/* a vGPU to switch to, 0 none */
	bool serve, resize, switch_other;
	int serve_rc, expand_rc, reduce_rc, switch_rc;
	unsigned answered;
	struct dom0_runtime *rt;
};

static int host_hook(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	struct host_work *w = ctx;

	if (s == w->at) {
		if (w->serve)
			w->serve_rc = dom0_serve_requests(rt, &w->answered, NULL);
		if (w->resize) {
			w->expand_rc = dom0_expand(rt, id, 1, NULL, NULL, NULL);
			w->reduce_rc = dom0_reduce(rt, id, 1, NULL, NULL, NULL);
		}
		if (w->switch_other)
			w->switch_rc = dom0_switch(rt, w->other, NULL, NULL);
	}
	return w->fail_at == (int)s;
}

static void notify(struct dom0_runtime *rt, int id, uint32_t code, uint32_t q, uint32_t seq)
{
	struct gtt_err err = { 0 };

	cr_assert_eq(dom0_pvinfo_write(rt, id, GTTLAB_IF_GM_CODE - VGT_PVINFO_PAGE, code, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(rt, id, GTTLAB_IF_GM_COUNT - VGT_PVINFO_PAGE, q, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(rt, id, GTTLAB_IF_GM_SEQ - VGT_PVINFO_PAGE, seq, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_pvinfo_write(rt, id, VGT_IF_G2V_NOTIFY - VGT_PVINFO_PAGE, GTTLAB_G2V_GM_REQUEST, &err), 0, "%s",
		     err.msg);
}

/*
 * A reduce answered between the steps of a device migration used to shrink
 * the source's high range under move_state, which then read past it (a heap
 * overflow under ASan). The migrating vGPU's request waits: it moves with
 * the vGPU and is answered on the target.
 */
Test(dom0_migrate, a_request_waits_out_a_device_migration)
{
	for (enum dom0_migrate_step at = DOM0_MIGRATE_LOCK; at <= DOM0_MIGRATE_MAP; at++) {
		struct host_work w = { .at = at, .fail_at = -1, .serve = true, .resize = true };
		struct dom0_config cfg = { .migrate_hooks = { host_hook, &w } };
		struct gtt_err err = { 0 };
		struct d0 s, d;
		static struct guest g;
		int nid = 0;

		d0_start(&s, "sim:skl", &cfg);
		d0_start(&d, "sim:kbl", NULL);
		make_guest(&s, &g);
		cr_assert_eq(dom0_expand(s.rt, g.id, 1, NULL, NULL, &err), 0, "%s", err.msg);
		notify(s.rt, g.id, GTTLAB_GM_REQ_REDUCE, 1, 0x31);
		cr_assert_eq(dom0_migrate_device(s.rt, g.id, d.rt, &nid, NULL, &err), 0, "at %s: %s",
			     dom0_migrate_step_name(at), err.msg);
		cr_expect_eq(w.answered, 0u, "at %s: the migrating vGPU's request was answered on the source",
			     dom0_migrate_step_name(at));
		cr_expect_eq(w.expand_rc, GTT_EBUSY, "at %s: a migrating vGPU was expanded", dom0_migrate_step_name(at));
		cr_expect_eq(w.reduce_rc, GTT_EBUSY, "at %s: a migrating vGPU was reduced", dom0_migrate_step_name(at));
		struct dom0_vgpu_info in;
		dom0_vgpu_info(d.rt, nid, &in);
		cr_expect_eq(in.slots, 2u, "at %s: the target holds %u slots", dom0_migrate_step_name(at), in.slots);
		cr_assert_eq(dom0_requests_pending(d.rt), 1u);
		cr_assert_eq(dom0_serve_requests(d.rt, NULL, &err), 0, "%s", err.msg);
		cr_expect_eq(pv(d.rt, nid, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_GRANTED);
		cr_expect_eq(pv(d.rt, nid, GTTLAB_IF_GM_ANSWER_SEQ), 0x31u);
		dom0_vgpu_info(d.rt, nid, &in);
		cr_expect_eq(in.slots, 1u);
		d0_stop(&d);
		d0_stop(&s);
	}
}

/*
 * An expansion answered between the steps of a slot migration used to leave
 * the slot occupancy wrong. It waits for the unlock; occupancy counts every
 * vGPU's slots once the move is done, or rolled back.
 */
Test(dom0_migrate, slot_occupancy_holds_with_requests_between_steps)
{
	for (int fail = 0; fail < 2; fail++)
		for (enum dom0_migrate_step at = DOM0_MIGRATE_LOCK; at <= DOM0_MIGRATE_MAP; at++) {
			struct host_work w = { .at = at, .fail_at = fail ? DOM0_MIGRATE_MAP : -1, .serve = true, .resize = true };
			struct dom0_config cfg = { .migrate_hooks = { host_hook, &w } };
			struct gtt_err err = { 0 };
			struct d0 t;

			d0_start(&t, "sim:skl", &cfg);
			int id = slot_guest(&t, 0);
			notify(t.rt, id, GTTLAB_GM_REQ_EXPAND, 1, 0x44);
			int rc = dom0_migrate(t.rt, id, 5, NULL, &err);
			cr_expect_eq(rc, fail ? GTT_EIO : 0, "at %s: %s", dom0_migrate_step_name(at), err.msg);
			cr_expect_eq(w.answered, 0u, "at %s", dom0_migrate_step_name(at));
			struct dom0_vgpu_info in;
			dom0_vgpu_info(t.rt, id, &in);
			unsigned first = fail ? 0 : 5;
			cr_expect_eq(in.first_slot, first);
			cr_expect_eq(in.slots, 2u);
			for (unsigned sl = 0; sl < dom0_layout(t.rt)->num_slots; sl++)
				cr_expect_eq(dom0_slot_occupancy(t.rt, sl), sl >= first && sl < first + 2 ? 1u : 0u,
					     "at %s%s: slot %u occupancy %u", dom0_migrate_step_name(at), fail ? " (rolled back)" : "",
					     sl, dom0_slot_occupancy(t.rt, sl));
			uint32_t base = pv(t.rt, id, VGT_IF_NONMAPPABLE_BASE), size = pv(t.rt, id, VGT_IF_NONMAPPABLE_SIZE);
			cr_expect_eq(base, (uint32_t)in.high_base, "at %s: PVINFO base 0x%x, the range 0x%llx",
				     dom0_migrate_step_name(at), base, (unsigned long long)in.high_base);
			cr_expect_eq(size, (uint32_t)in.high_size);
			/* the request was kept: answered now */
			cr_assert_eq(dom0_serve_requests(t.rt, NULL, &err), 0, "%s", err.msg);
			cr_expect_eq(pv(t.rt, id, GTTLAB_IF_GM_ANSWER_SEQ), 0x44u);
			d0_stop(&t);
		}
}

/*
 * The scheduler switches another vGPU in between the steps, then the
 * migration rolls back: the migrating vGPU must not become the render owner
 * again while the other's entries are in the GTT (the GPU would read the
 * other guest's bytes). It gets its own back at its next switch.
 */
Test(dom0_migrate, a_rollback_after_a_switch_leaves_the_render_owner)
{
	for (enum dom0_migrate_step at = DOM0_MIGRATE_LOCK; at <= DOM0_MIGRATE_TRANSFER; at++) {
		struct host_work w = { .at = at, .fail_at = DOM0_MIGRATE_MAP, .switch_other = true };
		struct dom0_config cfg = { .migrate_hooks = { host_hook, &w } };
		struct gtt_err err = { 0 };
		struct d0 t;

		d0_start(&t, "sim:skl", &cfg);
		int b = slot_guest(&t, 0);	/* b shares a's slots */
		int a = slot_guest(&t, 0);
		w.other = b;
		cr_assert_eq(dom0_migrate(t.rt, a, 5, NULL, &err), GTT_EIO);
		cr_expect_eq(w.switch_rc, 0, "at %s", dom0_migrate_step_name(at));
		cr_expect_eq(dom0_render_owner(t.rt), b, "at %s: render owner %d after the rollback, b (%d) was switched in",
			     dom0_migrate_step_name(at), dom0_render_owner(t.rt), b);
		expect_phys_is_shadow(&t, b, "b after a's rollback");
		cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0, "%s", err.msg);
		expect_phys_is_shadow(&t, a, "a switched in after its rollback");
		d0_stop(&t);
	}
}

/* ------------------------------------------------------ per-step time */

/* A hook that takes its time at one step: the time is nobody's step. */
static int slow_hook(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	struct timespec t = { 0, 20 * 1000000 };

	(void)rt;
	(void)id;
	if (s == *(enum dom0_migrate_step *)ctx)
		nanosleep(&t, NULL);
	return 0;
}

/*
 * VOCL's Figure 8 breakdown: every step of a move has its own time, they add
 * up to no more than the whole, and a test hook's time is counted in none of
 * them (an accounting rule, not a speed: the hook sleeps 20 ms).
 */
Test(dom0_migrate, every_step_has_its_time_and_a_hooks_is_nobodys)
{
	enum dom0_migrate_step at = DOM0_MIGRATE_TRANSFER;
	struct dom0_config cfg = { .migrate_hooks = { slow_hook, &at } };
	struct dom0_migration m;
	struct gtt_err err = { 0 };
	struct d0 src, dst;
	int nid;

	d0_start(&src, "sim:skl", &cfg);
	d0_start(&dst, "sim:skl", NULL);
	int v = slot_guest(&src, 2);
	cr_assert_eq(dom0_migrate_device(src.rt, v, dst.rt, &nid, &m, &err), 0, "%s", err.msg);
	uint64_t sum = 0;
	for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
		sum += m.step_ns[s];
	cr_expect_geq(m.ns, 20000000, "the whole move took %llu ns, the hook alone slept 20 ms", (unsigned long long)m.ns);
	cr_expect_leq(sum + 20000000, m.ns, "the steps add up to %llu ns of a %llu ns move that slept 20 ms in a hook",
		      (unsigned long long)sum, (unsigned long long)m.ns);
	cr_expect_gt(m.step_ns[DOM0_MIGRATE_TRANSFER], 0, "the copy of the guest's memory took no time");
	d0_stop(&dst);
	d0_stop(&src);

	/* slot to slot too */
	d0_start(&src, "sim:skl", &cfg);
	v = slot_guest(&src, 2);
	cr_assert_eq(dom0_migrate(src.rt, v, 20, &m, &err), 0, "%s", err.msg);
	sum = 0;
	for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
		sum += m.step_ns[s];
	cr_expect_leq(sum + 20000000, m.ns, "slot move: the steps add up to %llu ns of %llu ns", (unsigned long long)sum,
		      (unsigned long long)m.ns);
	d0_stop(&src);
}
