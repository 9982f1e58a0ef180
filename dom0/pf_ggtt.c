/* SPDX-License-Identifier: MIT */
/* An SR-IOV PF's GGTT provisioning arithmetic (dom0/pf_ggtt.h). */
#include "dom0/pf_ggtt.h"

#define VFID_SHIFT	2

static uint64_t pow2_floor(uint64_t v)
{
	return v ? 1ull << (63 - __builtin_clzll(v)) : 0;
}

uint64_t dom0_pf_profile(unsigned n, bool admin_only, uint64_t align)
{
	if (!n)
		return 0;
	if (admin_only && n == 1)
		return DOM0_PF_SHAREABLE & ~(align - 1);
	if (n > DOM0_PF_PROFILE_MANY)
		return DOM0_PF_PROFILE_SMALL;
	return pow2_floor(DOM0_PF_SHAREABLE / n);
}

int dom0_pf_fair_share(uint64_t hole, uint64_t spare, unsigned n, uint64_t align, bool profile, uint64_t *share,
		       struct gtt_err *err)
{
	if (!n)
		return gtt_err_set(err, GTT_EINVAL, "a share of 0 VFs");
	if (align < 4096 || (align & (align - 1)))
		return gtt_err_set(err, GTT_EINVAL, "GGTT alignment 0x%llx: a power of two of at least 4 KiB",
				   (unsigned long long)align);
	if (spare < DOM0_PF_SPARE_MIN)
		spare = DOM0_PF_SPARE_MIN;
	uint64_t fair = hole > spare ? ((hole - spare) / n) & ~(align - 1) : 0;
	if (!fair)
		return gtt_err_set(err, GTT_ERANGE, "a hole of 0x%llx bytes less the PF's 0x%llx shares nothing among %u VFs",
				   (unsigned long long)hole, (unsigned long long)spare, n);
	uint64_t cap = profile ? dom0_pf_profile(n, false, align) : 0;
	*share = cap && cap < fair ? cap : fair;
	return GTT_OK;
}

unsigned dom0_pf_max_vfid(unsigned graphics_verx100)
{
	return graphics_verx100 >= 1250 ? 0x3ff : 0x7;
}

uint64_t dom0_pf_pte_tag(unsigned vfid, unsigned graphics_verx100)
{
	if (!vfid || vfid > dom0_pf_max_vfid(graphics_verx100))
		return 0;
	return (uint64_t)vfid << VFID_SHIFT | 1;	/* PRESENT */
}
