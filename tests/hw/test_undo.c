/* SPDX-License-Identifier: MIT */
/* The undo log leaves the GSM, the fences and the touched memory byte-identical. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/mmio.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "tests/helpers.h"

/* Everything restore must bring back: the whole GSM and every fence register, read from BAR0. */
static uint8_t *capture(struct hw_device *dev, size_t *len)
{
	size_t gsm = dev->info.gsm_size, fences = dev->info.num_fences * 8;
	uint8_t *b = malloc(gsm + fences);

	for (size_t off = 0; off < gsm; off += 4) {
		uint32_t v = sim_mmio_read32(t_sim(dev), dev->info.gsm_offset + (uint32_t)off);
		memcpy(b + off, &v, 4);
	}
	for (size_t off = 0; off < fences; off += 4) {
		uint32_t v = sim_mmio_read32(t_sim(dev), FENCE_REG_GEN6_BASE + (uint32_t)off);
		memcpy(b + gsm + off, &v, 4);
	}
	*len = gsm + fences;
	return b;
}

static void scribble(struct hw_device *dev, uint64_t seed)
{
	struct hw_page pg[8];
	struct gtt_err err = { 0 };
	uint64_t pte, vals[64];

	cr_assert_eq(hw_alloc_test_pages(dev, 8, pg, &err), 0);
	for (int i = 0; i < 200; i++) {
		uint64_t idx = t_rand(&seed) % dev->info.n_ptes;
		cr_assert_eq(hw_pte_encode(dev->info.plat, pg[i % 8].phys, HW_CACHE_NONE, &pte, &err), 0);
		cr_assert_eq(hw_ggtt_write_pte(dev, idx, pte, &err), 0);
	}
	for (int i = 0; i < 64; i++)
		cr_assert_eq(hw_pte_encode(dev->info.plat, pg[i % 8].phys, HW_CACHE_NONE, &vals[i], &err), 0);
	cr_assert_eq(hw_ggtt_write_range(dev, 1000, 64, vals, &err), 0);
	hw_ggtt_invalidate(dev);
	for (unsigned i = 0; i < dev->info.num_fences; i += 3) {
		struct hw_fence f = { 0x10000 * i, 0x8000, 1024, i & 1 ? HW_TILING_Y : HW_TILING_X, true };
		uint64_t v;
		cr_assert_eq(hw_fence_encode(dev->info.plat, 0, &f, &v, &err), 0);
		cr_assert_eq(hw_fence_write(dev, i, v, &err), 0);
	}
}

static void round_trip(const char *spec)
{
	struct hw_device *dev = t_open(spec);
	size_t n1, n2;
	uint8_t *before = capture(dev, &n1);

	scribble(dev, 5);
	uint8_t *mid = capture(dev, &n2);
	cr_assert(memcmp(before, mid, n1), "the scribble changed nothing: the test proves nothing");
	free(mid);
	cr_assert_eq(hw_undo_restore(dev, NULL), 0);
	uint8_t *after = capture(dev, &n2);
	cr_assert_eq(n1, n2);
	for (size_t i = 0; i < n1; i++)
		cr_assert_eq(after[i], before[i], "%s: byte %zu of GSM+fences differs after restore", spec, i);
	free(before);
	free(after);
	hw_close(dev);
}

Test(undo, restores_gsm_and_fences_skl) { round_trip("sim:skl"); }
Test(undo, restores_gsm_and_fences_hsw) { round_trip("sim:hsw"); }
Test(undo, restores_gsm_and_fences_snb) { round_trip("sim:snb"); }

Test(undo, restore_to_mark_keeps_earlier_writes)
{
	struct hw_device *dev = t_open("sim:skl");
	uint64_t v;

	cr_assert_eq(hw_ggtt_write_pte(dev, 7, 0x5001, NULL), 0);
	size_t mark = hw_undo_mark(dev);
	cr_assert_eq(hw_ggtt_write_pte(dev, 7, 0x6001, NULL), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, 8, 0x7001, NULL), 0);
	cr_assert_eq(hw_undo_restore_to(dev, mark, NULL), 0);
	hw_ggtt_read_pte(dev, 7, &v, NULL);
	cr_expect_eq(v, 0x5001);
	hw_ggtt_read_pte(dev, 8, &v, NULL);
	cr_expect_eq(v, SIM_SCRATCH_PHYS | 1);
	hw_close(dev);
}

Test(undo, restore_flushes_the_tlb_and_puts_aperture_bytes_back)
{
	struct hw_device *dev = t_open("sim:skl");
	struct hw_page pg[2];
	struct gtt_err err = { 0 };
	uint64_t pa, pb;
	uint8_t b;

	cr_assert_eq(hw_alloc_test_pages(dev, 2, pg, &err), 0);
	memset(pg[0].cpu, 0x11, 4096);
	memset(pg[1].cpu, 0x22, 4096);
	hw_pte_encode(dev->info.plat, pg[0].phys, HW_CACHE_NONE, &pa, &err);
	hw_pte_encode(dev->info.plat, pg[1].phys, HW_CACHE_NONE, &pb, &err);
	cr_assert_eq(hw_ggtt_write_pte(dev, 10, pa, &err), 0);
	hw_ggtt_invalidate(dev);
	hw_undo_forget(dev);		/* the test's own setup stays */

	cr_assert_eq(hw_aperture_write(dev, 10 * 4096, "\x99", 1, &err), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, 10, pb, &err), 0);
	hw_ggtt_invalidate(dev);
	cr_assert_eq(hw_aperture_write(dev, 10 * 4096 + 1, "\x77", 1, &err), 0);
	cr_expect_eq(((uint8_t *)pg[1].cpu)[1], 0x77);
	cr_assert_eq(hw_undo_restore(dev, &err), 0);
	cr_expect_eq(((uint8_t *)pg[0].cpu)[0], 0x11, "aperture byte on page A not restored");
	cr_expect_eq(((uint8_t *)pg[1].cpu)[1], 0x22, "aperture byte on page B not restored");
	hw_aperture_read(dev, 10 * 4096, &b, 1, &err);
	cr_expect_eq(b, 0x11, "the restored PTE is not in effect: no invalidate after restore");
	hw_close(dev);
}

Test(undo, counters_count_what_went_to_the_device)
{
	struct hw_device *dev = t_open("sim:hsw");
	uint64_t v[4] = { 0x1001, 0x2001, 0x3001, 0x4001 }, back[4];
	uint8_t b[100];

	hw_counters_reset(dev);
	cr_assert_eq(hw_ggtt_write_range(dev, 100, 4, v, NULL), 0);
	cr_assert_eq(hw_ggtt_read_range(dev, 100, 4, back, NULL), 0);
	cr_expect_eq(memcmp(v, back, sizeof(v)), 0, "bulk write did not land");
	cr_assert_eq(hw_fence_write(dev, 1, 0, NULL), 0);
	hw_ggtt_invalidate(dev);
	cr_assert_eq(hw_aperture_read(dev, 0, b, sizeof(b), NULL), 0);
	cr_expect_eq(dev->counters.pte_writes, 4);
	cr_expect_eq(dev->counters.pte_reads, 4);
	cr_expect_eq(dev->counters.fence_writes, 1);
	cr_expect_eq(dev->counters.invalidates, 1);
	cr_expect_eq(dev->counters.aperture_read_bytes, 100);
	cr_expect_eq(dev->counters.mmio_writes, 4 + 3 + 1, "4 PTEs, 3 fence words, 1 flush");
	cr_expect_eq(hw_undo_mark(dev), 4 + 3 + 1, "PTEs and fence words are logged, the flush as a marker");
	hw_close(dev);
}

/*
 * Pages A (0x11s) and B (0x22s); PTE 20 on A and invalidated; then PTEs
 * 20..20+n-1 rewritten to B without an invalidate and one byte 0x99 written
 * through the aperture at PTE 20, where the stale TLB still sends it: to A.
 * Returns the undo mark taken before the rewrite.
 */
static size_t write_through_stale_tlb(struct hw_device *dev, struct hw_page pg[2], unsigned n)
{
	struct gtt_err err = { 0 };
	uint64_t pa, pb;

	cr_assert_eq(hw_alloc_test_pages(dev, 2, pg, &err), 0);
	memset(pg[0].cpu, 0x11, 4096);
	memset(pg[1].cpu, 0x22, 4096);
	hw_pte_encode(dev->info.plat, pg[0].phys, HW_CACHE_NONE, &pa, &err);
	hw_pte_encode(dev->info.plat, pg[1].phys, HW_CACHE_NONE, &pb, &err);
	cr_assert_eq(hw_ggtt_write_pte(dev, 20, pa, &err), 0);
	hw_ggtt_invalidate(dev);
	size_t mark = hw_undo_mark(dev);
	for (unsigned i = 0; i < n; i++)
		cr_assert_eq(hw_ggtt_write_pte(dev, 20 + i, pb, &err), 0);
	cr_assert_eq(hw_aperture_write(dev, 20 * 4096, "\x99", 1, &err), 0);
	return mark;
}

/* A write through a stale TLB goes back through that same stale translation. */
Test(undo, aperture_write_through_a_stale_tlb_is_undone_where_it_landed)
{
	struct hw_device *dev = t_open("sim:skl");
	struct hw_page pg[2];
	struct gtt_err err = { 0 };
	size_t mark = write_through_stale_tlb(dev, pg, 1);

	cr_expect_eq(((uint8_t *)pg[0].cpu)[0], 0x99);
	hw_ggtt_invalidate(dev);
	cr_assert_eq(hw_undo_restore_to(dev, mark, &err), 0, "%s", err.msg);
	cr_expect_eq(((uint8_t *)pg[0].cpu)[0], 0x11, "page A keeps the byte written through the stale TLB");
	cr_expect_eq(((uint8_t *)pg[1].cpu)[0], 0x22, "page B was overwritten by the restore");
	uint8_t b;
	hw_aperture_read(dev, 20 * 4096, &b, 1, &err);
	cr_expect_eq(b, 0x11, "PTE 20 is back on page A and in effect");
	hw_close(dev);
}

/*
 * Restore reads back every entry it writes. One that does not read back (a
 * register that stopped taking writes) is named, with the rest still put back.
 */
Test(undo, restore_reads_back_and_names_what_did_not_go_back)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *sim = t_sim(dev);
	struct gtt_err err = { 0 };
	uint64_t f3, boot10 = sim_mmio_read64(sim, dev->info.gsm_offset + 10 * 8);

	cr_assert_eq(hw_ggtt_write_pte(dev, 9, 0x123456000ull | 1, &err), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, 10, 0x654321000ull | 1, &err), 0);
	cr_assert_eq(hw_fence_write(dev, 3, 0x0017f01f00100001ull, &err), 0);
	/* PTE 9 and fence 3's HI stop taking writes from now on */
	sim_fault_freeze_after(sim, dev->info.gsm_offset + 9 * 8, 0);
	sim_fault_freeze_after(sim, dev->info.gsm_offset + 9 * 8 + 4, 0);
	sim_fault_freeze_after(sim, FENCE_REG_GEN6_HI(3), 0);
	cr_expect_eq(hw_undo_restore(dev, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "PTE 9 reads 0x123456001, not 0x7ffff001"), "%s", err.msg);
	cr_expect(strstr(err.msg, "FENCE_REG_GEN6_HI_3 reads 0x17f01f"), "%s", err.msg);
	cr_expect(strstr(err.msg, "entries not restored"), "%s", err.msg);
	cr_expect_eq(sim_mmio_read64(sim, dev->info.gsm_offset + 10 * 8), boot10, "PTE 10 is restored all the same");
	cr_assert_eq(hw_fence_read(dev, 3, &f3, &err), 0);
	cr_expect_eq((uint32_t)f3, 0, "fence 3's LO is restored (so the half-restored fence is off)");
	hw_close(dev);
}

/* A restore needs no memory: the stale-TLB path once allocated, and lost the entry when it could not. */
static bool starve;
static void *starving_alloc(const struct gtt_env *env, size_t size)
{
	(void)env;
	return starve ? NULL : calloc(1, size);
}
static void plain_free(const struct gtt_env *env, void *p)
{
	(void)env;
	free(p);
}

Test(undo, restore_allocates_nothing)
{
	struct gtt_env env = *gtt_env_posix(GTT_LOG_ERROR);	/* with an allocator that can be starved */
	struct hw_device *dev = NULL;
	struct hw_page pg[2];
	struct gtt_err err = { 0 };

	env.alloc = starving_alloc;
	env.free = plain_free;
	cr_assert_eq(hw_open(&env, "sim:skl", gtt_posix_backends, gtt_num_posix_backends, NULL, &dev, &err), 0, "%s", err.msg);
	size_t mark = write_through_stale_tlb(dev, pg, 8);
	hw_ggtt_invalidate(dev);
	starve = true;
	cr_expect_eq(hw_undo_restore_to(dev, mark, &err), 0, "restore needed memory: %s", err.msg);
	starve = false;
	cr_expect_eq(((uint8_t *)pg[0].cpu)[0], 0x11, "the byte written through the stale TLB is back");
	cr_expect_eq(hw_undo_mark(dev), mark, "every entry was replayed");
	hw_free_test_pages(dev, 2, pg);
	hw_close(dev);
}
