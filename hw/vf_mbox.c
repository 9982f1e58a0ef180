/* SPDX-License-Identifier: MIT */
/* A VF device's mailbox to GuC on its registers (hw/vf_mbox.h). */
#include "hw/vf_mbox.h"

#include "hw/write_path.h"
#include "regs/sriov.h"

static uint32_t mbox_read(void *ctx, uint32_t off)
{
	return hw_mmio_read32(ctx, off);
}

static int mbox_write(void *ctx, uint32_t off, uint32_t val)
{
	struct hw_device *dev = ctx;

	if (off == GUC_HOST_INTERRUPT || off == MED_GUC_HOST_INTERRUPT) {
		hw_raw_mmio_put(dev, off, 4, val);	/* the doorbell: never put back (hw/vf_mbox.h) */
		return GTT_OK;
	}
	return hw_mmio_write32(dev, off, val);
}

void hw_vf_mbox(struct hw_device *dev, bool media, struct hw_guc_mbox *mb)
{
	*mb = (struct hw_guc_mbox){ .read32 = mbox_read, .write32 = mbox_write, .ctx = dev, .env = dev->env,
				    .flag0 = media ? MED_VF_SW_FLAG(0) : VF_SW_FLAG(0),
				    .doorbell = media ? MED_GUC_HOST_INTERRUPT : GUC_HOST_INTERRUPT };
}
