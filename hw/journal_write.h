/* SPDX-License-Identifier: MIT */
/*
 * Writing the crash journal: the undo log's durable twin for devices that
 * are not the model, and the first floor of the write path. Before the first
 * write to a config byte, a register, a chunk of PTEs or a page of the
 * aperture, the original contents go to the journal, and the sink has made
 * them durable before the device write happens (write ahead). Later writes
 * to what is already journaled cost a bitmap test, so the journal grows with
 * what a run touches, never with how often it writes.
 *
 * Aperture pages are journaled with the PTE through which they were written
 * (hw/journal.h says how replay puts them back).
 */
#ifndef HW_JOURNAL_WRITE_H
#define HW_JOURNAL_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/err.h"
#include "hw/handle.h"

/* Where journal records go. append() returns only once the bytes are durable. */
struct hw_journal_sink {
	int (*append)(void *ctx, const void *buf, size_t len, struct gtt_err *err);
	void *ctx;
};

/*
 * Start journaling every write to dev through sink: the header record (the
 * device string that reopens this device, from the backend's location, and
 * the sysfs root and --allow-i915 of opts) and GFX_FLSH_CNTL_GEN6's value are
 * appended now. GTT_ENOTSUP when the backend cannot name the device's
 * location (the model, which needs no journal).
 */
int hw_journal_attach(struct hw_device *dev, const struct hw_journal_sink *sink, const struct hw_open_opts *opts,
		      struct gtt_err *err);
/* Stop journaling and free the journal's memory (the sink's file is the caller's). */
void hw_journal_detach(struct hw_device *dev);

/* Records appended so far (the header included), for tests and counts. */
size_t hw_journal_records(const struct hw_device *dev);

/* Used by hw/ itself before each write; each returns an error when the original could not be made durable. */
int hw_journal_cfg(struct hw_device *dev, unsigned off, unsigned width);
int hw_journal_mmio(struct hw_device *dev, uint32_t off, unsigned width);
int hw_journal_ptes(struct hw_device *dev, uint64_t first, size_t n);
int hw_journal_aperture(struct hw_device *dev, uint64_t off, size_t len);
/* After a restore: GFX_FLSH_CNTL_GEN6 as the journal found it (no-op without a journal). */
void hw_journal_put_flush_reg(struct hw_device *dev);
/* Why the last journaled write was refused ("" when it was not). */
const char *hw_journal_error(const struct hw_device *dev);

#endif
