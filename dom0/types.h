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
 * This header holds what every part of dom0/ shares, and nothing that runs:
 * the runtime's limits and a run of slots. Each part has its types beside
 * its API (dom0/runtime_types.h, vgpu_types.h, admission_types.h,
 * migrate_types.h, policy_types.h, switch_types.h, phys_types.h,
 * fence_pool_types.h, pvinfo_types.h, sched_types.h), and declares its
 * operations in a header of its own (dom0/vgpu.h, dom0/slots.h, ...); the
 * members of struct vgpu and struct dom0_runtime (dom0/state_types.h)
 * name the files that may write them (tests/host/check-state.sh);
 * their includes show which part calls which: the
 * mechanisms (vgpu, slots, switch, ladder, fence_pool, guest_gtt, pvinfo)
 * below admission, the operations (ops.h) above it, and the other
 * policies (gm_request, policy, sched, migrate) on top.
 */
#ifndef DOM0_TYPES_H
#define DOM0_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/device.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"

struct dom0_runtime;

#define VGT_PVINFO_WORDS	(VGT_PVINFO_SIZE / 4)

#define DOM0_MAX_VGPUS		65534	/* ids in the owner table's 16 bits (0xffff is the runtime's own); graphics memory runs out long before */
#define DOM0_MAX_GUEST_FENCES	16	/* GVT traps fences 0..15 */
#define DOM0_QUANTUM_MS		16
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

#endif
