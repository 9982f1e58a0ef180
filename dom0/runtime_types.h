/* SPDX-License-Identifier: MIT */
/* The runtime's types (dom0/runtime.h): its config and hooks, the layout it derives, its counters. */
#ifndef DOM0_RUNTIME_TYPES_H
#define DOM0_RUNTIME_TYPES_H

#include "dom0/admission_types.h"
#include "dom0/faults.h"
#include "dom0/migrate_types.h"
#include "dom0/types.h"

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

/* The runtime's counters; each names the part that counts it (dom0/ only: tests/host/check-state.sh). */
struct dom0_counters {
	uint64_t switches;			/* owner: switch.c | reader: * */
	/* totals over all switches: entries written, and entries that already held their value */
	uint64_t ptes_written;			/* owner: switch.c | reader: * */
	uint64_t ptes_skipped;			/* owner: switch.c | reader: * */
	uint64_t invalidates;			/* owner: phys.c | reader: * */
	/* the fence pool: ranges allocated and freed, pages in use now and at most */
	uint64_t pool_allocs;			/* owner: fence_pool.c | reader: * */
	uint64_t pool_frees;			/* owner: fence_pool.c | reader: * */
	uint64_t pool_pages_used;		/* owner: fence_pool.c | reader: * */
	uint64_t pool_pages_peak;		/* owner: fence_pool.c | reader: * */
	/* high ranges grown and shrunk */
	uint64_t expansions;			/* owner: slots.c | reader: * */
	uint64_t reductions;			/* owner: slots.c | reader: * */
	/* switch copy time: measured, or PTEs written x the policy's fixed cost */
	uint64_t copy_ns;			/* owner: switch.c | reader: * */
	/* requests paused by admission, and admitted since */
	uint64_t paused;			/* owner: admission.c | reader: * */
	uint64_t admitted;			/* owner: admission.c | reader: * */
	/* paused requests refused at their deadline, holding the queue */
	uint64_t expired;			/* owner: admission.c | reader: * */
	/* simulated time the admitted ones spent paused */
	uint64_t paused_ms;			/* owner: admission.c | reader: * */
	/* slot to slot, and device to device (counted on both) */
	uint64_t migrations;			/* owner: migrate.c | reader: * */
};

#endif
