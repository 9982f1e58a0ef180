/* SPDX-License-Identifier: MIT */
/*
 * Platform detection: identity from config space, the GMCH control word and
 * stolen base, the BARs (from the OS or sized in config space), the sizes
 * checked against each other, eDRAM, and guest mode (PVINFO) or an SR-IOV
 * virtual function (VF_CAP_REG, then its bootstrap with GuC).
 */
#include "hw/detect.h"
#include "hw/detect_pvinfo.h"
#include "hw/detect_vf.h"
#include "hw/journal_write.h"
#include "hw/raw_access.h"
#include "hw/write_path.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"

/* Size a 64-bit memory BAR the PCI way, with memory decoding off, and restore it. */
static int size_bar(struct hw_device *dev, unsigned bar, uint64_t *base, uint64_t *size,
		    struct gtt_err *err)
{
	const struct hw_backend_ops *o = dev->ops;
	uint32_t cmd, lo, hi, mlo, mhi;
	unsigned off = PCI_CFG_BAR(bar);
	int rc;

	if ((rc = o->cfg_read(dev->ctx, PCI_CFG_COMMAND, 2, &cmd)) ||
	    (rc = o->cfg_read(dev->ctx, off, 4, &lo)) || (rc = o->cfg_read(dev->ctx, off + 4, 4, &hi)))
		return gtt_err_set(err, rc, "cannot read BAR%u from config space", bar);
	if (lo & PCI_BAR_IO || (lo & 6) != PCI_BAR_MEM_TYPE_64)
		return gtt_err_set(err, GTT_EIO, "BAR%u (0x%08x) is not a 64-bit memory BAR", bar, lo);
	/* the sizing writes put everything back themselves, but a crash between them would not */
	if ((rc = hw_journal_cfg(dev, PCI_CFG_COMMAND, 2)) || (rc = hw_journal_cfg(dev, off, 4)) ||
	    (rc = hw_journal_cfg(dev, off + 4, 4)))
		return gtt_err_set(err, rc, "cannot size BAR%u: %s", bar, hw_write_refused(dev));
	o->cfg_write(dev->ctx, PCI_CFG_COMMAND, 2, cmd & ~PCI_CMD_MEM_SPACE);
	o->cfg_write(dev->ctx, off, 4, 0xffffffffu);
	o->cfg_write(dev->ctx, off + 4, 4, 0xffffffffu);
	o->cfg_read(dev->ctx, off, 4, &mlo);
	o->cfg_read(dev->ctx, off + 4, 4, &mhi);
	o->cfg_write(dev->ctx, off, 4, lo);
	o->cfg_write(dev->ctx, off + 4, 4, hi);
	o->cfg_write(dev->ctx, PCI_CFG_COMMAND, 2, cmd);
	dev->counters.cfg_writes += 7;
	uint64_t mask = ((uint64_t)mhi << 32) | (mlo & PCI_BAR_MEM_MASK);
	*size = ~mask + 1;
	*base = ((uint64_t)hi << 32) | (lo & PCI_BAR_MEM_MASK);
	if (!mask || (*size & (*size - 1)))
		return gtt_err_set(err, GTT_EIO, "BAR%u sizing read back 0x%016llx, not a size mask",
				   bar, (unsigned long long)mask);
	return GTT_OK;
}

static int bar(struct hw_device *dev, unsigned n, uint64_t *base, uint64_t *size, struct gtt_err *err)
{
	if (dev->ops->bar_info)
		return dev->ops->bar_info(dev->ctx, n, base, size) ?
			gtt_err_set(err, GTT_EIO, "%s backend cannot tell BAR%u", dev->ops->name, n) : GTT_OK;
	return size_bar(dev, n, base, size, err);
}

/* Vendor, device, revision and class: an Intel display device of a known platform. */
static int detect_identity(struct hw_device *dev, struct gtt_err *err)
{
	struct hw_info *in = &dev->info;
	uint32_t v;
	int rc;

	if ((rc = hw_cfg_read(dev, PCI_CFG_VENDOR_ID, 2, &v)))
		return gtt_err_set(err, rc, "cannot read the vendor id of %s", dev->name);
	in->vendor = (uint16_t)v;
	if (in->vendor == 0xffff)
		return gtt_err_set(err, GTT_ENODEV, "%s does not answer (config reads return all ones)", dev->name);
	hw_cfg_read(dev, PCI_CFG_DEVICE_ID, 2, &v);
	in->devid = (uint16_t)v;
	hw_cfg_read(dev, PCI_CFG_REVISION, 1, &v);
	in->revision = (uint8_t)v;
	hw_cfg_read(dev, PCI_CFG_CLASS_DEVICE, 2, &v);
	in->class_code = (uint16_t)v;
	if (in->vendor != PCI_VENDOR_ID_INTEL || (in->class_code >> 8) != PCI_BASE_CLASS_DISPLAY)
		return gtt_err_set(err, GTT_ENODEV, "%s is %04x:%04x class 0x%04x, not an Intel display device",
				   dev->name, in->vendor, in->devid, in->class_code);
	in->plat = gtt_platform_by_devid(in->devid);
	if (!in->plat)
		return gtt_err_set(err, GTT_ENODEV, "device id 0x%04x of %s is not a platform gttlab knows (gttlab info --platforms lists them)",
				   in->devid, dev->name);
	return GTT_OK;
}

/* The GMCH control word's GSM and stolen sizes, the stolen base, and the platform's fixed facts. */
static void detect_gmch(struct hw_device *dev, const struct gtt_platform *p)
{
	struct hw_info *in = &dev->info;
	uint32_t v;

	hw_cfg_read(dev, SNB_GMCH_CTRL, 2, &v);
	in->gmch_ctrl = (uint16_t)v;
	hw_gmch_fields(p, in->gmch_ctrl, &in->ggms, &in->gms);
	in->gsm_size = hw_gsm_size_from_ggms(p, in->ggms);
	in->stolen_size = hw_stolen_size_from_gms(p, in->gms);
	if (p->bdsm == BDSM_64) {
		uint32_t hi = 0;
		hw_cfg_read(dev, INTEL_GEN11_BSM_DW0, 4, &v);
		hw_cfg_read(dev, INTEL_GEN11_BSM_DW1, 4, &hi);
		in->stolen_base = hw_stolen_base(p, v, hi);
	} else {
		hw_cfg_read(dev, INTEL_BSM, 4, &v);
		in->stolen_base = hw_stolen_base(p, v, 0);
	}
	in->pte_size = p->pte_size;
	in->gsm_offset = p->gsm_offset;
	in->num_fences = p->num_fences;
}

/* BAR0 and BAR2 (the aperture), when the part has one. */
static int detect_bars(struct hw_device *dev, struct gtt_err *err)
{
	struct hw_info *in = &dev->info;
	int rc;

	if ((rc = bar(dev, GTTMMADR_BAR, &in->bar0_base, &in->bar0_size, err)))
		return rc;
	/*
	 * A part without an aperture has no BAR2 (its dwords read zero): i915
	 * then maps no GMADR and gives it no fences (intel_ggtt_init_fences).
	 */
	uint32_t b2 = 0;
	hw_cfg_read(dev, PCI_CFG_BAR(GFXMEM_BAR), 4, &b2);
	if (!dev->ops->bar_info && !b2) {
		in->bar2_base = in->aperture_size = 0;
	} else if ((rc = bar(dev, GFXMEM_BAR, &in->bar2_base, &in->aperture_size, err))) {
		return rc;
	}
	if (!in->aperture_size)
		in->num_fences = 0;
	return GTT_OK;
}

/* BAR0 is the platform's, the GSM fits it, the aperture fits the GGTT; the GGTT's size. */
static int check_sizes(struct hw_device *dev, const struct gtt_platform *p, struct gtt_err *err)
{
	struct hw_info *in = &dev->info;

	if (in->bar0_size != p->bar0_size)
		return gtt_err_set(err, GTT_EIO, "BAR0 of %s is %llu bytes; a %s has %u",
				   dev->name, (unsigned long long)in->bar0_size, p->name, p->bar0_size);
	if (!in->gsm_size || in->gsm_size > in->bar0_size - in->gsm_offset)
		return gtt_err_set(err, GTT_EIO, "GMCH control 0x%04x gives GGMS %u, a %llu-byte GSM that does not fit BAR0",
				   in->gmch_ctrl, in->ggms, (unsigned long long)in->gsm_size);
	/* every table of fences (the undo log's, the runtime's, the model's) is I915_MAX_NUM_FENCES long */
	if (in->num_fences > I915_MAX_NUM_FENCES)
		return gtt_err_set(err, GTT_EIO, "%s: %u fence registers; at most %u are supported", p->name, in->num_fences,
				   I915_MAX_NUM_FENCES);
	in->n_ptes = in->gsm_size / in->pte_size;
	in->ggtt_size = in->n_ptes * 4096;
	if (in->aperture_size > in->ggtt_size)
		return gtt_err_set(err, GTT_EIO, "aperture (%llu bytes) is larger than the GGTT (%llu bytes)",
				   (unsigned long long)in->aperture_size, (unsigned long long)in->ggtt_size);
	return GTT_OK;
}

/*
 * eDRAM is a fact of the part i915 reads from the device, not from its
 * id: HSW_EDRAM_CAP picks the Haswell GGTT PTE encoder (iris_pte_encode
 * with eDRAM, hsw_pte_encode without). Read as i915 does, once BAR0 is
 * known to be the platform's and decoding again.
 */
static void detect_edram(struct hw_device *dev, const struct gtt_platform *p)
{
	struct hw_info *in = &dev->info;

	if (hw_edram_readable(p)) {
		in->edram_cap = hw_mmio_read32(dev, HSW_EDRAM_CAP);
		/* all ones is a BAR that does not answer, not a capability */
		in->edram_mb = in->edram_cap == 0xffffffffu ? 0 : hw_edram_mb(p, in->edram_cap);
	}
}

int hw_detect(struct hw_device *dev, struct gtt_err *err)
{
	int rc;

	if ((rc = detect_identity(dev, err)))
		return rc;
	detect_gmch(dev, dev->info.plat);
	if ((rc = detect_bars(dev, err)) || (rc = hw_detect_vf(dev, &dev->info.vf.active, err)))
		return rc;
	/* a VF's config space says nothing of its GGTT: its layout is fixed (hw/detect_vf.h) */
	if (dev->info.vf.active)
		hw_vf_layout(&dev->info);
	if ((rc = check_sizes(dev, dev->info.plat, err)))
		return rc;
	detect_edram(dev, dev->info.plat);
	if (dev->ops->stamp_key)
		dev->ops->stamp_key(dev->ctx, dev->info.stamp_key);
	/* last: a VF's range comes from GuC; a guest's ranges and fence_num are judged against what was found above */
	if (dev->info.vf.active) {
		hw_detect_vf_boot(dev);
		return GTT_OK;
	}
	return hw_detect_pvinfo(dev, &dev->info.pvinfo, err);
}
