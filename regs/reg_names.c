/* SPDX-License-Identifier: MIT */
#include "regs/reg_names.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"

#define ALL 60, 90, -1
#define F(i) \
	{ "FENCE_REG_GEN6_LO_" #i, FENCE_REG_GEN6_LO(i), 60, 90, i }, \
	{ "FENCE_REG_GEN6_HI_" #i, FENCE_REG_GEN6_HI(i), 60, 90, i }

const struct gtt_reg_name gtt_reg_names[] = {
	{ "GFX_FLSH_CNTL_GEN6", GFX_FLSH_CNTL_GEN6, ALL },
	{ "TILECTL", TILECTL, ALL },
	{ "ARB_MODE", ARB_MODE, 60, 75, -1 },
	{ "DISP_ARB_CTL", DISP_ARB_CTL, ALL },
	{ "GAMTARBMODE", GAMTARBMODE, 80, 90, -1 },
	{ "MAD_DIMM_C0", MAD_DIMM_C0, 60, 75, -1 },
	{ "MAD_DIMM_C1", MAD_DIMM_C1, 60, 75, -1 },
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
	{ "DSPACNTR", 0x70180, 60, 80, -1 },
	{ "DSPASTRIDE", 0x70188, 60, 80, -1 },
	{ "DSPASURF", 0x7019c, 60, 80, -1 },
	{ "PIPEASRC", 0x6001c, 60, 80, -1 },
	{ "PLANE_CTL_1_A", 0x70180, 90, 90, -1 },
	{ "PLANE_STRIDE_1_A", 0x70188, 90, 90, -1 },
	{ "PLANE_SIZE_1_A", 0x70190, 90, 90, -1 },
	{ "PLANE_SURF_1_A", 0x7019c, 90, 90, -1 },
	{ "PLANE_CTL_2_A", 0x70280, 90, 90, -1 },
	{ "PLANE_STRIDE_2_A", 0x70288, 90, 90, -1 },
	{ "PLANE_SIZE_2_A", 0x70290, 90, 90, -1 },
	{ "PLANE_SURF_2_A", 0x7029c, 90, 90, -1 },
	{ "PLANE_CTL_3_A", 0x70380, 90, 90, -1 },
	{ "PLANE_STRIDE_3_A", 0x70388, 90, 90, -1 },
	{ "PLANE_SIZE_3_A", 0x70390, 90, 90, -1 },
	{ "PLANE_SURF_3_A", 0x7039c, 90, 90, -1 },
	{ "CURACNTR", 0x70080, 60, 90, -1 },
	{ "CURABASE", 0x70084, 60, 90, -1 },
	{ "DSPBCNTR", 0x71180, 60, 80, -1 },
	{ "DSPBSTRIDE", 0x71188, 60, 80, -1 },
	{ "DSPBSURF", 0x7119c, 60, 80, -1 },
	{ "PIPEBSRC", 0x6101c, 60, 80, -1 },
	{ "PLANE_CTL_1_B", 0x71180, 90, 90, -1 },
	{ "PLANE_STRIDE_1_B", 0x71188, 90, 90, -1 },
	{ "PLANE_SIZE_1_B", 0x71190, 90, 90, -1 },
	{ "PLANE_SURF_1_B", 0x7119c, 90, 90, -1 },
	{ "PLANE_CTL_2_B", 0x71280, 90, 90, -1 },
	{ "PLANE_STRIDE_2_B", 0x71288, 90, 90, -1 },
	{ "PLANE_SIZE_2_B", 0x71290, 90, 90, -1 },
	{ "PLANE_SURF_2_B", 0x7129c, 90, 90, -1 },
	{ "PLANE_CTL_3_B", 0x71380, 90, 90, -1 },
	{ "PLANE_STRIDE_3_B", 0x71388, 90, 90, -1 },
	{ "PLANE_SIZE_3_B", 0x71390, 90, 90, -1 },
	{ "PLANE_SURF_3_B", 0x7139c, 90, 90, -1 },
	{ "CURBCNTR", 0x71080, 70, 90, -1 },
	{ "CURBBASE", 0x71084, 70, 90, -1 },
	{ "DSPCCNTR", 0x72180, 70, 80, -1 },
	{ "DSPCSTRIDE", 0x72188, 70, 80, -1 },
	{ "DSPCSURF", 0x7219c, 70, 80, -1 },
	{ "PIPECSRC", 0x6201c, 70, 80, -1 },
	{ "PLANE_CTL_1_C", 0x72180, 90, 90, -1 },
	{ "PLANE_STRIDE_1_C", 0x72188, 90, 90, -1 },
	{ "PLANE_SIZE_1_C", 0x72190, 90, 90, -1 },
	{ "PLANE_SURF_1_C", 0x7219c, 90, 90, -1 },
	{ "PLANE_CTL_2_C", 0x72280, 90, 90, -1 },
	{ "PLANE_STRIDE_2_C", 0x72288, 90, 90, -1 },
	{ "PLANE_SIZE_2_C", 0x72290, 90, 90, -1 },
	{ "PLANE_SURF_2_C", 0x7229c, 90, 90, -1 },
	{ "PLANE_CTL_3_C", 0x72380, 90, 90, -1 },
	{ "PLANE_STRIDE_3_C", 0x72388, 90, 90, -1 },
	{ "PLANE_SIZE_3_C", 0x72390, 90, 90, -1 },
	{ "PLANE_SURF_3_C", 0x7239c, 90, 90, -1 },
	{ "CURCCNTR", 0x72080, 70, 90, -1 },
	{ "CURCBASE", 0x72084, 70, 90, -1 },
	{ "CURBCNTR_SNB", 0x700c0, 60, 60, -1 },
	{ "CURBBASE_SNB", 0x700c4, 60, 60, -1 },
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
	return r->fence < 0 || (unsigned)r->fence < p->num_fences;
}
