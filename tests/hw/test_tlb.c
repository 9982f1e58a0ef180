/* SPDX-License-Identifier: MIT */
/*
 * The GGTT invalidate: a rewritten PTE reads back from BAR0 at once, but the
 * aperture (and the GPU) keep the old translation until GFX_FLSH_CNTL_GEN6 is
 * written. Seen from both sides: bytes through the aperture and the GPU-side
 * accessor, and the PTE in the GSM.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "tests/helpers.h"

static void stale_then_fresh(const char *spec, bool drop_flush)
{
	struct hw_device *dev = t_open(spec);
	struct hw_page pg[2];
	struct gtt_err err = { 0 };
	uint64_t pa, pb, back, idx = 0x1234;
	uint8_t buf[16];

	cr_assert_eq(hw_alloc_test_pages(dev, 2, pg, &err), 0);
	memset(pg[0].cpu, 0xaa, 4096);
	memset(pg[1].cpu, 0xbb, 4096);
	cr_assert_eq(hw_pte_encode(dev->info.plat, pg[0].phys, HW_CACHE_NONE, &pa, &err), 0);
	cr_assert_eq(hw_pte_encode(dev->info.plat, pg[1].phys, HW_CACHE_NONE, &pb, &err), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, idx, pa, &err), 0);
	hw_ggtt_invalidate(dev);
	hw_aperture_read(dev, idx * 4096 + 100, buf, sizeof(buf), &err);
	cr_assert_eq(buf[0], 0xaa, "page A not visible after its flush");

	cr_assert_eq(hw_ggtt_write_pte(dev, idx, pb, &err), 0);
	cr_assert_eq(hw_ggtt_read_pte(dev, idx, &back, &err), 0);
	cr_expect_eq(back, pb, "BAR0 must read the new PTE back at once");
	hw_aperture_read(dev, idx * 4096 + 100, buf, sizeof(buf), &err);
	cr_expect_eq(buf[0], 0xaa, "%s: aperture saw the new PTE before the invalidate", spec);
	cr_assert_eq(hw_gpu_read(dev, idx * 4096, buf, 1, &err), 0, "%s", err.msg);
	cr_expect_eq(buf[0], 0xaa, "%s: GPU saw the new PTE before the invalidate", spec);

	if (drop_flush)
		sim_fault_drop_writes(t_sim(dev), 0x101008, -1);
	hw_ggtt_invalidate(dev);
	hw_aperture_read(dev, idx * 4096 + 100, buf, sizeof(buf), &err);
	if (drop_flush) {
		cr_expect_eq(buf[0], 0xaa, "a dropped flush must leave the stale translation");
	} else {
		cr_expect_eq(buf[0], 0xbb, "%s: aperture still stale after the invalidate", spec);
		cr_assert_eq(hw_gpu_read(dev, idx * 4096, buf, 1, &err), 0);
		cr_expect_eq(buf[0], 0xbb);
	}
	hw_close(dev);
}

Test(tlb, stale_before_invalidate_skl) { stale_then_fresh("sim:skl", false); }
Test(tlb, stale_before_invalidate_hsw) { stale_then_fresh("sim:hsw", false); }
Test(tlb, stale_before_invalidate_snb) { stale_then_fresh("sim:snb", false); }
Test(tlb, dropped_flush_stays_stale) { stale_then_fresh("sim:skl", true); }

Test(tlb, gpu_reaches_high_graphics_memory)
{
	struct hw_device *dev = t_open("sim:skl");
	struct hw_page pg;
	struct gtt_err err = { 0 };
	uint64_t pte, gm = 3ull << 30;	/* 3 GiB: far above the 256 MiB aperture */
	uint8_t b = 0;

	cr_assert_eq(hw_alloc_test_pages(dev, 1, &pg, &err), 0);
	cr_assert_eq(hw_pte_encode(dev->info.plat, pg.phys, HW_CACHE_NONE, &pte, &err), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, gm / 4096, pte, &err), 0);
	hw_ggtt_invalidate(dev);
	cr_assert_eq(hw_gpu_write(dev, gm + 5, "\x42", 1, &err), 0, "%s", err.msg);
	cr_expect_eq(((uint8_t *)pg.cpu)[5], 0x42, "GPU write did not reach the page");
	cr_assert_eq(hw_gpu_read(dev, gm + 5, &b, 1, &err), 0);
	cr_expect_eq(b, 0x42);
	cr_expect_eq(hw_aperture_read(dev, gm, &b, 1, &err), GTT_ERANGE, "high GM is not CPU-visible");
	cr_expect_eq(hw_gpu_read(dev, 4ull << 30, &b, 1, &err), GTT_ERANGE);
	hw_close(dev);
}

/*
 * A run written in one bulk call (the model's fast path marks it dirty at
 * once): every entry of it, first, middle and last, stays stale until the
 * invalidate, and all of it is fresh after; the entry before it, which
 * shares its first dirty block, keeps its own translation.
 */
static void bulk_run_stale_then_fresh(const char *spec)
{
	struct hw_device *dev = t_open(spec);
	struct hw_page pg[3];
	struct gtt_err err = { 0 };
	uint64_t pte[3], run[200], first = 1001, at[3] = { first, first + 97, first + 199 };
	uint8_t b = 0;

	cr_assert_eq(hw_alloc_test_pages(dev, 3, pg, &err), 0);
	for (int k = 0; k < 3; k++) {
		memset(pg[k].cpu, 0xa0 + k, 4096);
		cr_assert_eq(hw_pte_encode(dev->info.plat, pg[k].phys, HW_CACHE_NONE, &pte[k], &err), 0);
	}
	cr_assert_eq(hw_ggtt_write_pte(dev, first - 1, pte[2], &err), 0);
	for (int i = 0; i < 200; i++)
		run[i] = pte[0];
	cr_assert_eq(hw_ggtt_write_range(dev, first, 200, run, &err), 0, "%s", err.msg);
	hw_ggtt_invalidate(dev);
	for (int i = 0; i < 200; i++)
		run[i] = pte[1];
	cr_assert_eq(hw_ggtt_write_range(dev, first, 200, run, &err), 0, "%s", err.msg);
	for (int k = 0; k < 3; k++) {
		cr_assert_eq(hw_gpu_read(dev, at[k] * 4096, &b, 1, &err), 0, "%s", err.msg);
		cr_expect_eq(b, 0xa0, "%s: PTE %llu of a bulk run seen before the invalidate", spec, (unsigned long long)at[k]);
	}
	hw_ggtt_invalidate(dev);
	for (int k = 0; k < 3; k++) {
		cr_assert_eq(hw_gpu_read(dev, at[k] * 4096, &b, 1, &err), 0, "%s", err.msg);
		cr_expect_eq(b, 0xa1, "%s: PTE %llu of a bulk run still stale after the invalidate", spec, (unsigned long long)at[k]);
	}
	cr_assert_eq(hw_gpu_read(dev, (first - 1) * 4096, &b, 1, &err), 0, "%s", err.msg);
	cr_expect_eq(b, 0xa2, "%s: PTE %llu beside the run lost its translation", spec, (unsigned long long)first - 1);
	hw_close(dev);
}

Test(tlb, bulk_run_stale_before_invalidate_skl) { bulk_run_stale_then_fresh("sim:skl"); }
Test(tlb, bulk_run_stale_before_invalidate_hsw) { bulk_run_stale_then_fresh("sim:hsw"); }
