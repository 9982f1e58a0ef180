/* SPDX-License-Identifier: MIT */
/*
 * The platform table. Every number has its source in docs/hardware.md:
 * BAR0 size and GSM offset §1.2, GMCH encodings §1.3, PTE formats §2,
 * fence counts and pitch limits §4.1/§4.3, swizzle §4.7, aperture §1.2.
 * Device ids of every platform, display pipes, planes and sprites, BDSM and
 * GVT-g: docs/platforms.md, from i915_pciids.h, early-quirks.c,
 * intel_display_device.c and intel_sprite.c.
 */
#include "regs/platform.h"
#include "regs/fence_reg.h"
#include "regs/mmio.h"

#define MiB (1u << 20)
#define N(a) (sizeof(a) / sizeof((a)[0]))

/*
 * INTEL_SNB_IDS: D GT1, D GT2, M GT1, M GT2 (every one i915 lists). INTEL_IVB_IDS: M GT1, M GT2,
 * D GT1, D GT2; i915's one more IVB entry, INTEL_IVB_Q_IDS (Quanta transcode), is 0x016a again
 * matched with subsystem 0x152d:0x8990 and given no display, so the id is here once.
 */
static const uint16_t snb_ids[] = { 0x0102, 0x010a, 0x0112, 0x0122, 0x0106, 0x0116, 0x0126 };
static const uint16_t ivb_ids[] = { 0x0156, 0x0166, 0x0152, 0x015a, 0x0162, 0x016a };
/* INTEL_HSW_IDS: GT1, GT2, GT3, each ULT, ULX (not GT3), desktop/mobile/server/reserved, SDV and CRW */
static const uint16_t hsw_ids[] = {
	0x0a02, 0x0a06, 0x0a0a, 0x0a0b, 0x0a0e, 0x0402, 0x0406, 0x040a, 0x040b, 0x040e,
	0x0c02, 0x0c06, 0x0c0a, 0x0c0b, 0x0c0e, 0x0d02, 0x0d06, 0x0d0a, 0x0d0b, 0x0d0e,
	0x0a12, 0x0a16, 0x0a1a, 0x0a1b, 0x0a1e, 0x0412, 0x0416, 0x041a, 0x041b, 0x041e,
	0x0c12, 0x0c16, 0x0c1a, 0x0c1b, 0x0c1e, 0x0d12, 0x0d16, 0x0d1a, 0x0d1b, 0x0d1e,
	0x0a22, 0x0a26, 0x0a2a, 0x0a2b, 0x0a2e, 0x0422, 0x0426, 0x042a, 0x042b, 0x042e,
	0x0c22, 0x0c26, 0x0c2a, 0x0c2b, 0x0c2e, 0x0d22, 0x0d26, 0x0d2a, 0x0d2b, 0x0d2e,
};
/* INTEL_BDW_IDS: GT1, GT2, GT3 and the reserved (RSVD) ids, each ULT, ULX, then the others */
static const uint16_t bdw_ids[] = {
	0x1606, 0x160b, 0x160e, 0x1602, 0x160a, 0x160d, 0x1616, 0x161b, 0x161e, 0x1612, 0x161a, 0x161d,
	0x1626, 0x162b, 0x162e, 0x1622, 0x162a, 0x162d, 0x1636, 0x163b, 0x163e, 0x1632, 0x163a, 0x163d,
};
static const uint16_t skl_ids[] = { 0x1906, 0x1913, 0x190e, 0x1915, 0x1902, 0x190a, 0x190b, 0x1917,
				    0x1916, 0x1921, 0x191e, 0x1912, 0x191a, 0x191b, 0x191d, 0x1923,
				    0x1926, 0x1927, 0x192a, 0x192b, 0x192d, 0x1932, 0x193a, 0x193b, 0x193d };
/* INTEL_KBL_IDS, with INTEL_AML_KBL_GT2_IDS (Amber Lake parts i915 runs as Kaby Lake) */
static const uint16_t kbl_ids[] = { 0x5906, 0x5913, 0x590e, 0x5915, 0x5902, 0x5908, 0x590a, 0x590b,
				    0x5916, 0x5921, 0x591e, 0x5912, 0x5917, 0x591a, 0x591b, 0x591d,
				    0x5926, 0x5923, 0x5927, 0x593b, 0x591c, 0x87c0 };
/* INTEL_CFL_IDS (S, H, U, INTEL_AML_CFL_GT2_IDS) and INTEL_WHL_IDS */
static const uint16_t cfl_ids[] = { 0x3e90, 0x3e93, 0x3e99, 0x3e91, 0x3e92, 0x3e96, 0x3e98, 0x3e9a,
				    0x3e9c, 0x3e94, 0x3e9b, 0x3ea9, 0x3ea5, 0x3ea6, 0x3ea7, 0x3ea8,
				    0x87ca, 0x3ea1, 0x3ea4, 0x3ea0, 0x3ea3, 0x3ea2 };
static const uint16_t cml_ids[] = { 0x9ba2, 0x9ba4, 0x9ba5, 0x9ba8, 0x9b21, 0x9baa, 0x9bac, 0x9bc2,
				    0x9bc4, 0x9bc5, 0x9bc6, 0x9bc8, 0x9be6, 0x9bf6, 0x9b41, 0x9bca, 0x9bcc };
static const uint16_t icl_ids[] = { 0x8a50, 0x8a52, 0x8a53, 0x8a54, 0x8a56, 0x8a57, 0x8a58, 0x8a59,
				    0x8a5a, 0x8a5b, 0x8a5c, 0x8a70, 0x8a71, 0x8a51, 0x8a5d };
static const uint16_t ehl_ids[] = { 0x4541, 0x4551, 0x4555, 0x4557, 0x4570, 0x4571 };
static const uint16_t jsl_ids[] = { 0x4e51, 0x4e55, 0x4e57, 0x4e61, 0x4e71 };
static const uint16_t tgl_ids[] = { 0x9a60, 0x9a68, 0x9a70, 0x9a40, 0x9a49, 0x9a59, 0x9a78, 0x9ac0,
				    0x9ac9, 0x9ad9, 0x9af8 };
static const uint16_t rkl_ids[] = { 0x4c80, 0x4c8a, 0x4c8b, 0x4c8c, 0x4c90, 0x4c9a };
static const uint16_t adls_ids[] = { 0x4680, 0x4682, 0x4688, 0x468a, 0x468b, 0x4690, 0x4692, 0x4693 };
static const uint16_t adlp_ids[] = { 0x46a0, 0x46a1, 0x46a2, 0x46a3, 0x46a6, 0x46a8, 0x46aa, 0x462a,
				     0x4626, 0x4628, 0x46b0, 0x46b1, 0x46b2, 0x46b3, 0x46c0, 0x46c1,
				     0x46c2, 0x46c3 };
static const uint16_t adln_ids[] = { 0x46d0, 0x46d1, 0x46d2, 0x46d3, 0x46d4 };
static const uint16_t rpls_ids[] = { 0xa780, 0xa781, 0xa782, 0xa783, 0xa788, 0xa789, 0xa78a, 0xa78b };
/* INTEL_RPLP_IDS and INTEL_RPLU_IDS (i915 runs both as Alder Lake-P) */
static const uint16_t rplp_ids[] = { 0xa720, 0xa7a0, 0xa7a8, 0xa7aa, 0xa7ab,
				     0xa721, 0xa7a1, 0xa7a9, 0xa7ac, 0xa7ad };

#define GEN6_BAR0 \
	.bar0_size = 4 * MiB, .gsm_offset = 2 * MiB, .mmio_size = GTT_MMIO_SIZE, \
	.pte_size = 4, .gmch_layout = GMCH_LAYOUT_SNB, .gsm_rule = GSM_SIZE_GEN6, \
	.stolen_rule = STOLEN_SIZE_GEN6, .bdsm = BDSM_32, \
	.aperture_min = 64 * MiB, .aperture_max = 512 * MiB, .num_planes = 1, \
	.swizzle_x = I915_BIT_6_SWIZZLE_9_10, .swizzle_y = I915_BIT_6_SWIZZLE_9, \
	.sim_ggms = 2, .sim_gms = 1, .sim_swizzle_enabled = 1

#define GEN8_BAR0 \
	.bar0_size = 16 * MiB, .gsm_offset = 8 * MiB, .mmio_size = GTT_MMIO_SIZE, \
	.pte_size = 8, .pte_format = PTE_FORMAT_GEN8, .phys_addr_bits = 39, \
	.gmch_layout = GMCH_LAYOUT_BDW, .gsm_rule = GSM_SIZE_GEN8, \
	.num_fences = 32, .fence_max_pitch_val = GEN7_FENCE_MAX_PITCH_VAL, \
	.swizzle_x = I915_BIT_6_SWIZZLE_NONE, .swizzle_y = I915_BIT_6_SWIZZLE_NONE, \
	.arb_mode_swizzle_bit = 0, .aperture_min = 64 * MiB, .aperture_max = 4096u * MiB - 1, \
	.sim_ggms = 3, .sim_aperture_size = 256 * MiB, .sim_swizzle_enabled = 0

/* gen11+: gen9's GGTT, fences and stolen size; BDSM is 64-bit at 0xc0 (gen11_early_ops). */
#define GEN11_BAR0 GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .bdsm = BDSM_64

const struct gtt_platform gtt_platforms[] = {
	{ .name = "snb", .codename = "sandybridge", .gen = 60, .family = "Sandy Bridge (SNB)",
	  .num_pipes = 2, .sprite = SPRITE_DVS, .devids = snb_ids, .n_devids = N(snb_ids),
	  GEN6_BAR0, .pte_format = PTE_FORMAT_SNB, .phys_addr_bits = 40,
	  .num_fences = 16, .fence_max_pitch_val = I965_FENCE_MAX_PITCH_VAL,
	  .arb_mode_swizzle_bit = ARB_MODE_SWIZZLE_SNB,
	  .sim_devid = 0x0122, .sim_aperture_size = 256 * MiB },
	{ .name = "ivb", .codename = "ivybridge", .gen = 70, .family = "Ivy Bridge (IVB)",
	  .num_pipes = 3, .sprite = SPRITE_SPR, .devids = ivb_ids, .n_devids = N(ivb_ids),
	  GEN6_BAR0, .pte_format = PTE_FORMAT_IVB, .phys_addr_bits = 40,
	  .num_fences = 32, .fence_max_pitch_val = GEN7_FENCE_MAX_PITCH_VAL,
	  .arb_mode_swizzle_bit = ARB_MODE_SWIZZLE_IVB,
	  .sim_devid = 0x0162, .sim_aperture_size = 256 * MiB },
	{ .name = "hsw", .codename = "haswell", .gen = 75, .family = "Haswell (HSW)",
	  .num_pipes = 3, .sprite = SPRITE_SPR, .devids = hsw_ids, .n_devids = N(hsw_ids),
	  GEN6_BAR0, .pte_format = PTE_FORMAT_HSW, .phys_addr_bits = 39,
	  .num_fences = 32, .fence_max_pitch_val = GEN7_FENCE_MAX_PITCH_VAL,
	  .arb_mode_swizzle_bit = ARB_MODE_SWIZZLE_IVB,
	  .sim_devid = 0x0412, .sim_aperture_size = 512 * MiB },
	{ .name = "bdw", .codename = "broadwell", .gen = 80, .family = "Broadwell (BDW)",
	  .devids = bdw_ids, .n_devids = N(bdw_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN8, .num_pipes = 3, .num_planes = 1, .sprite = SPRITE_SPR,
	  .gvt = 1,
	  .sim_devid = 0x1616, .sim_gms = 1 },
	{ .name = "skl", .codename = "skylake", .gen = 90, .family = "Skylake (SKL)",
	  .devids = skl_ids, .n_devids = N(skl_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .num_pipes = 3, .num_planes = 3, .gvt = 1,
	  .sim_devid = 0x1912, .sim_gms = 1 },
	{ .name = "kbl", .codename = "kabylake", .gen = 95, .family = "Kaby Lake, Amber Lake Y (KBL)",
	  .devids = kbl_ids, .n_devids = N(kbl_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .num_pipes = 3, .num_planes = 3, .gvt = 1,
	  .sim_devid = 0x5912, .sim_gms = 1 },
	{ .name = "cfl", .codename = "coffeelake", .gen = 95, .family = "Coffee Lake, Whiskey Lake, Amber Lake Y (CFL)",
	  .devids = cfl_ids, .n_devids = N(cfl_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .num_pipes = 3, .num_planes = 3, .gvt = 1,
	  .sim_devid = 0x3e92, .sim_gms = 2 },
	{ .name = "cml", .codename = "cometlake", .gen = 95, .family = "Comet Lake (CML)",
	  .devids = cml_ids, .n_devids = N(cml_ids),
	  GEN8_BAR0, .stolen_rule = STOLEN_SIZE_GEN9, .num_pipes = 3, .num_planes = 3, .gvt = 1 },
	{ .name = "icl", .codename = "icelake", .gen = 110, .family = "Ice Lake (ICL)",
	  .devids = icl_ids, .n_devids = N(icl_ids), GEN11_BAR0, .num_pipes = 3, .num_planes = 7,
	  .sim_devid = 0x8a52, .sim_gms = 2 },
	{ .name = "ehl", .codename = "elkhartlake", .gen = 110, .family = "Elkhart Lake (EHL)",
	  .devids = ehl_ids, .n_devids = N(ehl_ids), GEN11_BAR0, .num_pipes = 3, .num_planes = 7 },
	{ .name = "jsl", .codename = "jasperlake", .gen = 110, .family = "Jasper Lake (JSL)",
	  .devids = jsl_ids, .n_devids = N(jsl_ids), GEN11_BAR0, .num_pipes = 3, .num_planes = 7 },
	{ .name = "tgl", .codename = "tigerlake", .gen = 120, .family = "Tiger Lake (TGL)",
	  .devids = tgl_ids, .n_devids = N(tgl_ids), GEN11_BAR0, .num_pipes = 4, .num_planes = 7,
	  .sim_devid = 0x9a49, .sim_gms = 0xfe },
	{ .name = "rkl", .codename = "rocketlake", .gen = 120, .family = "Rocket Lake (RKL)",
	  .devids = rkl_ids, .n_devids = N(rkl_ids), GEN11_BAR0, .num_pipes = 3, .num_planes = 5,
	  .sim_devid = 0x4c8a, .sim_gms = 0xfe },
	{ .name = "adls", .codename = "alderlake_s", .gen = 120, .family = "Alder Lake-S (ADL-S)",
	  .devids = adls_ids, .n_devids = N(adls_ids), GEN11_BAR0, .num_pipes = 4, .num_planes = 5 },
	{ .name = "rpls", .codename = "raptorlake_s", .gen = 120, .family = "Raptor Lake-S (RPL-S)",
	  .devids = rpls_ids, .n_devids = N(rpls_ids), GEN11_BAR0, .num_pipes = 4, .num_planes = 5 },
	{ .name = "adlp", .codename = "alderlake_p", .gen = 120, .family = "Alder Lake-P (ADL-P)",
	  .devids = adlp_ids, .n_devids = N(adlp_ids), GEN11_BAR0, .num_pipes = 4, .num_planes = 5,
	  .sim_devid = 0x46a6, .sim_gms = 0xfe },
	{ .name = "adln", .codename = "alderlake_n", .gen = 120, .family = "Alder Lake-N (ADL-N)",
	  .devids = adln_ids, .n_devids = N(adln_ids), GEN11_BAR0, .num_pipes = 4, .num_planes = 5 },
	{ .name = "rplp", .codename = "raptorlake_p", .gen = 120, .family = "Raptor Lake-P, Raptor Lake-U (RPL-P)",
	  .devids = rplp_ids, .n_devids = N(rplp_ids), GEN11_BAR0, .num_pipes = 4, .num_planes = 5 },
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
