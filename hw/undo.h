/* SPDX-License-Identifier: MIT */
/*
 * The undo log: before every write through hw/, the old value. Replaying it
 * backwards puts the device back exactly as it was. Backwards replay of a
 * fence written in i915's order (LO=0, HI, LO) is itself a safe order
 * (LO=0, HI=old, LO=old), so no fence is ever valid while half restored.
 * Aperture bytes go back through the translation they were written through:
 * invalidates are logged as points in the TLB's history, and a write made
 * while PTEs were unflushed is undone with those PTE writes rolled back for
 * the moment. The entries' types are in hw/handle.h; the log is the
 * second floor of the write path, above the journal (hw/journal_write.h).
 */
#ifndef HW_UNDO_H
#define HW_UNDO_H

#include <stddef.h>
#include <stdint.h>

#include "env/err.h"
#include "hw/handle.h"

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
