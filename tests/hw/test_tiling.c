/* SPDX-License-Identifier: MIT */
/*
 * Reads and writes of X- and Y-tiled surfaces through a fence, compared with
 * a brute-force reference layout built tile by tile (docs/hardware.md §4.6:
 * X = 512 B x 8 rows, Y = 16-byte columns of 32 rows), with bit-6 swizzling
 * on gen6/7 (§4.7: X 9_10, Y 9). Both sides: what the CPU reads through the
 * aperture, and the bytes the pages hold after a write through the aperture.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "tests/helpers.h"

/* linear offset -> tiled offset, built by walking tiles (not the closed formula) */
static void reference_map(size_t *map, size_t size, uint32_t pitch, int y, int swz)
{
	size_t tw = y ? 128 : 512, th = y ? 32 : 8, tiles_per_row = pitch / tw;

	for (size_t tile = 0; tile * 4096 < size; tile++) {
		size_t ty = tile / tiles_per_row, tx = tile % tiles_per_row;
		for (size_t t = 0; t < 4096; t++) {
			size_t row, col;
			if (y) {	/* t = column * 512 + row * 16 + byte */
				row = (t % 512) / 16;
				col = (t / 512) * 16 + t % 16;
			} else {	/* t = row * 512 + byte */
				row = t / 512;
				col = t % 512;
			}
			size_t lin = (ty * th + row) * pitch + tx * tw + col;
			size_t tiled = tile * 4096 + t;
			if (swz) {
				size_t bit = y ? (tiled >> 9) & 1 : ((tiled >> 9) ^ (tiled >> 10)) & 1;
				tiled ^= bit << 6;
			}
			if (lin < size)
				map[lin] = tiled;
		}
	}
}

/* a byte that depends on every bit of the offset, so any move of a byte shows */
static uint8_t pattern(size_t i)
{
	return (uint8_t)(((uint32_t)i * 2654435761u) >> 24);
}

struct surface {
	struct hw_device *dev;
	struct hw_page *pages;
	size_t n;
	uint64_t gm;			/* GGTT offset of the surface */
};

static void map_surface(struct surface *s, const char *spec, size_t n_pages, uint64_t gm)
{
	struct gtt_err err = { 0 };

	s->dev = t_open(spec);
	s->n = n_pages;
	s->gm = gm;
	s->pages = calloc(n_pages, sizeof(*s->pages));
	cr_assert_eq(hw_alloc_test_pages(s->dev, n_pages, s->pages, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < n_pages; i++) {
		uint64_t pte;
		cr_assert_eq(hw_pte_encode(s->dev->info.plat, s->pages[i].phys, HW_CACHE_NONE, &pte, &err), 0);
		cr_assert_eq(hw_ggtt_write_pte(s->dev, gm / 4096 + i, pte, &err), 0, "%s", err.msg);
	}
	hw_ggtt_invalidate(s->dev);
}

static void check_tiled(const char *spec, int y, uint32_t pitch, size_t n_pages, int swz)
{
	struct surface s;
	size_t size = n_pages * 4096;
	struct gtt_err err = { 0 };
	uint8_t *lin = malloc(size), *got = malloc(size);
	size_t *map = malloc(size * sizeof(*map));
	uint64_t seed = 99, fv;

	map_surface(&s, spec, n_pages, 0x100000);
	reference_map(map, size, pitch, y, swz);
	for (size_t i = 0; i < size; i++)
		lin[i] = (uint8_t)t_rand(&seed);
	/* the GPU's view: bytes at their tiled places in the pages */
	for (size_t i = 0; i < size; i++)
		((uint8_t *)s.pages[map[i] / 4096].cpu)[map[i] % 4096] = lin[i];

	struct hw_fence f = { s.gm, size, pitch, y ? HW_TILING_Y : HW_TILING_X, true };
	cr_assert_eq(hw_fence_encode(s.dev->info.plat, s.dev->info.aperture_size, &f, &fv, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_fence_write(s.dev, 3, fv, &err), 0, "%s", err.msg);

	/* side 1: the CPU reads the linear image through the fence */
	cr_assert_eq(hw_aperture_read(s.dev, s.gm, got, size, &err), 0, "%s", err.msg);
	for (size_t i = 0; i < size; i++)
		cr_assert_eq(got[i], lin[i], "%s %s-tiled pitch %u: linear byte %zu (row %zu col %zu) reads 0x%02x, want 0x%02x",
			     spec, y ? "Y" : "X", pitch, i, i / pitch, i % pitch, got[i], lin[i]);

	/* side 2: a linear write through the fence lands tiled in the pages */
	for (size_t i = 0; i < size; i++)
		lin[i] = (uint8_t)(i * 7 + 3);
	cr_assert_eq(hw_aperture_write(s.dev, s.gm, lin, size, &err), 0);
	for (size_t i = 0; i < size; i++)
		cr_assert_eq(((uint8_t *)s.pages[map[i] / 4096].cpu)[map[i] % 4096], lin[i],
			     "linear byte %zu not at tiled offset %zu", i, map[i]);

	/* disabling the fence gives linear access back */
	cr_assert_eq(hw_fence_write(s.dev, 3, 0, &err), 0);
	cr_assert_eq(hw_aperture_read(s.dev, s.gm, got, size, &err), 0);
	for (size_t i = 0; i < size; i++)
		cr_assert_eq(got[i], ((uint8_t *)s.pages[i / 4096].cpu)[i % 4096], "untiled byte %zu", i);
	hw_close(s.dev);
	free(lin);
	free(got);
	free(map);
	free(s.pages);
}

Test(tiling, x_tiled_skl) { check_tiled("sim:skl", 0, 2048, 16, 0); }
Test(tiling, y_tiled_skl) { check_tiled("sim:skl", 1, 512, 16, 0); }
Test(tiling, x_tiled_wide_pitch_skl) { check_tiled("sim:skl", 0, 8192, 32, 0); }
Test(tiling, y_tiled_odd_tile_count_skl) { check_tiled("sim:skl", 1, 384, 12, 0); }
Test(tiling, x_tiled_swizzled_hsw) { check_tiled("sim:hsw", 0, 2048, 16, 1); }
Test(tiling, y_tiled_swizzled_hsw) { check_tiled("sim:hsw", 1, 512, 16, 1); }
Test(tiling, x_tiled_swizzled_snb) { check_tiled("sim:snb", 0, 4096, 16, 1); }

/* Without the reference knowing about swizzling, hsw must disagree: the model really swizzles. */
Test(tiling, swizzle_is_visible_on_hsw)
{
	struct surface s;
	struct gtt_err err = { 0 };
	size_t size = 16 * 4096, *map = malloc(size * sizeof(*map)), bad = 0;
	uint8_t *got = malloc(size);
	uint64_t fv;

	map_surface(&s, "sim:hsw", 16, 0x200000);
	reference_map(map, size, 2048, 0, 0);
	for (size_t i = 0; i < size; i++)
		((uint8_t *)s.pages[map[i] / 4096].cpu)[map[i] % 4096] = pattern(i);
	struct hw_fence f = { s.gm, size, 2048, HW_TILING_X, true };
	cr_assert_eq(hw_fence_encode(s.dev->info.plat, 0, &f, &fv, &err), 0);
	cr_assert_eq(hw_fence_write(s.dev, 0, fv, &err), 0);
	cr_assert_eq(hw_aperture_read(s.dev, s.gm, got, size, &err), 0);
	for (size_t i = 0; i < size; i++)
		bad += got[i] != pattern(i);
	cr_expect_gt(bad, size / 4, "only %zu bytes differ: swizzling is not modelled", bad);
	hw_close(s.dev);
	free(map);
	free(got);
	free(s.pages);
}

/* A fence left half written (valid LO with a stale HI) detiles wrongly, as hardware would. */
Test(tiling, half_written_fence_misbehaves)
{
	struct surface s;
	struct gtt_err err = { 0 };
	size_t size = 16 * 4096, *map = malloc(size * sizeof(*map)), bad = 0;
	uint8_t *got = malloc(size);
	uint64_t fv, wrong;

	map_surface(&s, "sim:skl", 16, 0x300000);
	reference_map(map, size, 2048, 0, 0);
	for (size_t i = 0; i < size; i++)
		((uint8_t *)s.pages[map[i] / 4096].cpu)[map[i] % 4096] = pattern(i);
	struct hw_fence f = { s.gm, size, 2048, HW_TILING_X, true };
	struct hw_fence g = { s.gm, size, 512, HW_TILING_X, true };
	cr_assert_eq(hw_fence_encode(s.dev->info.plat, 0, &f, &fv, &err), 0);
	cr_assert_eq(hw_fence_encode(s.dev->info.plat, 0, &g, &wrong, &err), 0);
	/* old HI (pitch 512), then the new LO with the valid bit: the order i915 avoids */
	cr_assert_eq(hw_mmio_write32(s.dev, 0x100000 + 4, (uint32_t)(wrong >> 32)), 0);
	cr_assert_eq(hw_mmio_write32(s.dev, 0x100000, (uint32_t)fv), 0);
	cr_assert_eq(hw_aperture_read(s.dev, s.gm, got, size, &err), 0);
	for (size_t i = 0; i < size; i++)
		bad += got[i] != pattern(i);
	cr_expect_gt(bad, 0, "a half-written fence detiled correctly: the model does not use the combined value");
	hw_close(s.dev);
	free(map);
	free(got);
	free(s.pages);
}
