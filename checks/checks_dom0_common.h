/* SPDX-License-Identifier: MIT */
/*
 * What the Dom0 check suites (checks_dom0.c, checks_policy.c, checks_admission.c) share: a
 * runtime started with the run's injected faults and ended with its restore
 * judged, vGPU creation that reports the reason, and PTEs from both sides.
 */
#ifndef CHECKS_CHECKS_DOM0_COMMON_H
#define CHECKS_CHECKS_DOM0_COMMON_H

#include "dom0/dom0.h"
#include "checks/check.h"

struct dck_rt {
	struct dom0_runtime *rt;
	struct gtt_err err;
};

/* dom0_init with the run's faults; CHECK_PASS or the error as the check's result. */
enum check_status dck_start(struct check_ctx *c, struct dom0_config *cfg, struct dck_rt *r);
/* The same on another device (a migration's target). */
enum check_status dck_start_on(struct check_ctx *c, struct hw_device *dev, struct dom0_config *cfg, struct dck_rt *r);
/* End the runtime; a restore that does not read back makes the runner's result an abort. Returns st. */
enum check_status dck_stop(struct check_ctx *c, struct dck_rt *r, enum check_status st);
/* A vGPU with 32 pages of memory at slot `at` (or placed by the runtime when at < 0); reports a refusal. */
int dck_create(struct check_ctx *c, struct dck_rt *r, uint64_t low, unsigned slots, unsigned fences, int at, int *id);
/* A guest PTE naming guest frame gfn. */
uint64_t dck_guest_pte(struct check_ctx *c, uint64_t gfn);
/* The physical PTE at index, read back through hw/. */
uint64_t dck_phys_pte(struct check_ctx *c, uint64_t index);

/* A PVINFO word of vGPU id (reg: the register's MMIO address). */
uint32_t dck_pv(struct dck_rt *r, int id, uint32_t reg);
/*
 * PVINFO, the shadow and the physical GTT agree for vGPU id: the
 * non-mappable base/size are its high range, SLOTS its slot count; after a
 * switch to it every physical PTE of its ranges equals its shadow entry, and
 * the mapped ones among its first 32 guest frames name its own pages.
 */
enum check_status dck_agree(struct check_ctx *c, struct dck_rt *r, int id);
/* The same for a runtime on another device (a migration's target). */
enum check_status dck_agree_on(struct check_ctx *c, struct hw_device *dev, struct dck_rt *r, int id);

#endif
