/* SPDX-License-Identifier: MIT */
/*
 * The Dom0 runtime as an SR-IOV PF (dom0/pf_provision.h) on the model: what
 * it refuses, where it puts the ranges, the tags it writes and what a
 * release and a new provisioning leave, read back from the model's GSM; the
 * KLV words written out here from the layout (key 31:16, length 15:0).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dom0/pf_provision.h"
#include "hw/sim/sim.h"
#include "hw/undo.h"
#include "tests/helpers.h"

static struct dom0_pf pf;

Test(pf_provision, refusals_write_nothing)
{
	struct hw_device *dev = t_open("sim:skl");
	struct gtt_err err = { 0 };

	cr_expect_eq(dom0_pf_init(&pf, dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "SR-IOV PFs are gen12's"), "%s", err.msg);
	hw_close(dev);
	dev = t_open("sim:adlp,vf");
	cr_expect_eq(dom0_pf_init(&pf, dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "is a VF, not a PF"), "%s", err.msg);
	hw_undo_restore(dev, &err);
	hw_close(dev);

	dev = t_open("sim:adlp");
	cr_assert_eq(dom0_pf_init(&pf, dev, &err), 0, "%s", err.msg);
	uint64_t writes = dev->counters.pte_writes;
	cr_expect_eq(dom0_pf_provision(&pf, 0, 0, true, &err), GTT_EINVAL);
	cr_expect_eq(dom0_pf_provision(&pf, 8, 0, true, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "8 VFs: graphics IP 12.00's VFID field holds VF ids 1-7"), "%s", err.msg);
	cr_expect_eq(dom0_pf_provision(&pf, 2, 0xfe600000ull, false, &err), GTT_ERANGE, "a spare of the whole hole");
	cr_expect_eq(dom0_pf_release(&pf, 1, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "VF 1 holds no GGTT"), "%s", err.msg);
	cr_expect_eq(dev->counters.pte_writes, writes, "nothing written");
	hw_close(dev);
}

Test(pf_provision, ranges_tags_klvs_and_release, .timeout = 60)
{
	struct hw_device *dev = t_open("sim:tgl");
	struct sim_device *sim = t_sim(dev);
	struct gtt_err err = { 0 };

	cr_assert_eq(dom0_pf_init(&pf, dev, &err), 0, "%s", err.msg);
	uint64_t scratch = sim_gsm_entry(sim, (8u << 20) / 4096);
	/* 7 VFs, no profile: (0xfee00000 - 8 MiB - 64 MiB) / 7, aligned down to 4 KiB = 0x23c49000 */
	cr_assert_eq(dom0_pf_provision(&pf, 7, 0, false, &err), 0, "%s", err.msg);
	for (unsigned id = 1; id <= 7; id++) {
		uint64_t start = (8u << 20) + (uint64_t)(id - 1) * 0x23c49000ull;
		cr_expect(pf.vf[id].start == start && pf.vf[id].size == 0x23c49000ull, "VF %u: 0x%llx+0x%llx", id,
			  (unsigned long long)pf.vf[id].start, (unsigned long long)pf.vf[id].size);
		cr_expect_eq(sim_gsm_entry(sim, start / 4096), (uint64_t)id << 2 | 1);
		cr_expect_eq(sim_gsm_entry(sim, (start + 0x23c49000ull) / 4096 - 1), (uint64_t)id << 2 | 1);
	}
	cr_expect_eq(sim_gsm_entry(sim, (8u << 20) / 4096 - 1), scratch, "below the hole: the PF's");
	cr_expect_eq(sim_gsm_entry(sim, ((8u << 20) + 7 * 0x23c49000ull) / 4096), scratch, "the spare: the PF's");
	uint32_t k[DOM0_PF_KLV_DWORDS];
	dom0_pf_vf_klvs(&pf, 2, k);
	static const uint32_t want[DOM0_PF_KLV_DWORDS] = { 0x00010002, 0x24449000, 0, 0x00020002, 0x23c49000, 0 };
	cr_expect(!memcmp(k, want, sizeof(want)), "%08x %08x %08x %08x %08x %08x", k[0], k[1], k[2], k[3], k[4], k[5]);

	cr_assert_eq(dom0_pf_release(&pf, 3, &err), 0, "%s", err.msg);
	cr_expect_eq(pf.n_vfs, 6);
	cr_expect_eq(sim_gsm_entry(sim, ((8u << 20) + 2 * 0x23c49000ull) / 4096), scratch, "VF 3's first PTE back to the PF");
	/* a new provisioning releases every old range first: 2 VFs of the profile's 1 GiB */
	cr_assert_eq(dom0_pf_provision(&pf, 2, 0, true, &err), 0, "%s", err.msg);
	cr_expect(pf.n_vfs == 2 && pf.vf[2].size == 1ull << 30 && !pf.vf[3].size);
	cr_expect_eq(sim_gsm_entry(sim, ((8u << 20) + 2 * (1ull << 30)) / 4096), scratch, "old VF 3's tags gone");
	cr_expect_eq(sim_gsm_entry(sim, ((8u << 20) + 6 * 0x23c49000ull) / 4096), scratch, "old VF 7's tags gone");
	cr_assert_eq(dom0_pf_release_all(&pf, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_undo_restore(dev, &err), 0, "%s", err.msg);
	hw_close(dev);
}
