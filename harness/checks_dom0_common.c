/* SPDX-License-Identifier: MIT */
/* The Dom0 check suites' shared steps (checks_dom0_common.h). */
#include "harness/checks_dom0_common.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

enum check_status dck_start(struct check_ctx *c, struct dom0_config *cfg, struct dck_rt *r)
{
	cfg->faults = c->faults ? c->faults->dom0 : (struct dom0_faults){ 0 };
	if (dom0_init(c->dev, cfg, &r->rt, &r->err))
		return ck_error(c, "starting the Dom0 runtime", &r->err);
	return CHECK_PASS;
}

enum check_status dck_stop(struct check_ctx *c, struct dck_rt *r, enum check_status st)
{
	struct gtt_err err = { 0 };

	if (dom0_fini(r->rt, &err))
		ck_unrestored(c, "the Dom0 runtime's restore", &err);
	return st;
}

int dck_create(struct check_ctx *c, struct dck_rt *r, uint64_t low, unsigned slots, unsigned fences, int at, int *id)
{
	struct dom0_vgpu_params p = { .low_size = low, .high_slots = slots, .fences = fences, .mem_pages = 32,
				      .place = at >= 0, .at_slot = at >= 0 ? (unsigned)at : 0 };
	int rc = dom0_vgpu_create(r->rt, &p, id, &r->err);

	if (rc)
		ck_error(c, "creating a vGPU", &r->err);
	return rc;
}

uint64_t dck_guest_pte(struct check_ctx *c, uint64_t gfn)
{
	uint64_t pte = 0;

	hw_pte_encode(c->dev->info.plat, gfn << 12, HW_CACHE_NONE, &pte, NULL);
	return pte;
}

uint64_t dck_phys_pte(struct check_ctx *c, uint64_t index)
{
	uint64_t v = 0;

	hw_ggtt_read_pte(c->dev, index, &v, NULL);
	return v;
}
