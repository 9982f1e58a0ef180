/* SPDX-License-Identifier: MIT */
/*
 * The device handle's state, as types only: the open backend, the facts
 * detected from the device (platform, BARs, GSM, fences), the access
 * counters and the undo log's entries. Every layer of hw/ works on this
 * struct; the functions live in the layers (raw_access.h at the bottom,
 * device.h, which opens and closes a handle, at the top).
 */
#ifndef HW_HANDLE_H
#define HW_HANDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/backend.h"
#include "regs/platform.h"
#include "regs/pvinfo.h"

struct hw_journal;

/*
 * A GVT-g guest's view, read from the PVINFO page (VGT_PVINFO_PAGE in BAR0)
 * at open as i915's intel_vgpu_detect and intel_vgt_balloon read it
 * (docs/hardware.md §6.2). active: the magic was there and the page is
 * well formed, so gttlab is in guest mode and may claim only these ranges
 * and fences below fence_num.
 */
struct hw_pvinfo {
	bool active;
	uint16_t version_major, version_minor;
	uint32_t vgt_id, caps;
	uint64_t mappable_base, mappable_size;		/* avail_rs.mappable_gmadr: its aperture slice */
	uint64_t nonmappable_base, nonmappable_size;	/* avail_rs.nonmappable_gmadr: its high slice */
	unsigned fence_num;				/* avail_rs.fence_num: fences 0..fence_num-1 are its own */
	bool gm_channel;				/* GTTLAB_GM_MAGIC: gttlab's request channel is offered */
	uint32_t slot_size;				/* GTTLAB_IF_GM_SLOT_SIZE when the channel is offered */
	/*
	 * Non-contiguous slots (gttlab's extension, regs/pvinfo.h): the high
	 * slice in high_runs runs, ascending and apart; run[0] is
	 * avail_rs.nonmappable_gmadr. 1 without the channel.
	 */
	unsigned high_runs;
	struct hw_pvinfo_run {
		uint64_t base, size;
	} run[GTTLAB_GM_MAX_RUNS];
};

/*
 * An SR-IOV virtual function's view (docs/hardware.md §10), found at open
 * by hw/detect_vf.c: VF_CAP_REG said VF, and the bootstrap with GuC over
 * the MMIO mailbox gave (or failed to give) the GGTT range this VF may
 * claim. A VF has no aperture and no fences; a bootstrap that failed is
 * kept here, not turned into a failed open, so that the vf suite can name
 * it as its verdict.
 */
struct hw_vf {
	bool active;			/* VF_CAP_REG bit 0 */
	int boot_rc;			/* GTT_OK, or the bootstrap's error (boot_why) */
	char boot_why[240];		/* the bootstrap's error message (GTT_ERR_MSG_MAX) */
	unsigned abi_major, abi_minor, abi_patch;	/* the VF interface GuC agreed to */
	unsigned reset_tries;		/* VF_RESET sent this many times */
	uint64_t wopcm;			/* the WOPCM size the range was judged against */
	uint64_t ggtt_start, ggtt_size;	/* the range GuC gave (GGTT_START, GGTT_SIZE); 0, 0 when boot_rc */
};

struct hw_info {
	const struct gtt_platform *plat;
	uint16_t vendor, devid;
	uint8_t revision;
	uint16_t class_code;		/* base class << 8 | subclass */
	uint64_t bar0_base, bar0_size;
	uint64_t bar2_base, aperture_size;
	uint16_t gmch_ctrl;
	unsigned ggms, gms;
	uint32_t gsm_offset;		/* PTE window inside BAR0 */
	uint64_t gsm_size;
	unsigned pte_size;
	uint64_t n_ptes;
	uint64_t ggtt_size;		/* bytes of graphics address space */
	uint64_t stolen_size;
	uint64_t stolen_base;		/* BDSM: 32-bit at 0x5c, 64-bit at 0xc0 on gen11+ */
	unsigned num_fences;
	uint32_t edram_cap;		/* HSW_EDRAM_CAP as read at detection; 0 where i915 does not read it */
	unsigned edram_mb;		/* eDRAM i915 would find (intel_dram_edram_detect); 0: none */
	struct hw_pvinfo pvinfo;	/* guest mode when pvinfo.active */
	struct hw_vf vf;		/* SR-IOV VF mode when vf.active */
	uint64_t stamp_key[2];		/* the key of this guest's stamps (hw_backend_ops.stamp_key); zeros: none given */
};

struct hw_counters {
	uint64_t cfg_reads, cfg_writes;
	uint64_t mmio_reads, mmio_writes;
	uint64_t pte_reads, pte_writes;
	uint64_t invalidates;
	uint64_t fence_writes;
	uint64_t aperture_read_bytes, aperture_write_bytes;
};

/* The undo log's entries (hw/undo.h replays them). */
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

struct hw_device {
	const struct gtt_env *env;
	const struct hw_backend_ops *ops;
	void *ctx;
	char name[64];			/* the device string it was opened with */
	char scheme[16];		/* its scheme (hw/device_spec.h): what kind of device it is (hw_device_kind) */
	struct hw_info info;
	struct hw_counters counters;
	struct hw_undo undo;
	struct hw_journal *journal;	/* the crash journal (hw/journal_write.h), NULL for none */
	bool ptes_unflushed;		/* PTEs written since the last GGTT invalidate */
};

#endif
