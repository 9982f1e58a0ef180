/* SPDX-License-Identifier: MIT */
/*
 * Guest mode: the GVT-g PVINFO page at VGT_PVINFO_PAGE in BAR0, read the
 * way i915 reads it at probe (intel_vgpu_detect: magic, version, caps) and
 * at GGTT init (intel_vgt_balloon: the four avail_rs range words, checked
 * against the aperture and the GGTT). Reads only: a guest's writes to the
 * page are notifications its host acts on (docs/hardware.md §6.1), and
 * detection must never send one.
 */
#include "hw/detect_pvinfo.h"
#include "hw/raw_access.h"
#include "regs/gtt_pte.h"
#include "regs/pvinfo.h"

/* A range word the host hands out in whole GGTT pages (GVT alloc_gm: 4 KiB aligned), or the page is malformed. */
static int aligned(uint32_t off, const char *word, uint64_t v, struct gtt_err *err)
{
	if (!(v & (GTT_PAGE_SIZE - 1)))
		return GTT_OK;
	return gtt_err_set(err, GTT_EINVAL, "PVINFO %s (0x%05x) is 0x%08llx: not 4 KiB page aligned (GVT-g hands out whole GGTT pages)",
			   word, off, (unsigned long long)v);
}

/*
 * The mappable slice lies in the aperture, [0, aperture_size): it is the
 * part of the aperture the guest's CPU may reach (intel_vgt_balloon: a
 * mappable_end beyond ggtt->mappable_end is invalid). An empty slice claims
 * nothing, so where its base points does not matter.
 */
static int mappable_fits(const struct hw_pvinfo *pv, uint64_t ap, struct gtt_err *err)
{
	if (!pv->mappable_size)
		return GTT_OK;
	if (pv->mappable_base >= ap)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO avail_rs.mappable_gmadr.base (0x%05x) is 0x%08llx: not inside the %llu-byte aperture (i915: mappable_end > ggtt->mappable_end is invalid)",
				   VGT_IF_MAPPABLE_BASE, (unsigned long long)pv->mappable_base, (unsigned long long)ap);
	if (pv->mappable_size > ap - pv->mappable_base)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO avail_rs.mappable_gmadr.size (0x%05x) is 0x%08llx: the slice at 0x%llx ends beyond the %llu-byte aperture (i915: mappable_end > ggtt->mappable_end is invalid)",
				   VGT_IF_MAPPABLE_SIZE, (unsigned long long)pv->mappable_size,
				   (unsigned long long)pv->mappable_base, (unsigned long long)ap);
	return GTT_OK;
}

/*
 * The non-mappable slice lies above the aperture and inside the GGTT,
 * [aperture_size, ggtt_size): intel_vgt_balloon refuses an unmappable_base
 * below ggtt->mappable_end and an unmappable_end beyond the GGTT's end. An
 * empty slice claims nothing, as above.
 */
static int nonmappable_fits(const struct hw_pvinfo *pv, uint64_t ap, uint64_t ggtt, struct gtt_err *err)
{
	if (!pv->nonmappable_size)
		return GTT_OK;
	if (pv->nonmappable_base < ap)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO avail_rs.nonmappable_gmadr.base (0x%05x) is 0x%08llx: inside the %llu-byte aperture (i915: unmappable_base < ggtt->mappable_end is invalid)",
				   VGT_IF_NONMAPPABLE_BASE, (unsigned long long)pv->nonmappable_base, (unsigned long long)ap);
	if (pv->nonmappable_base >= ggtt)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO avail_rs.nonmappable_gmadr.base (0x%05x) is 0x%08llx: beyond the %llu-byte GGTT (i915: unmappable_end > ggtt end is invalid)",
				   VGT_IF_NONMAPPABLE_BASE, (unsigned long long)pv->nonmappable_base, (unsigned long long)ggtt);
	if (pv->nonmappable_size > ggtt - pv->nonmappable_base)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO avail_rs.nonmappable_gmadr.size (0x%05x) is 0x%08llx: the slice at 0x%llx ends beyond the %llu-byte GGTT (i915: unmappable_end > ggtt end is invalid)",
				   VGT_IF_NONMAPPABLE_SIZE, (unsigned long long)pv->nonmappable_size,
				   (unsigned long long)pv->nonmappable_base, (unsigned long long)ggtt);
	return GTT_OK;
}

/*
 * The extension's runs 1.. (regs/pvinfo.h): each a non-empty whole-page
 * range above the aperture and inside the GGTT, beginning past the run
 * before it (ascending, no two sharing a page).
 */
static int runs_fit(const struct hw_pvinfo *pv, uint64_t ap, uint64_t ggtt, struct gtt_err *err)
{
	for (unsigned i = 1; i < pv->high_runs; i++) {
		const struct hw_pvinfo_run *r = &pv->run[i], *prev = &pv->run[i - 1];
		int rc;
		if ((rc = aligned(GTTLAB_IF_GM_RUN_BASE(i), "GM_RUN_BASE", r->base, err)) ||
		    (rc = aligned(GTTLAB_IF_GM_RUN_SIZE(i), "GM_RUN_SIZE", r->size, err)))
			return rc;
		if (!r->size || r->base < ap || r->base >= ggtt || r->size > ggtt - r->base)
			return gtt_err_set(err, GTT_EINVAL, "PVINFO run %u (GM_RUN_BASE 0x%05x, GM_RUN_SIZE 0x%05x) is 0x%08llx+0x%llx: a run is a non-empty range between the aperture's end 0x%llx and the GGTT's 0x%llx",
					   i, GTTLAB_IF_GM_RUN_BASE(i), GTTLAB_IF_GM_RUN_SIZE(i), (unsigned long long)r->base,
					   (unsigned long long)r->size, (unsigned long long)ap, (unsigned long long)ggtt);
		if (r->base < prev->base + prev->size)
			return gtt_err_set(err, GTT_EINVAL, "PVINFO run %u (GM_RUN_BASE 0x%05x) begins at 0x%08llx, inside or below run %u (0x%llx+0x%llx): runs are ascending and apart",
					   i, GTTLAB_IF_GM_RUN_BASE(i), (unsigned long long)r->base, i - 1,
					   (unsigned long long)prev->base, (unsigned long long)prev->size);
	}
	return GTT_OK;
}

/* Every rule of a well formed page, against the aperture, GGTT and fences dev->info found. */
static int check_page(const struct hw_device *dev, const struct hw_pvinfo *pv, struct gtt_err *err)
{
	const struct hw_info *in = &dev->info;
	int rc;

	if ((rc = aligned(VGT_IF_MAPPABLE_BASE, "avail_rs.mappable_gmadr.base", pv->mappable_base, err)) ||
	    (rc = aligned(VGT_IF_MAPPABLE_SIZE, "avail_rs.mappable_gmadr.size", pv->mappable_size, err)) ||
	    (rc = aligned(VGT_IF_NONMAPPABLE_BASE, "avail_rs.nonmappable_gmadr.base", pv->nonmappable_base, err)) ||
	    (rc = aligned(VGT_IF_NONMAPPABLE_SIZE, "avail_rs.nonmappable_gmadr.size", pv->nonmappable_size, err)) ||
	    (rc = mappable_fits(pv, in->aperture_size, err)) ||
	    (rc = nonmappable_fits(pv, in->aperture_size, in->ggtt_size, err)))
		return rc;
	if (pv->high_runs > GTTLAB_GM_MAX_RUNS)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO GM_RUNS (0x%05x) is %u: the high slice is in 1 to %u runs",
				   GTTLAB_IF_GM_RUNS, pv->high_runs, GTTLAB_GM_MAX_RUNS);
	if (pv->high_runs > 1 && !pv->nonmappable_size)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO GM_RUNS (0x%05x) is %u, yet run 0, avail_rs.nonmappable_gmadr, is empty",
				   GTTLAB_IF_GM_RUNS, pv->high_runs);
	if ((rc = runs_fit(pv, in->aperture_size, in->ggtt_size, err)))
		return rc;
	/* a guest's fences are a subset of the part's (GVT alloc_vgpu_fence reserves them from the host's) */
	if (pv->fence_num > in->num_fences)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO avail_rs.fence_num (0x%05x) is %u: more than the %u fences of this %s",
				   VGT_IF_FENCE_NUM, pv->fence_num, in->num_fences, in->plat->name);
	/* gttlab's channel resizes by whole slots of whole GGTT pages: a slot of 0 bytes resizes nothing */
	if (pv->gm_channel && (!pv->slot_size || pv->slot_size % 4096))
		return gtt_err_set(err, GTT_EINVAL, "PVINFO GM_SLOT_SIZE (0x%05x) is 0x%08x: the request channel is offered, so a slot must be a non-zero multiple of 4 KiB",
				   GTTLAB_IF_GM_SLOT_SIZE, pv->slot_size);
	return GTT_OK;
}

/* The words after the version, at the offsets of layout 1.x (regs/pvinfo.h). */
static void read_words(struct hw_device *dev, struct hw_pvinfo *pv)
{
	pv->vgt_id = hw_mmio_read32(dev, VGT_IF_VGT_ID);
	pv->caps = hw_mmio_read32(dev, VGT_IF_VGT_CAPS);
	pv->mappable_base = hw_mmio_read32(dev, VGT_IF_MAPPABLE_BASE);
	pv->mappable_size = hw_mmio_read32(dev, VGT_IF_MAPPABLE_SIZE);
	pv->nonmappable_base = hw_mmio_read32(dev, VGT_IF_NONMAPPABLE_BASE);
	pv->nonmappable_size = hw_mmio_read32(dev, VGT_IF_NONMAPPABLE_SIZE);
	pv->fence_num = hw_mmio_read32(dev, VGT_IF_FENCE_NUM);
	pv->gm_channel = hw_mmio_read32(dev, GTTLAB_IF_GM_MAGIC) == GTTLAB_GM_MAGIC;
	/* the slot size means something only where the channel is offered */
	if (pv->gm_channel)
		pv->slot_size = hw_mmio_read32(dev, GTTLAB_IF_GM_SLOT_SIZE);
	/* the runs: one unless the channel's host says more (0: a host that predates the words) */
	pv->high_runs = pv->gm_channel ? hw_mmio_read32(dev, GTTLAB_IF_GM_RUNS) : 1;
	if (!pv->high_runs)
		pv->high_runs = 1;
	pv->run[0] = (struct hw_pvinfo_run){ pv->nonmappable_base, pv->nonmappable_size };
	for (unsigned i = 1; i < pv->high_runs && i < GTTLAB_GM_MAX_RUNS; i++)
		pv->run[i] = (struct hw_pvinfo_run){ hw_mmio_read32(dev, GTTLAB_IF_GM_RUN_BASE(i)),
						     hw_mmio_read32(dev, GTTLAB_IF_GM_RUN_SIZE(i)) };
}

int hw_detect_pvinfo(struct hw_device *dev, struct hw_pvinfo *out, struct gtt_err *err)
{
	struct hw_pvinfo pv = { 0 };
	uint32_t ver;
	int rc;

	/* i915 does not look below gen6 (intel_vgpu_detect); a native GPU has no magic there */
	if (dev->info.plat->gen < 60 || hw_mmio_read64(dev, VGT_IF_MAGIC) != VGT_MAGIC) {
		*out = pv;
		return GTT_OK;
	}
	/* major and minor are the two u16 halves of one dword (i915 reads the major alone with readw) */
	ver = hw_mmio_read32(dev, VGT_IF_VERSION);
	pv.version_major = (uint16_t)ver;
	pv.version_minor = (uint16_t)(ver >> 16);
	/* another major is another layout: its words are not where gttlab would read them */
	if (pv.version_major < VGT_VERSION_MAJOR)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO version_major (0x%05x) is %u: gttlab knows layout %u.x of i915_pvinfo.h only (i915 refuses a major below %u too)",
				   VGT_IF_VERSION, pv.version_major, VGT_VERSION_MAJOR, VGT_VERSION_MAJOR);
	if (pv.version_major > VGT_VERSION_MAJOR)
		return gtt_err_set(err, GTT_EINVAL, "PVINFO version_major (0x%05x) is %u: gttlab knows layout %u.x of i915_pvinfo.h only, and a newer major may move its words",
				   VGT_IF_VERSION, pv.version_major, VGT_VERSION_MAJOR);
	read_words(dev, &pv);
	if ((rc = check_page(dev, &pv, err)))
		return rc;
	pv.active = true;
	*out = pv;
	return GTT_OK;
}
