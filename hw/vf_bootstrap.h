/* SPDX-License-Identifier: MIT */
/*
 * A VF's bootstrap with GuC over MMIO (docs/hardware.md §10.3; xe's
 * xe_gt_sriov_vf.c, re-typed from the facts): VF2GUC_VF_RESET (sent again
 * when no reply came, at most HW_VF_RESET_TRIES times), VF2GUC_MATCH_VERSION
 * (branch 0, major 1, at least the platform's minor), then the GGTT range
 * it was given, GGTT_START and GGTT_SIZE by VF2GUC_QUERY_SINGLE_KLV, each
 * reply checked field by field: a must-be-zero bit set, a length that is
 * not the key's, a range the VF drivers refuse. Each is an error naming
 * what was wrong; nothing is guessed. Freestanding.
 */
#ifndef HW_VF_BOOTSTRAP_H
#define HW_VF_BOOTSTRAP_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/guc_mmio.h"

#define HW_VF_RESET_TRIES	10	/* GUC_RESET_VF_STATE_RETRY_MAX */

/* The VF interface version GuC agreed to. */
struct hw_vf_abi {
	unsigned branch, major, minor, patch;
};

/* A VF's GGTT range, as GuC gave it. */
struct hw_vf_ggtt {
	uint64_t start, size;
};

struct hw_vf_boot {
	struct hw_vf_abi abi;
	struct hw_vf_ggtt ggtt;
	unsigned reset_tries;		/* VF_RESET sent this many times */
};

/*
 * The lowest VF interface a GT takes: 1.1 before GMD_ID (Tiger Lake to
 * Alder/Raptor Lake), 1.2 on a GT with GMD_ID (Meteor Lake on).
 */
unsigned hw_vf_min_minor(bool gmd_id);

/*
 * Whether [start, start + size) is a GGTT range a VF may be given: not
 * empty, from WOPCM (wopcm bytes) up, within GUC_GGTT_TOP, in whole 4 KiB
 * pages. GTT_EINVAL with the value and the rule it broke.
 */
int hw_vf_ggtt_check(uint64_t start, uint64_t size, uint64_t wopcm, struct gtt_err *err);

/* One KLV of n dwords (1-3) by VF2GUC_QUERY_SINGLE_KLV; its value, dword 1 the low one. */
int hw_vf_query_klv(const struct hw_guc_mbox *mb, uint16_t key, unsigned n, uint64_t *value, struct gtt_err *err);

/* GGTT_START and GGTT_SIZE, checked with hw_vf_ggtt_check. */
int hw_vf_query_ggtt(const struct hw_guc_mbox *mb, uint64_t wopcm, struct hw_vf_ggtt *out, struct gtt_err *err);

/* Reset, version match and the GGTT range; *out only on GTT_OK. */
int hw_vf_bootstrap(const struct hw_guc_mbox *mb, bool gmd_id, uint64_t wopcm, struct hw_vf_boot *out,
		    struct gtt_err *err);

#endif
