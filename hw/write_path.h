/* SPDX-License-Identifier: MIT */
/*
 * The journaled, undo-logged write path: every write hw/ makes to config
 * space or a BAR0 register first journals the original (write ahead, when a
 * crash journal is attached: hw/journal_write.h), then records the old value
 * in the undo log (hw/undo.h), and only then reaches the backend. GGTT,
 * fence and aperture programming stand on it.
 */
#ifndef HW_WRITE_PATH_H
#define HW_WRITE_PATH_H

#include "hw/raw_access.h"
#include "hw/undo.h"

int hw_cfg_write(struct hw_device *dev, unsigned off, unsigned width, uint32_t val);
int hw_mmio_write32(struct hw_device *dev, uint32_t off, uint32_t val);
int hw_mmio_write64(struct hw_device *dev, uint32_t off, uint64_t val);

/*
 * Why a write was refused before it reached the device: the journal could
 * not make the old value durable, or the undo log ran out of memory.
 */
const char *hw_write_refused(const struct hw_device *dev);

#endif
