/* SPDX-License-Identifier: MIT */
/*
 * The fence memory space pool: a guest fence lands in the pool (physical fence
 * = pool range + the guest's pitch and tiling; pool PTEs = the guest's
 * entries), tiled data written through the guest's view lands in the guest's
 * pages in the tiled layout, and update/disable give the pool range and the
 * physical fence back.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "regs/mmio.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

/* docs/hardware.md §4.3 */
static uint64_t doc_fence(uint64_t start, uint64_t size, uint64_t stride, int y)
{
	return ((start + size - 4096) << 32) | start | ((stride / 128 - 1) << 32) | (y ? 2 : 0) | 1;
}

static uint64_t phys_fence(const struct d0 *t, unsigned i)
{
	return sim_mmio_read32(t->sim, FENCE_REG_GEN6_LO(i)) | (uint64_t)sim_mmio_read32(t->sim, FENCE_REG_GEN6_HI(i)) << 32;
}

/* Which physical fence holds a valid value with this start; -1 if none. */
static int fence_with_start(const struct d0 *t, uint64_t start)
{
	for (unsigned i = 0; i < t->dev->info.num_fences; i++) {
		uint64_t v = phys_fence(t, i);
		if ((v & 1) && (v & 0xfffff000) == start)
			return (int)i;
	}
	return -1;
}

Test(dom0_fence_pool, guest_fence_lands_in_the_pool)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", NULL);
	const struct dom0_layout *l = dom0_layout(t.rt);
	int a = d0_create(&t, 16 * MiB, 1, 4);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t start = in.low_base + 64 * 4096, size = 8 * 4096, pitch = 2048;
	for (uint64_t i = 0; i < 8; i++)
		cr_assert_eq(dom0_guest_pte_write(t.rt, a, (start >> 12) + i, d0_guest_pte(&t, 20 + i), &err), 0);
	uint64_t gval = doc_fence(start, size, pitch, 0);
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 2, gval, &err), 0, "%s", err.msg);

	/* registers: a physical fence with the pool range and the guest's pitch, tiling, valid */
	int pf = fence_with_start(&t, l->pool_base);
	cr_assert_geq(pf, 4, "no physical fence (beyond the host's 4) holds the pool range");
	cr_expect_eq(phys_fence(&t, (unsigned)pf), doc_fence(l->pool_base, size, pitch, 0), "physical fence %d = 0x%016llx",
		     pf, (unsigned long long)phys_fence(&t, (unsigned)pf));
	uint64_t back;
	cr_assert_eq(dom0_guest_fence_read(t.rt, a, 2, &back, NULL), 0);
	cr_expect_eq(back, gval, "the guest reads its own fence value");
	/* the pool's PTEs equal the guest's entries */
	for (uint64_t i = 0; i < 8; i++) {
		uint64_t sh;
		dom0_shadow_pte(t.rt, a, (start >> 12) + i, &sh, NULL);
		cr_expect_eq(d0_phys(&t, (l->pool_base >> 12) + i), sh, "pool PTE %llu", (unsigned long long)i);
	}
	/* data: linear bytes through the guest's fenced view land X-tiled in the guest's pages */
	uint8_t *lin = malloc(size);
	for (size_t i = 0; i < size; i++)
		lin[i] = (uint8_t)((i * 2654435761u) >> 24);
	cr_assert_eq(dom0_guest_aperture_write(t.rt, a, start, lin, size, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < size; i++) {
		size_t row = i / pitch, col = i % pitch;
		size_t tiled = (row / 8) * (pitch * 8) + (col / 512) * 4096 + (row % 8) * 512 + col % 512;
		struct hw_page pg;
		dom0_guest_page(t.rt, a, 20 + tiled / 4096, &pg);
		cr_assert_eq(((uint8_t *)pg.cpu)[tiled % 4096], lin[i], "linear byte %zu not at tiled offset %zu", i, tiled);
	}
	uint8_t *rd = malloc(size);
	cr_assert_eq(dom0_guest_aperture_read(t.rt, a, start, rd, size, &err), 0);
	cr_expect_eq(memcmp(rd, lin, size), 0, "reading back through the fence");
	struct dom0_vgpu_info now;
	dom0_vgpu_info(t.rt, a, &now);
	cr_expect_eq(dom0_counters(t.rt)->pool_pages_used, 8);

	/* update: a Y fence of 4 pages: the old pool range and its PTEs are given back */
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 2, doc_fence(start, 4 * 4096, 512, 1), &err), 0, "%s", err.msg);
	cr_expect_eq(phys_fence(&t, (unsigned)pf), doc_fence(l->pool_base, 4 * 4096, 512, 1), "the fence is reprogrammed in place");
	cr_expect_eq(dom0_counters(t.rt)->pool_pages_used, 4);
	cr_expect_eq(d0_phys(&t, (l->pool_base >> 12) + 5), t.rt ? d0_phys(&t, (l->pool_base >> 12) + 100) : 0,
		     "a released pool PTE is back to its boot value");
	/* disable: pool empty, fence back to its boot value, guest view linear through the ladder again */
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 2, 0, &err), 0);
	cr_expect_eq(phys_fence(&t, (unsigned)pf), 0);
	cr_expect_eq(dom0_counters(t.rt)->pool_pages_used, 0);
	cr_assert_eq(dom0_guest_aperture_read(t.rt, a, start, rd, 4096, &err), 0);
	struct hw_page p20;
	dom0_guest_page(t.rt, a, 20, &p20);
	cr_expect_eq(memcmp(rd, p20.cpu, 4096), 0, "after disable the guest sees its page linearly");
	free(lin);
	free(rd);
	d0_stop(&t);
}

Test(dom0_fence_pool, errors_are_clean)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	struct dom0_config cfg = { .pool_size = 16 * 4096 };

	d0_start(&t, "sim:skl", &cfg);
	int a = d0_create(&t, 16 * MiB, 1, 4);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t s = in.low_base;
	/* gScale indexed 4-entry arrays with an unchecked id */
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 4, doc_fence(s, 4096, 512, 0), &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "fence id 4") && strstr(err.msg, "4 fences"), "%s", err.msg);
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 0, doc_fence(0, 4096, 512, 0), &err), GTT_ERANGE, "host range");
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 0, doc_fence(s, 4096, 640, 0), &err), GTT_EINVAL, "bad pitch");
	/* pool exhaustion: 16 pages */
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 0, doc_fence(s, 12 * 4096, 512, 0), &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 1, doc_fence(s + 0x100000, 8 * 4096, 512, 0), &err), GTT_ENOMEM);
	cr_expect(strstr(err.msg, "fence pool exhausted") && strstr(err.msg, "largest free run is 4"), "%s", err.msg);
	uint64_t v;
	cr_assert_eq(dom0_guest_fence_read(t.rt, a, 1, &v, NULL), 0);
	cr_expect_eq(v, 0, "a refused fence write changes nothing");
	/* updating in place may reuse its own pages */
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 0, doc_fence(s, 16 * 4096, 512, 1), &err), 0, "%s", err.msg);
	d0_stop(&t);

	/* physical fences run out: 32 - 4 host = 28 for guests */
	struct dom0_config big = { .pool_size = 8 * MiB };
	d0_start(&t, "sim:skl", &big);
	int ids[2] = { d0_create(&t, 16 * MiB, 1, 16), d0_create(&t, 16 * MiB, 1, 16) };
	int ok = 0, busy = 0;
	for (int k = 0; k < 2; k++)
		for (unsigned f = 0; f < 16; f++) {
			dom0_vgpu_info(t.rt, ids[k], &in);
			int rc = dom0_guest_fence_write(t.rt, ids[k], f, doc_fence(in.low_base + f * 0x10000, 4096, 512, 0), &err);
			ok += rc == 0;
			busy += rc == GTT_EBUSY;
		}
	cr_expect_eq(ok, 28);
	cr_expect_eq(busy, 4);
	cr_expect(strstr(err.msg, "no free physical fence"), "%s", err.msg);
	d0_stop(&t);
}

/*
 * Found by the adversarial test: a guest fence whose size is not a whole number
 * of tile rows made the hardware detile the last row past the pool range, into
 * pool pages of another guest. Such a fence is refused and nothing changes.
 */
Test(dom0_fence_pool, partial_tile_rows_are_refused)
{
	struct gtt_err err = { 0 };
	struct d0 t;

	d0_start(&t, "sim:skl", NULL);
	int g = d0_create(&t, 8 * MiB, 1, 2);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, g, &in);
	size_t len0, len1;
	uint8_t *before = d0_capture(&t, &len0);
	/* Y: stride 512 x 32 rows = 16 KiB a row; X: stride 1024 x 8 rows = 8 KiB */
	cr_expect_eq(dom0_guest_fence_write(t.rt, g, 0, doc_fence(in.low_base, 8192, 512, 1), &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "tile rows") && strstr(err.msg, "0x4000"), "%s", err.msg);
	cr_expect_eq(dom0_guest_fence_write(t.rt, g, 1, doc_fence(in.low_base, 4096, 1024, 0), &err), GTT_EINVAL);
	uint8_t *after = d0_capture(&t, &len1);
	cr_expect(!memcmp(before, after, len0), "a refused fence changed the GGTT or fences");
	cr_expect_eq(dom0_counters(t.rt)->pool_allocs, 0);
	/* whole rows are fine */
	cr_expect_eq(dom0_guest_fence_write(t.rt, g, 0, doc_fence(in.low_base, 16384, 512, 1), &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_guest_fence_write(t.rt, g, 1, doc_fence(in.low_base + 0x10000, 8192, 1024, 0), &err), 0, "%s", err.msg);
	free(before);
	free(after);
	d0_stop(&t);
}

/* dom0_fini reads every fence back: one that no longer takes writes is named, not hidden. */
Test(dom0_fence_pool, an_unrestorable_fence_is_named_by_dom0_fini)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", NULL);
	int a = d0_create(&t, 16 * MiB, 1, 4);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t start = in.low_base + 64 * 4096;
	for (uint64_t i = 0; i < 8; i++)
		cr_assert_eq(dom0_guest_pte_write(t.rt, a, (start >> 12) + i, d0_guest_pte(&t, 20 + i), &err), 0);
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 2, doc_fence(start, 8 * 4096, 2048, 0), &err), 0, "%s", err.msg);
	int pf = fence_with_start(&t, dom0_layout(t.rt)->pool_base);
	cr_assert_geq(pf, 0);
	cr_assert_eq(sim_fault_freeze_after(t.sim, FENCE_REG_GEN6_LO((unsigned)pf), 0), 0);
	cr_assert_eq(dom0_fini(t.rt, &err), GTT_EIO, "a fence that was not put back went unnoticed");
	char want[32];
	snprintf(want, sizeof(want), "fence %d reads", pf);
	cr_expect(strstr(err.msg, want), "the fault names the fence: %s", err.msg);
	hw_close(t.dev);
}
