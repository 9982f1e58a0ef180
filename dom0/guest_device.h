/* SPDX-License-Identifier: MIT */
/*
 * A vGPU of our own Dom0 runtime, opened as a device (design.md, "A vGPU is
 * also a device"): vgpu:sim[:PLATFORM][,KEY=VALUE...] opens the model as the
 * host, starts the runtime on it, creates the guest's vGPU beside busy peers,
 * and gives hw/ the guest's view with GVT-g's semantics (docs/hardware.md
 * §6.3): every access goes through the runtime's traps; only read-only
 * register reads reach the host.
 */
#ifndef DOM0_GUEST_DEVICE_H
#define DOM0_GUEST_DEVICE_H

#include "hw/backend.h"

struct dom0_runtime;
struct hw_device;

/*
 * Opens "vgpu:sim[:PLATFORM[,edram]][,KEY=VALUE...]": tokens after "vgpu:"
 * split on ','; one with '=' is an option of the vGPU, any other belongs to
 * the host spec, which must be named before the first option. Options:
 * low=MIB (the guest's aperture slice, default 32), high=SLOTS (1),
 * fences=N (4), mem=PAGES (its memory, 1024), peers=N (busy peer vGPUs, 2),
 * switch=N (the host switches the render owner every N trapped guest
 * accesses, round-robin over guest and peers, 16; 0 never), migrate=N (the
 * host moves the guest's high range every N reads of PVINFO's EPOCH, 4; 0
 * never), hog=N (exclusive slots, FIFO admission and tenants beside the
 * guest released every N traps while a request waits; 0, off), move=N (the
 * host moves the guest to a spare model and back every N EPOCH reads; 0).
 * opts->host_faults, when set, is the runtime's struct dom0_faults.
 */
extern const struct hw_backend_factory dom0_guest_device_backend;

/*
 * Behind a vgpu: device, for tests and checks that look at the host side:
 * the host runtime (its device, dom0_device(), is the model with its trace)
 * and, in *guest_id when given, the guest's vGPU id. NULL when dev is no
 * vgpu: device.
 */
struct dom0_runtime *dom0_guest_device_runtime(struct hw_device *dev, int *guest_id);

/*
 * The busy peers' vGPU ids behind a vgpu: device: how many there are (0 for
 * any other device); the first `max` of them in ids.
 */
unsigned dom0_guest_device_peers(struct hw_device *dev, int *ids, unsigned max);

/* A vGPU of a runtime someone else runs, served as a device (dom0_guest_view_open). */
struct dom0_guest_view_params {
	uint64_t low_size;		/* its aperture slice, bytes */
	unsigned high_slots, fences;
	unsigned mem_pages;		/* its memory: the pages in ram */
	const struct hw_page *ram;	/* mem_pages test pages of host, the caller's (a VM's RAM) */
	unsigned migrate;		/* as vgpu:'s migrate=: EPOCH reads between moves of its high range; 0 never */
};

/*
 * The guest view of vgpu: over a runtime the caller runs on host (`gttlab
 * dom0 serve`: one runtime, a view per guest): creates the vGPU on ram and
 * gives its operations table and context, the same traps, config space,
 * aperture, GPU side and host audit (its peers are the runtime's other
 * vGPUs, whose fences the audit leaves to them). *id is the vGPU's id.
 * ops->close destroys the vGPU (what it held goes back) and leaves host,
 * runtime and ram to the caller. Never switches the render owner on its own.
 */
int dom0_guest_view_open(const struct gtt_env *env, struct hw_device *host, struct dom0_runtime *rt,
			 const struct dom0_guest_view_params *p, const struct hw_backend_ops **ops, void **ctx, int *id,
			 struct gtt_err *err);

#endif
