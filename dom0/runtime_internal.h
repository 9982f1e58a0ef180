/* SPDX-License-Identifier: MIT */
/* State of the Dom0 runtime, shared by the files of dom0/ only. */
#ifndef DOM0_RUNTIME_INTERNAL_H
#define DOM0_RUNTIME_INTERNAL_H

#include "dom0/dom0.h"

/* A guest fence re-homed into the fence memory space pool. */
struct pool_fence {
	bool active;
	unsigned phys;			/* physical fence register */
	uint64_t pool_gm;		/* its range in the pool */
	uint64_t pages;
	uint64_t guest_gm;		/* the guest's fenced range */
};

struct vgpu {
	int id;
	uint64_t low_base, low_size;
	unsigned first_slot, slots;
	unsigned fences, mem_pages;
	struct hw_page *mem;		/* guest page frame -> host page; mem[mem_pages] is the scratch page */
	struct hw_page scratch;		/* its own scratch page: what its not-present entries map (GVT-g: one per vGPU) */
	uint64_t scratch_pte;
	uint64_t *guest_low, *guest_high;	/* PTEs as the guest wrote them */
	uint64_t *shadow_low, *shadow_high;	/* the private shadow GTT: host PTEs */
	int32_t *ladder;		/* guest aperture page -> guest frame behind it, -1: scratch */
	uint64_t gfence[DOM0_MAX_GUEST_FENCES];
	struct pool_fence pf[DOM0_MAX_GUEST_FENCES];
	uint32_t pvinfo[VGT_PVINFO_WORDS];
	bool busy;
	struct dom0_vgpu_counters c;
	uint64_t high_mapped;		/* shadow_high entries not on scratch (utilization's numerator) */
	uint64_t steal_mpct;		/* its share of W (eq. 2), given by the caller */
	uint64_t req_arrival;		/* pending request's arrival number; 0: none pending */
	uint32_t req_code, req_count, req_seq;	/* the pending request, latched at the notify (the guest may rewrite the words) */
	uint32_t evictions;		/* the eviction count it reported last */
	struct vgpu_pause {
		enum dom0_pause kind;
		unsigned slots;		/* create: its high slots; expand: Q */
		unsigned fence;		/* fence: which, and the value the guest wrote */
		uint64_t val;
		bool channel;		/* an expansion asked over PVINFO: answered when it runs */
		uint32_t seq;
		uint64_t since_ms, order;
	} pause;
	bool fences_reserved;		/* admission: its fence registers are counted in rt->fences_reserved */
	bool migrating;			/* locked by a migration: guest operations refused */
	uint64_t paused_ms;		/* time paused, pauses that ended */
};

struct dom0_runtime {
	const struct gtt_env *env;
	struct hw_device *dev;
	struct dom0_config cfg;
	struct dom0_layout lay;
	size_t undo_mark;		/* hw's undo log as found; the runtime restores from `orig` */
	/* the ranges it manages: guest low area and pool, and the slots (PTE indexes [first, end)) */
	uint64_t managed[2][2];
	/*
	 * Per chunk of DOM0_CHUNK PTEs, loaded at its first write: `orig`, the
	 * entries as found (read from the device once), then `cur`, what the
	 * physical GTT holds (written by the runtime only, never read back to
	 * decide). NULL: never touched, so still as found.
	 */
	uint64_t **chunk;
	uint64_t n_chunks;
	uint64_t orig_fence[I915_MAX_NUM_FENCES];
	uint16_t *owner;		/* per PTE: the vGPU whose entry the physical GTT holds, 0 none */
	uint16_t *chunk_owner;		/* per DOM0_CHUNK PTEs: the vGPU that holds all of them, 0 mixed or none */
	bool fence_used[I915_MAX_NUM_FENCES];
	uint8_t *pool_map;		/* one byte per pool page: 1 = in use */
	uint64_t pool_pages;
	unsigned *slot_occ;
	struct vgpu **v;		/* indexed by id, 1..n_ids (NULL: free id, reused first); vGPUs do not move */
	int n_ids, cap_ids;
	int render_owner;
	struct dom0_counters c;
	uint64_t sim_ms;
	struct dom0_policy_state pol;
	uint64_t copy_ns_mark;		/* c.copy_ns when the current period began */
	uint64_t req_arrivals;		/* requests made pending so far */
	unsigned n_pending;
	/* admission (dom0/admission.c) */
	unsigned n_paused;
	uint64_t pause_orders;		/* pauses so far: each pause's order */
	int admit_head;			/* the request the policy chose, keeping what frees; 0 none */
	bool admitting;			/* inside admission's run of a paused request (faults.admit_short) */
	bool in_admit;			/* inside admission (dom0_op_done): what its runs free is its own loop's to take */
	bool freed;			/* the operation under way gave slots, fences or pool pages back */
	unsigned fences_reserved;	/* fence registers the admitted vGPUs hold */
	uint64_t rand_state;
};

#define GM_PAGE(gm)	((gm) >> 12)
#define DOM0_CHUNK	512u		/* PTEs per snapshot chunk: 4 KiB of gen8 GSM */

struct vgpu *dom0_vgpu_get(struct dom0_runtime *rt, int id, struct gtt_err *err);
uint64_t dom0_high_base(const struct dom0_runtime *rt, const struct vgpu *v);
uint64_t dom0_high_size(const struct dom0_runtime *rt, const struct vgpu *v);
/*
 * Make physical PTEs [first, first + n) hold `ptes`, owned by `owner`: only the
 * entries whose value differs from what the GTT holds (the mirror `cur`) are
 * written, in runs, without the undo log. *written (if given) grows by how many.
 */
int dom0_phys_write(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *ptes, int owner,
		    uint64_t *written, struct gtt_err *err);
/* Whether vGPU `id` holds every entry of the chunk starting at `first` (a chunk boundary). */
bool dom0_chunk_held(const struct dom0_runtime *rt, uint64_t first, int id);
/* Put physical PTEs back to their boot values where `owner` holds them (writing only those that differ); returns how many it held. */
uint64_t dom0_phys_release(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner);
void dom0_invalidate(struct dom0_runtime *rt);
/* Copy the vGPU's shadow into the physical GTT where it does not hold its entries yet, then invalidate. */
int dom0_copy_in(struct dom0_runtime *rt, struct vgpu *v, struct dom0_switch_stats *s, struct gtt_err *err);
/* Forget hw's undo entries made since init (the runtime restores from its own snapshot). */
void dom0_undo_settle(struct dom0_runtime *rt);
/* High-range tables for `slots` slots, every shadow entry on `scratch_pte`. */
int dom0_alloc_high(struct dom0_runtime *rt, unsigned slots, uint64_t scratch_pte, uint64_t **guest, uint64_t **shadow);
void dom0_pvinfo_fill(struct dom0_runtime *rt, struct vgpu *v);
/* After a change of the high range: PVINFO's non-mappable base and size, slots held, epoch + 1. */
void dom0_pvinfo_ranges(struct dom0_runtime *rt, struct vgpu *v);
/* Set the request channel's status words: `status` answering `seq`. */
void dom0_gm_answer(struct vgpu *v, uint32_t status, uint32_t seq);
/* Whether an expansion is approved now (the policy's class; no policy: always). */
bool dom0_policy_approves(const struct dom0_runtime *rt);
/* Recount shadow_high entries off scratch. */
void dom0_recount_mapped(const struct dom0_runtime *rt, struct vgpu *v);
/* Admission (dom0/admission.c). */
bool dom0_admission_on(const struct dom0_runtime *rt);
/* Where S slots go: least shared, every slot under the share limit; -1 none. */
int dom0_place_slots(const struct dom0_runtime *rt, unsigned S);
/* Whether the new slots of an expansion by L left and R right are all under the share limit. */
bool dom0_sides_fit(const struct dom0_runtime *rt, const struct vgpu *v, unsigned L, unsigned R);
/* Pause what of v does not fit; the caller has filled v->pause's request fields. */
void dom0_pause(struct dom0_runtime *rt, struct vgpu *v, enum dom0_pause kind);
/* A paused vGPU that goes away. */
void dom0_pause_drop(struct dom0_runtime *rt, struct vgpu *v);
/*
 * A mechanism gave slots, fence registers or pool pages back. It only says
 * so: admission (a policy) acts when the public operation has completed
 * (dom0_op_done), never inside the mechanism, so no admission can re-enter
 * an operation half done.
 */
static inline void dom0_freed(struct dom0_runtime *rt)
{
	rt->freed = true;
}
/*
 * The end of a public operation that may free (destroy, reduce, a guest
 * fence write, a migration, a withdrawal): when it freed anything, admission
 * runs now. Returns rc, or admission's own error when rc was GTT_OK.
 */
int dom0_op_done(struct dom0_runtime *rt, int rc, struct gtt_err *err);
/* The parts admission runs (slots.c, vgpu.c, fence_pool.c): GTT_EBUSY when it does not fit. */
int dom0_expand_now(struct dom0_runtime *rt, struct vgpu *v, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);
int dom0_place_now(struct dom0_runtime *rt, struct vgpu *v, unsigned slots, int at, struct gtt_err *err);
int dom0_fence_now(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, struct gtt_err *err);
bool dom0_pool_fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned fence, uint64_t pages);
/* The vGPU a guest operation names: not paused in its create. */
struct vgpu *dom0_guest_vgpu(struct dom0_runtime *rt, int id, struct gtt_err *err);
/* dom0_guest_vgpu's refusal: GTT_EBUSY for a paused vGPU, GTT_EINVAL for no vGPU. */
static inline int dom0_no_guest(const struct dom0_runtime *rt, int id)
{
	return dom0_vgpu_exists(rt, id) ? GTT_EBUSY : GTT_EINVAL;
}

/* Release every pool fence of the vGPU. */
void dom0_pool_release_all(struct dom0_runtime *rt, struct vgpu *v);
/* The pool fence covering a guest address, if any. */
struct pool_fence *dom0_pool_fence_at(struct vgpu *v, uint64_t gm);
/* Keep the pool copy of a guest PTE in step with the guest's write. */
int dom0_pool_update_pte(struct dom0_runtime *rt, struct vgpu *v, uint64_t index, uint64_t pte,
			 struct gtt_err *err);

#endif
