/* SPDX-License-Identifier: MIT */
/*
 * Reading a crash journal without a device: check every record, name the
 * device its header names, count what it holds. A record torn by a crash in
 * the middle of an append can only be the last one, and its device write
 * never happened, so it is noted and ignored.
 */
#ifndef HW_JOURNAL_SCAN_H
#define HW_JOURNAL_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/err.h"
#include "hw/journal_format.h"

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

#endif
