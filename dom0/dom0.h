/* SPDX-License-Identifier: MIT */
/*
 * The Dom0 runtime: the mediator's graphics-memory logic of gScale (private
 * shadow GTTs copied on demand at context switch, slot sharing, ladder
 * mapping, the fence memory space pool) and gBalloon (slot resizing with its
 * Algorithm 1), on the hw/ register layer. Freestanding: it runs inside the
 * EFI application as well as under Linux.
 *
 * Addresses are GGTT (graphics memory) addresses; a guest uses the same
 * addresses as the host for its slice, as GVT-g's ballooning arranges.
 */
#ifndef DOM0_DOM0_H
#define DOM0_DOM0_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/device.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"

#define VGT_PVINFO_WORDS	(VGT_PVINFO_SIZE / 4)

#define DOM0_MAX_VGPUS		65534	/* ids in the owner table's 16 bits (0xffff is the runtime's own); graphics memory runs out long before */
#define DOM0_MAX_GUEST_FENCES	16	/* GVT traps fences 0..15 */
#define DOM0_QUANTUM_MS		16

/*
 * Deliberate mediator bugs, for tests that prove the checks can fail. Never
 * set outside tests.
 */
struct dom0_faults {
	bool swap_copy_pair;		/* a switch writes two PTEs of its copy swapped */
	bool keep_released_slots;	/* a reduction leaves the released slots mapped */
	bool corrupt_pool_pitch;	/* the pool fence gets the guest's pitch plus 128 bytes */
	bool swap_resize_sides;		/* a resize grows/shrinks on the wrong sides */
	bool no_ladder;			/* guest CPU access goes through the shared aperture, not the ladder map */
};

struct dom0_config {
	uint64_t host_low_size;		/* default 64 MiB (aperture / 4 when smaller) */
	uint64_t host_high_size;	/* default one slot */
	uint64_t slot_size;		/* default 64 MiB (gBalloon); 384 MiB is gScale's layout */
	uint64_t pool_size;		/* fence memory space pool; default 56 MiB, scaled */
	uint64_t reserved_size;		/* reserved top of the aperture; default 8 MiB, scaled */
	unsigned host_fences;		/* physical fences kept for the host; default 4 */
	bool slot_aware;		/* scheduler prefers a next vGPU from another slot */
	bool algorithm1_selector;	/* resize with Algorithm 1's published loops, not the occupancy selector (the default) */
	struct dom0_faults faults;
};

/* The layout the runtime derives from the device and the config. */
struct dom0_layout {
	uint64_t aperture_size, ggtt_size;
	uint64_t host_low_base, host_low_size;
	uint64_t guest_low_base, guest_low_size;	/* shared by every vGPU */
	uint64_t pool_base, pool_size;
	uint64_t reserved_base, reserved_size;
	uint64_t host_high_base, host_high_size;
	uint64_t slots_base, slot_size;
	unsigned num_slots;
	unsigned guest_fences;				/* physical fences guests may use */
};

struct dom0_switch_stats {
	int from, to;			/* vGPU ids; 0 = none */
	uint64_t ptes_written, ptes_skipped, ns;
};

struct dom0_vgpu_counters {
	uint64_t gtt_modifications;	/* guest PTE writes accepted */
	uint64_t ladder_mappings;	/* ladder entries changed by them */
	uint64_t rejected;		/* guest operations refused */
	uint64_t fence_writes;		/* guest fence writes accepted */
	uint64_t switches_in;
	uint64_t quanta;
};

struct dom0_counters {
	uint64_t switches;
	uint64_t ptes_written, ptes_skipped;	/* totals over all switches */
	uint64_t invalidates;
	uint64_t pool_allocs, pool_frees, pool_pages_used, pool_pages_peak;
	uint64_t expansions, reductions;
};

struct dom0_runtime;

/* The host's low range when the config leaves it at 0: 64 MiB, a quarter of a smaller aperture. */
uint64_t dom0_default_host_low(uint64_t aperture_size);

/* Start the runtime on an open device; snapshots the physical GTT and fences it will manage. */
int dom0_init(struct hw_device *dev, const struct dom0_config *cfg, struct dom0_runtime **out,
	      struct gtt_err *err);
/*
 * Destroy every vGPU, put the GGTT and fences back byte-identical, read every
 * PTE and fence back against the snapshot, free the runtime. GTT_EIO naming
 * the entries (the first three and how many) that do not read back as found;
 * err may be NULL.
 */
int dom0_fini(struct dom0_runtime *rt, struct gtt_err *err);
const struct dom0_layout *dom0_layout(const struct dom0_runtime *rt);
const struct dom0_counters *dom0_counters(const struct dom0_runtime *rt);
struct hw_device *dom0_device(const struct dom0_runtime *rt);

/* vGPUs: low range (bytes, shared area), high range (slots), guest fences, guest memory pages. */
struct dom0_vgpu_params {
	uint64_t low_size;
	unsigned high_slots;
	unsigned fences;
	unsigned mem_pages;		/* guest memory; default 256 pages */
	bool place;			/* put the high range at at_slot instead of where it shares least */
	unsigned at_slot;
};
int dom0_vgpu_create(struct dom0_runtime *rt, const struct dom0_vgpu_params *p, int *id, struct gtt_err *err);
int dom0_vgpu_destroy(struct dom0_runtime *rt, int id, struct gtt_err *err);
bool dom0_vgpu_exists(const struct dom0_runtime *rt, int id);

/* The vGPU's ranges and memory as the runtime holds them. */
struct dom0_vgpu_info {
	uint64_t low_base, low_size;
	uint64_t high_base, high_size;
	unsigned first_slot, slots;
	unsigned fences, mem_pages;
	uint64_t scratch_phys;		/* its own scratch page */
	bool busy;
	struct dom0_vgpu_counters counters;
};
int dom0_vgpu_info(const struct dom0_runtime *rt, int id, struct dom0_vgpu_info *out);
/* Host page of guest page `gfn`, for checks and tests. */
int dom0_guest_page(const struct dom0_runtime *rt, int id, uint64_t gfn, struct hw_page *out);

/* Guest operations. A guest PTE holds a guest page number in the platform's PTE format. */
int dom0_guest_pte_write(struct dom0_runtime *rt, int id, uint64_t index, uint64_t guest_pte, struct gtt_err *err);
int dom0_guest_pte_read(struct dom0_runtime *rt, int id, uint64_t index, uint64_t *guest_pte, struct gtt_err *err);
int dom0_guest_fence_write(struct dom0_runtime *rt, int id, unsigned fence, uint64_t val, struct gtt_err *err);
int dom0_guest_fence_read(struct dom0_runtime *rt, int id, unsigned fence, uint64_t *val, struct gtt_err *err);
/* 32-bit read of the vGPU's PVINFO page at a byte offset (0x000..0xffc). */
int dom0_pvinfo_read(struct dom0_runtime *rt, int id, uint32_t off, uint32_t *val, struct gtt_err *err);
/* Guest CPU access through its aperture, served by the ladder map (or the fence pool when fenced). */
int dom0_guest_aperture_read(struct dom0_runtime *rt, int id, uint64_t gm, void *buf, size_t len, struct gtt_err *err);
int dom0_guest_aperture_write(struct dom0_runtime *rt, int id, uint64_t gm, const void *buf, size_t len, struct gtt_err *err);
/* The shadow entry (host PTE) of one index, for checks and tests. */
int dom0_shadow_pte(const struct dom0_runtime *rt, int id, uint64_t index, uint64_t *pte, struct gtt_err *err);
/* Which vGPU's entry the physical GTT holds at index (0: none, the boot value). */
int dom0_physical_owner(const struct dom0_runtime *rt, uint64_t index);

/* Context switch: make `to` the render owner, copying only what must change. */
int dom0_switch(struct dom0_runtime *rt, int to, struct dom0_switch_stats *stats, struct gtt_err *err);
int dom0_render_owner(const struct dom0_runtime *rt);

/* Slots. */
unsigned dom0_slot_occupancy(const struct dom0_runtime *rt, unsigned slot);
unsigned dom0_shared_slots(const struct dom0_runtime *rt);	/* slots held by two or more vGPUs */
int dom0_expand(struct dom0_runtime *rt, int id, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);
int dom0_reduce(struct dom0_runtime *rt, int id, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);

/* Scheduler model: busy/idle, and round-robin quanta of DOM0_QUANTUM_MS over busy vGPUs. */
int dom0_set_busy(struct dom0_runtime *rt, int id, bool busy, struct gtt_err *err);
/* The vGPU the scheduler runs next (0 when none is busy); does not switch. */
int dom0_sched_next(const struct dom0_runtime *rt);
/* Run n quanta: pick, switch, account. Calls `on_switch` after each switch when given. */
int dom0_run_quanta(struct dom0_runtime *rt, unsigned n,
		    void (*on_switch)(void *ctx, const struct dom0_switch_stats *s), void *ctx,
		    struct gtt_err *err);
uint64_t dom0_sim_time_ms(const struct dom0_runtime *rt);

#endif
