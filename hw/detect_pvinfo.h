/* SPDX-License-Identifier: MIT */
/*
 * Guest mode: whether BAR0 holds a GVT-g PVINFO page (docs/hardware.md §6),
 * read as i915's intel_vgpu_detect and intel_vgt_balloon read it. A floor-4
 * step beside hw/detect.c, which calls it last; it only reads, through the
 * counted backend reads of hw/raw_access.h.
 */
#ifndef HW_DETECT_PVINFO_H
#define HW_DETECT_PVINFO_H

#include "hw/handle.h"

/*
 * Read the PVINFO page of dev into *out. No VGT_MAGIC (a native GPU, or a
 * platform before gen6, where i915 does not look): out->active false,
 * GTT_OK. The magic there: the page must be a well formed 1.x layout whose
 * ranges fit dev->info's aperture and GGTT and whose fence_num fits the
 * platform's fences, or GTT_EINVAL with one line naming the word, its value
 * and the rule. Nothing is ever written to the device, and dev->info is not
 * touched, so a caller may read the page again after the host changed it
 * (a resize); *out is written only on GTT_OK.
 */
int hw_detect_pvinfo(struct hw_device *dev, struct hw_pvinfo *out, struct gtt_err *err);

#endif
