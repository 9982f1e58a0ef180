/* SPDX-License-Identifier: MIT */
/*
 * The admission suite: ConVGPU's paused requests on graphics memory, judged
 * from outside. High memory is partitioned (share limit 1) and full; three
 * creates of different sizes are paused; a release then frees four slots,
 * and which request each policy admits is the paper's rule, stated here.
 * The admitted vGPU must then hold its slots alone, show them in PVINFO and,
 * after a switch, in the physical GTT; a paused one must never be switched
 * in. The channel check does the same for an expansion asked over PVINFO
 * and for a guest fence the pool cannot hold.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_dom0_common.h"
#include "dom0/ops.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "regs/pvinfo.h"

#define OFF(reg)	((reg) - VGT_PVINFO_PAGE)
#define LOW		(4ull << 20)

/* Map every 7th entry of the vGPU's high range to its first frames. */
static enum check_status map_high(struct check_ctx *c, struct dck_rt *r, int id)
{
	struct dom0_vgpu_info in;

	dom0_vgpu_info(r->rt, id, &in);
	for (uint64_t i = 0; i < in.high_size / 4096; i += 7)
		if (dom0_guest_pte_write(r->rt, id, in.high_base / 4096 + i, dck_guest_pte(c, (i / 7) % 32), &r->err))
			return ck_error(c, "guest PTE write", &r->err);
	return CHECK_PASS;
}

/* No slot is held by more vGPUs than the share limit allows. */
static enum check_status within_limit(struct check_ctx *c, struct dck_rt *r, unsigned limit, const char *when)
{
	const struct dom0_layout *l = dom0_layout(r->rt);

	for (unsigned s = 0; s < l->num_slots; s++)
		if (dom0_slot_occupancy(r->rt, s) > limit)
			return ck_fail(c, "%s: slot %u (GM 0x%llx) is held by %u vGPUs; the share limit is %u", when, s,
				       (unsigned long long)(l->slots_base + (uint64_t)s * l->slot_size),
				       dom0_slot_occupancy(r->rt, s), limit);
	return CHECK_PASS;
}

/*
 * A paused vGPU: a switch to it is refused; one paused in its create (it never
 * ran) has no entry in the physical GTT's high memory.
 */
static enum check_status never_in(struct check_ctx *c, struct dck_rt *r, int id, const char *who)
{
	const struct dom0_layout *l = dom0_layout(r->rt);
	struct gtt_err e = { 0 };

	if (!dom0_vgpu_paused(r->rt, id))
		return ck_fail(c, "%s (vGPU %d) is not paused", who, id);
	if (!dom0_switch(r->rt, id, NULL, &e))
		return ck_fail(c, "%s (vGPU %d) was switched in while its %s is paused", who, id,
			       dom0_pause_name(dom0_vgpu_paused(r->rt, id)));
	for (uint64_t i = l->slots_base / 4096;
	     dom0_vgpu_paused(r->rt, id) == DOM0_PAUSE_CREATE && i < l->ggtt_size / 4096; i += 509)
		if (dom0_physical_owner(r->rt, i) == id)
			return ck_fail(c, "PTE %llu holds %s's entry (vGPU %d), which is paused", (unsigned long long)i, who, id);
	return CHECK_PASS;
}

/*
 * One policy: a holds slots 0-3, b the rest; p1 (3 slots), p2 (4) and p3 (1)
 * are paused in that order; a goes. FIFO admits p1 (the oldest) and then
 * waits for p2 (4 slots, 1 free) with p3 behind it; RU admits p3 (the most
 * recent) and waits for p2; BF admits p2 (the largest that fits the 4 free)
 * and then nothing (none fits, p3 is the least short).
 */
static enum check_status one_policy(struct check_ctx *c, enum dom0_admission pol, const bool want_admitted[3])
{
	struct dom0_config cfg = { .share_limit = 1, .admission = pol, .seed = c->seed };
	struct dck_rt r = { 0 };
	static const unsigned sizes[3] = { 3, 4, 1 };
	static const char *const names[3] = { "p1 (3 slots, paused first)", "p2 (4 slots)", "p3 (1 slot, paused last)" };
	int a, b, p[3];
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	unsigned M = dom0_layout(r.rt)->num_slots;
	if (M < 6)
		return dck_stop(c, &r, ck_skip(c, "%u slots of high graphics memory: the layout needs 6", M));
	if (dck_create(c, &r, LOW, 4, 0, 0, &a) || dck_create(c, &r, LOW, M - 4, 0, 4, &b))
		return dck_stop(c, &r, CHECK_FAIL);
	for (int k = 0; k < 3; k++)
		if (dck_create(c, &r, LOW, sizes[k], 0, -1, &p[k]))
			return dck_stop(c, &r, CHECK_FAIL);
	for (int k = 0; k < 3 && !st; k++)
		st = never_in(c, &r, p[k], names[k]);
	if (st || (st = within_limit(c, &r, 1, "three creates paused")))
		return dck_stop(c, &r, st);
	if (dom0_vgpu_destroy(r.rt, a, &r.err))
		return dck_stop(c, &r, ck_error(c, "destroying a", &r.err));
	if ((st = within_limit(c, &r, 1, "after the release")))
		return dck_stop(c, &r, st);
	for (int k = 0; k < 3 && !st; k++) {
		bool in = !dom0_vgpu_paused(r.rt, p[k]);
		if (in != want_admitted[k])
			st = ck_fail(c, "admission %s: after a release of 4 slots %s (vGPU %d) is %s; ConVGPU's %s %s it",
				     dom0_admission_name(pol), names[k], p[k], in ? "admitted" : "still paused",
				     dom0_admission_name(pol), want_admitted[k] ? "admits" : "does not admit");
		else if (in)
			st = map_high(c, &r, p[k]) ? CHECK_FAIL : dck_agree(c, &r, p[k]);
		else
			st = never_in(c, &r, p[k], names[k]);
	}
	const struct dom0_counters *k = dom0_counters(r.rt);
	unsigned n_in = want_admitted[0] + want_admitted[1] + want_admitted[2];
	if (!st && (k->paused != 3 || k->admitted != n_in))
		st = ck_fail(c, "admission %s: counters paused %llu, admitted %llu; 3 were paused and %u admitted",
			     dom0_admission_name(pol), (unsigned long long)k->paused, (unsigned long long)k->admitted, n_in);
	return dck_stop(c, &r, st);
}

/* RAND: the same seed makes the same choice; whatever it admits holds its slots alone and agrees. */
static enum check_status rand_policy(struct check_ctx *c)
{
	bool first[3] = { false, false, false };

	for (int run = 0; run < 2; run++) {
		struct dom0_config cfg = { .share_limit = 1, .admission = DOM0_ADMIT_RAND, .seed = c->seed };
		struct dck_rt r = { 0 };
		int a, b, p[3];
		enum check_status st = dck_start(c, &cfg, &r);
		if (st)
			return st;
		unsigned M = dom0_layout(r.rt)->num_slots;
		if (M < 6)
			return dck_stop(c, &r, ck_skip(c, "%u slots of high graphics memory: the layout needs 6", M));
		if (dck_create(c, &r, LOW, 4, 0, 0, &a) || dck_create(c, &r, LOW, M - 4, 0, 4, &b) ||
		    dck_create(c, &r, LOW, 3, 0, -1, &p[0]) || dck_create(c, &r, LOW, 4, 0, -1, &p[1]) ||
		    dck_create(c, &r, LOW, 1, 0, -1, &p[2]))
			return dck_stop(c, &r, CHECK_FAIL);
		if (dom0_vgpu_destroy(r.rt, a, &r.err))
			return dck_stop(c, &r, ck_error(c, "destroying a", &r.err));
		if ((st = within_limit(c, &r, 1, "rand, after the release")))
			return dck_stop(c, &r, st);
		for (int k = 0; k < 3 && !st; k++) {
			bool in = !dom0_vgpu_paused(r.rt, p[k]);
			if (run && in != first[k])
				st = ck_fail(c, "admission rand, seed 0x%llx: request %d is %s in the second run and %s in the first; the seed must decide",
					     (unsigned long long)c->seed, k + 1, in ? "admitted" : "paused",
					     first[k] ? "admitted" : "paused");
			first[k] = in;
			if (!st && in)
				st = dck_agree(c, &r, p[k]);
		}
		if (!st && !first[0] && !first[1] && !first[2])
			st = ck_fail(c, "admission rand: 4 slots freed and no paused request of 1, 3 or 4 slots was admitted");
		dck_stop(c, &r, st);
		if (st)
			return st;
	}
	return CHECK_PASS;
}

/*
 * ConVGPU Figure 3d on slots: what frees goes to the chosen request and
 * stays its own. FIFO; x0 and x1 on slots 0 and 1, b on the rest. A (2
 * slots) is paused and holds slot 0 when x0 goes; B (1 slot, younger) is
 * admitted when b frees its last slot, there, not on slot 0, which reads
 * back as found; A runs on 0-1 once x1 goes.
 */
static enum check_status held_places(struct check_ctx *c)
{
	struct dom0_config cfg = { .share_limit = 1, .admission = DOM0_ADMIT_FIFO, .seed = c->seed };
	struct dck_rt r = { 0 };
	struct dom0_vgpu_info in;
	unsigned left, right;
	int x0, x1, b, pa, pb;
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	const struct dom0_layout *l = dom0_layout(r.rt);
	unsigned M = l->num_slots;
	uint64_t slot0 = l->slots_base / 4096, boot = 0, now = 1;
	if (M < 6)
		return dck_stop(c, &r, ck_skip(c, "%u slots of high graphics memory: the layout needs 6", M));
	if (hw_ggtt_read_range(c->dev, slot0, 1, &boot, &r.err))
		return dck_stop(c, &r, ck_error(c, "reading slot 0's first entry", &r.err));
	if (dck_create(c, &r, LOW, 1, 0, 0, &x0) || dck_create(c, &r, LOW, 1, 0, 1, &x1) ||
	    dck_create(c, &r, LOW, M - 2, 0, 2, &b) || dck_create(c, &r, LOW, 2, 0, -1, &pa))
		return dck_stop(c, &r, CHECK_FAIL);
	if (dom0_vgpu_destroy(r.rt, x0, &r.err))
		return dck_stop(c, &r, ck_error(c, "destroying x0", &r.err));
	if (dck_create(c, &r, LOW, 1, 0, -1, &pb))
		return dck_stop(c, &r, CHECK_FAIL);
	if (!dom0_vgpu_paused(r.rt, pa) || !dom0_vgpu_paused(r.rt, pb))
		return dck_stop(c, &r, ck_fail(c, "held slots: A (vGPU %d, 2 slots) and B (vGPU %d) must wait with one slot free",
					       pa, pb));
	if (dom0_reduce(r.rt, b, 1, &left, &right, &r.err))
		return dck_stop(c, &r, ck_error(c, "reducing b by its last slot", &r.err));
	dom0_vgpu_info(r.rt, pb, &in);
	if (in.paused || in.first_slot != M - 1)
		st = ck_fail(c, "held slots: after b gave back slot %u, B (vGPU %d) is %s at slot %u; slot 0, which A holds for its "
			     "paused create, is not B's", M - 1, pb, in.paused ? "paused" : "admitted", in.first_slot);
	else if (hw_ggtt_read_range(c->dev, slot0, 1, &now, &r.err) || now != boot)
		st = ck_fail(c, "held slots: GGTT entry %llu (slot 0, held for A) reads 0x%llx, as found 0x%llx",
			     (unsigned long long)slot0, (unsigned long long)now, (unsigned long long)boot);
	else if ((st = dck_agree(c, &r, pb)) || (st = within_limit(c, &r, 1, "held slots")))
		;
	else if (dom0_vgpu_destroy(r.rt, x1, &r.err))
		st = ck_error(c, "destroying x1", &r.err);
	else if (dom0_vgpu_info(r.rt, pa, &in), in.paused || in.first_slot != 0)
		st = ck_fail(c, "held slots: with slots 0 and 1 free, A (vGPU %d) is %s at slot %u, not on the slots it held",
			     pa, in.paused ? "paused" : "admitted", in.first_slot);
	else
		st = dck_agree(c, &r, pa);
	return dck_stop(c, &r, st);
}

static enum check_status check_admission_policies(struct check_ctx *c)
{
	static const bool fifo[3] = { true, false, false }, ru[3] = { false, false, true }, bf[3] = { false, true, false };
	enum check_status st;

	if ((st = held_places(c)) || (st = one_policy(c, DOM0_ADMIT_FIFO, fifo)) || (st = one_policy(c, DOM0_ADMIT_RU, ru)) ||
	    (st = one_policy(c, DOM0_ADMIT_BF, bf)))
		return st;
	return rand_policy(c);
}

/* The guest asks for q more slots over PVINFO (words, then the doorbell) and the host serves. */
static uint32_t ask_expand(struct dck_rt *r, int id, uint32_t q, uint32_t seq)
{
	dom0_pvinfo_write(r->rt, id, OFF(GTTLAB_IF_GM_CODE), GTTLAB_GM_REQ_EXPAND, NULL);
	dom0_pvinfo_write(r->rt, id, OFF(GTTLAB_IF_GM_COUNT), q, NULL);
	dom0_pvinfo_write(r->rt, id, OFF(GTTLAB_IF_GM_SEQ), seq, NULL);
	dom0_pvinfo_write(r->rt, id, OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, NULL);
	dom0_serve_requests(r->rt, NULL, NULL);
	return dck_pv(r, id, GTTLAB_IF_GM_STATUS);
}

static enum check_status want_answer(struct check_ctx *c, struct dck_rt *r, int id, uint32_t st, uint32_t seq,
				     const char *want_name, uint32_t want)
{
	if (st != want || dck_pv(r, id, GTTLAB_IF_GM_ANSWER_SEQ) != seq)
		return ck_fail(c, "vGPU %d: PVINFO status (0x%x) %u answering seq %u (0x%x); expected %s (%u) answering %u", id,
			       GTTLAB_IF_GM_STATUS, st, dck_pv(r, id, GTTLAB_IF_GM_ANSWER_SEQ), GTTLAB_IF_GM_ANSWER_SEQ,
			       want_name, want, seq);
	return CHECK_PASS;
}

/* The expansion: paused while b holds the slot next to a, granted when b goes. */
static enum check_status channel_expand(struct check_ctx *c)
{
	struct dom0_config cfg = { .share_limit = 1, .admission = DOM0_ADMIT_FIFO };
	struct dck_rt r = { 0 };
	int a, b;
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	unsigned M = dom0_layout(r.rt)->num_slots;
	if (M < 3)
		return dck_stop(c, &r, ck_skip(c, "%u slots of high graphics memory: the layout needs 3", M));
	if (dck_create(c, &r, LOW, 2, 0, 0, &a) || dck_create(c, &r, LOW, M - 2, 0, 2, &b))
		return dck_stop(c, &r, CHECK_FAIL);
	if ((st = map_high(c, &r, a)) || (st = dck_agree(c, &r, a)) ||
	    (st = want_answer(c, &r, a, ask_expand(&r, a, 1, 7), 7, "PAUSED", GTTLAB_GM_ST_PAUSED)) ||
	    (st = never_in(c, &r, a, "a, its expansion paused")) ||
	    (st = want_answer(c, &r, a, ask_expand(&r, a, 1, 8), 8, "BUSY (one request at a time)", GTTLAB_GM_ST_BUSY)))
		return dck_stop(c, &r, st);
	dom0_set_busy(r.rt, a, true, NULL);
	dom0_set_busy(r.rt, b, true, NULL);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(r.rt, a, &in);
	uint64_t before = in.counters.switches_in;
	if (dom0_run_quanta(r.rt, 4, NULL, NULL, &r.err))
		return dck_stop(c, &r, ck_error(c, "running quanta", &r.err));
	dom0_vgpu_info(r.rt, a, &in);
	if (in.counters.switches_in != before || dom0_render_owner(r.rt) == a)
		return dck_stop(c, &r, ck_fail(c, "the scheduler switched vGPU %d in %llu times while its expansion was paused", a,
					     (unsigned long long)(in.counters.switches_in - before)));
	if (dom0_vgpu_destroy(r.rt, b, &r.err))
		return dck_stop(c, &r, ck_error(c, "destroying b", &r.err));
	dom0_vgpu_info(r.rt, a, &in);
	if ((st = want_answer(c, &r, a, dck_pv(&r, a, GTTLAB_IF_GM_STATUS), 7, "GRANTED", GTTLAB_GM_ST_GRANTED)))
		return dck_stop(c, &r, st);
	if (in.slots != 3 || in.paused)
		return dck_stop(c, &r, ck_fail(c, "vGPU %d holds %u slots (%s) after its paused expansion by 1 from 2 was admitted",
					     a, in.slots, dom0_pause_name(in.paused)));
	if ((st = map_high(c, &r, a)) || (st = dck_agree(c, &r, a)) || (st = within_limit(c, &r, 1, "after the expansion")))
		return dck_stop(c, &r, st);
	return dck_stop(c, &r, CHECK_PASS);
}

/* The fence pool: a guest fence the pool cannot hold waits, and runs when another is given back. */
static enum check_status channel_fence(struct check_ctx *c)
{
	struct dom0_config cfg = { .admission = DOM0_ADMIT_FIFO, .pool_size = 64 * 4096 };
	struct dck_rt r = { 0 };
	const struct gtt_platform *p = c->dev->info.plat;
	int a, b;
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	if (dom0_layout(r.rt)->guest_fences < 2)
		return dck_stop(c, &r, ck_skip(c, "%u guest fences: the check needs 2", dom0_layout(r.rt)->guest_fences));
	if (dck_create(c, &r, LOW, 1, 1, -1, &a) || dck_create(c, &r, LOW, 1, 1, -1, &b))
		return dck_stop(c, &r, CHECK_FAIL);
	const struct dom0_layout *l = dom0_layout(r.rt);
	/* X tiles, 4 KiB stride: 48 and 32 pages; the pool has 64 */
	struct hw_fence fa = { .valid = true, .start = l->guest_low_base, .size = 48 * 4096, .stride = 4096,
			       .tiling = HW_TILING_X },
			fb = fa;
	fb.size = 32 * 4096;
	uint64_t va, vb, rb = 0;
	if (hw_fence_encode(p, l->aperture_size, &fa, &va, &r.err) || hw_fence_encode(p, l->aperture_size, &fb, &vb, &r.err))
		return dck_stop(c, &r, ck_error(c, "encoding the guest fences", &r.err));
	if (dom0_guest_fence_write(r.rt, a, 0, va, &r.err) || dom0_guest_fence_write(r.rt, b, 0, vb, &r.err))
		return dck_stop(c, &r, ck_error(c, "guest fence writes", &r.err));
	uint64_t used = dom0_counters(r.rt)->pool_pages_used;
	dom0_guest_fence_read(r.rt, b, 0, &rb, NULL);
	if (dom0_vgpu_paused(r.rt, b) != DOM0_PAUSE_FENCE || used != 48 || rb)
		return dck_stop(c, &r, ck_fail(c, "vGPU %d's 32-page fence with 48 of the pool's 64 pages held: %s, pool pages in use %llu, its fence reads 0x%llx; it must wait (paused, 48, 0)",
					     b, dom0_pause_name(dom0_vgpu_paused(r.rt, b)), (unsigned long long)used,
					     (unsigned long long)rb));
	if ((st = never_in(c, &r, b, "b, its fence paused")))
		return dck_stop(c, &r, st);
	if (dom0_guest_fence_write(r.rt, a, 0, 0, &r.err))
		return dck_stop(c, &r, ck_error(c, "turning a's fence off", &r.err));
	used = dom0_counters(r.rt)->pool_pages_used;
	dom0_guest_fence_read(r.rt, b, 0, &rb, NULL);
	if (dom0_vgpu_paused(r.rt, b) || used != 32 || rb != vb)
		return dck_stop(c, &r, ck_fail(c, "after a's fence was given back: vGPU %d %s, pool pages in use %llu, its fence reads 0x%llx; expected admitted, 32, 0x%llx",
					     b, dom0_pause_name(dom0_vgpu_paused(r.rt, b)), (unsigned long long)used,
					     (unsigned long long)rb, (unsigned long long)vb));
	/* the physical fence detiles the pool range with b's pitch and tiling */
	bool found = false;
	for (unsigned i = 0; i < c->dev->info.num_fences && !found; i++) {
		uint64_t v = 0;
		struct hw_fence f;
		hw_fence_read(c->dev, i, &v, NULL);
		hw_fence_decode(p, v, &f);
		found = f.valid && f.start >= l->pool_base && f.start + f.size <= l->pool_base + l->pool_size &&
			f.size == fb.size && f.stride == fb.stride && f.tiling == fb.tiling;
	}
	if (!found)
		return dck_stop(c, &r, ck_fail(c, "no fence register detiles a 32-page pool range with vGPU %d's stride 4096 and X tiling", b));
	return dck_stop(c, &r, CHECK_PASS);
}

static enum check_status check_admission_channel(struct check_ctx *c)
{
	enum check_status st = channel_expand(c);

	return st ? st : channel_fence(c);
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "admission-policies", "admission", "ConVGPU's admission: after a release FIFO, RU, BF and RAND admit the paused create the paper says; it holds its slots alone and agrees in PVINFO and GTT; paused ones never run",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_admission_policies },
	{ "admission-channel", "admission", "an expansion over PVINFO that does not fit is answered PAUSED, never switched in, then GRANTED; a guest fence the pool cannot hold waits for pages",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_admission_channel },
};

const struct check_rows checks_admission = { rows, sizeof(rows) / sizeof(rows[0]) };
