/* SPDX-License-Identifier: MIT */
/*
 * An SR-IOV PF's provisioning of its VFs' GGTT on a device (docs/sriov.md,
 * "The PF side"; docs/hardware.md §10.4): the GGTT it shares is
 * [DOM0_PF_OWN, GUC_GGTT_TOP), its largest hole; each of n VFs gets the fair share of dom0/pf_ggtt.h (the
 * spare kept, the profile's cap), its range in VF id order from the bottom
 * of the hole, every PTE of it tagged VFID | PRESENT (xe_ggtt_assign), and
 * the GGTT_START/GGTT_SIZE KLVs the PF would push with PF2GUC_UPDATE_VF_CFG
 * (the model has no PF GuC: they are only built). A release writes the PF's
 * scratch entry back over the range (xe_ggtt_clear), as a new provisioning
 * releases the old one first. PTEs go through the journaled, undo-logged
 * write path. A mechanism: it decides nothing beyond the drivers' arithmetic.
 * Freestanding.
 */
#ifndef DOM0_PF_PROVISION_H
#define DOM0_PF_PROVISION_H

#include <stdbool.h>
#include <stdint.h>

#include "dom0/faults.h"
#include "env/err.h"
#include "hw/handle.h"

#define DOM0_PF_MAX_VFS		63	/* the profile table's last row; the VFID field may hold fewer */
#define DOM0_PF_KLV_DWORDS	6	/* GGTT_START and GGTT_SIZE: a header and two dwords each */
/*
 * The GGTT the PF keeps below its hole: WOPCM and, above it, the PF's own
 * objects (GuC's buffers, the display's), which xe places first from the
 * bottom. Their size is not a fact of the sources: 8 MiB is gttlab's
 * choice, where IGT's provisioning scan starts, so that no VF lies where
 * that scan does not look.
 */
#define DOM0_PF_OWN		(8ull << 20)

/* One VF's range as the PF gave it (size 0: not provisioned). */
struct dom0_pf_vf {
	uint64_t start, size;
};

struct dom0_pf {
	struct hw_device *dev;
	unsigned verx100;		/* graphics IP x 100: the VFID field's width */
	uint64_t hole_start, hole_end;	/* the GGTT the PF shares: [DOM0_PF_OWN, GUC_GGTT_TOP) */
	uint64_t unused_pte;		/* the PF's unused (scratch) entry, read at hole_start at init: what a release writes */
	unsigned n_vfs;			/* VFs provisioned now */
	struct dom0_pf_vf vf[DOM0_PF_MAX_VFS + 1];	/* by VF id; [0] unused (the PF) */
#ifdef GTTLAB_FAULTS
	struct dom0_faults faults;	/* deliberate bugs (the test build only) */
#endif
};

/*
 * The PF of dev, gen12 only (GTT_EINVAL otherwise): its hole and its
 * scratch entry; nothing written.
 */
int dom0_pf_init(struct dom0_pf *pf, struct hw_device *dev, struct gtt_err *err);

/*
 * n VFs (1 .. the VFID field's most), each the fair share with `spare` kept
 * (raised to 64 MiB), capped by the profile when `profile`; any VF the PF
 * held is released first. GTT_EINVAL naming n and the rule it broke, or
 * GTT_ERANGE when the hole shares nothing; in either case nothing written.
 */
int dom0_pf_provision(struct dom0_pf *pf, unsigned n, uint64_t spare, bool profile, struct gtt_err *err);

/* VF vfid's range back to the PF (its PTEs the scratch entry); GTT_EINVAL when it holds none. */
int dom0_pf_release(struct dom0_pf *pf, unsigned vfid, struct gtt_err *err);

/* Every VF released. */
int dom0_pf_release_all(struct dom0_pf *pf, struct gtt_err *err);

/* The KLVs the PF would push for VF vfid: GGTT_START then GGTT_SIZE, each a header and low, high dwords. */
void dom0_pf_vf_klvs(const struct dom0_pf *pf, unsigned vfid, uint32_t out[DOM0_PF_KLV_DWORDS]);

#endif
