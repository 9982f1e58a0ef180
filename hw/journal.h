/* SPDX-License-Identifier: MIT */
/*
 * The crash journal: the undo log's durable twin for devices that are not
 * the model. Before the first write to a config byte, a register, a chunk of
 * PTEs or a page of the aperture, the original contents go to the journal,
 * and the sink has made them durable before the device write happens (write
 * ahead). Later writes to what is already journaled cost a bitmap test, so
 * the journal grows with what a run touches, never with how often it writes.
 * If the process dies, hw_journal_replay() puts every journaled range back
 * from a fresh open of the same device.
 *
 * The format (docs/journal.md) is a sequence of records, each with its own
 * checksum; the first is a header naming the device. A record torn by a
 * crash in the middle of an append can only be the last one, and its device
 * write never happened, so replay ignores it.
 *
 * Aperture pages are journaled with the PTE through which they were written.
 * Bytes written through the original translation went to the machine's own
 * memory and are put back through it; bytes written through a PTE gttlab had
 * pointed at one of its test pages went to memory that died with the process,
 * so replay writes them through a page of its own (on a real machine that
 * touches nothing else; where the aperture is storage, as in a fake sysfs
 * tree, it puts the bytes back).
 */
#ifndef HW_JOURNAL_H
#define HW_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/err.h"

struct hw_device;
struct hw_open_opts;

/* Where journal records go. append() returns only once the bytes are durable. */
struct hw_journal_sink {
	int (*append)(void *ctx, const void *buf, size_t len, struct gtt_err *err);
	void *ctx;
};

/* The record kinds of the format (docs/journal.md). */
enum hw_journal_kind {
	HW_JOURNAL_HEADER = 1,		/* text: key=value lines naming the device */
	HW_JOURNAL_CFG = 2,		/* config space: off, width 1/2/4, 4-byte value */
	HW_JOURNAL_MMIO = 3,		/* a BAR0 register: off, width 4/8, 8-byte value */
	HW_JOURNAL_PTES = 4,		/* a chunk of the GSM: off of its first PTE, width = PTE size */
	HW_JOURNAL_APERTURE = 5,	/* one aperture page: off, aux = PTE in effect, width 1 = original translation */
	HW_JOURNAL_FLUSH_REG = 6,	/* GFX_FLSH_CNTL_GEN6 as found: put back last */
};

#define HW_JOURNAL_REC_HDR	32u	/* bytes before a record's data */
#define HW_JOURNAL_CHUNK	4096u	/* bytes of GSM per PTE record, bytes of aperture per page record */

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

/* What a journal holds and says, counted by hw_journal_scan/replay. */
struct hw_journal_info {
	char spec[96];			/* the device string that reopens it: pci:DDDD:BB:DD.F, efi:... */
	char sysfs_root[512];		/* empty: the default */
	bool allow_i915;
	unsigned cfg, mmio, pte_chunks, ap_orig, ap_own, flush_reg;	/* records of each kind */
	size_t records;			/* all, the header included */
	bool torn;			/* the last record was cut short by a crash and is ignored */
	uint64_t bytes;			/* of the journal that count */
};

/* Records appended so far (the header included), for tests and counts. */
size_t hw_journal_records(const struct hw_device *dev);

/*
 * Read a journal: check every record, fill info. A damaged record before the
 * last is GTT_EIO naming its offset (a journal gttlab did not write); a torn
 * last record is noted in info->torn and ignored.
 */
int hw_journal_scan(const void *buf, size_t len, struct hw_journal_info *info, struct gtt_err *err);

/*
 * Whether buf is a journal whose first append never completed: empty, or a
 * beginning of its header record cut short (magic, then the header kind, then
 * a length that reaches past the end). Nothing reaches the device before the
 * header is durable, so such a file proves the device untouched. A sink that
 * cannot publish a file only once its header is in (the ESP has no O_TMPFILE)
 * removes such a file instead of refusing to start. Anything else is false.
 */
bool hw_journal_unstarted(const void *buf, size_t len);

/*
 * Put back everything the journal holds on dev (opened afresh, with no journal
 * attached): config space first (memory decoding), every journaled fence
 * disabled, registers and PTEs newest first, an invalidate, the aperture pages newest first each
 * through its translation, and GFX_FLSH_CNTL_GEN6 last. Every entry is read
 * back; those that do not read back are named in err (GTT_EIO, the first
 * three and how many) and the rest still go back. Running it twice is the
 * same as once. A journal of a run that wrote nothing touches nothing.
 */
int hw_journal_replay(struct hw_device *dev, const void *buf, size_t len, struct hw_journal_info *info,
		      struct gtt_err *err);

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
