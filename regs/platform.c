/* SPDX-License-Identifier: MIT */
/*
 * The platform table. Every number has its source in docs/hardware.md:
 * BAR0 size and GSM offset §1.2, GMCH encodings §1.3, PTE formats §2,
 * fence counts and pitch limits §4.1/§4.3, swizzle §4.7, aperture §1.2.
 */
#include "regs/platform.h"
#include "regs/fence_reg.h"
#include "regs/mmio.h"

#define MiB (1u << 20)
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const uint16_t snb_ids[] = { 0x0102, 0x010a, 0x0112, 0x0122, 0x0106, 0x0116, 0x0126 };
static const uint16_t ivb_ids[] = { 0x0152, 0x015a, 0x0162, 0x016a, 0x0156, 0x0166 };
static const uint16_t hsw_ids[] = { 0x0402, 0x0412, 0x0422, 0x0406, 0x0416, 0x0426,
				    0x040a, 0x041a, 0x042a, 0x0d12, 0x0d22, 0x0a16, 0x0a26 };
static const uint16_t bdw_ids[] = { 0x1602, 0x1606, 0x160b, 0x160e, 0x1612, 0x1616,
				    0x161b, 0x161e, 0x1622, 0x1626, 0x162b };
static const uint16_t skl_ids[] = { 0x1902, 0x1906, 0x190b, 0x1912, 0x1916, 0x191a,
				    0x191b, 0x191d, 0x191e, 0x1921, 0x1926, 0x1927, 0x193b };
static const uint16_t kbl_ids[] = { 0x5902, 0x5906, 0x590b, 0x5912, 0x5916, 0x5917,
				    0x591b, 0x591d, 0x591e, 0x5921, 0x5926, 0x5927 };

#define GEN6_BAR0 \
	.bar0_size = 4 * MiB, .gsm_offset = 2 * MiB, .mmio_size = GTT_MMIO_SIZE, \
	.pte_size = 4, .gmch_layout = GMCH_LAYOUT_SNB, .gsm_rule = GSM_SIZE_GEN6, \
	.stolen_rule = STOLEN_SIZE_GEN6, .aperture_min = 64 * MiB, .aperture_max = 512 * MiB, \
	.swizzle_x = I915_BIT_6_SWIZZLE_9_10, .swizzle_y = I915_BIT_6_SWIZZLE_9, \
	.sim_ggms = 2, .sim_gms = 1, .sim_swizzle_enabled = 1

#define GEN8_BAR0 \
	.bar0_size = 16 * MiB, .gsm_offset = 8 * MiB, .mmio_size = GTT_MMIO_SIZE, \
	.pte_size = 8, .pte_format = PTE_FORMAT_GEN8, .phys_addr_bits = 39, \
	.gmch_layout = GMCH_LAYOUT_BDW, .gsm_rule = GSM_SIZE_GEN8, \
	.num_fences = 32, .fence_max_pitch_val = GEN7_FENCE_MAX_PITCH_VAL, \
	.swizzle_x = I915_BIT_6_SWIZZLE_NONE, .swizzle_y = I915_BIT_6_SWIZZLE_NONE, \
	.arb_mode_swizzle_bit = 0, .aperture_min = 64 * MiB, .aperture_max = 4096u * MiB - 1, \
	.sim_ggms = 3, .sim_gms = 1, .sim_aperture_size = 256 * MiB, .sim_swizzle_enabled = 0

const struct gtt_platform gtt_platforms[] = {
	{ .name = "snb", .codename = "sandybridge", .gen = 60, .devids = snb_ids, .n_devids = N(snb_ids),
	  GEN6_BAR0, .pte_format = PTE_FORMAT_SNB, .phys_addr_bits = 40,
	  .num_fences = 16, .fence_max_pitch_val = I965_FENCE_MAX_PITCH_VAL,
	  .arb_mode_swizzle_bit = ARB_MODE_SWIZZLE_SNB,
	  .sim_devid = 0x0122, .sim_aperture_size = 256 * MiB },
	{ .name = "ivb", .codename = "ivybridge", .gen = 70, .devids = ivb_ids, .n_devids = N(ivb_ids),
	  GEN6_BAR0, .pte_format = PTE_FORMAT_IVB, .phys_addr_bits = 40,
	  .num_fences = 32, .fence_max_pitch_val = GEN7_FENCE_MAX_PITCH_VAL,
	  .arb_mode_swizzle_bit = ARB_MODE_SWIZZLE_IVB,
	  .sim_devid = 0x0162, .sim_aperture_size = 256 * MiB },
	{ .name = "hsw", .codename = "haswell", .gen = 75, .devids = hsw_ids, .n_devids = N(hsw_ids),
	  GEN6_BAR0, .pte_format = PTE_FORMAT_HSW, .phys_addr_bits = 39,
	  .num_fences = 32, .fence_max_pitch_val = GEN7_FENCE_MAX_PITCH_VAL,
	  .arb_mode_swizzle_bit = ARB_MODE_SWIZZLE_IVB,
	  .sim_devid = 0x0412, .sim_aperture_size = 512 * MiB },
	{ .name = "bdw", .codename = "broadwell", .gen = 80, .devids = bdw_ids, .n_devids = N(bdw_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN8, .sim_devid = 0x1616 },
	{ .name = "skl", .codename = "skylake", .gen = 90, .devids = skl_ids, .n_devids = N(skl_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .sim_devid = 0x1912 },
	{ .name = "kbl", .codename = "kabylake", .gen = 90, .devids = kbl_ids, .n_devids = N(kbl_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .sim_devid = 0x5912 },
};

const size_t gtt_num_platforms = N(gtt_platforms);

static int name_eq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

const struct gtt_platform *gtt_platform_by_name(const char *name)
{
	for (size_t i = 0; i < gtt_num_platforms; i++)
		if (name_eq(name, gtt_platforms[i].name) || name_eq(name, gtt_platforms[i].codename))
			return &gtt_platforms[i];
	return NULL;
}

const struct gtt_platform *gtt_platform_by_devid(uint16_t devid)
{
	for (size_t i = 0; i < gtt_num_platforms; i++)
		for (size_t j = 0; j < gtt_platforms[i].n_devids; j++)
			if (gtt_platforms[i].devids[j] == devid)
				return &gtt_platforms[i];
	return NULL;
}
