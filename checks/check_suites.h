/* SPDX-License-Identifier: MIT */
/* The files of checks: each exports its rows of the check table (checks/check_table.c). */
#ifndef CHECKS_CHECK_SUITES_H
#define CHECKS_CHECK_SUITES_H

#include "checks/check.h"

extern const struct check_rows checks_ggtt;
extern const struct check_rows checks_fence;
extern const struct check_rows checks_dom0;
extern const struct check_rows checks_slot_runs;
extern const struct check_rows checks_policy;
extern const struct check_rows checks_admission;
extern const struct check_rows checks_migration;
extern const struct check_rows checks_guest;
extern const struct check_rows checks_guest_outside;
extern const struct check_rows checks_guest_resize;
extern const struct check_rows checks_guest_migrate;
extern const struct check_rows checks_vf;
extern const struct check_rows checks_pf;

/*
 * Shared with the guest suite: a CHECK_SURF_PAGES-page surface at GGTT gm,
 * already mapped to pg, through `fence` (X or Y tiling, pitch): read and
 * written linearly through the aperture against the reference tile layout.
 */
#define CHECK_SURF_PAGES 16
enum check_status check_fence_surface(struct check_ctx *c, unsigned fence, uint64_t gm, const struct hw_page *pg, bool y,
				      uint32_t pitch);

#endif
