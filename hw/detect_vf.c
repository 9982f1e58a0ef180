/* SPDX-License-Identifier: MIT */
/* Whether a device is an SR-IOV virtual function (hw/detect_vf.h). */
#include "hw/detect_vf.h"

#include "hw/raw_access.h"
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
