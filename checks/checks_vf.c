/* SPDX-License-Identifier: MIT */
/*
 * vf: inside an SR-IOV virtual function (docs/hardware.md §10), what a
 * correct PF and GuC must have given it. The expectations are re-typed here
 * from the rules as §10.1 and §10.5 state them (the VF drivers' range rules,
 * Intel's live selftest of PTE ownership, IGT's VFID masks), not taken from
 * hw/'s bootstrap or the model (hw/sim/sim_vf.c):
 *
 *   vf-bootstrap   GuC answered reset, version match and the range at open
 *   vf-range       GGTT_START and GGTT_SIZE, asked again: not empty, whole
 *                  pages, from WOPCM up, ending at or below GUC_GGTT_TOP
 *   vf-own-ptes    every PTE of the range reads VALID with VFID 0; written,
 *                  its address bits take and its VFID and VALID do not
 *   vf-neighbours  the page just before and just after the range read 0 and
 *                  ignore writes
 *   vf-stable      the range reads the same on every query
 *   vf-pf-view     (the model) the PF's GSM after the VF's writes: only the
 *                  address bits of its own entries changed
 *
 * The mailbox to GuC is the VF's own channel: its scratch flags are written
 * on the write path and put back after the check like any register.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "hw/ggtt.h"
#include "hw/backend_sim.h"
#include "hw/vf_bootstrap.h"
#include "hw/vf_mbox.h"
#include "regs/gtt_pte.h"
#include "regs/sriov.h"

#define VF_WOPCM	(2ull << 20)	/* §10.1: 2 MiB before Meteor Lake */
#define VF_SAMPLES	32		/* own PTEs written: the first, the last and random ones */
#define VF_QUERIES	3		/* vf-stable's rounds */
#define VF_SCAN_CHUNK	512

/* The VFID field as IGT's scan masks it (§10.5): bits 4:2 before graphics IP 12.50, 11:2 from it. */
static uint64_t vfid_field(const struct hw_device *dev)
{
	return dev->info.plat->gen >= 125 ? 0xffcull : 0x1cull;
}

static enum check_status no_range(struct check_ctx *c)
{
	return ck_fail(c, "no GGTT range to check: the VF's bootstrap with GuC failed (%s)", c->dev->info.vf.boot_why);
}

/* One KLV of the range by VF2GUC_QUERY_SINGLE_KLV, unjudged; the failure recorded. */
static int query(struct check_ctx *c, uint16_t key, uint64_t *v)
{
	struct hw_guc_mbox mb;
	struct gtt_err err = { 0 };

	hw_vf_mbox(c->dev, false, &mb);
	int rc = hw_vf_query_klv(&mb, key, GUC_KLV_VF_CFG_GGTT_LEN, v, &err);
	if (rc)
		ck_error(c, key == GUC_KLV_VF_CFG_GGTT_START ? "GGTT_START query" : "GGTT_SIZE query", &err);
	return rc;
}

static enum check_status check_vf_bootstrap(struct check_ctx *c)
{
	const struct hw_vf *vf = &c->dev->info.vf;

	if (vf->boot_rc)
		return ck_fail(c, "GuC did not complete the VF's bootstrap over VF_SW_FLAG(0..3) (0x%x): %s", VF_SW_FLAG(0),
			       vf->boot_why);
	if (vf->abi_major != 1 || !vf->abi_minor)
		return ck_fail(c, "VF interface %u.%u.%u agreed: a gen12 VF needs 1.1 or later", vf->abi_major, vf->abi_minor,
			       vf->abi_patch);
	return CHECK_PASS;
}

static enum check_status check_vf_range(struct check_ctx *c)
{
	uint64_t start, size;

	if (query(c, GUC_KLV_VF_CFG_GGTT_START, &start) || query(c, GUC_KLV_VF_CFG_GGTT_SIZE, &size))
		return CHECK_FAIL;
	if (!size)
		return ck_fail(c, "GGTT_SIZE reads 0: GuC gave this VF no GGTT");
	if (start % 4096 || size % 4096)
		return ck_fail(c, "GGTT_START 0x%llx, GGTT_SIZE 0x%llx: not whole 4 KiB pages", (unsigned long long)start,
			       (unsigned long long)size);
	if (start < VF_WOPCM)
		return ck_fail(c, "GGTT_START 0x%llx lies in WOPCM (below 0x%llx)", (unsigned long long)start,
			       (unsigned long long)VF_WOPCM);
	if (start > GUC_GGTT_TOP || size > GUC_GGTT_TOP - start)
		return ck_fail(c, "GGTT_START 0x%llx + GGTT_SIZE 0x%llx ends at 0x%llx, past GUC_GGTT_TOP 0x%llx",
			       (unsigned long long)start, (unsigned long long)size, (unsigned long long)(start + size),
			       (unsigned long long)GUC_GGTT_TOP);
	return CHECK_PASS;
}

/* Every PTE of the range reads VALID with VFID 0: the PF tagged all of it with this VF's id. */
static enum check_status scan_own(struct check_ctx *c, uint64_t first, uint64_t n)
{
	uint64_t field = vfid_field(c->dev), ptes[VF_SCAN_CHUNK], bad = 0, bad_x = 0, bad_v = 0;
	struct gtt_err err = { 0 };

	for (uint64_t at = 0; at < n; at += VF_SCAN_CHUNK) {
		size_t k = n - at < VF_SCAN_CHUNK ? (size_t)(n - at) : VF_SCAN_CHUNK;
		if (hw_ggtt_read_range(c->dev, first + at, k, ptes, &err))
			return ck_error(c, "PTE read", &err);
		for (size_t i = 0; i < k; i++)
			if (!(ptes[i] & 1) || (ptes[i] & field)) {
				if (!bad++) {
					bad_x = first + at + i;
					bad_v = ptes[i];
				}
			}
	}
	if (bad)
		return ck_fail(c, "%llu of the range's %llu PTEs read as not this VF's: PTE %llu (GGTT 0x%llx) reads 0x%016llx; VALID must read 1 and VFID 0",
			       (unsigned long long)bad, (unsigned long long)n, (unsigned long long)bad_x,
			       (unsigned long long)(bad_x * 4096), (unsigned long long)bad_v);
	return CHECK_PASS;
}

static enum check_status check_vf_own_ptes(struct check_ctx *c)
{
	const struct hw_vf *vf = &c->dev->info.vf;
	uint64_t field = vfid_field(c->dev);

	if (vf->boot_rc)
		return no_range(c);
	uint64_t first = vf->ggtt_start / 4096, n = vf->ggtt_size / 4096;
	enum check_status st = scan_own(c, first, n);
	if (st != CHECK_PASS)
		return st;
	for (unsigned s = 0; s < VF_SAMPLES; s++) {
		uint64_t x = s == 0 ? first : s == 1 ? first + n - 1 : first + ck_rand(c) % n, got;
		uint64_t addr = (ck_rand(c) << 12) & GEN8_GGTT_PTE_ADDR_MASK;
		/* the address bits, every VFID bit and VALID clear: only the first may take */
		if (ck_pte_write(c, x, addr | field) || ck_pte_read(c, x, &got))
			return CHECK_FAIL;
		if ((got & GEN8_GGTT_PTE_ADDR_MASK) != addr)
			return ck_fail(c, "PTE %llu (GGTT 0x%llx): address bits 0x%llx written, 0x%016llx read back; a VF's own entry takes them",
				       (unsigned long long)x, (unsigned long long)(x * 4096), (unsigned long long)addr,
				       (unsigned long long)got);
		if (got & field)
			return ck_fail(c, "PTE %llu (GGTT 0x%llx) reads 0x%016llx after a write of VFID bits: VFID must read 0 to the VF",
				       (unsigned long long)x, (unsigned long long)(x * 4096), (unsigned long long)got);
		if (!(got & 1))
			return ck_fail(c, "PTE %llu (GGTT 0x%llx) reads 0x%016llx after a write with VALID clear: a VF cannot change VALID",
				       (unsigned long long)x, (unsigned long long)(x * 4096), (unsigned long long)got);
	}
	return CHECK_PASS;
}

static enum check_status check_vf_neighbours(struct check_ctx *c)
{
	const struct hw_vf *vf = &c->dev->info.vf;

	if (vf->boot_rc)
		return no_range(c);
	uint64_t x[2] = { vf->ggtt_start / 4096 - 1, (vf->ggtt_start + vf->ggtt_size) / 4096 };
	for (unsigned i = 0; i < 2; i++) {
		const char *where = i ? "after" : "before";
		uint64_t v, pattern = ((ck_rand(c) << 12) & GEN8_GGTT_PTE_ADDR_MASK) | vfid_field(c->dev) | 1;
		if (ck_pte_read(c, x[i], &v))
			return CHECK_FAIL;
		if (v)
			return ck_fail(c, "PTE %llu (GGTT 0x%llx), the page just %s the range, reads 0x%016llx: not this VF's, it must read 0",
				       (unsigned long long)x[i], (unsigned long long)(x[i] * 4096), where, (unsigned long long)v);
		ck_hostile_pte_write(c, x[i], pattern);
		if (ck_pte_read(c, x[i], &v))
			return CHECK_FAIL;
		if (v)
			return ck_fail(c, "PTE %llu (GGTT 0x%llx), the page just %s the range, reads 0x%016llx after 0x%016llx was written: it must ignore the VF's writes",
				       (unsigned long long)x[i], (unsigned long long)(x[i] * 4096), where, (unsigned long long)v,
				       (unsigned long long)pattern);
	}
	return CHECK_PASS;
}

static enum check_status check_vf_stable(struct check_ctx *c)
{
	const struct hw_vf *vf = &c->dev->info.vf;
	uint64_t start, size;

	if (vf->boot_rc)
		return no_range(c);
	for (unsigned q = 1; q <= VF_QUERIES; q++) {
		if (query(c, GUC_KLV_VF_CFG_GGTT_START, &start) || query(c, GUC_KLV_VF_CFG_GGTT_SIZE, &size))
			return CHECK_FAIL;
		if (start != vf->ggtt_start || size != vf->ggtt_size)
			return ck_fail(c, "query %u of %u: GGTT_START 0x%llx, GGTT_SIZE 0x%llx; the bootstrap read 0x%llx, 0x%llx",
				       q, VF_QUERIES, (unsigned long long)start, (unsigned long long)size,
				       (unsigned long long)vf->ggtt_start, (unsigned long long)vf->ggtt_size);
	}
	return CHECK_PASS;
}

static enum check_status check_vf_pf_view(struct check_ctx *c)
{
	const struct hw_vf *vf = &c->dev->info.vf;
	struct sim_device *sim = hw_sim_model(c->dev);

	if (vf->boot_rc)
		return no_range(c);
	uint64_t first = vf->ggtt_start / 4096, n = vf->ggtt_size / 4096;
	uint64_t own = first + n / 3, addr = (ck_rand(c) << 12) & GEN8_GGTT_PTE_ADDR_MASK;
	uint64_t before = sim_gsm_entry(sim, own);
	if (ck_pte_write(c, own, addr | vfid_field(c->dev)))
		return CHECK_FAIL;
	uint64_t after = sim_gsm_entry(sim, own);
	if ((after & GEN8_GGTT_PTE_ADDR_MASK) != addr || (after & ~GEN8_GGTT_PTE_ADDR_MASK) != (before & ~GEN8_GGTT_PTE_ADDR_MASK))
		return ck_fail(c, "PF's view of PTE %llu (GGTT 0x%llx): 0x%016llx before the VF wrote address 0x%llx, 0x%016llx after; only the address bits may change",
			       (unsigned long long)own, (unsigned long long)(own * 4096), (unsigned long long)before,
			       (unsigned long long)addr, (unsigned long long)after);
	uint64_t x[2] = { first - 1, first + n };
	for (unsigned i = 0; i < 2; i++) {
		before = sim_gsm_entry(sim, x[i]);
		ck_hostile_pte_write(c, x[i], addr | 1);
		after = sim_gsm_entry(sim, x[i]);
		if (after != before)
			return ck_fail(c, "PF's view of PTE %llu (GGTT 0x%llx), just %s the VF's range: 0x%016llx became 0x%016llx on the VF's write",
				       (unsigned long long)x[i], (unsigned long long)(x[i] * 4096), i ? "after" : "before",
				       (unsigned long long)before, (unsigned long long)after);
	}
	return CHECK_PASS;
}

static const struct check rows[] = {
	{ "vf-bootstrap", "vf", "inside an SR-IOV VF: GuC answered VF_RESET, MATCH_VERSION and the GGTT range over the MMIO mailbox",
	  REQ_VF, 0, 0, check_vf_bootstrap },
	{ "vf-range", "vf", "inside an SR-IOV VF: GGTT_START and GGTT_SIZE, asked again, lie in [WOPCM, GUC_GGTT_TOP) in whole pages",
	  REQ_VF, 0, 0, check_vf_range },
	{ "vf-own-ptes", "vf", "inside an SR-IOV VF: its PTEs read VALID with VFID 0; their address bits take writes, VFID and VALID do not",
	  REQ_VF, 0, 0, check_vf_own_ptes },
	{ "vf-neighbours", "vf", "inside an SR-IOV VF: the pages just before and after its range read 0 and ignore its writes",
	  REQ_VF, 0, 0, check_vf_neighbours },
	{ "vf-stable", "vf", "inside an SR-IOV VF: GuC names the same range on every query",
	  REQ_VF, 0, 0, check_vf_stable },
	{ "vf-pf-view", "vf", "inside an SR-IOV VF (the model): the PF's GSM shows only its own entries' address bits changed by its writes",
	  REQ_VF | REQ_MODEL, 0, 0, check_vf_pf_view },
};

const struct check_rows checks_vf = { rows, sizeof(rows) / sizeof(rows[0]) };
