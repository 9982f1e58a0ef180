/* SPDX-License-Identifier: MIT */
/* GGTT PTE access through BAR0's GSM window, and the GGTT invalidate. */
#ifndef HW_GGTT_H
#define HW_GGTT_H

#include "hw/device.h"

/* Byte offset in BAR0 of PTE `index`. */
uint32_t hw_ggtt_pte_offset(const struct hw_device *dev, uint64_t index);

int hw_ggtt_read_pte(struct hw_device *dev, uint64_t index, uint64_t *pte, struct gtt_err *err);
int hw_ggtt_write_pte(struct hw_device *dev, uint64_t index, uint64_t pte, struct gtt_err *err);
int hw_ggtt_read_range(struct hw_device *dev, uint64_t first, size_t n, uint64_t *ptes,
		       struct gtt_err *err);
int hw_ggtt_write_range(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes,
			struct gtt_err *err);

/*
 * Write a run of PTEs without the undo log, for a caller that keeps the
 * original contents itself and restores from them (the Dom0 runtime, whose
 * switches would otherwise log and throw away every write). The crash
 * journal still sees the first write to each chunk.
 */
int hw_ggtt_write_range_unlogged(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes,
				 struct gtt_err *err);

/*
 * Make the translation hardware see the PTEs written so far: write
 * GFX_FLSH_CNTL_GEN6 = GFX_FLSH_CNTL_EN, then read it back so the write has
 * landed (i915 gen6_ggtt_invalidate). A command, not state: the undo log only
 * notes where it happened.
 */
int hw_ggtt_invalidate(struct hw_device *dev);
void hw_ggtt_invalidate_unlogged(struct hw_device *dev);

#endif
