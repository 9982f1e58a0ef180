/* SPDX-License-Identifier: MIT */
/* An SR-IOV PF's provisioning of its VFs' GGTT on a device (dom0/pf_provision.h). */
#include "dom0/pf_provision.h"

#include "dom0/pf_ggtt.h"
#include "hw/ggtt.h"
#include "regs/sriov.h"

#define CHUNK	512	/* PTEs written per call */

#ifdef GTTLAB_FAULTS
#define PF_FAULT(pf, name) ((pf)->faults.name)
#else
#define PF_FAULT(pf, name) ((void)(pf), 0)
#endif

int dom0_pf_init(struct dom0_pf *pf, struct hw_device *dev, struct gtt_err *err)
{
	const struct hw_info *in = &dev->info;
	int rc;

	if (in->plat->gen < 120)
		return gtt_err_set(err, GTT_EINVAL, "%s is gen %u.%u: SR-IOV PFs are gen12's", in->plat->name,
				   in->plat->gen / 10, in->plat->gen % 10);
	if (in->vf.active || in->pvinfo.active)
		return gtt_err_set(err, GTT_EINVAL, "%s is %s, not a PF", dev->name, in->vf.active ? "a VF" : "a vGPU");
	if (in->ggtt_size < GUC_GGTT_TOP)
		return gtt_err_set(err, GTT_EINVAL, "a %llu-byte GGTT does not reach GUC_GGTT_TOP 0x%llx",
				   (unsigned long long)in->ggtt_size, (unsigned long long)GUC_GGTT_TOP);
	*pf = (struct dom0_pf){ .dev = dev, .verx100 = in->plat->gen * 10, .hole_start = DOM0_PF_OWN,
				.hole_end = GUC_GGTT_TOP };
	if ((rc = hw_ggtt_read_pte(dev, pf->hole_start / 4096, &pf->unused_pte, err)))
		return rc;
	return GTT_OK;
}

/* PTEs [first, first + n) all written `pte`. */
static int fill(struct dom0_pf *pf, uint64_t first, uint64_t n, uint64_t pte, struct gtt_err *err)
{
	uint64_t buf[CHUNK];
	int rc;

	for (unsigned i = 0; i < CHUNK; i++)
		buf[i] = pte;
	for (uint64_t at = 0; at < n; at += CHUNK) {
		size_t k = n - at < CHUNK ? (size_t)(n - at) : CHUNK;
		if ((rc = hw_ggtt_write_range(pf->dev, first + at, k, buf, err)))
			return rc;
	}
	return GTT_OK;
}

int dom0_pf_release(struct dom0_pf *pf, unsigned vfid, struct gtt_err *err)
{
	struct dom0_pf_vf *v = vfid && vfid <= DOM0_PF_MAX_VFS ? &pf->vf[vfid] : NULL;
	int rc;

	if (!v || !v->size)
		return gtt_err_set(err, GTT_EINVAL, "VF %u holds no GGTT to release", vfid);
	if (!PF_FAULT(pf, pf_keep_released) && (rc = fill(pf, v->start / 4096, v->size / 4096, pf->unused_pte, err)))
		return rc;
	hw_ggtt_invalidate(pf->dev);
	*v = (struct dom0_pf_vf){ 0 };
	pf->n_vfs--;
	return GTT_OK;
}

int dom0_pf_release_all(struct dom0_pf *pf, struct gtt_err *err)
{
	int rc;

	for (unsigned id = 1; id <= DOM0_PF_MAX_VFS; id++)
		if (pf->vf[id].size && (rc = dom0_pf_release(pf, id, err)))
			return rc;
	return GTT_OK;
}

int dom0_pf_provision(struct dom0_pf *pf, unsigned n, uint64_t spare, bool profile, struct gtt_err *err)
{
	unsigned most = dom0_pf_max_vfid(pf->verx100);
	uint64_t share;
	int rc;

	if (!n || n > most)
		return gtt_err_set(err, GTT_EINVAL, "%u VFs: graphics IP %u.%02u's VFID field holds VF ids 1-%u", n,
				   pf->verx100 / 100, pf->verx100 % 100, most);
	if ((rc = dom0_pf_fair_share(pf->hole_end - pf->hole_start, spare, n, 4096, profile, &share, err)))
		return rc;
	if ((rc = dom0_pf_release_all(pf, err)))
		return rc;
	for (unsigned id = 1; id <= n; id++) {
		struct dom0_pf_vf *v = &pf->vf[id];
		v->start = pf->hole_start + (uint64_t)(id - 1) * share;
		if (PF_FAULT(pf, pf_overlap) && id > 1)
			v->start -= 4096;	/* one page into the previous VF's range */
		v->size = share;
		uint64_t tag = dom0_pf_pte_tag(id, pf->verx100);
		if ((rc = fill(pf, v->start / 4096, v->size / 4096, tag, err)))
			return rc;
		if (PF_FAULT(pf, pf_untagged_last) &&
		    (rc = hw_ggtt_write_pte(pf->dev, (v->start + v->size) / 4096 - 1, tag & ~1ull, err)))
			return rc;
		pf->n_vfs++;
	}
	hw_ggtt_invalidate(pf->dev);
	return GTT_OK;
}

static void klv(uint32_t *out, uint16_t key, uint64_t value)
{
	out[0] = (uint32_t)key << GUC_KLV_0_KEY_SHIFT | GUC_KLV_VF_CFG_GGTT_LEN;
	out[1] = (uint32_t)value;
	out[2] = (uint32_t)(value >> 32);
}

void dom0_pf_vf_klvs(const struct dom0_pf *pf, unsigned vfid, uint32_t out[DOM0_PF_KLV_DWORDS])
{
	const struct dom0_pf_vf *v = &pf->vf[vfid <= DOM0_PF_MAX_VFS ? vfid : 0];

	klv(out, GUC_KLV_VF_CFG_GGTT_START, v->start);
	klv(out + 3, GUC_KLV_VF_CFG_GGTT_SIZE, v->size);
}
