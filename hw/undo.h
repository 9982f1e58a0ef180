/* SPDX-License-Identifier: MIT */
/*
 * The undo log: before every write through hw/, the old value. Replaying it
 * backwards puts the device back exactly as it was. Backwards replay of a
 * fence written in i915's order (LO=0, HI, LO) is itself a safe order
 * (LO=0, HI=old, LO=old), so no fence is ever valid while half restored.
 * Aperture bytes go back through the translation they were written through:
 * invalidates are logged as points in the TLB's history, and a write made
 * while PTEs were unflushed is undone with those PTE writes rolled back for
 * the moment.
 */
#ifndef HW_UNDO_H
#define HW_UNDO_H

#include <stddef.h>
#include <stdint.h>

#include "env/err.h"

enum hw_undo_kind {
	HW_UNDO_CFG, HW_UNDO_MMIO32, HW_UNDO_MMIO64, HW_UNDO_APERTURE,
	HW_UNDO_FLUSH,			/* a GGTT invalidate: nothing to undo, a point in the TLB's history */
};

struct hw_undo_entry {
	enum hw_undo_kind kind;
	unsigned width;			/* cfg: 1, 2, 4; aperture: 1 when PTEs were unflushed (stale TLB) */
	uint64_t off;
	uint64_t old;			/* old value (aperture: index into the data pool) */
	size_t len;			/* aperture: bytes */
};

struct hw_undo {
	struct hw_undo_entry *entries;
	size_t n, cap;
	uint8_t *data;			/* old aperture bytes */
	size_t data_len, data_cap;
	int error;			/* set when logging ran out of memory: writes are refused */
};

struct hw_device;

/* A position in the log; restore back to it with hw_undo_restore_to. */
size_t hw_undo_mark(const struct hw_device *dev);
/*
 * Replay the log back to `mark`, newest first, then invalidate the GGTT.
 * Every entry written back is read back. Entries that do not read back as
 * written are named in err (GTT_EIO, the first three and how many); the
 * others are still restored. The replay allocates nothing.
 */
int hw_undo_restore_to(struct hw_device *dev, size_t mark, struct gtt_err *err);
/* Replay the whole log. */
int hw_undo_restore(struct hw_device *dev, struct gtt_err *err);
/* Forget the entries after `mark` without replaying them (their writer restores its own state). */
void hw_undo_truncate(struct hw_device *dev, size_t mark);
/* Forget the log without replaying it (the caller accepts the current state). */
void hw_undo_forget(struct hw_device *dev);

/* Used by hw/ itself before each write. */
int hw_undo_record(struct hw_device *dev, enum hw_undo_kind kind, unsigned width, uint64_t off,
		   uint64_t old);
int hw_undo_record_data(struct hw_device *dev, uint64_t off, const void *old, size_t len);
void hw_undo_fini(struct hw_device *dev);

#endif
