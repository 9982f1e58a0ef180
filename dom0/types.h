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
 *
 * This header holds the data every part of dom0/ shares, and nothing that
 * runs: the configuration, the layout, the counters, a vGPU's parameters
 * and info, a migration's report, the policy's state.
 * Each part declares its operations in a header of its own (dom0/vgpu.h,
 * dom0/slots.h, ...); their includes show which part calls which: the
 * mechanisms (vgpu, slots, switch, ladder, fence_pool, guest_gtt, pvinfo)
 * below admission, the operations (ops.h) above it, and the other
 * policies (gm_request, policy, sched, migrate) on top.
 */
#ifndef DOM0_TYPES_H
#define DOM0_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dom0/faults.h"
#include "hw/device.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"

struct dom0_runtime;

#define VGT_PVINFO_WORDS	(VGT_PVINFO_SIZE / 4)

#define DOM0_MAX_VGPUS		65534	/* ids in the owner table's 16 bits (0xffff is the runtime's own); graphics memory runs out long before */
#define DOM0_MAX_GUEST_FENCES	16	/* GVT traps fences 0..15 */
#define DOM0_QUANTUM_MS		16
/*
 * How long a paused expansion or guest fence write may hold admission's queue
 * (nothing else runs before it) without fitting, in the runtime's clock: then
 * it is refused with its own answer and the queue moves on
 * (config.admit_deadline_ms; dom0/admission.c).
 */
#define DOM0_ADMIT_DEADLINE_MS	2000
#define DOM0_MAX_RUNS		8	/* non-contiguous slots: runs of a vGPU's high memory (PVINFO has words for 8) */
/*
 * Slots a layout may have: dom0_init refuses a layout with more, so every
 * table of the runtime indexed by slot (its own, or on the stack) is
 * DOM0_MAX_SLOTS long. With non-contiguous slots (config.slot_runs >= 2) at
 * most DOM0_MAX_RUN_SLOTS: the generalised Algorithm 1's table grows with M
 * (dom0/slots_pick.h).
 */
#define DOM0_MAX_SLOTS		1024
#define DOM0_MAX_RUN_SLOTS	256

/* A run of slots: [first, first + n). */
struct dom0_run {
	unsigned first, n;
};

/*
 * Admission (ConVGPU §III-C): with a policy, a create, an expansion or a
 * guest fence that does not fit is paused instead of refused, and every
 * release (destroy, reduce, a fence given back, a migration) lets the policy
 * choose a paused request: FIFO the oldest created, BF the one whose need is closest
 * to the free memory without exceeding it (else the least short), RU the
 * most recently paused, RAND one at random from the config's seed. A
 * chosen create holds the places that free in its best run of slots until
 * the run is whole, then runs; what it cannot use goes to the next choice
 * (dom0/admission.c). While any request is paused, new ones queue behind
 * it. A paused vGPU is never switched in.
 */
enum dom0_admission { DOM0_ADMIT_OFF, DOM0_ADMIT_FIFO, DOM0_ADMIT_BF, DOM0_ADMIT_RU, DOM0_ADMIT_RAND };

/* A migration's steps (VOCL), in order; dom0/migrate.c says what each does here. */
enum dom0_migrate_step {
	DOM0_MIGRATE_LOCK, DOM0_MIGRATE_DRAIN, DOM0_MIGRATE_SELECT, DOM0_MIGRATE_TRANSFER, DOM0_MIGRATE_MAP,
	DOM0_MIGRATE_RELEASE, DOM0_MIGRATE_UNLOCK,
};
#define DOM0_MIGRATE_STEPS	7
/* Guest writes a migration's lock queues (VOCL's internal queue), and the aperture bytes they carry; past either, GTT_EBUSY. */
#define DOM0_MIGRATE_QUEUE		1024
#define DOM0_MIGRATE_QUEUE_BYTES	(1u << 20)


/*
 * Called after each step of a migration, on the source runtime, for tests
 * and checks: a non-zero return is a failure at that step, which rolls the
 * migration back (before RELEASE; after it the return is ignored).
 */
struct dom0_migrate_hooks {
	int (*after_step)(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s);
	void *ctx;
};

/*
 * A guest request arrived over PVINFO (the g2v_notify trap accepted it as
 * pending). Called inside dom0_pvinfo_write, before it returns; a hosted
 * service rings its doorbell here. Never calls back into the runtime.
 */
struct dom0_hooks {
	void (*request)(void *ctx, int id, unsigned code, unsigned count);
	void *ctx;
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
	unsigned share_limit;		/* at most this many vGPUs hold a slot; 0: no limit (gScale); 1: GVT-g's partitioning */
	/*
	 * Non-contiguous slots (gBalloon §6): a vGPU's high memory in up to this
	 * many runs (2..DOM0_MAX_RUNS; at most 256 slots), placed and resized by
	 * the generalised Algorithm 1 (dom0/slots_pick.h). 0 or 1: one run, grown
	 * and shrunk at both ends as the paper's.
	 */
	unsigned slot_runs;
	enum dom0_admission admission;	/* DOM0_ADMIT_OFF: what does not fit is refused */
	uint64_t admit_deadline_ms;	/* a queue-holding pause refused after this long; 0: DOM0_ADMIT_DEADLINE_MS */
	uint64_t seed;			/* DOM0_ADMIT_RAND's choices */
	struct dom0_hooks hooks;
	struct dom0_migrate_hooks migrate_hooks;
#ifdef GTTLAB_FAULTS
	struct dom0_faults faults;	/* the test build's deliberate mediator bugs (dom0/faults.h) */
#endif
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
	uint64_t withdrawn;		/* its paused requests taken back before they ran */
	uint64_t expired;		/* its paused requests refused at their deadline (config.admit_deadline_ms) */
	uint64_t queued;		/* guest writes a migration's lock queued (forwarded at the unlock) */
	uint64_t forward_refused;	/* of those, refused where they were forwarded */
};

struct dom0_counters {
	uint64_t switches;
	uint64_t ptes_written, ptes_skipped;	/* totals over all switches */
	uint64_t invalidates;
	uint64_t pool_allocs, pool_frees, pool_pages_used, pool_pages_peak;
	uint64_t expansions, reductions;
	uint64_t copy_ns;			/* switch copy time: measured, or PTEs written x the policy's fixed cost */
	uint64_t paused, admitted;		/* requests paused by admission, and admitted since */
	uint64_t expired;			/* paused requests refused at their deadline, holding the queue */
	uint64_t paused_ms;			/* simulated time the admitted ones spent paused */
	uint64_t migrations;			/* slot to slot, and device to device (counted on both) */
};




/* What of a vGPU waits for admission. */
enum dom0_pause { DOM0_PAUSE_NONE, DOM0_PAUSE_CREATE, DOM0_PAUSE_EXPAND, DOM0_PAUSE_FENCE };

/* vGPUs: low range (bytes, shared area), high range (slots), guest fences, guest memory pages. */
struct dom0_vgpu_params {
	uint64_t low_size;
	unsigned high_slots;
	unsigned fences;
	unsigned mem_pages;		/* guest memory; default 256 pages */
	/*
	 * The guest memory when its owner is not the runtime (a VM's RAM is the
	 * hypervisor's): mem_pages test pages of the runtime's device, the
	 * caller's to free after the vGPU is gone. NULL: the runtime allocates.
	 */
	const struct hw_page *mem;
	bool place;			/* put the high range at at_slot instead of where it shares least */
	unsigned at_slot;
};

/* The vGPU's ranges and memory as the runtime holds them. */
struct dom0_vgpu_info {
	uint64_t low_base, low_size;
	uint64_t high_base, high_size;
	unsigned first_slot, slots;	/* its first slot, and how many it holds in all */
	unsigned n_runs;		/* runs its slots are in (0: none); high_base/size are the first run's */
	struct dom0_run runs[DOM0_MAX_RUNS];
	unsigned fences, mem_pages;
	uint64_t scratch_phys;		/* its own scratch page */
	bool busy;
	enum dom0_pause paused;		/* what of it waits for admission */
	unsigned pause_fence;		/* paused == DOM0_PAUSE_FENCE: which fence, and the value written */
	uint64_t pause_val;
	/* its request over PVINFO that waits for an answer: pending, or a paused expansion (answered when it runs) */
	bool req_waiting, req_paused;
	uint32_t req_seq, req_code, req_count;
	uint64_t paused_ms;		/* time spent paused so far, the current pause included */
	struct dom0_vgpu_counters counters;
};

/* What a migration did. */
struct dom0_migration {
	unsigned from_slot, to_slot;
	bool drained;			/* it was the render owner and was switched away */
	uint64_t ptes_released;		/* physical entries of the source put back (slot to slot) */
	uint64_t ptes_mapped;		/* guest PTEs written again on the target (device to device) */
	uint64_t bytes_copied;		/* guest memory copied into the target's pages */
	unsigned fences_moved;
	unsigned forwarded;		/* guest writes queued while it was locked, forwarded at the unlock */
	unsigned forward_refused;	/* of those, refused where they went (counted in its `rejected` too) */
	uint64_t ns;
	/* each step's time, from the end of the step before (VOCL's Figure 8 breakdown); test hooks' time excluded */
	uint64_t step_ns[DOM0_MIGRATE_STEPS];
	uint64_t mark_ns;		/* the migration's own: when its last step ended */
};

/*
 * gBalloon's resizing policy (§3.1-3.2). Every period of the caller's clock,
 * f(W, R_copy) = alpha * W + beta * R_copy is computed and classified: below
 * `low`, every expansion is approved and nothing is reduced; from `low` to
 * `high`, expansions are approved and the vGPU with the most slots and the
 * lowest utilization (valid non-scratch entries / entries of its high range)
 * loses one slot; above `high`, expansions are refused and two 64 MiB slots'
 * worth of graphics memory is taken from the vGPUs holding most, regardless
 * of utilization. Fixed point: W and R_copy in milli-percent, alpha, beta,
 * f and the thresholds in millionths.
 */
enum dom0_policy_class { DOM0_CLASS_LOW, DOM0_CLASS_MID, DOM0_CLASS_HIGH };

struct dom0_policy {
	uint64_t alpha_u, beta_u;	/* per percent, x 1e6; 0: 1 / (200% x vGPUs) and 1 / 100% (each term's ceiling) */
	uint64_t low_u, high_u;		/* thresholds x 1e6; 0: 0.5 and 1.0, the paper's */
	uint64_t period_ms;		/* 0: 500 */
	unsigned cpus;			/* N of eq. 1; 0: 1 */
	uint64_t copy_ns_per_pte;	/* 0: R_copy from the switches' measured time; else PTEs written x this (exact) */
	unsigned min_slots;		/* a reduction never leaves a vGPU fewer; 0: 1 */
	unsigned evict_slots;		/* slots a rising eviction count asks for; 0: 1 */
};

struct dom0_policy_state {
	bool enabled;
	struct dom0_policy p;		/* with the defaults filled in */
	enum dom0_policy_class cls;
	uint64_t f_u, w_mpct, rcopy_mpct;	/* of the last period */
	uint64_t periods, next_ms;
	uint64_t requests, granted, refused_policy, refused_room, malformed, noted;
	uint64_t withdrawn;		/* requests the guest took back (pending or paused) before their answer */
	uint64_t policy_reductions, evict_expansions;
	int last_reduced;		/* vGPU the last policy reduction took from; 0 none */
};

#endif
