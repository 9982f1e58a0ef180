/* SPDX-License-Identifier: MIT */
/*
 * GGTT PTE access through BAR0's GSM window, and the GGTT invalidate, on
 * the write path. hw_ggtt_pte_offset and the unlogged invalidate are in
 * hw/raw_access.h, below the write path.
 */
#ifndef HW_GGTT_H
#define HW_GGTT_H

#include "hw/write_path.h"

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
 * The same for a caller that knows what the GTT holds (`held`, its mirror of
 * PTEs [first, first + n)): only the entries of ptes that differ from held
 * are stored, held is brought up to date, and *written (when not NULL) grows
 * by the entries stored. One pass where the backend offers one
 * (pte_write_changed), else runs of differing entries, one bulk write each.
 */
int hw_ggtt_write_changed(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes, uint64_t *held,
			  uint64_t *written, struct gtt_err *err);

/*
 * The same, for a caller that keeps its own account of what the GTT holds:
 * held is only read (after the call the GTT holds ptes, whatever held says).
 */
int hw_ggtt_write_differing(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes,
			    const uint64_t *held, uint64_t *written, struct gtt_err *err);

/*
 * Make the translation hardware see the PTEs written so far
 * (hw_ggtt_invalidate_unlogged, hw/raw_access.h). A command, not state: the
 * undo log only notes where it happened.
 */
int hw_ggtt_invalidate(struct hw_device *dev);

#endif
