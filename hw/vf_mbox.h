/* SPDX-License-Identifier: MIT */
/*
 * A VF device's mailbox to GuC (hw/guc_mmio.h) on its registers
 * (docs/hardware.md §10.2): the scratch flags are written through the write
 * path (journaled, undo-logged, put back at close like any register gttlab
 * writes); the doorbell is not: putting its old value back would ring GuC
 * again on whatever the flags then hold, so that one write is recorded
 * nowhere, as the GGTT invalidate is not.
 */
#ifndef HW_VF_MBOX_H
#define HW_VF_MBOX_H

#include <stdbool.h>

#include "hw/guc_mmio.h"
#include "hw/handle.h"

/* The mailbox of dev's primary GT, or its media GT's (MED_VF_SW_FLAG, MED_GUC_HOST_INTERRUPT). */
void hw_vf_mbox(struct hw_device *dev, bool media, struct hw_guc_mbox *mb);

#endif
