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
