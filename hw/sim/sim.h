/* SPDX-License-Identifier: MIT */
/*
 * The simulated device: a behaviour-level model of an Intel integrated GPU's
 * PCI function, registers, GGTT, aperture and fences (docs/hardware.md).
 *
 * It is written from the fact sheet, not from hw/: it shares register
 * constants with regs/ and nothing else, so a wrong encoder in hw/ and this
 * model cannot agree by construction. See docs/model.md for what it models and
 * how (including the places where the hardware's exact behaviour is
 * UNCONFIRMED and the model picks the strict reading).
 */
#ifndef HW_SIM_SIM_H
#define HW_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/env.h"
#include "env/err.h"
#include "regs/platform.h"

struct sim_device;

/*
 * Faults of the model as a VF (hw/sim/sim_vf.c), one broken rule each: GuC
 * names a range reaching into the next VF's (overlap) or past GUC_GGTT_TOP
 * (past-top); the PF tags a PTE inside the range with another VF's id (tag)
 * or the page after it with this VF's (neighbour); the VF can clear VALID
 * (valid); GuC answers BUSY for ever (busy), never answers the GGTT_SIZE
 * query (lost), or names a shorter range when asked again (drift).
 */
enum sim_vf_fault {
	SIM_VF_OK, SIM_VF_OVERLAP, SIM_VF_TAG, SIM_VF_NEIGHBOUR, SIM_VF_VALID, SIM_VF_BUSY, SIM_VF_LOST,
	SIM_VF_PAST_TOP, SIM_VF_DRIFT, SIM_VF_FAULTS
};

/* The model's PF: SIM_VF_COUNT VFs of SIM_VF_SIZE bytes each, VF n from sim_vf_range_start(n). */
#define SIM_VF_COUNT	2
#define SIM_VF_BASE	(256ull << 20)
#define SIM_VF_SIZE	(256ull << 20)

/* Overrides of the platform's boot defaults; zero fields keep the default. */
struct sim_params {
	uint16_t devid;
	uint32_t aperture_size;		/* power of two, 64 MiB .. platform max */
	unsigned ggms;			/* GGMS field; selects the GSM size */
	bool edram;			/* HSW_EDRAM_CAP says eDRAM (128 MiB); Haswell and later only */
	unsigned vf;			/* 1..SIM_VF_COUNT: the model is that VF of its PF (gen12 only); 0: the whole GPU */
	enum sim_vf_fault vf_fault;	/* a VF's fault, SIM_VF_OK for none */
};

/* Physical address of the page every PTE points at when the device boots. */
#define SIM_SCRATCH_PHYS	0x7ffff000ull
/* First physical address handed out by sim_alloc_pages (above 4 GiB, so the high PTE bits matter). */
#define SIM_TEST_PAGES_BASE	0x400000000ull
#define SIM_BAR0_BASE		0xf0000000ull
#define SIM_BAR2_BASE		0xc0000000ull
#define SIM_BAR4_BASE		0x0000f000u
#define SIM_BAR4_SIZE		64u
#define SIM_STOLEN_BASE		0x78000000ull

/* A VF fault's name in device strings ("none", "overlap", ...), and the fault a name names (GTT_EINVAL: none). */
const char *sim_vf_fault_name(enum sim_vf_fault f);
int sim_vf_fault_by_name(const char *name, enum sim_vf_fault *out);
/* Where the model's PF put VF vfid's range (1..SIM_VF_COUNT). */
uint64_t sim_vf_range_start(unsigned vfid);

/* Create a device of the given platform; params may be NULL. */
int sim_create(const struct gtt_env *env, const struct gtt_platform *plat,
	       const struct sim_params *params, struct sim_device **out, struct gtt_err *err);
void sim_destroy(struct sim_device *sim);
const struct gtt_platform *sim_platform(const struct sim_device *sim);
uint32_t sim_aperture_size(const struct sim_device *sim);
uint64_t sim_gsm_size(const struct sim_device *sim);

/* PCI configuration space; width is 1, 2 or 4 and off is aligned to it. */
uint32_t sim_cfg_read(struct sim_device *sim, unsigned off, unsigned width);
void sim_cfg_write(struct sim_device *sim, unsigned off, unsigned width, uint32_t val);

/* BAR0 (GTTMMADR): registers below 2 MiB, the GSM (PTE window) at bar0_size / 2. */
uint32_t sim_mmio_read32(struct sim_device *sim, uint32_t off);
void sim_mmio_write32(struct sim_device *sim, uint32_t off, uint32_t val);
uint64_t sim_mmio_read64(struct sim_device *sim, uint32_t off);
void sim_mmio_write64(struct sim_device *sim, uint32_t off, uint64_t val);
/*
 * n consecutive accesses of `size` bytes (4 or 8) from BAR0 offset off:
 * the same as n sim_mmio_read32/64 or sim_mmio_write32/64 calls, counted and
 * traced as those; one copy when no fault or trace is armed.
 */
void sim_gsm_read_run(struct sim_device *sim, uint32_t off, uint64_t *ptes, size_t n, unsigned size);
void sim_gsm_write_run(struct sim_device *sim, uint32_t off, const uint64_t *ptes, size_t n, unsigned size);

/* GGTT entry `index` as the GSM holds it: the PF's view, no VF's ownership rule applied. */
uint64_t sim_gsm_entry(const struct sim_device *sim, uint64_t index);

/* BAR2 (GMADR): CPU accesses through the aperture, translated by the GGTT TLB and fences. */
void sim_aperture_read(struct sim_device *sim, uint64_t off, void *buf, size_t len);
void sim_aperture_write(struct sim_device *sim, uint64_t off, const void *buf, size_t len);

/* GPU-side access to any GGTT address (no fences: gen4+ engines carry their own tiling). */
int sim_gpu_read(struct sim_device *sim, uint64_t gm, void *buf, size_t len);
int sim_gpu_write(struct sim_device *sim, uint64_t gm, const void *buf, size_t len);

/* Simulated system memory (sparse; unwritten memory reads as zero). */
void sim_mem_read(struct sim_device *sim, uint64_t phys, void *buf, size_t len);
void sim_mem_write(struct sim_device *sim, uint64_t phys, const void *buf, size_t len);
/* Reserve n contiguous 4 KiB pages; returns their physical base, or 0 when out of memory. */
uint64_t sim_alloc_pages(struct sim_device *sim, size_t n);
/*
 * n contiguous pages of memory the caller owns (cpu: 4 KiB aligned, n * 4 KiB,
 * alive until the model is freed) made the model's next n physical pages, as
 * a hypervisor's RAM shared with another process is; their physical base, or
 * 0 when out of memory. What is there stays.
 */
uint64_t sim_attach_pages(struct sim_device *sim, size_t n, void *cpu);
/* A page sim_attach_pages took, given back: the model no longer reaches it (reads zero there, as absent RAM). */
void sim_detach_page(struct sim_device *sim, uint64_t phys);
/* The host memory backing one simulated page (allocated on demand), NULL when out of memory. */
void *sim_mem_page(struct sim_device *sim, uint64_t phys);

/* Access trace: a ring of the last `capacity` accesses, plus running totals. */
enum sim_access {
	SIM_CFG_READ, SIM_CFG_WRITE, SIM_MMIO_READ, SIM_MMIO_WRITE,
	SIM_APERTURE_READ, SIM_APERTURE_WRITE, SIM_GPU_READ, SIM_GPU_WRITE,
	SIM_GGTT_FLUSH, SIM_TRANSLATION_FAULT, SIM_ACCESS_KINDS
};
struct sim_trace_entry {
	uint64_t seq;
	enum sim_access kind;
	unsigned width;			/* bytes (length for aperture/GPU accesses) */
	uint64_t addr;
	uint64_t value;
};
int sim_trace_start(struct sim_device *sim, size_t capacity);
void sim_trace_stop(struct sim_device *sim);
/* Entries held (at most capacity); index 0 is the oldest held. */
size_t sim_trace_len(const struct sim_device *sim);
bool sim_trace_get(const struct sim_device *sim, size_t i, struct sim_trace_entry *e);
/* Total accesses of one kind since creation (counted whether tracing or not). */
uint64_t sim_access_count(const struct sim_device *sim, enum sim_access kind);
const char *sim_access_name(enum sim_access kind);

/*
 * Fault injection. A dropped write is lost silently, as a posted write can be;
 * a stuck register takes the value at once (a PTE one at the next flush) and
 * ignores every write after.
 */
int sim_fault_drop_writes(struct sim_device *sim, uint32_t off, int count /* -1: always */);
/* The next `passes` writes to a register land; every later one is lost (a device that stops
 * taking writes: what was written cannot be put back). */
int sim_fault_freeze_after(struct sim_device *sim, uint32_t off, unsigned passes);
int sim_fault_stick(struct sim_device *sim, uint32_t off, uint32_t value);
void sim_fault_clear(struct sim_device *sim);
void sim_fault_gone(struct sim_device *sim, bool gone);

/* BAR0's register space as an intel_reg MMIO snapshot: raw little-endian bytes. */
size_t sim_snapshot_size(const struct sim_device *sim);
void sim_snapshot_save(const struct sim_device *sim, void *buf);
int sim_snapshot_load(struct sim_device *sim, const void *buf, size_t len, struct gtt_err *err);

#endif
