/* SPDX-License-Identifier: MIT */
/* The fence memory space pool (mechanism): guest fences re-homed into the pool. */
#ifndef DOM0_FENCE_POOL_H
#define DOM0_FENCE_POOL_H

#include "dom0/types.h"

int dom0_guest_fence_read(struct dom0_runtime *rt, int id, unsigned fence, uint64_t *val, struct gtt_err *err);

/* ---- dom0/ only ---- */
struct vgpu;
struct pool_fence;
/*
 * A guest's write of fence `fence`: checks it and decodes the value into *pages
 * (0 for a fence turned off); GTT_EINVAL / GTT_ERANGE naming the rule. Changes nothing.
 */
int dom0_fence_check(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, uint64_t *pages,
		     struct gtt_err *err);
/* Turn the guest's fence off (its pool range and physical fence given back). */
void dom0_fence_off(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val);
/* Re-home a checked, valid guest fence into the pool: GTT_ENOMEM / GTT_EBUSY when it does not fit. */
int dom0_fence_now(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, struct gtt_err *err);
bool dom0_pool_fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned fence, uint64_t pages);
/* Release every pool fence of the vGPU. */
void dom0_pool_release_all(struct dom0_runtime *rt, struct vgpu *v);
/* The pool fence covering a guest address, if any. */
struct pool_fence *dom0_pool_fence_at(struct vgpu *v, uint64_t gm);
/* Keep the pool copy of a guest PTE in step with the guest's write. */
int dom0_pool_update_pte(struct dom0_runtime *rt, struct vgpu *v, uint64_t index, uint64_t pte,
			 struct gtt_err *err);

#endif
