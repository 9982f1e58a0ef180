/* SPDX-License-Identifier: MIT */
/* SR-IOV virtual functions at open (hw/detect_vf.h). */
#include "hw/detect_vf.h"

#include "env/fmt.h"
#include "hw/raw_access.h"
#include "hw/vf_bootstrap.h"
#include "hw/vf_mbox.h"
#include "regs/platform.h"
#include "regs/sriov.h"

int hw_detect_vf(struct hw_device *dev, bool *is_vf, struct gtt_err *err)
{
	if (dev->info.plat->gen < 120) {
		*is_vf = false;
		return GTT_OK;
	}
	uint32_t v = hw_mmio_read32(dev, VF_CAP_REG);
	if (v & ~VF_CAP)
		return gtt_err_set(err, GTT_EIO, "VF_CAP_REG (0x%x) reads 0x%08x: bits beyond bit 0 set, BAR0 does not answer",
				   VF_CAP_REG, v);
	*is_vf = v & VF_CAP;
	return GTT_OK;
}

void hw_vf_layout(struct hw_info *in)
{
	in->gmch_ctrl = 0;
	in->ggms = in->gms = 0;
	in->gsm_offset = in->plat->gsm_offset;
	in->gsm_size = VF_GSM_SIZE;
	in->pte_size = in->plat->pte_size;
	in->stolen_size = in->stolen_base = 0;
	in->bar2_base = in->aperture_size = 0;
	in->num_fences = 0;
}

void hw_detect_vf_boot(struct hw_device *dev)
{
	struct hw_vf *vf = &dev->info.vf;
	struct hw_guc_mbox mb;
	struct hw_vf_boot b = { 0 };
	struct gtt_err e = { 0 };

	hw_vf_mbox(dev, false, &mb);
	/* every platform gttlab knows is gen12.0: WOPCM 2 MiB, no GMD_ID (VF interface 1.1 at least) */
	vf->wopcm = WOPCM_SIZE_DEFAULT;
	vf->boot_rc = hw_vf_bootstrap(&mb, false, vf->wopcm, &b, &e);
	if (vf->boot_rc) {
		gtt_snprintf(vf->boot_why, sizeof(vf->boot_why), "%s", e.msg);
		return;
	}
	vf->abi_major = b.abi.major;
	vf->abi_minor = b.abi.minor;
	vf->abi_patch = b.abi.patch;
	vf->reset_tries = b.reset_tries;
	vf->ggtt_start = b.ggtt.start;
	vf->ggtt_size = b.ggtt.size;
}
