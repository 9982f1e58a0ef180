/* SPDX-License-Identifier: MIT */
/* A vGPU's types (dom0/vgpu.h, dom0/ops.h): its parameters, what of it is paused, its counters and its info. */
#ifndef DOM0_VGPU_TYPES_H
#define DOM0_VGPU_TYPES_H

#include "dom0/admission_types.h"
#include "dom0/types.h"


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

/*
 * A vGPU's counters; each names the part that counts it (dom0/ only: tests/host/check-state.sh),
 * but `rejected`, which every part that refuses a guest's operation counts.
 */
struct dom0_vgpu_counters {
	/* guest PTE writes accepted, and the ladder entries they changed */
	uint64_t gtt_modifications;	/* owner: guest_gtt.c | reader: * */
	uint64_t ladder_mappings;	/* owner: guest_gtt.c | reader: * */
	uint64_t rejected;		/* guest operations refused */
	/* guest fence writes accepted */
	uint64_t fence_writes;		/* owner: fence_pool.c | reader: * */
	uint64_t switches_in;		/* owner: switch.c | reader: * */
	uint64_t quanta;		/* owner: sched.c | reader: * */
	/* its paused requests taken back before they ran, and refused at their deadline (config.admit_deadline_ms) */
	uint64_t withdrawn;		/* owner: admission.c | reader: * */
	uint64_t expired;		/* owner: admission.c | reader: * */
	/* guest writes a migration's lock queued (forwarded at the unlock), and of those refused where they went */
	uint64_t queued;		/* owner: migrate_queue.c | reader: * */
	uint64_t forward_refused;	/* owner: migrate_forward.c | reader: * */
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

#endif
