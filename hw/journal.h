/* SPDX-License-Identifier: MIT */
/*
 * The crash journal: the undo log's durable twin for devices that are not
 * the model. Before the first write to a config byte, a register, a chunk of
 * PTEs or a page of the aperture, the original contents go to the journal,
 * and the sink has made them durable before the device write happens (write
 * ahead). If the process dies, hw_journal_replay() puts every journaled
 * range back from a fresh open of the same device.
 *
 * This header gathers the journal's parts for its users: the record format
 * (hw/journal_format.h), writing (hw/journal_write.h), reading
 * (hw/journal_scan.h) and replay (hw/journal_replay.h). Files of hw/ include
 * the part they use, never this one.
 */
#ifndef HW_JOURNAL_H
#define HW_JOURNAL_H

#include "hw/journal_format.h"
#include "hw/journal_replay.h"
#include "hw/journal_scan.h"
#include "hw/journal_write.h"

#endif
