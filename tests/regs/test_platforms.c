/* SPDX-License-Identifier: MIT */
/*
 * The platforms against i915's own facts, written out here as literals,
 * never computed by hw/:
 *  - device ids: include/drm/intel/i915_pciids.h (INTEL_SNB_IDS,
 *    INTEL_IVB_IDS, INTEL_HSW_IDS, INTEL_BDW_IDS, INTEL_KBL_IDS with
 *    INTEL_AML_KBL_GT2_IDS, INTEL_CFL_IDS with the WHL and AML-CFL ids,
 *    INTEL_CML_IDS, INTEL_ICL_IDS, INTEL_EHL_IDS, INTEL_JSL_IDS,
 *    INTEL_TGL_IDS, INTEL_RKL_IDS, INTEL_ADLS_IDS, INTEL_RPLS_IDS,
 *    INTEL_ADLP_IDS, INTEL_ADLN_IDS, INTEL_RPLP_IDS, INTEL_RPLU_IDS);
 *  - eDRAM: HSW_EDRAM_CAP 0x120010, EDRAM_ENABLED bit 0, read on Haswell,
 *    Broadwell and gen9+, 128 MiB before gen9, else EDRAM_NUM_BANKS (bits
 *    4:1) x ways[EDRAM_WAYS_IDX (7:5)] x sets[EDRAM_SETS_IDX (9:8)] with ways
 *    { 4, 8, 12, 16, 16, 16, 16, 16 }, sets { 1, 1, 2, 2 }
 *    (soc/intel_dram.c intel_dram_edram_detect, gen9_edram_size_mb);
 *  - GGTT PTE: gen8_ggtt_pte_encode, addr | GEN8_PAGE_PRESENT whatever the
 *    cache level (gt/intel_ggtt.c);
 *  - fences: i965_write_fence_reg with the gen6+ registers and
 *    GEN6_FENCE_PITCH_SHIFT 32, 32 fences (gt/intel_ggtt_fencing.c);
 *  - GSM and stolen size: gen8_get_total_gtt_size, gen9_stolen_size; stolen
 *    base: gen11_stolen_base, 0xc0 | 0xc4 << 32 (arch/x86/kernel/early-quirks.c);
 *  - pipes and planes: intel_display_device.c (pipe_mask, num_sprites).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/check.h"
#include "hw/fence.h"
#include "hw/pte.h"
#include "hw/scanout.h"
#include "regs/display.h"
#include "regs/pci_config.h"
#include "regs/platform.h"
#include "tests/helpers.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *plat;
	uint16_t ids[64];
} i915_ids[] = {
	{ "snb", { 0x0102, 0x010A, 0x0112, 0x0122, 0x0106, 0x0116, 0x0126 } },
	/* INTEL_IVB_Q_IDS is 0x016a again, told apart by its subsystem (Quanta 0x152d:0x8990) */
	{ "ivb", { 0x0156, 0x0166, 0x0152, 0x015a, 0x0162, 0x016a } },
	{ "hsw", { 0x0A02, 0x0A06, 0x0A0A, 0x0A0B, 0x0A0E, 0x0402, 0x0406, 0x040A, 0x040B, 0x040E, 0x0C02, 0x0C06,
		   0x0C0A, 0x0C0B, 0x0C0E, 0x0D02, 0x0D06, 0x0D0A, 0x0D0B, 0x0D0E, 0x0A12, 0x0A16, 0x0A1A, 0x0A1B,
		   0x0A1E, 0x0412, 0x0416, 0x041A, 0x041B, 0x041E, 0x0C12, 0x0C16, 0x0C1A, 0x0C1B, 0x0C1E, 0x0D12,
		   0x0D16, 0x0D1A, 0x0D1B, 0x0D1E, 0x0A22, 0x0A26, 0x0A2A, 0x0A2B, 0x0A2E, 0x0422, 0x0426, 0x042A,
		   0x042B, 0x042E, 0x0C22, 0x0C26, 0x0C2A, 0x0C2B, 0x0C2E, 0x0D22, 0x0D26, 0x0D2A, 0x0D2B, 0x0D2E } },
	{ "bdw", { 0x1606, 0x160B, 0x160E, 0x1602, 0x160A, 0x160D, 0x1616, 0x161B, 0x161E, 0x1612, 0x161A, 0x161D,
		   0x1626, 0x162B, 0x162E, 0x1622, 0x162A, 0x162D, 0x1636, 0x163B, 0x163E, 0x1632, 0x163A, 0x163D } },
	{ "skl", { 0x1906, 0x1913, 0x190E, 0x1915, 0x1902, 0x190A, 0x190B, 0x1917, 0x1916, 0x1921, 0x191E, 0x1912,
		   0x191A, 0x191B, 0x191D, 0x1923, 0x1926, 0x1927, 0x192A, 0x192B, 0x192D, 0x1932, 0x193A, 0x193B,
		   0x193D } },
	{ "kbl", { 0x5906, 0x5913, 0x590E, 0x5915, 0x5902, 0x5908, 0x590A, 0x590B, 0x5916, 0x5921, 0x591E, 0x5912,
		   0x5917, 0x591A, 0x591B, 0x591D, 0x5926, 0x5923, 0x5927, 0x593B, 0x591C, 0x87C0 } },
	{ "cfl", { 0x3E90, 0x3E93, 0x3E99, 0x3E91, 0x3E92, 0x3E96, 0x3E98, 0x3E9A, 0x3E9C, 0x3E94, 0x3E9B, 0x3EA9,
		   0x3EA5, 0x3EA6, 0x3EA7, 0x3EA8, 0x87CA, 0x3EA1, 0x3EA4, 0x3EA0, 0x3EA3, 0x3EA2 } },
	{ "cml", { 0x9BA2, 0x9BA4, 0x9BA5, 0x9BA8, 0x9B21, 0x9BAA, 0x9BAC, 0x9BC2, 0x9BC4, 0x9BC5, 0x9BC6, 0x9BC8,
		   0x9BE6, 0x9BF6, 0x9B41, 0x9BCA, 0x9BCC } },
	{ "icl", { 0x8A50, 0x8A52, 0x8A53, 0x8A54, 0x8A56, 0x8A57, 0x8A58, 0x8A59, 0x8A5A, 0x8A5B, 0x8A5C, 0x8A70,
		   0x8A71, 0x8A51, 0x8A5D } },
	{ "ehl", { 0x4541, 0x4551, 0x4555, 0x4557, 0x4570, 0x4571 } },
	{ "jsl", { 0x4E51, 0x4E55, 0x4E57, 0x4E61, 0x4E71 } },
	{ "tgl", { 0x9A60, 0x9A68, 0x9A70, 0x9A40, 0x9A49, 0x9A59, 0x9A78, 0x9AC0, 0x9AC9, 0x9AD9, 0x9AF8 } },
	{ "rkl", { 0x4C80, 0x4C8A, 0x4C8B, 0x4C8C, 0x4C90, 0x4C9A } },
	{ "adls", { 0x4680, 0x4682, 0x4688, 0x468A, 0x468B, 0x4690, 0x4692, 0x4693 } },
	{ "rpls", { 0xA780, 0xA781, 0xA782, 0xA783, 0xA788, 0xA789, 0xA78A, 0xA78B } },
	{ "adlp", { 0x46A0, 0x46A1, 0x46A2, 0x46A3, 0x46A6, 0x46A8, 0x46AA, 0x462A, 0x4626, 0x4628, 0x46B0, 0x46B1,
		    0x46B2, 0x46B3, 0x46C0, 0x46C1, 0x46C2, 0x46C3 } },
	{ "adln", { 0x46D0, 0x46D1, 0x46D2, 0x46D3, 0x46D4 } },
	{ "rplp", { 0xA720, 0xA7A0, 0xA7A8, 0xA7AA, 0xA7AB, 0xA721, 0xA7A1, 0xA7A9, 0xA7AC, 0xA7AD } },
};

static size_t count_ids(const uint16_t *ids)
{
	size_t n = 0;
	while (n < 64 && ids[n])
		n++;
	return n;
}

Test(platforms, every_i915_id_picks_its_platform)
{
	for (size_t i = 0; i < N(i915_ids); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(i915_ids[i].plat);
		size_t n = count_ids(i915_ids[i].ids);
		cr_assert_not_null(p, "%s", i915_ids[i].plat);
		cr_expect_eq(p->n_devids, n, "%s has %zu ids, i915 lists %zu", p->name, p->n_devids, n);
		for (size_t k = 0; k < n; k++) {
			const struct gtt_platform *q = gtt_platform_by_devid(i915_ids[i].ids[k]);
			cr_expect(q == p, "0x%04x is %s, i915 says %s", i915_ids[i].ids[k], q ? q->name : "unknown", p->name);
		}
	}
	/* every platform of the table is held to i915's list above */
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		size_t k = 0;
		while (k < N(i915_ids) && strcmp(i915_ids[k].plat, gtt_platforms[i].name))
			k++;
		cr_expect_lt(k, N(i915_ids), "%s has no i915 id list in this test", gtt_platforms[i].name);
	}
	/* no id twice in the whole table */
	for (size_t i = 0; i < gtt_num_platforms; i++)
		for (size_t k = 0; k < gtt_platforms[i].n_devids; k++)
			cr_expect(gtt_platform_by_devid(gtt_platforms[i].devids[k]) == &gtt_platforms[i],
				  "0x%04x is listed twice", gtt_platforms[i].devids[k]);
}

/* Generation, display, GVT-g and BDSM, from i915 (see the head of the file). */
Test(platforms, facts_per_platform)
{
	static const struct {
		const char *name, *codename;
		unsigned gen, pipes, planes;
		int gvt, bdsm64;
	} f[] = {
		{ "skl", "skylake", 90, 3, 3, 1, 0 },       { "kbl", "kabylake", 95, 3, 3, 1, 0 },
		{ "cfl", "coffeelake", 95, 3, 3, 1, 0 },    { "cml", "cometlake", 95, 3, 3, 1, 0 },
		{ "icl", "icelake", 110, 3, 7, 0, 1 },      { "ehl", "elkhartlake", 110, 3, 7, 0, 1 },
		{ "jsl", "jasperlake", 110, 3, 7, 0, 1 },   { "tgl", "tigerlake", 120, 4, 7, 0, 1 },
		{ "rkl", "rocketlake", 120, 3, 5, 0, 1 },   { "adls", "alderlake_s", 120, 4, 5, 0, 1 },
		{ "rpls", "raptorlake_s", 120, 4, 5, 0, 1 }, { "adlp", "alderlake_p", 120, 4, 5, 0, 1 },
		{ "adln", "alderlake_n", 120, 4, 5, 0, 1 }, { "rplp", "raptorlake_p", 120, 4, 5, 0, 1 },
	};
	for (size_t i = 0; i < N(f); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(f[i].name);
		cr_assert_not_null(p, "%s", f[i].name);
		cr_expect_str_eq(p->codename, f[i].codename);
		cr_expect_eq(p->gen, f[i].gen, "%s gen %u", p->name, p->gen);
		cr_expect_eq(p->num_pipes, f[i].pipes, "%s pipes %u", p->name, p->num_pipes);
		cr_expect_eq(p->num_planes, f[i].planes, "%s planes %u", p->name, p->num_planes);
		cr_expect_eq(!!p->gvt, f[i].gvt, "%s gvt", p->name);
		cr_expect_eq(p->bdsm == BDSM_64, f[i].bdsm64, "%s BDSM", p->name);
		cr_expect_eq(p->num_fences, 32u, "%s fences", p->name);
		cr_expect_eq(p->pte_size, 8u, "%s pte size", p->name);
		cr_expect_eq(p->bar0_size, 16u << 20, "%s GTTMMADR", p->name);
		cr_expect_eq(p->gsm_offset, 8u << 20, "%s GSM offset", p->name);
	}
}

/*
 * Gen6-8 display, from intel_display_device.c (pipe_mask: A-B on snb_display,
 * A-C on ivb/hsw/bdw_display; num_sprites 1 from display 5 on) and
 * intel_sprite.c (intel_sprite_plane_create: g4x registers below display 7,
 * ivb registers from 7 on): a primary plane, one sprite and a cursor a pipe.
 */
Test(platforms, gen6_to_gen8_facts)
{
	static const struct {
		const char *name, *codename;
		unsigned gen, pipes;
		enum sprite_regs sprite;
		int gvt;
	} f[] = {
		{ "snb", "sandybridge", 60, 2, SPRITE_DVS, 0 }, { "ivb", "ivybridge", 70, 3, SPRITE_SPR, 0 },
		{ "hsw", "haswell", 75, 3, SPRITE_SPR, 0 },      { "bdw", "broadwell", 80, 3, SPRITE_SPR, 1 },
	};
	for (size_t i = 0; i < N(f); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(f[i].name);
		cr_assert_not_null(p, "%s", f[i].name);
		cr_expect_str_eq(p->codename, f[i].codename);
		cr_expect_eq(p->gen, f[i].gen, "%s gen %u", p->name, p->gen);
		cr_expect_eq(p->num_pipes, f[i].pipes, "%s pipes %u", p->name, p->num_pipes);
		cr_expect_eq(p->num_planes, 1u, "%s: one primary plane a pipe", p->name);
		cr_expect_eq(p->sprite, f[i].sprite, "%s sprite registers", p->name);
		cr_expect_eq(!!p->gvt, f[i].gvt, "%s gvt", p->name);
	}
	/* from gen9 the sprites are universal planes */
	for (size_t i = 0; i < gtt_num_platforms; i++)
		if (gtt_platforms[i].gen >= 90)
			cr_expect_eq(gtt_platforms[i].sprite, SPRITE_NONE, "%s", gtt_platforms[i].name);
}

/*
 * How many surfaces each platform can scan out at once: pipes x (planes, the gen6-8 sprite, the
 * cursor), from the facts above; the runner's table (HW_SCANOUT_MAX) holds the largest.
 */
Test(platforms, scanout_surfaces_per_platform_fit_the_runner)
{
	static const struct { const char *name; size_t surfaces; } f[] = {
		{ "snb", 6 },  { "ivb", 9 },  { "hsw", 9 },  { "bdw", 9 },  { "skl", 12 }, { "kbl", 12 },
		{ "cfl", 12 }, { "cml", 12 }, { "icl", 24 }, { "ehl", 24 }, { "jsl", 24 }, { "tgl", 32 },
		{ "rkl", 18 }, { "adls", 24 }, { "rpls", 24 }, { "adlp", 24 }, { "adln", 24 }, { "rplp", 24 },
	};
	cr_expect_eq(N(f), gtt_num_platforms);
	for (size_t i = 0; i < N(f); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(f[i].name);
		cr_assert_not_null(p, "%s", f[i].name);
		cr_expect_eq(hw_scanout_max(p), f[i].surfaces, "%s: %zu", p->name, hw_scanout_max(p));
	}
	for (size_t i = 0; i < gtt_num_platforms; i++)
		cr_expect_leq(hw_scanout_max(&gtt_platforms[i]), (size_t)HW_SCANOUT_MAX, "%s", gtt_platforms[i].name);
	cr_expect_eq(HW_SCANOUT_MAX, 32, "Tiger Lake's 4 x (7 + 1) is the most");
}

/* gen9_edram_size_mb and the pre-gen9 128 MiB, from the literals at the head of the file. */
Test(platforms, edram_size_golden)
{
	static const struct { const char *plat; uint32_t cap; unsigned mb; } v[] = {
		{ "hsw", 0x1, 128 },	{ "hsw", 0x71, 128 },	{ "hsw", 0x70, 0 },	{ "bdw", 0x1, 128 },
		{ "skl", 0x71, 128 },	/* 8 banks, ways index 3 (16), sets index 0 (1) */
		{ "skl", 0x1 | 4 << 1 | 1 << 5 | 2 << 8, 64 },	/* 4 x 8 x 2 */
		{ "kbl", 0x1 | 2 << 1 | 7 << 5 | 3 << 8, 64 },	/* 2 x 16 x 2 */
		{ "skl", 0x1, 0 },	/* enabled, no banks: i915 finds 0 MiB */
		{ "snb", 0x71, 0 },	{ "ivb", 0x71, 0 },	/* i915 does not read it before Haswell */
	};
	for (size_t i = 0; i < N(v); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(v[i].plat);
		cr_expect_eq(hw_edram_mb(p, v[i].cap), v[i].mb, "%s cap 0x%x: %u MiB", v[i].plat, v[i].cap,
			     hw_edram_mb(p, v[i].cap));
	}
	cr_expect(!hw_edram_readable(gtt_platform_by_name("ivb")) && hw_edram_readable(gtt_platform_by_name("hsw")) &&
		  hw_edram_readable(gtt_platform_by_name("tgl")));
}

/*
 * The model with and without eDRAM: detection reads HSW_EDRAM_CAP (read-only in the model), and
 * the PTEs gttlab encodes for the device are i915's for that part: hsw_pte_encode without eDRAM
 * (WT is WB LLC age 3, 0x4), iris_pte_encode with (HSW_WT_ELLC_LLC_AGE3 0xe, HSW_WB_ELLC_LLC_AGE3 0x800).
 */
Test(platforms, edram_is_detected_and_picks_the_encoder)
{
	struct hw_device *plain = t_open("sim:hsw"), *e = t_open("sim:hsw,edram");
	uint64_t pte = 0;
	struct gtt_err err = { 0 };

	cr_expect(plain->info.edram_mb == 0 && plain->info.edram_cap == 0);
	cr_expect(e->info.edram_mb == 128 && (e->info.edram_cap & 1), "0x%x", e->info.edram_cap);
	cr_expect_eq(e->info.devid, plain->info.devid, "eDRAM is told by the register, not the id");
	cr_assert_eq(hw_pte_encode_for(&plain->info, 0x1000, HW_CACHE_WT, &pte, &err), 0, "%s", err.msg);
	cr_expect_eq(pte, 0x1000 | 0x4 | 1);
	cr_assert_eq(hw_pte_encode_for(&e->info, 0x1000, HW_CACHE_WT, &pte, &err), 0, "%s", err.msg);
	cr_expect_eq(pte, 0x1000 | 0xe | 1);
	cr_assert_eq(hw_pte_encode_for(&e->info, 0x1000, HW_CACHE_LLC, &pte, &err), 0, "%s", err.msg);
	cr_expect_eq(pte, 0x1000 | 0x800 | 1);
	cr_assert_eq(hw_pte_encode_for(&e->info, 0x1000, HW_CACHE_NONE, &pte, &err), 0, "%s", err.msg);
	cr_expect_eq(pte, 0x1000 | 1, "uncached is 0 either way");
	/* a capability: a write does not change it */
	uint32_t cap = hw_mmio_read32(e, 0x120010);
	sim_mmio_write32(t_sim(e), 0x120010, 0);
	cr_expect_eq(hw_mmio_read32(e, 0x120010), cap);
	hw_close(plain);
	hw_close(e);

	static const char *const later[] = { "sim:bdw,edram", "sim:skl,edram", "sim:tgl,edram" };
	for (size_t i = 0; i < N(later); i++) {
		struct hw_device *dev = t_open(later[i]);
		cr_expect_eq(dev->info.edram_mb, 128, "%s", later[i]);
		/* gen8_ggtt_pte_encode: eDRAM or not, no cache bit */
		cr_assert_eq(hw_pte_encode_for(&dev->info, 0x1000, HW_CACHE_WT, &pte, &err), 0, "%s", err.msg);
		cr_expect_eq(pte, 0x1001, "%s", later[i]);
		hw_close(dev);
	}
	struct hw_device *snb = t_open("sim:snb");
	cr_expect(snb->info.edram_mb == 0 && snb->info.edram_cap == 0);
	hw_close(snb);
}

Test(platforms, edram_on_the_cli)
{
	static char out[1 << 16];

	cr_assert_eq(t_run("./build/gttlab info --device sim:hsw,edram 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "eDRAM         128 MiB (HSW_EDRAM_CAP 0x00000071; PTEs as iris_pte_encode writes them)") &&
		  strstr(out, "scanout       up to 9 surfaces: 3 pipes x (1 plane + sprite + cursor)"), "%s", out);
	cr_assert_eq(t_run("./build/gttlab --json info --device sim:hsw 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "\"edram_cap_read\":true,\"edram_cap\":\"0x00000000\",\"edram_mb\":0,\"scanout_surfaces\":9"), "%s", out);
	cr_assert_eq(t_run("./build/gttlab info --device sim:ivb 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "eDRAM         none (i915 reads HSW_EDRAM_CAP from Haswell on)"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab info --device sim:ivb,edram 2>&1", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "ivb has no eDRAM"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab info --device sim:hsw,gt3e 2>&1", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "'gt3e' is not an option of the model (sim:PLATFORM[,edram][,vf[,fault=NAME]])"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab info --device sim:,edram 2>&1", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "name the platform"), "%s", out);
	cr_assert_eq(t_run("./build/gttlab check --device sim:hsw,edram 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "0 failed"), "%s", out);
}

/* gen8_ggtt_pte_encode: the cache level changes no bit of a GGTT PTE from gen8 to gen12. */
Test(platforms, pte_golden_per_cache_level)
{
	static const char *const plats[] = { "cfl", "cml", "icl", "ehl", "jsl", "tgl", "rkl", "adls", "rpls", "adlp", "adln", "rplp" };
	static const struct { uint64_t addr, pte; } v[] = {
		{ 0x0000001000ull, 0x0000001001ull },
		{ 0x0012345000ull, 0x0012345001ull },
		{ 0x7ffffff000ull, 0x7ffffff001ull },	/* the top of 39 address bits (dma_mask_size 39) */
		{ 0x4000000000ull, 0x4000000001ull },	/* bit 38 */
	};
	static const enum hw_cache levels[] = { HW_CACHE_NONE, HW_CACHE_LLC, HW_CACHE_L3_LLC, HW_CACHE_WT };
	for (size_t i = 0; i < N(plats); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(plats[i]);
		for (size_t k = 0; k < N(v); k++)
			for (size_t l = 0; l < N(levels); l++) {
				uint64_t pte = 0;
				struct gtt_err err = { 0 };
				cr_assert_eq(hw_pte_encode(p, v[k].addr, levels[l], &pte, &err), 0, "%s: %s", p->name, err.msg);
				cr_expect_eq(pte, v[k].pte, "%s level %d: 0x%llx, i915 0x%llx", p->name, (int)levels[l],
					     (unsigned long long)pte, (unsigned long long)v[k].pte);
				struct hw_pte d;
				hw_pte_decode(p, v[k].pte, &d);
				cr_expect(d.valid && d.addr == v[k].addr, "%s: 0x%llx decodes to 0x%llx", p->name,
					  (unsigned long long)v[k].pte, (unsigned long long)d.addr);
			}
		uint64_t pte;
		struct gtt_err err = { 0 };
		cr_expect_neq(hw_pte_encode(p, 0x8000000000ull, HW_CACHE_LLC, &pte, &err), 0, "%s took bit 39", p->name);
	}
}

/* i965_write_fence_reg on gen6+ registers: (end - 4096) << 32 | start | (stride / 128 - 1) << 32 | Y << 1 | 1. */
Test(platforms, fence_golden)
{
	static const char *const plats[] = { "cfl", "cml", "icl", "ehl", "jsl", "tgl", "rkl", "adls", "rpls", "adlp", "adln", "rplp" };
	static const struct { uint64_t start, size; uint32_t stride; int y; uint64_t val; } v[] = {
		{ 0x100000, 0x80000, 4096, 0, 0x0017f01f00100001ull },
		{ 0x100000, 0x80000, 4096, 1, 0x0017f01f00100003ull },
		{ 0x0fe00000, 0x200000, 256 * 1024, 0, 0x0ffff7ff0fe00001ull },	/* GEN7_FENCE_MAX_PITCH_VAL */
		{ 0, 4096, 128, 1, 0x0000000000000003ull },
	};
	for (size_t i = 0; i < N(plats); i++) {
		const struct gtt_platform *p = gtt_platform_by_name(plats[i]);
		for (size_t k = 0; k < N(v); k++) {
			struct hw_fence f = { v[k].start, v[k].size, v[k].stride, v[k].y ? HW_TILING_Y : HW_TILING_X, true };
			uint64_t val = 0;
			struct gtt_err err = { 0 };
			cr_assert_eq(hw_fence_encode(p, 256u << 20, &f, &val, &err), 0, "%s vector %zu: %s", p->name, k, err.msg);
			cr_expect_eq(val, v[k].val, "%s vector %zu: 0x%016llx, i915 0x%016llx", p->name, k,
				     (unsigned long long)val, (unsigned long long)v[k].val);
		}
		struct hw_fence wide = { 0, 0x100000, 512 * 1024, HW_TILING_X, true };
		uint64_t val;
		struct gtt_err err = { 0 };
		cr_expect_neq(hw_fence_encode(p, 256u << 20, &wide, &val, &err), 0, "%s took a 512 KiB stride", p->name);
	}
}

/* GMCH and BDSM decoding, with the values a Tiger Lake laptop's firmware leaves. */
Test(platforms, gmch_and_bdsm_golden)
{
	const struct gtt_platform *tgl = gtt_platform_by_name("tgl"), *cfl = gtt_platform_by_name("cfl");
	unsigned ggms, gms;

	hw_gmch_fields(tgl, 0xfec0, &ggms, &gms);	/* GGMS 3 in 7:6, GMS 0xfe in 15:8 */
	cr_expect(ggms == 3 && gms == 0xfe);
	cr_expect_eq(hw_gsm_size_from_ggms(tgl, 3), 8u << 20);
	cr_expect_eq(hw_stolen_size_from_gms(tgl, 0xfe), 60u << 20);	/* (0xfe - 0xf0) * 4 MiB + 4 MiB */
	cr_expect_eq(hw_stolen_size_from_gms(tgl, 0x02), 64u << 20);	/* 2 * 32 MiB */
	cr_expect_eq(hw_stolen_size_from_gms(cfl, 0xf0), 4u << 20);
	/* gen11_stolen_base: DW0 bits 31:20 (the lock bit 0 dropped), DW1 the high half */
	cr_expect_eq(hw_stolen_base(tgl, 0x7b800001u, 0x1), 0x17b800000ull);
	cr_expect_eq(hw_stolen_base(tgl, 0x7b8fffffu, 0x0), 0x7b800000ull);
	/* gen3_stolen_base: 32 bits only */
	cr_expect_eq(hw_stolen_base(cfl, 0x7b800001u, 0x1), 0x7b800000ull);
}

/* The model puts BDSM where the part has it, and detection reads it from there. */
Test(platforms, stolen_base_is_read_where_the_part_has_it)
{
	static const struct { const char *spec; int bdsm64; } v[] = {
		{ "sim:cfl", 0 }, { "sim:icl", 1 }, { "sim:tgl", 1 }, { "sim:rkl", 1 }, { "sim:adlp", 1 }, { "sim:skl", 0 },
	};
	for (size_t i = 0; i < N(v); i++) {
		struct hw_device *dev = t_open(v[i].spec);
		uint32_t old = 0, lo = 0, hi = 0;
		hw_cfg_read(dev, 0x5c, 4, &old);
		hw_cfg_read(dev, 0xc0, 4, &lo);
		hw_cfg_read(dev, 0xc4, 4, &hi);
		if (v[i].bdsm64)
			cr_expect(old == 0 && (lo & 0xfff00000u) == 0x78000000u && hi == 0, "%s: 0x5c 0x%x, 0xc0 0x%x, 0xc4 0x%x",
				  v[i].spec, old, lo, hi);
		else
			cr_expect(lo == 0 && (old & 0xfff00000u) == 0x78000000u, "%s: 0x5c 0x%x, 0xc0 0x%x", v[i].spec, old, lo);
		cr_expect_eq(dev->info.stolen_base, 0x78000000ull, "%s: stolen at 0x%llx", v[i].spec,
			     (unsigned long long)dev->info.stolen_base);
		hw_close(dev);
	}
}

/* Each new model has the GSM, aperture, fences and stolen size a real part of its id has. */
Test(platforms, the_new_models_look_like_their_parts)
{
	static const struct { const char *spec; uint16_t devid; uint64_t stolen; } v[] = {
		{ "sim:cfl", 0x3e92, 64u << 20 }, { "sim:icl", 0x8a52, 64u << 20 },
		{ "sim:tgl", 0x9a49, 60u << 20 }, { "sim:rkl", 0x4c8a, 60u << 20 }, { "sim:adlp", 0x46a6, 60u << 20 },
	};
	for (size_t i = 0; i < N(v); i++) {
		struct hw_device *dev = t_open(v[i].spec);
		const struct hw_info *in = &dev->info;
		cr_expect_eq(in->devid, v[i].devid, "%s", v[i].spec);
		cr_expect(in->gsm_size == 8u << 20 && in->ggtt_size == 4ull << 30 && in->n_ptes == 1u << 20, "%s", v[i].spec);
		cr_expect_eq(in->aperture_size, 256u << 20, "%s", v[i].spec);
		cr_expect_eq(in->num_fences, 32u, "%s", v[i].spec);
		cr_expect_eq(in->stolen_size, v[i].stolen, "%s: %llu", v[i].spec, (unsigned long long)in->stolen_size);
		hw_close(dev);
	}
}

/* Pipe D and planes 4-7 are read on the parts that have them, and only there. */
Test(platforms, scanout_covers_pipe_d_and_the_upper_planes)
{
	static const struct { const char *spec; unsigned pipe, plane; int found; } v[] = {
		{ "sim:tgl", 3, 7, 1 },		/* Tiger Lake: 4 pipes, 7 planes */
		{ "sim:tgl", 0, 6, 1 },
		{ "sim:icl", 2, 7, 1 },		/* Ice Lake: 3 pipes, 7 planes */
		{ "sim:icl", 3, 1, 0 },		/* no pipe D */
		{ "sim:rkl", 2, 5, 1 },		/* Rocket Lake: 3 pipes, 5 planes */
		{ "sim:rkl", 3, 1, 0 },		/* no pipe D */
		{ "sim:rkl", 0, 6, 0 },
		{ "sim:adlp", 3, 5, 1 },	/* Alder Lake-P: 4 pipes, 5 planes */
		{ "sim:adlp", 3, 6, 0 },
		{ "sim:cfl", 2, 3, 1 },
		{ "sim:cfl", 0, 4, 0 },
	};
	for (size_t i = 0; i < N(v); i++) {
		struct hw_device *dev = t_open(v[i].spec);
		uint32_t base = 0x4000000;
		hw_mmio_write32(dev, PLANE_REG(_PLANE_CTL_1_A, v[i].pipe, v[i].plane), PLANE_CTL_ENABLE);
		hw_mmio_write32(dev, PLANE_REG(_PLANE_STRIDE_1_A, v[i].pipe, v[i].plane), 0x50);
		hw_mmio_write32(dev, PLANE_REG(_PLANE_SIZE_1_A, v[i].pipe, v[i].plane), 1079u << 16 | 1919u);
		hw_mmio_write32(dev, PLANE_REG(_PLANE_SURF_1_A, v[i].pipe, v[i].plane), base);
		struct hw_scanout sc[32];
		size_t n = hw_scanout_ranges(dev, sc, 32);
		cr_expect_eq(n, (size_t)v[i].found, "%s pipe %c plane %u: %zu ranges", v[i].spec, 'A' + v[i].pipe,
			     v[i].plane, n);
		if (n == 1)
			cr_expect(sc[0].pipe == v[i].pipe && sc[0].start <= base && sc[0].end > base + 0x50 * 64 * 1080,
				  "%s: 0x%llx-0x%llx", v[i].spec, (unsigned long long)sc[0].start, (unsigned long long)sc[0].end);
		hw_close(dev);
	}
}

/* The CLI on the new models: info, a full check run, and the Dom0 runtime saying what it is there. */
Test(platforms, the_cli_on_the_new_models, .timeout = 300)
{
	static char out[65536];

	cr_assert_eq(t_run("./build/gttlab info --device sim:tgl 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "platform      tgl (tigerlake), gen 12") && strstr(out, "device id     0x9a49") &&
		  strstr(out, "stolen        60 MiB at 0x0000000078000000 (BDSM 64-bit at 0xc0)") &&
		  strstr(out, "not mediated upstream") && strstr(out, "fences        32"), "%s", out);
	cr_assert_eq(t_run("./build/gttlab check --device sim:adlp 2>&1", out, sizeof(out)), 0, "%s", out);
	unsigned guest = 0;
	char want[32];
	for (size_t i = 0; i < gtt_check_count(); i++)
		guest += !!(gtt_check(i)->requires & (REQ_GUEST | REQ_VF));
	snprintf(want, sizeof(want), "0 failed, %u skipped", guest);	/* the guest and vf suites skip outside a vGPU, a VF */
	cr_expect(strstr(out, "PASS on sim:adlp (adlp, simulated)") && strstr(out, want), "not '%s': %s", want, out);
	cr_assert_eq(t_run("./build/gttlab --device sim:tgl dom0 run scenarios/fence-pool.scn 2>&1", out, sizeof(out)), 0,
		     "%s", out);
	cr_expect(strstr(out, "note: no GVT-g mediator runs on tgl (tigerlake)"), "%s", out);
	cr_assert_eq(t_run("./build/gttlab --device sim:cfl dom0 run scenarios/fence-pool.scn 2>&1", out, sizeof(out)), 0,
		     "%s", out);
	cr_expect(!strstr(out, "no GVT-g mediator"), "%s", out);
	/* a platform without a model (the table's first) is named with the ones that have one */
	const struct gtt_platform *bare = NULL;
	for (size_t i = 0; i < gtt_num_platforms && !bare; i++)
		if (!gtt_platform_simulated(&gtt_platforms[i]))
			bare = &gtt_platforms[i];
	cr_assert_not_null(bare, "every platform has a model: nothing to refuse");
	char cmd[128], named[64];
	snprintf(cmd, sizeof(cmd), "./build/gttlab info --device sim:%s 2>&1", bare->name);
	snprintf(named, sizeof(named), "%s has no simulated device", bare->name);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 2, "%s", out);
	char models[256] = "";
	for (size_t i = 0; i < gtt_num_platforms; i++)
		if (gtt_platform_simulated(&gtt_platforms[i]))
			snprintf(models + strlen(models), sizeof(models) - strlen(models), "%s%s", models[0] ? ", " : "",
				 gtt_platforms[i].name);
	cr_expect(strstr(out, named) && strstr(out, models), "not naming %s: %s", models, out);
}
