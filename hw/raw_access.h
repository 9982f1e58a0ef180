/* SPDX-License-Identifier: MIT */
/*
 * Backend access: everything that goes straight to the backend's operations
 * table, below the journal and the undo log. Counted reads of config space
 * and BAR0, physical test pages, GPU-side access, and the raw helpers the
 * restore paths (undo log, journal replay) write with: a BAR0 access of
 * either width, where PTEs live, and the GGTT invalidate itself. Nothing
 * here records an old value; writes that must be undoable go through
 * hw/write_path.h.
 */
#ifndef HW_RAW_ACCESS_H
#define HW_RAW_ACCESS_H

#include "hw/handle.h"

/* Counted reads. */
int hw_cfg_read(struct hw_device *dev, unsigned off, unsigned width, uint32_t *val);
uint32_t hw_mmio_read32(struct hw_device *dev, uint32_t off);
uint64_t hw_mmio_read64(struct hw_device *dev, uint32_t off);

/* Zero the access counters. */
void hw_counters_reset(struct hw_device *dev);

/* Physical test pages (freed with hw_free_test_pages). */
int hw_alloc_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages, struct gtt_err *err);
void hw_free_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages);
/* Memory the caller owns as test pages (hw_backend_ops.adopt_pages); GTT_ENOTSUP where the backend cannot. */
int hw_adopt_test_pages(struct hw_device *dev, size_t n, void *cpu, struct hw_page *pages, struct gtt_err *err);

/* GPU-side access; GTT_ENOTSUP where the backend has none. */
int hw_gpu_read(struct hw_device *dev, uint64_t gm, void *buf, size_t len, struct gtt_err *err);
int hw_gpu_write(struct hw_device *dev, uint64_t gm, const void *buf, size_t len, struct gtt_err *err);

/* Byte offset in BAR0 of PTE `index`. */
uint32_t hw_ggtt_pte_offset(const struct hw_device *dev, uint64_t index);
/* Whether a BAR0 offset lies in the GSM (the PTE window). */
bool hw_in_gsm(const struct hw_device *dev, uint64_t off);

/* A BAR0 access of width 4 or 8, uncounted and unlogged (the restore paths). */
uint64_t hw_raw_mmio_get(struct hw_device *dev, uint32_t off, unsigned width);
void hw_raw_mmio_put(struct hw_device *dev, uint32_t off, unsigned width, uint64_t v);

/*
 * Make the translation hardware see the PTEs written so far: write
 * GFX_FLSH_CNTL_GEN6 = GFX_FLSH_CNTL_EN, then read it back so the write has
 * landed (i915 gen6_ggtt_invalidate). Counted, but not in the undo log
 * (hw_ggtt_invalidate in hw/ggtt.h notes it there).
 */
void hw_ggtt_invalidate_unlogged(struct hw_device *dev);

#endif
