/* SPDX-License-Identifier: MIT */
/*
 * MMIO register offsets inside BAR0 (GTTMMADR) that gttlab touches, with
 * i915's names. Register facts only. Sources: docs/hardware.md §3, §4, §4.7.
 */
#ifndef REGS_MMIO_H
#define REGS_MMIO_H

/* i915 maps 2 MiB of registers for gen5+ (intel_uncore.c). */
#define GTT_MMIO_SIZE			(2u << 20)

/* GGTT invalidate: write GFX_FLSH_CNTL_EN, then a posting read (gen6/7). */
#define GFX_FLSH_CNTL_GEN6		0x101008
#define   GFX_FLSH_CNTL_EN		(1u << 0)

/* Gen6+ fence registers: 64 bits each, LO at +0, HI at +4. */
#define FENCE_REG_GEN6_BASE		0x100000
#define FENCE_REG_GEN6_STRIDE		8
#define FENCE_REG_GEN6_LO(i)		(FENCE_REG_GEN6_BASE + (i) * FENCE_REG_GEN6_STRIDE)
#define FENCE_REG_GEN6_HI(i)		(FENCE_REG_GEN6_LO(i) + 4)
#define I915_MAX_NUM_FENCES		32

/* Swizzle controls (i915_reg.h, intel_gt_regs.h, intel_mchbar_regs.h). */
#define TILECTL				0x101000
#define   TILECTL_SWZCTL		(1u << 0)
#define   TILECTL_TLBPF			(1u << 1)
#define   TILECTL_TLB_PREFETCH_DIS	(1u << 2)
#define   TILECTL_BACKSNOOP_DIS		(1u << 3)
#define ARB_MODE			0x4030	/* masked register: bits 31:16 enable writes */
#define   ARB_MODE_SWIZZLE_SNB		(1u << 4)
#define   ARB_MODE_SWIZZLE_IVB		(1u << 5)
#define DISP_ARB_CTL			0x45000
#define   DISP_TILE_SURFACE_SWIZZLING	(1u << 13)
#define GAMTARBMODE			0x4a08
#define   ARB_MODE_SWIZZLE_BDW		(1u << 1)
#define MCHBAR_MIRROR_BASE_SNB		0x140000
#define MAD_DIMM_C0			(MCHBAR_MIRROR_BASE_SNB + 0x5004)
#define MAD_DIMM_C1			(MCHBAR_MIRROR_BASE_SNB + 0x5008)
#define   MAD_DIMM_A_SIZE_MASK		(0xffu << 0)
#define   MAD_DIMM_B_SIZE_MASK		(0xffu << 8)

/*
 * eDRAM (HSW_EDRAM_CAP, i915_reg.h): i915 reads it on Haswell, Broadwell and
 * gen9+ (intel_dram_edram_detect); bit 0 set means the part has eDRAM, 128 MiB
 * before gen9, banks x ways x sets MiB from gen9 (gen9_edram_size_mb).
 */
#define HSW_EDRAM_CAP			0x120010
#define   EDRAM_ENABLED			0x1
#define   EDRAM_NUM_BANKS(cap)		(((cap) >> 1) & 0xf)
#define   EDRAM_WAYS_IDX(cap)		(((cap) >> 5) & 0x7)
#define   EDRAM_SETS_IDX(cap)		(((cap) >> 8) & 0x3)

/* A masked register write: the high half selects which low bits change. */
#define _MASKED_BIT_ENABLE(b)		(((b) << 16) | (b))
#define _MASKED_BIT_DISABLE(b)		((b) << 16)

#endif
