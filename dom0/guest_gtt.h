/* SPDX-License-Identifier: MIT */
/* The guest GTT trap (mechanism): guest PTE writes and reads, and the shadow they keep. */
#ifndef DOM0_GUEST_GTT_H
#define DOM0_GUEST_GTT_H

#include "dom0/types.h"

/* Guest operations. A guest PTE holds a guest page number in the platform's PTE format. */
int dom0_guest_pte_write(struct dom0_runtime *rt, int id, uint64_t index, uint64_t guest_pte, struct gtt_err *err);
int dom0_guest_pte_read(struct dom0_runtime *rt, int id, uint64_t index, uint64_t *guest_pte, struct gtt_err *err);
/* The shadow entry (host PTE) of one index, for checks and tests. */
int dom0_shadow_pte(const struct dom0_runtime *rt, int id, uint64_t index, uint64_t *pte, struct gtt_err *err);
/*
 * The shadow and guest entries of [first, first + n) in one call, for checks
 * that look at whole ranges: n entries into each of shadow and guest (either
 * may be NULL). The range must lie inside one of the vGPU's ranges: its low
 * range, or one run of its high range.
 */
int dom0_entries_range(const struct dom0_runtime *rt, int id, uint64_t first, uint64_t n, uint64_t *shadow,
		       uint64_t *guest, struct gtt_err *err);

#endif
