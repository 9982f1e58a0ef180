/* SPDX-License-Identifier: MIT */
/*
 * Display plane registers gttlab reads to find the GGTT ranges a plane scans
 * out, so that no check touches them (i915 display/i9xx_plane_regs.h,
 * intel_sprite_regs.h, skl_universal_plane_regs.h, intel_cursor_regs.h,
 * intel_display_regs.h). Pipes are 0x1000 apart; pipe C exists from Ivy
 * Bridge on, pipe D on Tiger Lake, Alder Lake and Raptor Lake (not Rocket
 * Lake). Gen6-8 have a primary plane, one sprite and a cursor per pipe.
 * Universal planes are 0x100 apart: 3 per pipe on gen9, 7 on gen11 and Tiger
 * Lake, 5 on Rocket Lake, Alder Lake and Raptor Lake; cursors stay at
 * 0x70080 + pipe * 0x1000 (Sandy Bridge's pipe B cursor aside).
 */
#ifndef REGS_DISPLAY_H
#define REGS_DISPLAY_H

#define PIPE_OFFSET(pipe)		((pipe) * 0x1000u)

/* gen6-8 primary planes */
#define _DSPACNTR			0x70180
#define   DISP_ENABLE			(1u << 31)
#define _DSPASTRIDE			0x70188	/* bytes, low 6 bits ignored */
#define _DSPASURF			0x7019c
#define   DISP_ADDR_MASK		0xfffff000u
#define DSPCNTR(pipe)			(_DSPACNTR + PIPE_OFFSET(pipe))
#define DSPSTRIDE(pipe)			(_DSPASTRIDE + PIPE_OFFSET(pipe))
#define DSPSURF(pipe)			(_DSPASURF + PIPE_OFFSET(pipe))
#define _PIPEASRC			0x6001c	/* (width - 1) << 16 | (height - 1) */
#define PIPESRC(pipe)			(_PIPEASRC + PIPE_OFFSET(pipe))

/*
 * Sandy Bridge's sprites (i915's g4x_sprite registers): pipe B's block is
 * pipe A's + 0x1000. DVSSTRIDE is in bytes, DVSSIZE the destination size
 * less one, DVSSCALE the source size less one when scaling is on.
 */
#define _DVSACNTR			0x72180
#define   DVS_ENABLE			(1u << 31)
#define _DVSASTRIDE			0x72188
#define _DVSASIZE			0x72190	/* (height - 1) << 16 | (width - 1) */
#define _DVSASURF			0x7219c
#define   DVS_ADDR_MASK			0xfffff000u
#define _DVSASCALE			0x72204
#define   DVS_SCALE_ENABLE		(1u << 31)
#define   DVS_SRC_HEIGHT_MASK		0x7ffu	/* source height - 1, bits 10:0 */
#define DVSCNTR(pipe)			(_DVSACNTR + PIPE_OFFSET(pipe))
#define DVSSTRIDE(pipe)			(_DVSASTRIDE + PIPE_OFFSET(pipe))
#define DVSSIZE(pipe)			(_DVSASIZE + PIPE_OFFSET(pipe))
#define DVSSURF(pipe)			(_DVSASURF + PIPE_OFFSET(pipe))
#define DVSSCALE(pipe)			(_DVSASCALE + PIPE_OFFSET(pipe))

/*
 * The sprites of Ivy Bridge, Haswell and Broadwell (ivb_sprite registers):
 * pipe B's at pipe A's + 0x1000, pipe C's + 0x2000. Only Ivy Bridge has the
 * sprite scaler (i915 writes SPRSCALE there alone).
 */
#define _SPRA_CTL			0x70280
#define   SPRITE_ENABLE			(1u << 31)
#define _SPRA_STRIDE			0x70288
#define _SPRA_SIZE			0x70290	/* (height - 1) << 16 | (width - 1) */
#define _SPRA_SURF			0x7029c
#define   SPRITE_ADDR_MASK		0xfffff000u
#define _SPRA_SCALE			0x70304
#define   SPRITE_SCALE_ENABLE		(1u << 31)
#define   SPRITE_SRC_HEIGHT_MASK	0x7ffu	/* source height - 1, bits 10:0 */
#define SPRCTL(pipe)			(_SPRA_CTL + PIPE_OFFSET(pipe))
#define SPRSTRIDE(pipe)			(_SPRA_STRIDE + PIPE_OFFSET(pipe))
#define SPRSIZE(pipe)			(_SPRA_SIZE + PIPE_OFFSET(pipe))
#define SPRSURF(pipe)			(_SPRA_SURF + PIPE_OFFSET(pipe))
#define SPRSCALE(pipe)			(_SPRA_SCALE + PIPE_OFFSET(pipe))

/* gen9+ universal planes: plane n (1..7) at +0x100 * (n - 1) */
#define _PLANE_CTL_1_A			0x70180
#define   PLANE_CTL_ENABLE		(1u << 31)
#define   PLANE_CTL_TILED_SHIFT		10		/* 0 linear, 1 X, 4 Y, 5 Yf (gen12: Y with CCS) */
#define   PLANE_CTL_TILED_MASK		(7u << 10)
#define _PLANE_STRIDE_1_A		0x70188	/* 64-byte units linear, tile widths tiled */
#define _PLANE_SIZE_1_A			0x70190	/* (height - 1) << 16 | (width - 1) */
#define _PLANE_SURF_1_A			0x7019c
#define   PLANE_SURF_ADDR_MASK		0xfffff000u
#define PLANE_REG(reg, pipe, plane)	((reg) + PIPE_OFFSET(pipe) + 0x100u * ((plane) - 1))

/* cursors */
#define _CURACNTR			0x70080
#define _CURABASE			0x70084
#define   MCURSOR_MODE_MASK		0x27u
#define _CURBCNTR_SNB			0x700c0	/* SNB: pipe B cursor */
#define _CURBBASE_SNB			0x700c4
#define CURCNTR_IVB(pipe)		(_CURACNTR + PIPE_OFFSET(pipe))
#define CURBASE_IVB(pipe)		(_CURABASE + PIPE_OFFSET(pipe))
#define CURSOR_MAX_BYTES		(256u * 256u * 4u)

#endif
