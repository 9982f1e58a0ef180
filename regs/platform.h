/* SPDX-License-Identifier: MIT */
/*
 * The platform table: per-generation facts of the GGTT, aperture and fences
 * (docs/hardware.md §1-§4), and the defaults the simulated device boots with.
 * Data only; hw/ interprets it, hw/sim/ models it.
 */
#ifndef REGS_PLATFORM_H
#define REGS_PLATFORM_H

#include <stddef.h>
#include <stdint.h>

/* How the GMCH control word (PCI 0x50) encodes the GSM and stolen sizes. */
enum gmch_layout {
	GMCH_LAYOUT_SNB,	/* GGMS 9:8, GMS 7:3 (gen6/7/7.5) */
	GMCH_LAYOUT_BDW,	/* GGMS 7:6, GMS 15:8 (gen8+) */
};

enum gsm_size_rule {
	GSM_SIZE_GEN6,		/* GGMS << 20 (gen6_get_total_gtt_size) */
	GSM_SIZE_GEN8,		/* (1 << GGMS) << 20, 0 if GGMS == 0 */
};

enum stolen_size_rule {
	STOLEN_SIZE_GEN6,	/* GMS << 25 */
	STOLEN_SIZE_GEN8,	/* GMS << 25 */
	STOLEN_SIZE_GEN9,	/* GMS < 0xf0: GMS << 25; else (GMS - 0xf0 + 1) << 22 */
};

/* Where the base of stolen memory (BDSM) is in config space (arch/x86/kernel/early-quirks.c). */
enum bdsm_layout {
	BDSM_32,		/* INTEL_BSM 0x5c, bits 31:20 (gen3_stolen_base) */
	BDSM_64,		/* INTEL_GEN11_BSM_DW0 0xc0 bits 31:20, DW1 0xc4 bits 63:32 (gen11_stolen_base) */
};

enum pte_format {
	PTE_FORMAT_SNB,		/* 32-bit, phys 39:32 in 11:4, cache bits 2:1 */
	PTE_FORMAT_IVB,		/* as SNB plus the L3+LLC cache value */
	PTE_FORMAT_HSW,		/* 32-bit, phys 38:32 in 10:4, cache control 3:1 + 11 */
	PTE_FORMAT_GEN8,	/* 64-bit, present + address */
};

/*
 * The sprite plane each pipe of a gen6-8 part has besides its primary plane
 * (intel_display_device.c: num_sprites 1 from display 5 on, VLV/CHV aside),
 * and whose registers drive it (intel_sprite.c intel_sprite_plane_create:
 * g4x_* below display 7, ivb_* from 7 on). From gen9 the sprites are the
 * universal planes 2..num_planes and this is SPRITE_NONE.
 */
enum sprite_regs {
	SPRITE_NONE,
	SPRITE_DVS,		/* DVSCNTR/DVSSURF, pipe A at 0x72180 (Sandy Bridge) */
	SPRITE_SPR,		/* SPRCTL/SPRSURF, pipe A at 0x70280 (Ivy Bridge, Haswell, Broadwell) */
};

struct gtt_platform {
	const char *name;		/* short name used on the command line: "skl" */
	const char *codename;		/* intel_reg / IGT codename: "skylake" */
	unsigned gen;			/* generation times ten: 60, 70, 75, 80, 90, 95, 110, 120 */
	const char *family;		/* the parts the entry covers: "Coffee Lake, Whiskey Lake, Amber Lake (CFL)" */
	const uint16_t *devids;		/* PCI device ids (i915_pciids.h) */
	size_t n_devids;

	uint32_t bar0_size;		/* GTTMMADR size */
	uint32_t gsm_offset;		/* PTE window inside BAR0 (bar0_size / 2) */
	uint32_t mmio_size;		/* register window i915 maps */
	unsigned pte_size;		/* 4 or 8 bytes */
	enum pte_format pte_format;
	unsigned phys_addr_bits;	/* physical address bits a GGTT PTE can hold */

	enum gmch_layout gmch_layout;
	enum gsm_size_rule gsm_rule;
	enum stolen_size_rule stolen_rule;
	enum bdsm_layout bdsm;

	unsigned num_fences;		/* intel_ggtt_init_fences */
	unsigned fence_max_pitch_val;	/* max stride / 128 */
	int swizzle_x;			/* i915's detection on symmetric DIMMs (I915_BIT_6_SWIZZLE_*) */
	int swizzle_y;
	uint32_t arb_mode_swizzle_bit;	/* ARB_MODE bit i915 sets to enable swizzling, 0 if none */

	uint32_t aperture_min;		/* GMADR sizes the i915 probe accepts */
	uint32_t aperture_max;

	unsigned num_pipes;		/* display pipes (i915 display info pipe_mask) */
	unsigned num_planes;		/* universal planes per pipe read for scanout (gen9+: 1 + num_sprites) */
	enum sprite_regs sprite;	/* gen6-8: the sprite plane of each pipe */
	int gvt;			/* upstream GVT-g mediates this platform (gvt/handlers.c device types) */

	/* What the simulated device boots with (sim:NAME). */
	uint16_t sim_devid;
	unsigned sim_ggms;		/* GGMS field value */
	unsigned sim_gms;		/* GMS field value */
	uint32_t sim_aperture_size;
	int sim_swizzle_enabled;	/* BIOS/i915 left swizzling on (gen6/7 only) */
};

/* Whether sim:NAME exists for p: only entries with sim_devid set have a model. */
static inline int gtt_platform_simulated(const struct gtt_platform *p)
{
	return p->sim_devid != 0;
}

extern const struct gtt_platform gtt_platforms[];
extern const size_t gtt_num_platforms;

/* Look a platform up by its short name ("skl") or codename ("skylake"); NULL if unknown. */
const struct gtt_platform *gtt_platform_by_name(const char *name);

/* Look a platform up by PCI device id; NULL if the id is not in the table. */
const struct gtt_platform *gtt_platform_by_devid(uint16_t devid);

#endif
