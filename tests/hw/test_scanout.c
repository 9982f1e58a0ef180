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
		struct hw_scanout sc[HW_SCANOUT_MAX];
		cr_expect_eq(hw_scanout_ranges(dev, sc, HW_SCANOUT_MAX), 0, "%s", spec);
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

/*
 * Sandy Bridge's sprites (intel_sprite_regs.h, g4x registers): DVSCNTR 0x72180 (bit 31), DVSSTRIDE
 * 0x72188 in bytes, DVSSIZE 0x72190 (h - 1) << 16 | (w - 1), DVSSURF 0x7219c, DVSSCALE 0x72204 (bit 31
 * enable, source height - 1 in bits 10:0); pipe B's at + 0x1000. A downscaling sprite fetches its
 * source height.
 */
Test(scanout, sandy_bridge_sprites)
{
	struct hw_device *dev = t_open("sim:snb");
	struct sim_device *s = t_sim(dev);
	struct hw_scanout sc[HW_SCANOUT_MAX];

	/* pipe A: 720 rows of 4096 bytes, not scaled */
	sim_mmio_write32(s, 0x72188, 4096);
	sim_mmio_write32(s, 0x72190, (719u << 16) | 1023u);
	sim_mmio_write32(s, 0x7219c, 0x6000000 | 0x80);
	sim_mmio_write32(s, 0x72180, 1u << 31);
	/* pipe B: shows 100 rows, fetches 400 (DVSSCALE source height 399) */
	sim_mmio_write32(s, 0x73188, 2048);
	sim_mmio_write32(s, 0x73190, (99u << 16) | 511u);
	sim_mmio_write32(s, 0x73204, (1u << 31) | (511u << 16) | 399u);
	sim_mmio_write32(s, 0x7319c, 0x9000000);
	sim_mmio_write32(s, 0x73180, 1u << 31);
	/* Ivy Bridge's sprite block means nothing on Sandy Bridge */
	sim_mmio_write32(s, 0x7029c, 0xa000000);
	sim_mmio_write32(s, 0x70280, 1u << 31);

	size_t n = hw_scanout_ranges(dev, sc, HW_SCANOUT_MAX);
	cr_assert_eq(n, 2);
	expect_range(&sc[0], 0x6000000, 4096ull * 720, "sprite", 0);
	expect_range(&sc[1], 0x9000000, 2048ull * 400, "sprite", 1);
	hw_close(dev);
}

/*
 * Ivy Bridge, Haswell and Broadwell sprites (ivb registers): SPRCTL 0x70280 (bit 31), SPRSTRIDE
 * 0x70288, SPRSIZE 0x70290, SPRSURF 0x7029c, + 0x1000 a pipe; SPRSCALE 0x70304 on Ivy Bridge alone
 * (i915 writes it there only). Read between the pipe's primary plane and its cursor.
 */
Test(scanout, ivy_bridge_to_broadwell_sprites)
{
	static const char *const specs[] = { "sim:ivb", "sim:hsw", "sim:bdw" };

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct hw_device *dev = t_open(specs[i]);
		struct sim_device *s = t_sim(dev);
		struct hw_scanout sc[HW_SCANOUT_MAX];
		int ivb = !strcmp(specs[i], "sim:ivb");

		/* pipe C: primary plane (DSPCCNTR 0x72180, PIPECSRC 0x6201c), sprite, cursor (0x72080) */
		sim_mmio_write32(s, 0x72188, 8192);
		sim_mmio_write32(s, 0x6201c, (2047u << 16) | 63u);
		sim_mmio_write32(s, 0x7219c, 0x1000000);
		sim_mmio_write32(s, 0x72180, 1u << 31);
		sim_mmio_write32(s, 0x72288, 8192);
		sim_mmio_write32(s, 0x72290, (199u << 16) | 2047u);
		sim_mmio_write32(s, 0x72304, (1u << 31) | (2047u << 16) | 299u);	/* 300 source rows */
		sim_mmio_write32(s, 0x7229c, 0x3000000);
		sim_mmio_write32(s, 0x72280, 1u << 31);
		sim_mmio_write32(s, 0x72084, 0x5000000);
		sim_mmio_write32(s, 0x72080, 0x27);
		/* pipe A: a sprite programmed but off */
		sim_mmio_write32(s, 0x7029c, 0x7000000);
		sim_mmio_write32(s, 0x70288, 8192);

		size_t n = hw_scanout_ranges(dev, sc, HW_SCANOUT_MAX);
		cr_assert_eq(n, 3, "%s: %zu", specs[i], n);
		expect_range(&sc[0], 0x1000000, 8192ull * 64, "primary plane", 2);
		expect_range(&sc[1], 0x3000000, 8192ull * (ivb ? 300 : 200), "sprite", 2);
		expect_range(&sc[2], 0x5000000, 256ull * 256 * 4, "cursor", 2);
		hw_close(dev);
	}
}

/* hw_scanout_scan counts what did not fit, so a caller can refuse rather than lose a surface. */
Test(scanout, a_short_table_is_told_what_it_missed)
{
	struct hw_device *dev = t_open("sim:hsw");
	struct sim_device *s = t_sim(dev);
	struct hw_scanout sc[HW_SCANOUT_MAX];
	size_t found = 0;

	for (unsigned pipe = 0; pipe < 3; pipe++) {
		sim_mmio_write32(s, 0x70180 + 0x1000 * pipe, 1u << 31);	/* DSPCNTR */
		sim_mmio_write32(s, 0x70280 + 0x1000 * pipe, 1u << 31);	/* SPRCTL */
		sim_mmio_write32(s, 0x70080 + 0x1000 * pipe, 0x27);		/* CURCNTR */
	}
	cr_expect_eq(hw_scanout_scan(dev, sc, 4, &found), 4);
	cr_expect_eq(found, 9);
	cr_expect_eq(hw_scanout_scan(dev, sc, HW_SCANOUT_MAX, &found), 9);
	cr_expect_eq(found, 9);
	hw_close(dev);
}
