/* SPDX-License-Identifier: MIT */
/* The check functions, one per table entry in checks/check_table.c. */
#ifndef CHECKS_CHECK_SUITES_H
#define CHECKS_CHECK_SUITES_H

#include "checks/check.h"

enum check_status check_pte_readback(struct check_ctx *c);
enum check_status check_high_address_bits(struct check_ctx *c);
enum check_status check_invalidate(struct check_ctx *c);
enum check_status check_scratch_fill(struct check_ctx *c);
enum check_status check_guard_page(struct check_ctx *c);
enum check_status check_aperture_rw(struct check_ctx *c);
enum check_status check_aperture_alias(struct check_ctx *c);
enum check_status check_fence_readback(struct check_ctx *c);
enum check_status check_fence_x_detile(struct check_ctx *c);
enum check_status check_fence_y_detile(struct check_ctx *c);
enum check_status check_fence_disable_linear(struct check_ctx *c);
enum check_status check_fence_write_order(struct check_ctx *c);
enum check_status check_shadow_copy_switch(struct check_ctx *c);
enum check_status check_shadow_copy_ladder(struct check_ctx *c);
enum check_status check_fence_pool_guest_fence(struct check_ctx *c);
enum check_status check_slot_resize_algorithm(struct check_ctx *c);
enum check_status check_slot_resize_release(struct check_ctx *c);
enum check_status check_slot_resize_runs(struct check_ctx *c);
enum check_status check_slot_policy_channel(struct check_ctx *c);
enum check_status check_slot_policy_classes(struct check_ctx *c);
enum check_status check_admission_policies(struct check_ctx *c);
enum check_status check_admission_channel(struct check_ctx *c);
enum check_status check_migration_slots(struct check_ctx *c);
enum check_status check_migration_device(struct check_ctx *c);
enum check_status check_guest_pvinfo(struct check_ctx *c);
enum check_status check_guest_pte_ranges(struct check_ctx *c);
enum check_status check_guest_data_paths(struct check_ctx *c);
enum check_status check_guest_fences(struct check_ctx *c);
enum check_status check_guest_outside(struct check_ctx *c);
enum check_status check_guest_resize(struct check_ctx *c);
enum check_status check_guest_migration(struct check_ctx *c);

/*
 * Shared with the guest suite: a CHECK_SURF_PAGES-page surface at GGTT gm,
 * already mapped to pg, through `fence` (X or Y tiling, pitch): read and
 * written linearly through the aperture against the reference tile layout.
 */
#define CHECK_SURF_PAGES 16
enum check_status check_fence_surface(struct check_ctx *c, unsigned fence, uint64_t gm, const struct hw_page *pg, bool y,
				      uint32_t pitch);

#endif
