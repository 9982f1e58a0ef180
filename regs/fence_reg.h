/* SPDX-License-Identifier: MIT */
/*
 * Gen6+ fence register fields (i915 intel_ggtt_fencing.c, i915_reg.h).
 * The 64-bit value is HI << 32 | LO. Source: docs/hardware.md §4.3-4.6.
 */
#ifndef REGS_FENCE_REG_H
#define REGS_FENCE_REG_H

#define I965_FENCE_REG_VALID		(1u << 0)	/* LO bit 0 */
#define I965_FENCE_TILING_Y_SHIFT	1		/* LO bit 1: 1 = Y, 0 = X */
#define I965_FENCE_PAGE			4096u
#define FENCE_ADDR_MASK			0xfffff000u	/* start in LO 31:12, end in HI 31:12 */
#define GEN6_FENCE_PITCH_SHIFT		32		/* pitch field in HI 11:0 */
#define GEN6_FENCE_PITCH_MASK		0xfffu		/* within HI */
#define FENCE_PITCH_UNIT		128u		/* pitch field = stride / 128 - 1 */
#define I965_FENCE_MAX_PITCH_VAL	0x0400		/* gen4-6: stride/128 <= 1024 */
#define GEN7_FENCE_MAX_PITCH_VAL	0x0800		/* gen7+:  stride/128 <= 2048 */

/* Tile geometry (docs/hardware.md §4.6). */
#define TILE_SIZE			4096u
#define X_TILE_WIDTH			512u
#define X_TILE_HEIGHT			8u
#define Y_TILE_WIDTH			128u
#define Y_TILE_HEIGHT			32u
#define Y_TILE_OWORD			16u

/* uapi tiling and bit-6 swizzle modes (i915_drm.h). */
#define I915_TILING_NONE		0
#define I915_TILING_X			1
#define I915_TILING_Y			2
#define I915_BIT_6_SWIZZLE_NONE		0
#define I915_BIT_6_SWIZZLE_9		1
#define I915_BIT_6_SWIZZLE_9_10		2
#define I915_BIT_6_SWIZZLE_9_11		3
#define I915_BIT_6_SWIZZLE_9_10_11	4

#endif
