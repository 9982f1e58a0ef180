/* SPDX-License-Identifier: MIT */
/*
 * The PF's GGTT arithmetic (dom0/pf_ggtt.h) against references apart from
 * the rules it was written from: the profile against xe's KUnit table
 * (docs/hardware.md §10.4, re-typed as its rows of VF counts and sizes, not
 * computed), the fair share against cases worked by hand, the PTE tags
 * against the field widths IGT's scan decodes (§10.5).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dom0/pf_ggtt.h"

#define MiB	(1ull << 20)
#define GiB	(1ull << 30)

Test(pf_ggtt, the_profile_is_xes_kunit_table)
{
	static const struct {
		unsigned from, to;
		uint64_t size;
	} table[] = {
		{ 1, 1, 2 * GiB }, { 2, 3, 1 * GiB }, { 4, 7, 512 * MiB }, { 8, 14, 256 * MiB },
		{ 15, 28, 128 * MiB }, { 29, 56, 64 * MiB }, { 57, 63, 56 * MiB },
	};
	for (size_t r = 0; r < sizeof(table) / sizeof(table[0]); r++)
		for (unsigned n = table[r].from; n <= table[r].to; n++) {
			uint64_t p = dom0_pf_profile(n, false, 4096);
			cr_expect_eq(p, table[r].size, "%u VFs: %llu MiB, KUnit %llu MiB", n, (unsigned long long)(p / MiB),
				     (unsigned long long)(table[r].size / MiB));
			cr_expect_leq(n * p, 3584 * MiB, "%u VFs fit the shareable 3.5 GiB", n);
		}
	cr_expect_eq(dom0_pf_profile(1, true, 4096), 3584 * MiB, "a lone VF of an admin-only PF");
	cr_expect_eq(dom0_pf_profile(0, false, 4096), 0);
}

Test(pf_ggtt, the_fair_share_worked_by_hand)
{
	struct gtt_err err = { 0 };
	uint64_t s = 0;

	/* 4 GiB - 8 MiB hole, 64 MiB spare, 3 VFs: (4096 - 8 - 64) MiB / 3 = 1341.33 MiB, 4 KiB down: 0x53d55000 */
	cr_assert_eq(dom0_pf_fair_share(4 * GiB - 8 * MiB, 0, 3, 4096, false, &s, &err), 0, "%s", err.msg);
	cr_expect_eq(s, 0x53d55000ull, "0x%llx", (unsigned long long)s);
	/* the same with the profile: 1 GiB caps it */
	cr_assert_eq(dom0_pf_fair_share(4 * GiB - 8 * MiB, 0, 3, 4096, true, &s, &err), 0, "%s", err.msg);
	cr_expect_eq(s, 1 * GiB);
	/* a spare of 128 MiB asked: kept; 7 VFs of (1024 - 128) MiB = 128 MiB each exactly */
	cr_assert_eq(dom0_pf_fair_share(1 * GiB, 128 * MiB, 7, 4096, false, &s, &err), 0, "%s", err.msg);
	cr_expect_eq(s, 128 * MiB);
	/* a spare below 64 MiB is raised to it: (100 - 64) MiB / 2 = 18 MiB, 64 KiB aligned */
	cr_assert_eq(dom0_pf_fair_share(100 * MiB, 1 * MiB, 2, 65536, false, &s, &err), 0, "%s", err.msg);
	cr_expect_eq(s, 18 * MiB);
	/* nothing left: xe's -ENOSPC */
	cr_expect_eq(dom0_pf_fair_share(64 * MiB, 0, 1, 4096, false, &s, &err), GTT_ERANGE);
	cr_expect_eq(dom0_pf_fair_share(64 * MiB + 4095, 0, 1, 4096, false, &s, &err), GTT_ERANGE, "less than a page each");
	cr_expect_eq(dom0_pf_fair_share(1 * GiB, 0, 0, 4096, false, &s, &err), GTT_EINVAL);
	cr_expect_eq(dom0_pf_fair_share(1 * GiB, 0, 1, 4095, false, &s, &err), GTT_EINVAL);
	cr_expect_eq(dom0_pf_fair_share(1 * GiB, 0, 1, 6144, false, &s, &err), GTT_EINVAL);
}

/* The tags decode as IGT's scan decodes them: VFID = (pte & mask) >> 2, mask 4:2 before IP 12.50, 11:2 from it. */
Test(pf_ggtt, the_tags_decode_as_igts_scan_reads_them)
{
	for (unsigned ip = 1200; ip <= 1270; ip += 5)
		for (unsigned vfid = 0; vfid < 1100; vfid++) {
			uint64_t t = dom0_pf_pte_tag(vfid, ip), mask = ip >= 1250 ? 0xffcull : 0x1cull;
			bool fits = vfid && vfid <= (ip >= 1250 ? 1023u : 7u);
			if (!fits) {
				cr_assert_eq(t, 0, "IP %u, VF %u does not fit the field", ip, vfid);
				continue;
			}
			cr_assert_eq((t & mask) >> 2, vfid, "IP %u, VF %u: tag 0x%llx", ip, vfid, (unsigned long long)t);
			cr_assert_eq(t & 1, 1, "PRESENT");
			cr_assert_eq(t & ~(mask | 1), 0, "no address, nothing else");
		}
	cr_expect_eq(dom0_pf_max_vfid(1200), 7, "Alder Lake: at most 7 VFs");
	cr_expect_eq(dom0_pf_max_vfid(1270), 1023);
}
