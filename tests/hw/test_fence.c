/* SPDX-License-Identifier: MIT */
/*
 * Fence encode/decode/validate/program. Golden values from the formula of
 * docs/hardware.md §4.3:
 *   ((start + size - 4096) << 32) | start | ((stride/128 - 1) << 32) | (Y ? 2 : 0) | 1
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hw/fence.h"
#include "regs/mmio.h"
#include "tests/helpers.h"

static uint64_t doc_fence(uint64_t start, uint64_t size, uint64_t stride, int y)
{
	return ((start + size - 4096) << 32) | start | ((stride / 128 - 1) << 32) | (y ? 2 : 0) | 1;
}

Test(fence, golden_vectors)
{
	static const struct { const char *plat; uint64_t start, size; uint32_t stride; int y; uint64_t literal; } v[] = {
		{ "skl", 0x100000, 0x80000, 4096, 0, 0x0017f01f00100001ull },
		{ "skl", 0x100000, 0x80000, 4096, 1, 0x0017f01f00100003ull },
		{ "hsw", 0, 4096, 128, 1, 0x0000000000000003ull },
		{ "snb", 0x0ff00000, 0x100000, 128 * 1024, 0, 0x0ffff3ff0ff00001ull },
		{ "ivb", 0x1000, 0x3000, 256 * 1024, 1, 0x000037ff00001003ull },
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(v[i].plat);
		struct hw_fence f = { v[i].start, v[i].size, v[i].stride, v[i].y ? HW_TILING_Y : HW_TILING_X, true };
		uint64_t val = 0;
		struct gtt_err err = { 0 };
		cr_assert_eq(hw_fence_encode(p, 512u << 20, &f, &val, &err), 0, "vector %zu: %s", i, err.msg);
		cr_expect_eq(val, doc_fence(v[i].start, v[i].size, v[i].stride, v[i].y), "vector %zu: 0x%016llx", i,
			     (unsigned long long)val);
		cr_expect_eq(val, v[i].literal, "vector %zu: 0x%016llx, literal 0x%016llx", i,
			     (unsigned long long)val, (unsigned long long)v[i].literal);
		struct hw_fence d;
		hw_fence_decode(p, val, &d);
		cr_expect(d.valid && d.start == f.start && d.size == f.size && d.stride == f.stride && d.tiling == f.tiling,
			  "vector %zu does not decode back", i);
	}
}

Test(fence, many_random_fences_match_the_formula)
{
	const struct gtt_platform *p = gtt_platform_by_name("skl");
	uint64_t seed = 7;

	for (int i = 0; i < 2000; i++) {
		int y = t_rand(&seed) & 1;
		uint32_t stride = (uint32_t)(1 + t_rand(&seed) % (y ? 2048 : 512)) * (y ? 128 : 512);
		uint64_t start = (t_rand(&seed) % 0x8000) * 4096;
		uint64_t size = (1 + t_rand(&seed) % 0x7000) * 4096;
		if (start + size > (256u << 20))
			continue;
		struct hw_fence f = { start, size, stride, y ? HW_TILING_Y : HW_TILING_X, true };
		uint64_t val;
		cr_assert_eq(hw_fence_encode(p, 256u << 20, &f, &val, NULL), 0);
		cr_assert_eq(val, doc_fence(start, size, stride, y));
	}
}

static void expect_invalid(const char *plat, struct hw_fence f, const char *needle1, const char *needle2)
{
	uint64_t val = 0x1234;
	struct gtt_err err = { 0 };

	cr_expect_eq(hw_fence_encode(gtt_platform_by_name(plat), 256u << 20, &f, &val, &err), GTT_EINVAL,
		     "accepted: %s", needle1);
	cr_expect(strstr(err.msg, needle1) && strstr(err.msg, needle2), "message '%s' lacks '%s'/'%s'",
		  err.msg, needle1, needle2);
	cr_expect_eq(val, 0x1234, "a rejected fence must not produce a value");
}

Test(fence, every_validation_error_names_value_and_rule)
{
	expect_invalid("skl", (struct hw_fence){ 0x1800, 0x4000, 512, HW_TILING_X, 1 }, "0x1800", "4 KiB aligned");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0, 512, HW_TILING_X, 1 }, "size 0", "4 KiB page");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0x1800, 512, HW_TILING_X, 1 }, "0x1800", "multiple of 4 KiB");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0x4000, 1000, HW_TILING_Y, 1 }, "1000", "multiple of 128");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0x4000, 0, HW_TILING_Y, 1 }, "stride 0", "multiple of 128");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0x4000, 640, HW_TILING_X, 1 }, "640", "X-tile width");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0x4000, 256 * 1024 + 128, HW_TILING_Y, 1 }, "262272", "maximum");
	expect_invalid("snb", (struct hw_fence){ 0x1000, 0x4000, 128 * 1024 + 512, HW_TILING_X, 1 }, "131584", "0x400");
	expect_invalid("skl", (struct hw_fence){ 0xfffff000ull, 0x2000, 512, HW_TILING_X, 1 }, "0xfffff000", "not after start");
	expect_invalid("skl", (struct hw_fence){ 0x0ff00000, 0x200000, 512, HW_TILING_X, 1 }, "0x100fffff", "aperture");
	expect_invalid("skl", (struct hw_fence){ 0x1000, 0x1000, 512, HW_TILING_NONE, 1 }, "tiling", "x or y");
}

Test(fence, maximum_pitch_is_accepted_per_generation)
{
	struct hw_fence f = { 0, 0x100000, 128 * 1024, HW_TILING_Y, true };
	uint64_t val;

	cr_expect_eq(hw_fence_encode(gtt_platform_by_name("snb"), 256u << 20, &f, &val, NULL), 0);
	f.stride = 256 * 1024;
	cr_expect_eq(hw_fence_encode(gtt_platform_by_name("snb"), 256u << 20, &f, &val, NULL), GTT_EINVAL);
	cr_expect_eq(hw_fence_encode(gtt_platform_by_name("hsw"), 256u << 20, &f, &val, NULL), 0);
	cr_expect_eq((val >> 32) & 0xfff, 0x7ff);
}

/* The write order, seen from the model's access trace. */
Test(fence, programming_follows_the_i915_order)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *sim = t_sim(dev);
	uint64_t val = doc_fence(0x200000, 0x10000, 512, 0), back;
	struct sim_trace_entry e[5];

	cr_assert_eq(sim_trace_start(sim, 16), 0);
	cr_assert_eq(hw_fence_write(dev, 5, val, NULL), 0);
	cr_assert_eq(sim_trace_len(sim), 5 + 1 /* undo log reads come first */ * 3, "%zu accesses", sim_trace_len(sim));
	/* drop the three undo-log reads: keep the writes and posting reads in order */
	size_t k = 0;
	for (size_t i = 0; i < sim_trace_len(sim) && k < 5; i++) {
		struct sim_trace_entry t;
		sim_trace_get(sim, i, &t);
		if (t.kind == SIM_MMIO_WRITE || (k && e[k - 1].kind == SIM_MMIO_WRITE && t.kind == SIM_MMIO_READ &&
						 e[k - 1].addr == FENCE_REG_GEN6_LO(5)))
			e[k++] = t;
	}
	cr_assert_eq(k, 5);
	cr_expect(e[0].kind == SIM_MMIO_WRITE && e[0].addr == FENCE_REG_GEN6_LO(5) && e[0].value == 0, "1st: LO = 0");
	cr_expect(e[1].kind == SIM_MMIO_READ && e[1].addr == FENCE_REG_GEN6_LO(5), "2nd: posting read of LO");
	cr_expect(e[2].kind == SIM_MMIO_WRITE && e[2].addr == FENCE_REG_GEN6_HI(5) && e[2].value == val >> 32, "3rd: HI");
	cr_expect(e[3].kind == SIM_MMIO_WRITE && e[3].addr == FENCE_REG_GEN6_LO(5) && e[3].value == (uint32_t)val, "4th: LO");
	cr_expect(e[4].kind == SIM_MMIO_READ && e[4].addr == FENCE_REG_GEN6_LO(5), "5th: posting read of LO");
	cr_assert_eq(hw_fence_read(dev, 5, &back, NULL), 0);
	cr_expect_eq(back, val);
	hw_close(dev);
}

Test(fence, bad_index_writes_nothing)
{
	struct hw_device *dev = t_open("sim:snb");
	struct sim_device *sim = t_sim(dev);
	struct gtt_err err = { 0 };
	uint64_t writes = sim_access_count(sim, SIM_MMIO_WRITE);

	cr_expect_eq(hw_fence_write(dev, 16, 1, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "fence 16") && strstr(err.msg, "0..15"), "%s", err.msg);
	cr_expect_eq(sim_access_count(sim, SIM_MMIO_WRITE), writes, "a rejected fence write touched the device");
	hw_close(dev);
}
