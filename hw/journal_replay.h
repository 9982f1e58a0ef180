/* SPDX-License-Identifier: MIT */
/*
 * Putting back what a crash journal holds, from a fresh open of the same
 * device. Bytes written through the original translation went to the
 * machine's own memory and are put back through it; bytes written through a
 * PTE gttlab had pointed at one of its test pages went to memory that died
 * with the process, so replay writes them through a page of its own (on a
 * real machine that touches nothing else; where the aperture is storage, as
 * in a fake sysfs tree, it puts the bytes back).
 */
#ifndef HW_JOURNAL_REPLAY_H
#define HW_JOURNAL_REPLAY_H

#include "hw/handle.h"
#include "hw/journal_scan.h"

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

#endif
