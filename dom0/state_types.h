/* SPDX-License-Identifier: MIT */
/*
 * The Dom0 runtime's two structs, seen by the files of dom0/ only. Each
 * member names who may write it: "owner: FILES" (theirs alone; others ask
 * their functions), "| reader: FILES" or "| reader: *" (those may read it);
 * a part's own state is a struct of its _types.h. tests/host/check-state.sh
 * holds every file to it.
 */
#ifndef DOM0_STATE_TYPES_H
#define DOM0_STATE_TYPES_H

#include "dom0/fence_pool_types.h"
#include "dom0/migrate_types.h"
#include "dom0/phys_types.h"
#include "dom0/policy_types.h"
#include "dom0/pvinfo_types.h"
#include "dom0/runtime_types.h"
#include "dom0/sched_types.h"
#include "dom0/vgpu_types.h"
#include "dom0/types.h"

struct vgpu {
	int id;				/* owner: vgpu.c | reader: * */
	/* its low range in the shared area */
	uint64_t low_base;		/* owner: vgpu.c | reader: * */
	uint64_t low_size;		/* owner: vgpu.c | reader: * */
	/* its first slot (one run), and slots held in all */
	unsigned first_slot;		/* owner: slots.c slots_runs.c | reader: * */
	unsigned slots;			/* owner: slots.c slots_runs.c | reader: * */
	/* non-contiguous slots (cfg.slot_runs): 2.. runs, ascending, apart; 0: one run, [first_slot, +slots) */
	unsigned n_runs;		/* owner: slots_runs.c | reader: * */
	struct dom0_run run[DOM0_MAX_RUNS];	/* owner: slots.c slots_runs.c | reader: * */
	unsigned fences;		/* owner: vgpu.c | reader: * */
	unsigned mem_pages;		/* owner: vgpu.c | reader: * */
	/* guest page frame -> host page; mem[mem_pages] is the scratch page */
	struct hw_page *mem;		/* owner: vgpu.c | reader: * */
	/* mem[0..mem_pages) are the caller's (dom0_vgpu_params.mem): not freed here */
	bool mem_given;			/* owner: vgpu.c */
	/* its own scratch page: what its not-present entries map (GVT-g: one per vGPU), and that entry */
	struct hw_page scratch;		/* owner: vgpu.c | reader: * */
	uint64_t scratch_pte;		/* owner: vgpu.c | reader: * */
	/* PTEs as the guest wrote them */
	uint64_t *guest_low;		/* owner: vgpu.c guest_gtt.c slots.c slots_runs.c | reader: * */
	uint64_t *guest_high;		/* owner: vgpu.c guest_gtt.c slots.c slots_runs.c | reader: * */
	/* the private shadow GTT: host PTEs */
	uint64_t *shadow_low;		/* owner: vgpu.c guest_gtt.c slots.c slots_runs.c | reader: * */
	uint64_t *shadow_high;		/* owner: vgpu.c guest_gtt.c slots.c slots_runs.c | reader: * */
	/* guest aperture page -> guest frame behind it, -1: scratch */
	int32_t *ladder;		/* owner: vgpu.c guest_gtt.c slots.c slots_runs.c | reader: * */
	struct dom0_vgpu_fences fence_state;	/* owner: fence_pool.c */
	struct dom0_vgpu_pv pv;		/* owner: pvinfo.c gm_request.c */
	struct dom0_vgpu_sched sched;	/* owner: sched.c */
	struct dom0_vgpu_counters c;	/* fields owned: dom0/vgpu_types.h */
	/* shadow_high entries not on scratch (utilization's numerator) */
	uint64_t high_mapped;		/* owner: vgpu.c guest_gtt.c slots.c slots_runs.c | reader: * */
	/* its share of W (eq. 2), given by the caller */
	uint64_t steal_mpct;		/* owner: policy.c */
	struct dom0_vgpu_admission adm;	/* owner: admission.c | reader: state.c */
	/* creation order: ConVGPU's FIFO admits the oldest created first */
	uint64_t created;		/* owner: vgpu.c | reader: * */
	/* paused create: slots whose place it holds (rt->slot_resv), and the first slot of that run */
	unsigned held_places;		/* owner: admission.c | reader: * */
	unsigned held_first;		/* owner: admission.c | reader: * */
	struct dom0_vgpu_lock migration;	/* owner: migrate.c migrate_queue.c migrate_forward.c */
};

struct dom0_runtime {
	const struct gtt_env *env;
	struct hw_device *dev;		/* owner: runtime.c | reader: * */
	struct dom0_config cfg;		/* owner: runtime.c | reader: * */
	struct dom0_layout lay;		/* owner: runtime.c | reader: * */
	struct dom0_phys mirror;	/* owner: phys.c phys.h */
	struct dom0_fence_pool fence_pool;	/* owner: fence_pool.c */
	/* per slot: the vGPUs whose high range holds it */
	unsigned *slot_occ;		/* owner: slots.c slots_runs.c | reader: * */
	/* per slot: the paused create holding a place in it as it freed (ConVGPU Fig. 3d); 0 none */
	int *slot_resv;			/* owner: admission.c | reader: * */
	/* vGPUs created so far */
	uint64_t create_orders;		/* owner: vgpu.c | reader: * */
	/* indexed by id, 1..n_ids (NULL: free id, reused first); vGPUs do not move */
	struct vgpu **v;		/* owner: vgpu.c | reader: * */
	int n_ids;			/* owner: vgpu.c | reader: * */
	int cap_ids;			/* owner: vgpu.c | reader: * */
	struct dom0_counters c;		/* fields owned: dom0/runtime_types.h */
	/* the simulated clock: DOM0_QUANTUM_MS a quantum the scheduler runs */
	uint64_t sim_ms;		/* owner: state.c */
	struct dom0_sched sched;	/* owner: sched.c */
	struct dom0_policy_state pol;	/* owner: policy.c */
	/* the switches' copy charged at this many ns per PTE written; 0: measured */
	uint64_t copy_cost_ps;		/* owner: switch.c */
	/* c.copy_ns when the current period began */
	uint64_t copy_ns_mark;		/* owner: policy.c */
	struct dom0_requests pv_requests;	/* owner: pvinfo.c */
	struct dom0_channel_stats chan;	/* owner: pvinfo.c gm_request.c admission.c */
	struct dom0_admission_state adm;	/* owner: admission.c | reader: state.c */
	/* the operation under way gave slots, fences or pool pages back (dom0_freed) */
	bool freed;			/* owner: state.c */
};

#define GM_PAGE(gm)	((gm) >> 12)

#endif
