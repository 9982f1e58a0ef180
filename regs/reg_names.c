/* SPDX-License-Identifier: MIT */
#include "regs/reg_names.h"
#include "regs/display.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"

#define ALL 60, 120, -1, 0, 0
#define F(i) \
	{ "FENCE_REG_GEN6_LO_" #i, FENCE_REG_GEN6_LO(i), 60, 120, i, 0, 0 }, \
	{ "FENCE_REG_GEN6_HI_" #i, FENCE_REG_GEN6_HI(i), 60, 120, i, 0, 0 }

/* gen9+ universal plane n of a pipe; present if the platform has that many pipes and planes */
#define PLANE(n, pipe, ch, idx) \
	{ "PLANE_CTL_" #n "_" #pipe, PLANE_REG(_PLANE_CTL_1_A, idx, n), 90, 120, -1, ch, n }, \
	{ "PLANE_STRIDE_" #n "_" #pipe, PLANE_REG(_PLANE_STRIDE_1_A, idx, n), 90, 120, -1, ch, n }, \
	{ "PLANE_SIZE_" #n "_" #pipe, PLANE_REG(_PLANE_SIZE_1_A, idx, n), 90, 120, -1, ch, n }, \
	{ "PLANE_SURF_" #n "_" #pipe, PLANE_REG(_PLANE_SURF_1_A, idx, n), 90, 120, -1, ch, n }
/*
 * The gen6 sprite (DVS) and gen7-8 sprite (SPR) of a pipe, named as i915's
 * _DVSACNTR, _SPRA_CTL, ...; pipe C's SPR block has no name of its own in
 * i915 (SPRCTL(PIPE_C)) and is SPRC_* in the same pattern.
 */
#define DVS(pipe, ch, idx) \
	{ "DVS" #pipe "CNTR", DVSCNTR(idx), 60, 60, -1, ch, 0 }, \
	{ "DVS" #pipe "STRIDE", DVSSTRIDE(idx), 60, 60, -1, ch, 0 }, \
	{ "DVS" #pipe "SIZE", DVSSIZE(idx), 60, 60, -1, ch, 0 }, \
	{ "DVS" #pipe "SURF", DVSSURF(idx), 60, 60, -1, ch, 0 }, \
	{ "DVS" #pipe "SCALE", DVSSCALE(idx), 60, 60, -1, ch, 0 }
#define SPR(pipe, ch, idx) \
	{ "SPR" #pipe "_CTL", SPRCTL(idx), 70, 80, -1, ch, 0 }, \
	{ "SPR" #pipe "_STRIDE", SPRSTRIDE(idx), 70, 80, -1, ch, 0 }, \
	{ "SPR" #pipe "_SIZE", SPRSIZE(idx), 70, 80, -1, ch, 0 }, \
	{ "SPR" #pipe "_SURF", SPRSURF(idx), 70, 80, -1, ch, 0 }, \
	{ "SPR" #pipe "_SCALE", SPRSCALE(idx), 70, 70, -1, ch, 0 }
#define PLANES(pipe, ch, idx) \
	PLANE(1, pipe, ch, idx), PLANE(2, pipe, ch, idx), PLANE(3, pipe, ch, idx), PLANE(4, pipe, ch, idx), \
	PLANE(5, pipe, ch, idx), PLANE(6, pipe, ch, idx), PLANE(7, pipe, ch, idx)

const struct gtt_reg_name gtt_reg_names[] = {
	{ "GFX_FLSH_CNTL_GEN6", GFX_FLSH_CNTL_GEN6, ALL },
	{ "TILECTL", TILECTL, 60, 95, -1, 0, 0 },
	{ "ARB_MODE", ARB_MODE, 60, 75, -1, 0, 0 },
	{ "DISP_ARB_CTL", DISP_ARB_CTL, 60, 95, -1, 0, 0 },
	{ "GAMTARBMODE", GAMTARBMODE, 80, 95, -1, 0, 0 },
	{ "MAD_DIMM_C0", MAD_DIMM_C0, 60, 75, -1, 0, 0 },
	{ "MAD_DIMM_C1", MAD_DIMM_C1, 60, 75, -1, 0, 0 },
	{ "HSW_EDRAM_CAP", HSW_EDRAM_CAP, 75, 120, -1, 0, 0 },
	{ "VGT_IF_MAGIC_LO", VGT_IF_MAGIC, ALL },
	{ "VGT_IF_MAGIC_HI", VGT_IF_MAGIC + 4, ALL },
	{ "VGT_IF_VERSION", VGT_IF_VERSION, ALL },
	{ "VGT_IF_VGT_ID", VGT_IF_VGT_ID, ALL },
	{ "VGT_IF_VGT_CAPS", VGT_IF_VGT_CAPS, ALL },
	{ "VGT_IF_MAPPABLE_BASE", VGT_IF_MAPPABLE_BASE, ALL },
	{ "VGT_IF_MAPPABLE_SIZE", VGT_IF_MAPPABLE_SIZE, ALL },
	{ "VGT_IF_NONMAPPABLE_BASE", VGT_IF_NONMAPPABLE_BASE, ALL },
	{ "VGT_IF_NONMAPPABLE_SIZE", VGT_IF_NONMAPPABLE_SIZE, ALL },
	{ "VGT_IF_FENCE_NUM", VGT_IF_FENCE_NUM, ALL },
	{ "VGT_IF_DISPLAY_READY", VGT_IF_DISPLAY_READY, ALL },
	{ "VGT_IF_G2V_NOTIFY", VGT_IF_G2V_NOTIFY, ALL },
	{ "VGT_IF_CURSOR_X_HOT", VGT_IF_CURSOR_X_HOT, ALL },
	{ "VGT_IF_CURSOR_Y_HOT", VGT_IF_CURSOR_Y_HOT, ALL },
	{ "VGT_IF_EXECLIST_CTX_DESC_LO", VGT_IF_EXECLIST_CTX_DESC_LO, ALL },
	{ "VGT_IF_EXECLIST_CTX_DESC_HI", VGT_IF_EXECLIST_CTX_DESC_HI, ALL },
	/* display planes and cursors (regs/display.h), read to keep checks off scanout */
	{ "DSPACNTR", 0x70180, 60, 80, -1, 0, 0 },
	{ "DSPASTRIDE", 0x70188, 60, 80, -1, 0, 0 },
	{ "DSPASURF", 0x7019c, 60, 80, -1, 0, 0 },
	{ "PIPEASRC", 0x6001c, 60, 80, -1, 0, 0 },
	{ "DSPBCNTR", 0x71180, 60, 80, -1, 0, 0 },
	{ "DSPBSTRIDE", 0x71188, 60, 80, -1, 0, 0 },
	{ "DSPBSURF", 0x7119c, 60, 80, -1, 0, 0 },
	{ "PIPEBSRC", 0x6101c, 60, 80, -1, 0, 0 },
	{ "DSPCCNTR", 0x72180, 70, 80, -1, 0, 0 },
	{ "DSPCSTRIDE", 0x72188, 70, 80, -1, 0, 0 },
	{ "DSPCSURF", 0x7219c, 70, 80, -1, 0, 0 },
	{ "PIPECSRC", 0x6201c, 70, 80, -1, 0, 0 },
	DVS(A, 'A', 0), DVS(B, 'B', 1), SPR(A, 'A', 0), SPR(B, 'B', 1), SPR(C, 'C', 2),
	PLANES(A, 'A', 0), PLANES(B, 'B', 1), PLANES(C, 'C', 2), PLANES(D, 'D', 3),
	{ "CURACNTR", 0x70080, 60, 120, -1, 0, 0 },
	{ "CURABASE", 0x70084, 60, 120, -1, 0, 0 },
	{ "CURBCNTR", 0x71080, 70, 120, -1, 0, 0 },
	{ "CURBBASE", 0x71084, 70, 120, -1, 0, 0 },
	{ "CURCCNTR", 0x72080, 70, 120, -1, 0, 0 },
	{ "CURCBASE", 0x72084, 70, 120, -1, 0, 0 },
	{ "CURDCNTR", 0x73080, 120, 120, -1, 'D', 0 },
	{ "CURDBASE", 0x73084, 120, 120, -1, 'D', 0 },
	{ "CURBCNTR_SNB", 0x700c0, 60, 60, -1, 0, 0 },
	{ "CURBBASE_SNB", 0x700c4, 60, 60, -1, 0, 0 },
	F(0), F(1), F(2), F(3), F(4), F(5), F(6), F(7),
	F(8), F(9), F(10), F(11), F(12), F(13), F(14), F(15),
	F(16), F(17), F(18), F(19), F(20), F(21), F(22), F(23),
	F(24), F(25), F(26), F(27), F(28), F(29), F(30), F(31),
};

const size_t gtt_num_reg_names = sizeof(gtt_reg_names) / sizeof(gtt_reg_names[0]);

int gtt_reg_on_platform(const struct gtt_reg_name *r, const struct gtt_platform *p)
{
	if (p->gen < r->min_gen || p->gen > r->max_gen)
		return 0;
	if (r->pipe && (unsigned)(r->pipe - 'A') >= p->num_pipes)
		return 0;
	if (r->plane > p->num_planes)
		return 0;
	return r->fence < 0 || (unsigned)r->fence < p->num_fences;
}
