/* SPDX-License-Identifier: MIT */
/*
 * Deliberate mediator bugs, for the tests that prove each check and oracle can
 * fail. They exist only in the test build (-DGTTLAB_FAULTS: build/faults/, the
 * Criterion suite, make mutants, make asan): in the shipped gttlab, IGT
 * binaries and gttlab.efi, DOM0_FAULT is the constant 0, so every injection
 * point compiles away and no struct or option of these names is there, as
 * i915 compiles its injection points away without its selftest config.
 * Model faults (checks/test_faults.c, the simulated device's own) are not
 * these: they break the model, never the mediator.
 */
#ifndef DOM0_FAULTS_H
#define DOM0_FAULTS_H

#ifdef GTTLAB_FAULTS
#include <stdbool.h>

struct dom0_faults {
	bool swap_copy_pair;		/* a switch writes two PTEs of its copy swapped */
	bool keep_released_slots;	/* a reduction leaves the released slots mapped */
	bool corrupt_pool_pitch;	/* the pool fence gets the guest's pitch plus 128 bytes */
	bool swap_resize_sides;		/* a resize grows/shrinks on the wrong sides */
	bool no_ladder;			/* guest CPU access goes through the shared aperture, not the ladder map */
	bool policy_ignore_class;	/* the policy approves expansions whatever its class */
	bool policy_reduce_busiest;	/* a mid-class reduction takes the vGPU with the highest utilization */
	bool stale_pvinfo_answer;	/* a resize leaves PVINFO's non-mappable size as it was */
	bool unchecked_request_count;	/* the trap takes Q = 0 or Q beyond high memory as a valid request */
	bool admit_newest;		/* FIFO admits the most recently paused request, not the oldest */
	bool run_paused;		/* the scheduler and dom0_switch run a paused vGPU */
	bool admit_short;		/* an admission runs the chosen request before what it asked for is free */
	bool admit_ignore_held;		/* a place held for a paused create is taken by whatever admission runs next */
	bool migrate_no_release;	/* a slot migration leaves the source slots mapped */
	bool migrate_skip_copy;		/* a device migration does not copy the guest's pages */
	bool migrate_no_rollback;	/* a failed device migration leaves its vGPU on the target */
	bool migrate_drop_queue;	/* the guest writes a migration's lock queued are lost, not forwarded */
	bool shared_scratch;		/* every vGPU's unmapped entries name the first vGPU's scratch page */
	bool accept_pte_outside;	/* a guest PTE outside the vGPU's ranges is written to the physical GTT */
	bool honour_high_fence;		/* a guest fence id at or above its count is taken as id mod count */
	bool pvinfo_slot_too_large;	/* PVINFO advertises a high range one slot larger than the vGPU holds */
	bool pvinfo_of_owner;		/* a PVINFO read answers from the render owner's page, not the reader's */
	bool runs_copy_first;		/* a switch copies only the first run of a vGPU's non-contiguous slots */
	bool pf_overlap;		/* an SR-IOV PF starts each VF after the first one page into the previous one */
	bool pf_untagged_last;		/* the PF writes the last PTE of each VF's range without PRESENT */
	bool pf_keep_released;		/* an SR-IOV PF's release leaves the VF's tags in its range */
};

/* Whether the runtime rt was started with mediator bug `name` (its struct dom0_config's faults). */
#define DOM0_FAULT(rt, name) ((rt)->cfg.faults.name)
#else
#define DOM0_FAULT(rt, name) ((void)(rt), 0)	/* rt named, so no parameter goes unused */
#endif

#endif
