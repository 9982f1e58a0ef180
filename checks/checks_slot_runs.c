/* SPDX-License-Identifier: MIT */
/*
 * Non-contiguous slots on the registers (gBalloon §6, cfg.slot_runs): in a
 * partitioned layout whose free slots are two runs apart, a create that no
 * run holds gets both runs; PVINFO's run words, the shadow and the physical
 * GTT agree run by run after its switch, and the GPU reads its bytes through
 * the second run; a write between its runs is refused; a reduction gives
 * back its last slot, unmapped at once. Under FIFO admission a paused
 * create of two slots waits for two free slots, not a run of them, and runs
 * in the two runs they make. Golden values from the layout's
 * formula: slot s is [slots_base + s * slot_size, + slot_size).
 */
#include "dom0/dom0.h"
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_dom0_common.h"
#include "hw/raw_access.h"
#include "regs/pvinfo.h"

#define MiB (1024ull * 1024)

/* Slots 0-1 A, 2-3 B, 4-5 C, 6-7 D (8.. a filler); B and D go: slots 2-3 and 6-7 are free, four apart from a run. */
static enum check_status scene(struct check_ctx *c, struct dck_rt *r, int *e)
{
	uint64_t high = c->dev->info.ggtt_size - c->dev->info.aperture_size - 64 * MiB;
	struct dom0_config cfg = { .host_high_size = 64 * MiB, .slot_size = (high / 8) & ~(MiB - 1), .share_limit = 1,
				   .slot_runs = 4 };
	enum check_status st = dck_start(c, &cfg, r);
	int id[5];

	if (st)
		return st;
	unsigned M = dom0_layout(r->rt)->num_slots;
	for (int i = 0; i < 4; i++)
		if (dck_create(c, r, 4 * MiB, 2, 0, 2 * i, &id[i]))
			return CHECK_FAIL;
	if (M > 8 && dck_create(c, r, 4 * MiB, M - 8, 0, 8, &id[4]))
		return CHECK_FAIL;
	if (dom0_vgpu_destroy(r->rt, id[1], &r->err) || dom0_vgpu_destroy(r->rt, id[3], &r->err))
		return ck_error(c, "destroying B and D", &r->err);
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 4, .mem_pages = 32 };
	if (dom0_vgpu_create(r->rt, &p, e, &r->err))
		return ck_error(c, "creating E of 4 slots in the two free runs", &r->err);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(r->rt, *e, &in);
	if (in.n_runs != 2 || in.runs[0].first != 2 || in.runs[0].n != 2 || in.runs[1].first != 6 || in.runs[1].n != 2)
		return ck_fail(c, "E of 4 slots holds %u runs (%u+%u, %u+%u); the free slots are 2-3 and 6-7", in.n_runs,
			       in.runs[0].first, in.runs[0].n, in.runs[1].first, in.runs[1].n);
	return CHECK_PASS;
}

/* E's bytes: frame 3 behind the first page of slot 6, frame 4 behind the last page of slot 3; the GPU reads them there. */
static enum check_status data_path(struct check_ctx *c, struct dck_rt *r, int e)
{
	const struct dom0_layout *l = dom0_layout(r->rt);
	uint64_t pps = l->slot_size / 4096, base = l->slots_base / 4096;
	uint64_t at[2] = { base + 6 * pps, base + 4 * pps - 1 }, gfn[2] = { 3, 4 };
	enum check_status st;

	for (int k = 0; k < 2; k++) {
		struct hw_page pg = { 0 };
		dom0_guest_page(r->rt, e, gfn[k], &pg);
		for (unsigned i = 0; i < 4096; i++)
			((uint8_t *)pg.cpu)[i] = (uint8_t)(0xa0 + k + i * 7);
		if (dom0_guest_pte_write(r->rt, e, at[k], dck_guest_pte(c, gfn[k]), &r->err))
			return ck_error(c, "E's PTE write in its run", &r->err);
	}
	if ((st = dck_agree(c, r, e)))
		return st;
	for (int k = 0; k < 2 && c->dev->ops->gpu_read; k++) {
		uint8_t buf[64];
		if (hw_gpu_read(c->dev, at[k] << 12, buf, sizeof(buf), &r->err))
			return ck_error(c, "GPU-side read", &r->err);
		for (unsigned i = 0; i < sizeof(buf); i++)
			if (buf[i] != (uint8_t)(0xa0 + k + i * 7))
				return ck_fail(c, "the GPU reads 0x%02x at GM 0x%llx + %u (PTE %llu, E's run %d); E's frame %llu holds 0x%02x",
					       buf[i], (unsigned long long)(at[k] << 12), i, (unsigned long long)at[k], 1 - k,
					       (unsigned long long)gfn[k], (uint8_t)(0xa0 + k + i * 7));
	}
	return CHECK_PASS;
}

/*
 * Admission over runs (ConVGPU's FIFO, share limit 1): every slot held, a
 * create of two waits; slots 1 and 4 free one at a time; it is admitted only
 * when both are free, into the two runs they make, and agrees in PVINFO and
 * GTT.
 */
static enum check_status admitted_in_runs(struct check_ctx *c)
{
	uint64_t high = c->dev->info.ggtt_size - c->dev->info.aperture_size - 64 * MiB;
	struct dom0_config cfg = { .host_high_size = 64 * MiB, .slot_size = (high / 8) & ~(MiB - 1), .share_limit = 1,
				   .slot_runs = 2, .admission = DOM0_ADMIT_FIFO };
	struct dck_rt r = { 0 };
	enum check_status st = dck_start(c, &cfg, &r);
	int id[64], a = 0;

	if (st)
		return st;
	unsigned M = dom0_layout(r.rt)->num_slots;
	for (unsigned s = 0; s < M && s < 64; s++)
		if (dck_create(c, &r, 1 * MiB, 1, 0, (int)s, &id[s]))
			return dck_stop(c, &r, CHECK_FAIL);
	struct dom0_vgpu_params p = { .low_size = 1 * MiB, .high_slots = 2, .mem_pages = 32 };
	if (dom0_vgpu_create(r.rt, &p, &a, &r.err))
		return dck_stop(c, &r, ck_error(c, "a create of two slots", &r.err));
	if (dom0_vgpu_paused(r.rt, a) != DOM0_PAUSE_CREATE || dom0_vgpu_destroy(r.rt, id[1], &r.err))
		return dck_stop(c, &r, ck_fail(c, "a create of two slots with every slot held was not paused"));
	struct dom0_vgpu_info in;
	dom0_vgpu_info(r.rt, a, &in);
	if (in.paused != DOM0_PAUSE_CREATE || in.slots)
		return dck_stop(c, &r, ck_fail(c, "the create of two slots ran with one slot free: it holds %u slots from slot %u",
					in.slots, in.first_slot));
	if (dom0_vgpu_destroy(r.rt, id[4], &r.err))
		return dck_stop(c, &r, ck_error(c, "destroying slot 4's vGPU", &r.err));
	dom0_vgpu_info(r.rt, a, &in);
	if (in.paused || in.n_runs != 2 || in.runs[0].first != 1 || in.runs[0].n != 1 || in.runs[1].first != 4)
		return dck_stop(c, &r, ck_fail(c, "with slots 1 and 4 free the create of two is %s in %u runs (%u+%u, %u+%u): FIFO admits it in both",
					in.paused ? "paused" : "admitted", in.n_runs, in.runs[0].first, in.runs[0].n,
					in.runs[1].first, in.runs[1].n));
	return dck_stop(c, &r, dck_agree(c, &r, a));
}

static enum check_status check_slot_resize_runs(struct check_ctx *c)
{
	struct dck_rt r = { 0 };
	int e = 0;
	enum check_status st = scene(c, &r, &e);

	if (!st)
		st = data_path(c, &r, e);
	if (st)
		return r.rt ? dck_stop(c, &r, st) : st;
	const struct dom0_layout *l = dom0_layout(r.rt);
	uint64_t pps = l->slot_size / 4096, base = l->slots_base / 4096;
	/* slot 4 lies between E's runs: C's */
	uint64_t gap = base + 4 * pps, was = dck_phys_pte(c, gap);
	if (!dom0_guest_pte_write(r.rt, e, gap, dck_guest_pte(c, 5), NULL) || dck_phys_pte(c, gap) != was)
		return dck_stop(c, &r, ck_fail(c, "E's write of PTE %llu (slot 4, between its runs) was taken: 0x%llx, was 0x%llx",
					(unsigned long long)gap, (unsigned long long)dck_phys_pte(c, gap), (unsigned long long)was));
	/* nothing shares: every slot's other holders are 0, so E keeps its lowest three and gives slot 7 back */
	unsigned L, R;
	struct dom0_vgpu_info in;
	if (dom0_reduce(r.rt, e, 1, &L, &R, &r.err))
		return dck_stop(c, &r, ck_error(c, "reducing E by one slot", &r.err));
	dom0_vgpu_info(r.rt, e, &in);
	if (in.n_runs != 2 || in.runs[1].first != 6 || in.runs[1].n != 1 || in.slots != 3)
		return dck_stop(c, &r, ck_fail(c, "E reduced by one holds %u slots in %u runs (second %u+%u); it keeps 2-3 and 6",
					in.slots, in.n_runs, in.runs[1].first, in.runs[1].n));
	for (uint64_t i = base + 7 * pps; i < base + 8 * pps; i++)
		if (dom0_physical_owner(r.rt, i) == e)
			return dck_stop(c, &r, ck_fail(c, "PTE %llu of slot 7, which E gave back, still holds E's entry",
						(unsigned long long)i));
	if ((st = dck_stop(c, &r, dck_agree(c, &r, e))))
		return st;
	return admitted_in_runs(c);
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "slot-resize-runs", "slot-resize", "non-contiguous slots: a create in two free runs, PVINFO's run words, shadow and GTT run by run, the GPU's bytes, a write between runs refused, a reduction",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_resize_runs },
};

const struct check_rows checks_slot_runs = { rows, sizeof(rows) / sizeof(rows[0]) };
