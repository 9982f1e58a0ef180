/* SPDX-License-Identifier: MIT */
/* Migration (policy, VOCL): a vGPU moved to other slots or another device. */
#ifndef DOM0_MIGRATE_H
#define DOM0_MIGRATE_H

#include "dom0/migrate_types.h"
#include "dom0/vgpu_types.h"
#include "dom0/types.h"

/*
 * Move vGPU id's high range to start at slot to_slot (the same count),
 * VOCL's steps. GTT_EINVAL when the run does not fit high memory or is
 * where it is; GTT_EBUSY when a slot of it is at the share limit, or the
 * vGPU is paused or migrating. Nothing changes on a refusal or a rollback.
 */
int dom0_migrate(struct dom0_runtime *rt, int id, unsigned to_slot, struct dom0_migration *out, struct gtt_err *err);
/*
 * Move vGPU id from runtime src to runtime dst (another device) with its
 * guest memory, shadow, fences and PVINFO; *new_id is its id there. On any
 * failure before the source is released the target is put back and the
 * vGPU stays on the source as it was.
 */
int dom0_migrate_device(struct dom0_runtime *src, int id, struct dom0_runtime *dst, int *new_id,
			struct dom0_migration *out, struct gtt_err *err);
/*
 * The same onto guest memory the caller owns on dst's device (mem: the
 * vGPU's mem_pages pages, dom0_vgpu_params.mem), as a hypervisor that
 * brings the VM's RAM along gives it; NULL: the target allocates.
 */
int dom0_migrate_device_onto(struct dom0_runtime *src, int id, struct dom0_runtime *dst, const struct hw_page *mem,
			     int *new_id, struct dom0_migration *out, struct gtt_err *err);
const char *dom0_migrate_step_name(enum dom0_migrate_step s);	/* "lock", "drain", ... */

#endif
