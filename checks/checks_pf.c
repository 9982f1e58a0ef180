/* SPDX-License-Identifier: MIT */
/*
 * pf: the PF side of SR-IOV (docs/sriov.md, "The PF side") on the model:
 * the Dom0 runtime's provisioning (dom0/pf_provision.h) of three VFs and
 * the release of one, judged from the GSM as IGT's provisioning scan reads
 * it and against the references docs/hardware.md §10.5 keeps apart from
 * the code: xe's KUnit profile table for the size, IGT's scan for the
 * ranges (8 MiB to GUC_GGTT_TOP, one range per run of a VF id), the tag
 * xe_ggtt_assign writes. The KLVs the PF would push are the second view:
 * they must name the ranges the scan finds.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "dom0/pf_provision.h"
#include "hw/ggtt.h"
#include "regs/sriov.h"

#define PF_VFS		3
#define PF_SHARE	(1ull << 30)	/* xe's KUnit profile table: 2-3 VFs, 1 GiB each */
#define SCAN_FROM	(8ull << 20)	/* IGT's scan starts at GGTT 8 MiB */
#define SCAN_CHUNK	512
#define MAX_RANGES	16

/* A run of PTEs of one VF id, as IGT's scan groups them. */
struct scan_range {
	unsigned vfid;
	uint64_t start, size;
	uint64_t bad, bad_x, bad_pte;	/* PTEs of it that are not exactly the tag vfid << 2 | PRESENT */
};

/* IGT's VFID mask (lib/xe/xe_sriov_provisioning.c): bits 4:2 before graphics IP 12.50, 11:2 from it. */
static uint64_t vfid_mask(const struct hw_device *dev)
{
	return dev->info.plat->gen >= 125 ? 0xffcull : 0x1cull;
}

/* The ranges of non-zero VF ids from SCAN_FROM to GUC_GGTT_TOP; how many, or -1 (the failure recorded). */
static int scan(struct check_ctx *c, struct scan_range *r)
{
	uint64_t mask = vfid_mask(c->dev), ptes[SCAN_CHUNK], first = SCAN_FROM / 4096, end = GUC_GGTT_TOP / 4096;
	struct gtt_err err = { 0 };
	int n = 0;
	unsigned cur = 0;

	for (uint64_t at = first; at < end; at += SCAN_CHUNK) {
		size_t k = end - at < SCAN_CHUNK ? (size_t)(end - at) : SCAN_CHUNK;
		if (hw_ggtt_read_range(c->dev, at, k, ptes, &err)) {
			ck_error(c, "GSM scan", &err);
			return -1;
		}
		for (size_t i = 0; i < k; i++) {
			unsigned id = (unsigned)((ptes[i] & mask) >> 2);
			if (id != cur && id) {
				if (n == MAX_RANGES) {
					ck_fail(c, "more than %d runs of VF ids in the GSM", MAX_RANGES);
					return -1;
				}
				r[n++] = (struct scan_range){ .vfid = id, .start = (at + i) * 4096 };
			}
			cur = id;
			if (!id)
				continue;
			struct scan_range *s = &r[n - 1];
			s->size += 4096;
			if (ptes[i] != ((uint64_t)id << 2 | 1) && !s->bad++) {
				s->bad_x = at + i;
				s->bad_pte = ptes[i];
			}
		}
	}
	return n;
}

static uint64_t klv_value(const uint32_t *k, uint16_t key, bool *ok)
{
	*ok = k[0] >> GUC_KLV_0_KEY_SHIFT == key && (k[0] & GUC_KLV_0_LEN_MASK) == 2;
	return k[1] | (uint64_t)k[2] << 32;
}

/* The scan finds exactly VFs ids[0..n), each one range of PF_SHARE bytes, tagged exactly, named alike by its KLVs. */
static enum check_status judge(struct check_ctx *c, const struct dom0_pf *pf, const unsigned *ids, int n, const char *when)
{
	struct scan_range r[MAX_RANGES];
	int got = scan(c, r);

	if (got < 0)
		return CHECK_FAIL;
	for (int i = 0; i < got; i++) {
		const struct scan_range *s = &r[i];
		bool want = false;
		for (int k = 0; k < n; k++)
			want |= ids[k] == s->vfid;
		if (!want)
			return ck_fail(c, "%s: GGTT 0x%llx+0x%llx is tagged VF %u, which holds no range", when,
				       (unsigned long long)s->start, (unsigned long long)s->size, s->vfid);
		for (int k = 0; k < i; k++)
			if (r[k].vfid == s->vfid)
				return ck_fail(c, "%s: VF %u's PTEs lie in two runs, GGTT 0x%llx and 0x%llx: its range is split or overlapped",
					       when, s->vfid, (unsigned long long)r[k].start, (unsigned long long)s->start);
		if (s->size != PF_SHARE)
			return ck_fail(c, "%s: VF %u's run is GGTT 0x%llx+0x%llx; xe's profile gives each of %d VFs 0x%llx", when,
				       s->vfid, (unsigned long long)s->start, (unsigned long long)s->size, PF_VFS,
				       (unsigned long long)PF_SHARE);
		if (s->bad)
			return ck_fail(c, "%s: %llu PTEs of VF %u's range are not its tag 0x%x: PTE %llu (GGTT 0x%llx) reads 0x%016llx",
				       when, (unsigned long long)s->bad, s->vfid, s->vfid << 2 | 1, (unsigned long long)s->bad_x,
				       (unsigned long long)(s->bad_x * 4096), (unsigned long long)s->bad_pte);
		if (s->start < WOPCM_SIZE_DEFAULT || s->start + s->size > GUC_GGTT_TOP)
			return ck_fail(c, "%s: VF %u's range GGTT 0x%llx+0x%llx is not inside [WOPCM, GUC_GGTT_TOP)", when, s->vfid,
				       (unsigned long long)s->start, (unsigned long long)s->size);
		uint32_t k[DOM0_PF_KLV_DWORDS];
		bool ok_start, ok_size;
		dom0_pf_vf_klvs(pf, s->vfid, k);
		uint64_t start = klv_value(k, GUC_KLV_VF_CFG_GGTT_START, &ok_start);
		uint64_t size = klv_value(k + 3, GUC_KLV_VF_CFG_GGTT_SIZE, &ok_size);
		if (!ok_start || !ok_size || start != s->start || size != s->size)
			return ck_fail(c, "%s: VF %u's KLVs (0x%08x 0x%08x 0x%08x, 0x%08x 0x%08x 0x%08x) do not name its tagged range GGTT 0x%llx+0x%llx",
				       when, s->vfid, k[0], k[1], k[2], k[3], k[4], k[5], (unsigned long long)s->start,
				       (unsigned long long)s->size);
	}
	if (got != n)
		return ck_fail(c, "%s: the GSM holds %d tagged ranges, the PF provisioned %d", when, got, n);
	return CHECK_PASS;
}

static enum check_status check_pf_provision(struct check_ctx *c)
{
	struct hw_device *dev = c->dev;
	struct gtt_err err = { 0 };
	enum check_status st = CHECK_PASS;

	if (dev->info.plat->gen < 120)
		return ck_skip(c, "%s is gen %u.%u: SR-IOV PFs are gen12's", dev->info.plat->name, dev->info.plat->gen / 10,
			       dev->info.plat->gen % 10);
	struct dom0_pf *pf = dev->env->alloc(dev->env, sizeof(*pf));
	if (!pf)
		return ck_fail(c, "out of memory for the PF's state");
	if (dom0_pf_init(pf, dev, &err)) {
		st = ck_error(c, "PF", &err);
		goto out;
	}
#ifdef GTTLAB_FAULTS
	if (c->faults)
		pf->faults = c->faults->dom0;
#endif
	/* 8 VFs on a VFID field of 3 bits: refused, nothing written */
	uint64_t writes = dev->counters.pte_writes;
	if (!dom0_pf_provision(pf, 8, 0, true, &err) || dev->counters.pte_writes != writes) {
		st = ck_fail(c, "8 VFs on graphics IP %u.%02u (VF ids 1-7) were provisioned, or PTEs written (%llu)",
			     pf->verx100 / 100, pf->verx100 % 100, (unsigned long long)(dev->counters.pte_writes - writes));
		goto out;
	}
	if (dom0_pf_provision(pf, PF_VFS, 0, true, &err)) {
		st = ck_error(c, "provisioning 3 VFs", &err);
		goto out;
	}
	if ((st = judge(c, pf, (const unsigned[]){ 1, 2, 3 }, 3, "3 VFs provisioned")) != CHECK_PASS)
		goto out;
	if (dom0_pf_release(pf, 2, &err)) {
		st = ck_error(c, "releasing VF 2", &err);
		goto out;
	}
	st = judge(c, pf, (const unsigned[]){ 1, 3 }, 2, "VF 2 released");
	if (st == CHECK_PASS && dom0_pf_release_all(pf, &err))
		st = ck_error(c, "releasing VFs 1 and 3", &err);
	if (st == CHECK_PASS)
		st = judge(c, pf, NULL, 0, "every VF released");
out:
	dev->env->free(dev->env, pf);
	return st;
}

static const struct check rows[] = {
	{ "pf-provision", "pf", "the Dom0 runtime as an SR-IOV PF (the model): 3 VFs get disjoint 1 GiB ranges tagged VFID|PRESENT that their KLVs name, a released range goes back to the PF, 8 VFs are refused before IP 12.50",
	  REQ_NATIVE | REQ_MODEL, 0, 0, check_pf_provision },
};

const struct check_rows checks_pf = { rows, sizeof(rows) / sizeof(rows[0]) };
