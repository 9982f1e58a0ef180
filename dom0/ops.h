/* SPDX-License-Identifier: MIT */
/*
 * The runtime's operations that can wait or free (dom0/ops.c): each runs its
 * mechanism, then admission decides (pauses what does not fit, or admits
 * what the operation freed, once it has completed).
 */
#ifndef DOM0_OPS_H
#define DOM0_OPS_H

#include "dom0/vgpu_types.h"
#include "dom0/types.h"

/*
 * Create a vGPU. When its slots or fences do not fit: GTT_EBUSY naming what
 * is short, or with admission on, GTT_OK with the vGPU paused (its id valid,
 * no slots yet, guest writes refused until it is admitted).
 */
int dom0_vgpu_create(struct dom0_runtime *rt, const struct dom0_vgpu_params *p, int *id, struct gtt_err *err);
int dom0_vgpu_destroy(struct dom0_runtime *rt, int id, struct gtt_err *err);
int dom0_guest_fence_write(struct dom0_runtime *rt, int id, unsigned fence, uint64_t val, struct gtt_err *err);
/*
 * Grow / shrink vGPU id's high range by q slots on the sides the selector
 * chooses. An expansion beyond high memory is GTT_EINVAL; one the share
 * limit leaves no room for is GTT_EBUSY, or with admission on GTT_OK with
 * the expansion paused (*left = *right = 0; dom0_vgpu_paused says so).
 */
int dom0_expand(struct dom0_runtime *rt, int id, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);
int dom0_reduce(struct dom0_runtime *rt, int id, unsigned q, unsigned *left, unsigned *right, struct gtt_err *err);
/*
 * Take back what of vGPU id is paused (its expansion or fence write; a paused
 * create goes with dom0_vgpu_destroy): it is dropped from the queue, a request
 * asked over PVINFO is answered WITHDRAWN with its SEQ, and what waited
 * behind it may run. GTT_EINVAL when nothing of it is paused.
 */
int dom0_withdraw(struct dom0_runtime *rt, int id, struct gtt_err *err);
/*
 * A guest's write of a PVINFO word (regs/pvinfo.h, docs/dom0.md): queued
 * while a migration locks its vGPU, else trapped (dom0/pvinfo.c). The
 * request words and GVT-g's guest-writable fields (display_ready,
 * g2v_notify, cursor hot spots, pdp, execlist descriptor) are accepted; any other word is refused (status BAD_WRITE, nothing else
 * changes). GTTLAB_G2V_GM_REQUEST to g2v_notify checks the request: a
 * malformed one (unknown code, Q = 0, Q beyond the slots of high memory) is
 * answered at once with its status and GTT_EINVAL; a valid one becomes
 * pending (status PENDING, the request hook called) until
 * dom0_serve_requests answers it.
 */
int dom0_pvinfo_write(struct dom0_runtime *rt, int id, uint32_t off, uint32_t val, struct gtt_err *err);
/*
 * The runtime's end: every vGPU destroyed (nothing paused is admitted on the
 * way), then dom0_runtime_end: the GGTT and fences put back byte-identical
 * and read back, the runtime freed. GTT_EIO naming the entries (the first
 * three and how many) that do not read back as found; err may be NULL.
 */
int dom0_fini(struct dom0_runtime *rt, struct gtt_err *err);

#endif
