/* SPDX-License-Identifier: MIT */
/*
 * The device handle: an open backend, the facts detected from the device
 * (platform, BARs, GSM, fences), access counters and the undo log. Every
 * register write made through hw/ goes through hw_mmio_write* or
 * hw_cfg_write, which record the old value first.
 */
#ifndef HW_DEVICE_H
#define HW_DEVICE_H

#include "hw/backend.h"
#include "hw/undo.h"
#include "regs/platform.h"

struct hw_journal;

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
};

struct hw_counters {
	uint64_t cfg_reads, cfg_writes;
	uint64_t mmio_reads, mmio_writes;
	uint64_t pte_reads, pte_writes;
	uint64_t invalidates;
	uint64_t fence_writes;
	uint64_t aperture_read_bytes, aperture_write_bytes;
};

struct hw_device {
	const struct gtt_env *env;
	const struct hw_backend_ops *ops;
	void *ctx;
	char name[64];			/* the device string it was opened with */
	struct hw_info info;
	struct hw_counters counters;
	struct hw_undo undo;
	struct hw_journal *journal;	/* the crash journal (hw/journal.h), NULL for none */
	bool ptes_unflushed;		/* PTEs written since the last GGTT invalidate */
};

/*
 * Open a device from its string ("sim", "sim:hsw", "pci:0000:00:02.0",
 * "auto") with one of the given backends, and detect what it is. On error
 * nothing has been written to the device.
 */
int hw_open(const struct gtt_env *env, const char *spec, const struct hw_backend_factory *const *backends,
	    size_t n_backends, const struct hw_open_opts *opts, struct hw_device **out,
	    struct gtt_err *err);

/*
 * Why a write was refused before it reached the device: the journal could
 * not make the old value durable, or the undo log ran out of memory.
 */
const char *hw_write_refused(const struct hw_device *dev);

/* Close the device; the undo log is NOT replayed (call hw_undo_restore first); a journal is detached. */
void hw_close(struct hw_device *dev);

/* Raw access. Writes record the old value in the undo log first. */
int hw_cfg_read(struct hw_device *dev, unsigned off, unsigned width, uint32_t *val);
int hw_cfg_write(struct hw_device *dev, unsigned off, unsigned width, uint32_t val);
uint32_t hw_mmio_read32(struct hw_device *dev, uint32_t off);
int hw_mmio_write32(struct hw_device *dev, uint32_t off, uint32_t val);
uint64_t hw_mmio_read64(struct hw_device *dev, uint32_t off);
int hw_mmio_write64(struct hw_device *dev, uint32_t off, uint64_t val);

/* Zero the access counters. */
void hw_counters_reset(struct hw_device *dev);

/* Detect the platform and sizes from config space; used by hw_open (exposed for tests). */
int hw_detect(struct hw_device *dev, struct gtt_err *err);

/* Decoders of the GMCH control word, per docs/hardware.md §1.3. */
uint64_t hw_gsm_size_from_ggms(const struct gtt_platform *p, unsigned ggms);
uint64_t hw_stolen_size_from_gms(const struct gtt_platform *p, unsigned gms);
/* Base of stolen memory from the BDSM dwords: dw1 is only read on BDSM_64 platforms. */
uint64_t hw_stolen_base(const struct gtt_platform *p, uint32_t dw0, uint32_t dw1);
void hw_gmch_fields(const struct gtt_platform *p, uint16_t gmch, unsigned *ggms, unsigned *gms);
/*
 * Whether i915 reads HSW_EDRAM_CAP on p (Haswell, Broadwell, gen9+), and the
 * eDRAM a value of it gives: 0 without EDRAM_ENABLED, 128 MiB before gen9,
 * banks x ways x sets from gen9 (intel_dram_edram_detect, gen9_edram_size_mb).
 */
bool hw_edram_readable(const struct gtt_platform *p);
unsigned hw_edram_mb(const struct gtt_platform *p, uint32_t cap);

/* Physical test pages (freed with hw_free_test_pages). */
int hw_alloc_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages, struct gtt_err *err);
void hw_free_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages);

/* GPU-side access; GTT_ENOTSUP where the backend has none. */
int hw_gpu_read(struct hw_device *dev, uint64_t gm, void *buf, size_t len, struct gtt_err *err);
int hw_gpu_write(struct hw_device *dev, uint64_t gm, const void *buf, size_t len, struct gtt_err *err);

#endif
