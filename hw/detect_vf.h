/* SPDX-License-Identifier: MIT */
/*
 * Whether a gen12+ device is an SR-IOV virtual function (docs/hardware.md
 * §10.1): VF_CAP_REG bit 0. A floor-4 step beside hw/detect_pvinfo.c (not
 * yet one of hw_detect's); it only reads, through the counted backend reads
 * of hw/raw_access.h.
 */
#ifndef HW_DETECT_VF_H
#define HW_DETECT_VF_H

#include <stdbool.h>

#include "hw/handle.h"

/*
 * *is_vf from VF_CAP_REG. A platform before gen12 has no such register:
 * *is_vf false, GTT_OK, nothing read. Any bit set beyond bit 0 (an all-ones
 * read among them) is a BAR0 that does not answer, as the i915 SR-IOV
 * driver judges it (xe would take all-ones for a VF): GTT_EIO naming the
 * value, and *is_vf untouched.
 */
int hw_detect_vf(struct hw_device *dev, bool *is_vf, struct gtt_err *err);

#endif
