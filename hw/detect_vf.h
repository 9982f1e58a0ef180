/* SPDX-License-Identifier: MIT */
/*
 * SR-IOV virtual functions at open (docs/hardware.md §10): whether a gen12+
 * device is a VF (VF_CAP_REG bit 0), the VF's layout (a 4 GiB GGTT whose
 * 8 MiB of PTEs sit at BAR0 + 8 MiB, no aperture, no fences, no stolen
 * memory), and its bootstrap with GuC over the MMIO mailbox
 * (hw/vf_bootstrap.h) into hw_info.vf. Floor 4, steps of hw_detect: the
 * first two only read; the bootstrap writes the mailbox's scratch flags on
 * the write path (journaled, put back at close) and rings the doorbell.
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

/*
 * A VF's layout in *in over what the PF's config space would say: GSM
 * VF_GSM_SIZE at the platform's offset, no aperture (i915's gen12vf probe
 * maps none whatever BAR2 says), no fences, no stolen memory, no GMCH word.
 */
void hw_vf_layout(struct hw_info *in);

/*
 * The bootstrap with GuC on the primary GT's mailbox, into dev->info.vf:
 * the agreed interface and the GGTT range, or boot_rc and boot_why when
 * GuC did not give them (a fault the vf suite reports; the open still
 * succeeds, so there is no error to return).
 */
void hw_detect_vf_boot(struct hw_device *dev);

#endif
