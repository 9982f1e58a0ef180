/* SPDX-License-Identifier: MIT */
/*
 * hw_scanout_ranges: the GGTT ranges enabled planes and cursors scan out. Golden values come
 * from the register layouts written out here (offsets and fields as i915 and the PRMs give
 * them, not regs/display.h) and the rule hw/scanout.h documents: the surface (stride x
 * height; a cursor 256x256x4 bytes) widened by 1 MiB on either side, the start clamped at 0.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "hw/scanout.h"
#include "tests/helpers.h"

#define MiB 0x100000ull

static void expect_range(const struct hw_scanout *s, uint64_t surf, uint64_t bytes, const char *what, unsigned pipe)
{
	uint64_t lo = surf > MiB ? surf - MiB : 0, hi = surf + bytes + MiB;

	cr_expect(s->start == lo && s->end == hi, "%s of pipe %c: 0x%llx-0x%llx, not 0x%llx-0x%llx", what, 'A' + pipe,
		  (unsigned long long)s->start, (unsigned long long)s->end, (unsigned long long)lo, (unsigned long long)hi);
	cr_expect_str_eq(s->what, what);
	cr_expect_eq(s->pipe, pipe);
}

Test(scanout, nothing_enabled_nothing_kept_off)
{
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		char spec[32];
		if (!gtt_platform_simulated(&gtt_platforms[i]))
			continue;
		snprintf(spec, sizeof(spec), "sim:%s", gtt_platforms[i].name);
		struct hw_device *dev = t_open(spec);
		struct hw_scanout sc[16];
		cr_expect_eq(hw_scanout_ranges(dev, sc, 16), 0, "%s", spec);
		hw_close(dev);
	}
}

Test(scanout, gen9_universal_planes_and_cursors)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	struct hw_scanout sc[16];

	/* pipe A, plane 1: linear 1920x1080, stride 7680 = 120 x 64 bytes; SURF's low 12 bits ignored */
	sim_mmio_write32(s, 0x70188, 120);
	sim_mmio_write32(s, 0x70190, (1079u << 16) | 1919u);
	sim_mmio_write32(s, 0x7019c, 0x8000000 | 0x123);
	sim_mmio_write32(s, 0x70180, 1u << 31);
	/* pipe B, plane 2 (+0x1000 a pipe, +0x100 a plane): X-tiled (tiling 1 at bit 10), 30 x 512 bytes, 720 rows */
	sim_mmio_write32(s, 0x71288, 30);
	sim_mmio_write32(s, 0x71290, (719u << 16) | 1279u);
	sim_mmio_write32(s, 0x7129c, 0x2000000);
	sim_mmio_write32(s, 0x71280, (1u << 31) | (1u << 10));
	/* pipe C, plane 3: Y-tiled (tiling 4), 40 x 128 bytes, 100 rows, below 1 MiB */
	sim_mmio_write32(s, 0x72388, 40);
	sim_mmio_write32(s, 0x72390, (99u << 16) | 1279u);
	sim_mmio_write32(s, 0x7239c, 0x80000);
	sim_mmio_write32(s, 0x72380, (1u << 31) | (4u << 10));
	/* pipe C's cursor: CURCNTR 0x72080 mode 0x27, CURBASE 0x72084 */
	sim_mmio_write32(s, 0x72084, 0x4000000);
	sim_mmio_write32(s, 0x72080, 0x27);
	/* pipe B, plane 3: programmed but not enabled */
	sim_mmio_write32(s, 0x7139c, 0x6000000);
	sim_mmio_write32(s, 0x71388, 120);

	size_t n = hw_scanout_ranges(dev, sc, 16);
	cr_assert_eq(n, 4);
	expect_range(&sc[0], 0x8000000, 7680ull * 1080, "primary plane", 0);
	expect_range(&sc[1], 0x2000000, 30ull * 512 * 720, "plane", 1);
	expect_range(&sc[2], 0x80000, 40ull * 128 * 100, "plane", 2);
	expect_range(&sc[3], 0x4000000, 256ull * 256 * 4, "cursor", 2);
	/* max is honoured */
	cr_expect_eq(hw_scanout_ranges(dev, sc, 2), 2);
	hw_close(dev);
}

Test(scanout, gen6_primary_planes_and_the_snb_pipe_b_cursor)
{
	struct hw_device *dev = t_open("sim:snb");
	struct sim_device *s = t_sim(dev);
	struct hw_scanout sc[16];

	/* pipe B: DSPCNTR 0x71180 bit 31, DSPSTRIDE 0x71188 in bytes, PIPESRC 0x6101c (w-1)<<16 | (h-1) */
	sim_mmio_write32(s, 0x71188, 5120);
	sim_mmio_write32(s, 0x6101c, (1279u << 16) | 1023u);
	sim_mmio_write32(s, 0x7119c, 0x3000000);
	sim_mmio_write32(s, 0x71180, 1u << 31);
	/* Sandy Bridge's pipe B cursor lives at 0x700c0/0x700c4, not pipe A's + 0x1000 */
	sim_mmio_write32(s, 0x700c4, 0x5000000);
	sim_mmio_write32(s, 0x700c0, 0x27);

	size_t n = hw_scanout_ranges(dev, sc, 16);
	cr_assert_eq(n, 2);
	expect_range(&sc[0], 0x3000000, 5120ull * 1024, "primary plane", 1);
	expect_range(&sc[1], 0x5000000, 256ull * 256 * 4, "cursor", 1);
	hw_close(dev);
}
