/* SPDX-License-Identifier: MIT */
/*
 * The fence suite: every fence register reads back what was programmed;
 * X and Y detiling through the aperture match the tile layouts of
 * docs/hardware.md §4.6 (built here tile by tile, with i915's bit-6 swizzle);
 * disabling a fence gives linear access back; and programming never leaves
 * a fence valid while half written (seen in the model's access trace).
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "hw/backend_sim.h"
#include "hw/fence.h"
#include "regs/fence_reg.h"
#include "regs/mmio.h"

#define SURF_PAGES CHECK_SURF_PAGES

static uint8_t pattern(size_t i, uint64_t salt)
{
	return (uint8_t)((((uint32_t)i ^ (uint32_t)salt) * 2654435761u) >> 24);
}

static uint64_t fence_value(struct check_ctx *c, uint64_t start, uint64_t size, uint32_t stride, bool y)
{
	struct hw_fence f = { start, size, stride, y ? HW_TILING_Y : HW_TILING_X, true };
	uint64_t v = 0;
	struct gtt_err err = { 0 };

	if (hw_fence_encode(c->dev->info.plat, c->dev->info.aperture_size, &f, &v, &err))
		ck_error(c, "fence encode", &err);
	return v;
}

static enum check_status check_fence_readback(struct check_ctx *c)
{
	struct gtt_err err = { 0 };

	for (unsigned i = c->claim_fence_first; i < c->claim_fence_first + c->claim_fences; i++) {
		bool y = i & 1;
		uint32_t stride = (uint32_t)(y ? 128u << (i % 5) : 512u << (i % 3));
		/* whole tile rows, as i915_gem_fence_size rounds a gen4+ fence: X 8 rows, Y 32 */
		uint64_t row = (uint64_t)stride * (y ? 32 : 8);
		uint64_t start = c->claim_gm + (uint64_t)(i % 4) * 4096, want = fence_value(c, start, row * (1 + i % 2), stride, y);
		uint64_t got;
		if (!want || ck_fence_write(c, i, want))
			return CHECK_FAIL;
		if (hw_fence_read(c->dev, i, &got, &err))
			return ck_error(c, "fence read", &err);
		if (got != want)
			return ck_fail(c, "fence %u: FENCE_REG_GEN6_LO/HI at 0x%x read back 0x%016llx, programmed 0x%016llx", i,
				       FENCE_REG_GEN6_LO(i), (unsigned long long)got, (unsigned long long)want);
		/* inside a vGPU each fence is checked alone: a mediator's fence pool relocates each fenced
		 * range (gScale) and may refuse two fences over the same pages, as i915 never programs them */
		if (c->dev->info.pvinfo.active && ck_fence_write(c, i, 0))
			return CHECK_FAIL;
	}
	return CHECK_PASS;
}

static enum check_status detile(struct check_ctx *c, bool y, uint32_t pitch)
{
	struct hw_page *pg;

	if (ck_pages(c, SURF_PAGES, &pg) || ck_map(c, c->claim_gm, pg, SURF_PAGES))
		return CHECK_FAIL;
	return check_fence_surface(c, c->claim_fence_first, c->claim_gm, pg, y, pitch);
}

enum check_status check_fence_surface(struct check_ctx *c, unsigned fence, uint64_t gm, const struct hw_page *pg, bool y,
				      uint32_t pitch)
{
	size_t size = CHECK_SURF_PAGES * 4096;
	uint8_t buf[4096];
	int swz = ck_swizzle_mode(c, y ? I915_TILING_Y : I915_TILING_X);

	for (size_t i = 0; i < size; i++) {
		size_t t = ck_tiled_offset(i, pitch, y, swz);
		((uint8_t *)pg[t / 4096].cpu)[t % 4096] = pattern(i, c->seed);
	}
	uint64_t v = fence_value(c, gm, size, pitch, y);
	if (!v || ck_fence_write(c, fence, v))
		return CHECK_FAIL;
	/* side 1: the CPU's linear view through the fence */
	for (size_t done = 0; done < size; done += sizeof(buf)) {
		if (ck_aperture_read(c, gm + done, buf, sizeof(buf)))
			return CHECK_FAIL;
		for (size_t k = 0; k < sizeof(buf); k++) {
			size_t i = done + k;
			if (buf[k] != pattern(i, c->seed))
				return ck_fail(c, "fence %u (FENCE_REG_GEN6_LO_%u = 0x%08x, %s, pitch %u): linear byte %zu (row %zu, col %zu) reads 0x%02x; the %s-tile layout has 0x%02x there (page %zu + 0x%zx)",
					       fence, fence, (uint32_t)v, y ? "Y" : "X", pitch, i, i / pitch, i % pitch, buf[k],
					       y ? "Y" : "X", pattern(i, c->seed), ck_tiled_offset(i, pitch, y, swz) / 4096,
					       ck_tiled_offset(i, pitch, y, swz) % 4096);
		}
	}
	/* side 2: a linear write through the fence lands tiled in the pages */
	for (size_t done = 0; done < size; done += sizeof(buf)) {
		for (size_t k = 0; k < sizeof(buf); k++)
			buf[k] = pattern(done + k, ~c->seed);
		if (ck_aperture_write(c, gm + done, buf, sizeof(buf)))
			return CHECK_FAIL;
	}
	for (size_t i = 0; i < size; i++) {
		size_t t = ck_tiled_offset(i, pitch, y, swz);
		uint8_t got = ((uint8_t *)pg[t / 4096].cpu)[t % 4096];
		if (got != pattern(i, ~c->seed))
			return ck_fail(c, "fence %u (%s, pitch %u): linear byte %zu written through the aperture is not at tiled offset 0x%zx (holds 0x%02x)",
				       fence, y ? "Y" : "X", pitch, i, t, got);
	}
	return CHECK_PASS;
}

static enum check_status check_fence_x_detile(struct check_ctx *c) { return detile(c, false, 2048); }
static enum check_status check_fence_y_detile(struct check_ctx *c) { return detile(c, true, 512); }

static enum check_status check_fence_disable_linear(struct check_ctx *c)
{
	struct hw_page *pg;
	uint8_t buf[4096];
	unsigned fence = c->claim_fence_first;

	if (ck_pages(c, SURF_PAGES, &pg) || ck_map(c, c->claim_gm, pg, SURF_PAGES))
		return CHECK_FAIL;
	for (size_t p = 0; p < SURF_PAGES; p++)
		for (size_t b = 0; b < 4096; b++)
			((uint8_t *)pg[p].cpu)[b] = pattern(p * 4096 + b, c->seed);
	uint64_t v = fence_value(c, c->claim_gm, SURF_PAGES * 4096, 2048, false);
	if (!v || ck_fence_write(c, fence, v) || ck_fence_write(c, fence, 0))
		return CHECK_FAIL;
	for (size_t p = 0; p < SURF_PAGES; p++) {
		if (ck_aperture_read(c, c->claim_gm + p * 4096, buf, sizeof(buf)))
			return CHECK_FAIL;
		for (size_t b = 0; b < 4096; b++)
			if (buf[b] != pattern(p * 4096 + b, c->seed))
				return ck_fail(c, "after disabling fence %u (FENCE_REG_GEN6_LO_%u reads 0x%08x), GM 0x%llx reads 0x%02x, the linear page has 0x%02x: access is still detiled",
					       fence, fence, hw_mmio_read32(c->dev, FENCE_REG_GEN6_LO(fence)),
					       (unsigned long long)(c->claim_gm + p * 4096 + b), buf[b], pattern(p * 4096 + b, c->seed));
	}
	return CHECK_PASS;
}

/*
 * Replays the model's trace of a fence update from one valid value to another,
 * following what the registers hold (the value written, or what a read of
 * them returned): after every access a valid LO must come with the HI of the
 * same value.
 */
static enum check_status check_fence_write_order(struct check_ctx *c)
{
	struct sim_device *sim = hw_sim_model(c->dev);
	unsigned f = c->claim_fence_first;
	uint64_t a = fence_value(c, c->claim_gm, 8 * 4096, 512, false);
	uint64_t b = fence_value(c, c->claim_gm + 4 * 4096, 4 * 4096, 4096, true);

	if (!a || !b || ck_fence_write(c, f, a))
		return CHECK_FAIL;
	if (sim_trace_start(sim, 256))
		return ck_fail(c, "cannot start the model's access trace");
	int rc = ck_fence_write(c, f, b);
	uint32_t lo = (uint32_t)a, hi = (uint32_t)(a >> 32);
	struct sim_trace_entry e;
	enum check_status st = rc ? CHECK_FAIL : CHECK_PASS;
	for (size_t i = 0; st == CHECK_PASS && sim_trace_get(sim, i, &e); i++) {
		if (e.kind != SIM_MMIO_WRITE && e.kind != SIM_MMIO_READ)
			continue;
		if (e.addr == FENCE_REG_GEN6_LO(f))
			lo = (uint32_t)e.value;
		else if (e.addr == FENCE_REG_GEN6_HI(f))
			hi = (uint32_t)e.value;
		else
			continue;
		uint64_t now = (uint64_t)hi << 32 | lo;
		if ((lo & I965_FENCE_REG_VALID) && now != a && now != b)
			st = ck_fail(c, "fence %u was valid while half written: after access %zu FENCE_REG_GEN6_LO_%u = 0x%08x, FENCE_REG_GEN6_HI_%u = 0x%08x (old 0x%016llx, new 0x%016llx)",
				     f, i, f, lo, f, hi, (unsigned long long)a, (unsigned long long)b);
	}
	sim_trace_stop(sim);
	if (st == CHECK_PASS) {
		uint64_t got = hw_mmio_read64(c->dev, FENCE_REG_GEN6_LO(f));
		if (got != b)
			st = ck_fail(c, "fence %u holds 0x%016llx after programming 0x%016llx", f, (unsigned long long)got,
				     (unsigned long long)b);
	}
	return st;
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "fence-readback", "fence", "every fence register reads back the value programmed",
	  0, 36, ALL_FENCES, check_fence_readback },
	{ "fence-x-detile", "fence", "an X-tiled surface reads and writes linearly through a fence, against the reference layout",
	  REQ_TEST_PAGES, 16, 1, check_fence_x_detile },
	{ "fence-y-detile", "fence", "a Y-tiled surface reads and writes linearly through a fence, against the reference layout",
	  REQ_TEST_PAGES, 16, 1, check_fence_y_detile },
	{ "fence-disable-linear", "fence", "disabling a fence gives linear access back",
	  REQ_TEST_PAGES, 16, 1, check_fence_disable_linear },
	{ "fence-write-order", "fence", "programming a fence never leaves it valid while half written",
	  REQ_MODEL, 8, 1, check_fence_write_order },
};

const struct check_rows checks_fence = { rows, sizeof(rows) / sizeof(rows[0]) };
