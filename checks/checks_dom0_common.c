/* SPDX-License-Identifier: MIT */
/* The Dom0 check suites' shared steps (checks_dom0_common.h). */
#include "checks/checks_dom0_common.h"
#include "dom0/pvinfo.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/pvinfo.h"

enum check_status dck_start_on(struct check_ctx *c, struct hw_device *dev, struct dom0_config *cfg, struct dck_rt *r)
{
#ifdef GTTLAB_FAULTS
	cfg->faults = c->faults ? c->faults->dom0 : (struct dom0_faults){ 0 };
#endif
	if (dom0_init(dev, cfg, &r->rt, &r->err))
		return ck_error(c, "starting the Dom0 runtime", &r->err);
	return CHECK_PASS;
}

enum check_status dck_start(struct check_ctx *c, struct dom0_config *cfg, struct dck_rt *r)
{
	return dck_start_on(c, c->dev, cfg, r);
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

uint32_t dck_pv(struct dck_rt *r, int id, uint32_t reg)
{
	uint32_t v = 0;

	dom0_pvinfo_read(r->rt, id, reg - VGT_PVINFO_PAGE, &v, NULL);
	return v;
}

/* After a switch to vGPU id: every physical PTE of [first, +n) equals its shadow entry and names its own frames. */
static enum check_status range_agrees(struct check_ctx *c, struct hw_device *dev, struct dck_rt *r, int id, uint64_t first,
					  uint64_t n)
{
	uint64_t frames[32], *ph = gtt_alloc_uninit(dev->env, 3 * ((size_t)n + 1), sizeof(uint64_t));	/* read whole */
	uint64_t *sh = ph + n + 1, *gu = sh + n + 1;
	enum check_status st = CHECK_PASS;

	if (!ph)
		return ck_fail(c, "out of memory");
	for (unsigned g = 0; g < 32; g++) {
		struct hw_page pg = { 0 };
		dom0_guest_page(r->rt, id, g, &pg);
		frames[g] = pg.phys;
	}
	if (n && hw_ggtt_read_range(dev, first, (size_t)n, ph, &r->err))
		st = ck_error(c, "reading the GTT", &r->err);
	else if (dom0_entries_range(r->rt, id, first, n, sh, gu, &r->err))
		st = ck_error(c, "reading the shadow", &r->err);
	for (uint64_t i = 0; i < n && !st; i++) {
		struct hw_pte d, p;
		if (ph[i] != sh[i]) {
			st = ck_fail(c, "vGPU %d after its switch: PTE %llu is 0x%llx, its shadow entry 0x%llx", id,
				     (unsigned long long)(first + i), (unsigned long long)ph[i], (unsigned long long)sh[i]);
			break;
		}
		if (!gu[i])
			continue;	/* an empty guest entry: its valid bit (bit 0 in every format) is clear */
		hw_pte_decode(dev->info.plat, gu[i], &d);
		hw_pte_decode(dev->info.plat, ph[i], &p);
		if (d.valid && (d.addr >> 12) < 32 && p.addr != frames[d.addr >> 12])
			st = ck_fail(c, "vGPU %d: PTE %llu maps 0x%llx; its guest frame %llu is host page 0x%llx", id,
				     (unsigned long long)(first + i), (unsigned long long)p.addr,
				     (unsigned long long)(d.addr >> 12), (unsigned long long)frames[d.addr >> 12]);
	}
	dev->env->free(dev->env, ph);
	return st;
}

/*
 * PVINFO, the shadow and the physical GTT agree for vGPU id: the
 * non-mappable base/size are its high range, SLOTS its slot count; after a
 * switch to it every physical PTE of its ranges equals its shadow entry, and
 * the mapped ones name its own frames.
 */
enum check_status dck_agree_on(struct check_ctx *c, struct hw_device *dev, struct dck_rt *r, int id)
{
	struct dom0_vgpu_info in;
	uint32_t base = dck_pv(r, id, VGT_IF_NONMAPPABLE_BASE), size = dck_pv(r, id, VGT_IF_NONMAPPABLE_SIZE);
	enum check_status st;

	dom0_vgpu_info(r->rt, id, &in);
	if (base != (uint32_t)in.high_base || size != (uint32_t)in.high_size || dck_pv(r, id, GTTLAB_IF_GM_SLOTS) != in.slots)
		return ck_fail(c, "vGPU %d: PVINFO non-mappable base/size (0x78048/0x7804c) 0x%x/0x%x and slots (0x%x) %u; it holds 0x%llx/0x%llx, %u slots",
			       id, base, size, GTTLAB_IF_GM_SLOTS, dck_pv(r, id, GTTLAB_IF_GM_SLOTS), (unsigned long long)in.high_base,
			       (unsigned long long)in.high_size, in.slots);
	/* the extension's run words (regs/pvinfo.h): run 0 above, runs 1.. here, zero after the last */
	uint32_t runs = dck_pv(r, id, GTTLAB_IF_GM_RUNS);
	if (runs != (in.n_runs ? in.n_runs : 1))
		return ck_fail(c, "vGPU %d: PVINFO GM_RUNS (0x%05x) is %u; its slots are in %u runs", id, GTTLAB_IF_GM_RUNS, runs, in.n_runs);
	for (unsigned i = 1; i < GTTLAB_GM_MAX_RUNS; i++) {
		const struct dom0_layout *l = dom0_layout(r->rt);
		uint64_t b = i < in.n_runs ? l->slots_base + (uint64_t)in.runs[i].first * l->slot_size : 0;
		uint64_t z = i < in.n_runs ? (uint64_t)in.runs[i].n * l->slot_size : 0;
		if (dck_pv(r, id, GTTLAB_IF_GM_RUN_BASE(i)) != (uint32_t)b || dck_pv(r, id, GTTLAB_IF_GM_RUN_SIZE(i)) != (uint32_t)z)
			return ck_fail(c, "vGPU %d: PVINFO run %u base/size (0x%05x/0x%05x) 0x%x/0x%x; its run %u is 0x%llx/0x%llx", id, i,
				       GTTLAB_IF_GM_RUN_BASE(i), GTTLAB_IF_GM_RUN_SIZE(i), dck_pv(r, id, GTTLAB_IF_GM_RUN_BASE(i)),
				       dck_pv(r, id, GTTLAB_IF_GM_RUN_SIZE(i)), i, (unsigned long long)b, (unsigned long long)z);
	}
	if (dom0_switch(r->rt, id, NULL, &r->err))
		return ck_error(c, "switch", &r->err);
	if ((st = range_agrees(c, dev, r, id, in.low_base / 4096, in.low_size / 4096)))
		return st;
	for (unsigned i = 0; i < in.n_runs; i++) {
		const struct dom0_layout *l = dom0_layout(r->rt);
		uint64_t b = l->slots_base + (uint64_t)in.runs[i].first * l->slot_size;
		if ((st = range_agrees(c, dev, r, id, b / 4096, (uint64_t)in.runs[i].n * l->slot_size / 4096)))
			return st;
	}
	return CHECK_PASS;
}

enum check_status dck_agree(struct check_ctx *c, struct dck_rt *r, int id)
{
	return dck_agree_on(c, c->dev, r, id);
}
