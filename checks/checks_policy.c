/* SPDX-License-Identifier: MIT */
/*
 * The slot-policy suite: gBalloon's request channel over PVINFO and its
 * resizing policy, judged from outside. A guest's request is made the way a
 * guest makes it (PVINFO words, then g2v_notify); what comes back is read
 * from PVINFO, and the physical GTT is read back through hw/ after the next
 * switch and compared with the shadow entries and the guest's own frames.
 * The expected decisions are the paper's (§3.2), stated here.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_dom0_common.h"
#include "dom0/ops.h"
#include "dom0/pvinfo.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/pvinfo.h"

#define OFF(reg)	((reg) - VGT_PVINFO_PAGE)

static const char *const status_name[] = {
	[GTTLAB_GM_ST_IDLE] = "IDLE", [GTTLAB_GM_ST_PENDING] = "PENDING", [GTTLAB_GM_ST_GRANTED] = "GRANTED",
	[GTTLAB_GM_ST_NOTED] = "NOTED", [GTTLAB_GM_ST_REFUSED_POLICY] = "REFUSED_POLICY",
	[GTTLAB_GM_ST_REFUSED_ROOM] = "REFUSED_ROOM", [GTTLAB_GM_ST_BAD_CODE] = "BAD_CODE",
	[GTTLAB_GM_ST_BAD_COUNT] = "BAD_COUNT", [GTTLAB_GM_ST_BAD_WRITE] = "BAD_WRITE", [GTTLAB_GM_ST_BUSY] = "BUSY",
	[GTTLAB_GM_ST_PAUSED] = "PAUSED", [GTTLAB_GM_ST_WITHDRAWN] = "WITHDRAWN",
};

static const char *sname(uint32_t st)
{
	return st < sizeof(status_name) / sizeof(status_name[0]) && status_name[st] ? status_name[st] : "unknown";
}

static uint32_t pv(struct dck_rt *r, int id, uint32_t reg)
{
	uint32_t v = 0;

	dom0_pvinfo_read(r->rt, id, OFF(reg), &v, NULL);
	return v;
}

/*
 * The guest asks (CODE, COUNT, SEQ, then g2v_notify) and the host serves.
 * Returns the status word, after checking that it answers this SEQ.
 */
static enum check_status ask(struct check_ctx *c, struct dck_rt *r, int id, uint32_t code, uint32_t q, uint32_t seq,
			     uint32_t *status)
{
	struct gtt_err e = { 0 };
	int rc = 0;

	if (dom0_pvinfo_write(r->rt, id, OFF(GTTLAB_IF_GM_CODE), code, &e) ||
	    dom0_pvinfo_write(r->rt, id, OFF(GTTLAB_IF_GM_COUNT), q, &e) ||
	    dom0_pvinfo_write(r->rt, id, OFF(GTTLAB_IF_GM_SEQ), seq, &e))
		return ck_error(c, "writing the request words", &e);
	rc = dom0_pvinfo_write(r->rt, id, OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, &e);
	if (!rc && dom0_serve_requests(r->rt, NULL, &r->err))
		return ck_error(c, "serving the request", &r->err);
	*status = pv(r, id, GTTLAB_IF_GM_STATUS);
	if (pv(r, id, GTTLAB_IF_GM_ANSWER_SEQ) != seq)
		return ck_fail(c, "vGPU %d: PVINFO answer seq (0x%x) reads %u, the request was %u", id,
			       GTTLAB_IF_GM_ANSWER_SEQ, pv(r, id, GTTLAB_IF_GM_ANSWER_SEQ), seq);
	return CHECK_PASS;
}

static enum check_status want_status(struct check_ctx *c, struct dck_rt *r, int id, uint32_t code, uint32_t q,
				     uint32_t seq, uint32_t want, const char *why)
{
	uint32_t got = 0;
	enum check_status st = ask(c, r, id, code, q, seq, &got);

	if (st)
		return st;
	if (got != want)
		return ck_fail(c, "vGPU %d: request code %u for %u: PVINFO status (0x%x) %s, expected %s: %s", id, code, q,
			       GTTLAB_IF_GM_STATUS, sname(got), sname(want), why);
	return CHECK_PASS;
}

/* Map every `step`-th entry of the vGPU's ranges to its frames. */
static enum check_status map_ranges(struct check_ctx *c, struct dck_rt *r, int id, uint64_t step)
{
	struct dom0_vgpu_info in;

	dom0_vgpu_info(r->rt, id, &in);
	for (uint64_t i = 0; i < in.low_size / 4096; i += 3)
		if (dom0_guest_pte_write(r->rt, id, in.low_base / 4096 + i, dck_guest_pte(c, (i + (uint64_t)id) % 32), &r->err))
			return ck_error(c, "guest PTE write", &r->err);
	for (uint64_t i = 0; i < in.high_size / 4096; i += step)
		if (dom0_guest_pte_write(r->rt, id, in.high_base / 4096 + i, dck_guest_pte(c, (i / step) % 32), &r->err))
			return ck_error(c, "guest PTE write", &r->err);
	return CHECK_PASS;
}

/* The PVINFO page as 1024 words, without the two answer words. */
static void pvinfo_page(struct dck_rt *r, int id, uint32_t *w)
{
	for (uint32_t off = 0; off < VGT_PVINFO_SIZE; off += 4)
		dom0_pvinfo_read(r->rt, id, off, &w[off / 4], NULL);
	w[OFF(GTTLAB_IF_GM_STATUS) / 4] = w[OFF(GTTLAB_IF_GM_ANSWER_SEQ) / 4] = 0;
}

/* Malformed requests: answered with their status, and nothing else moves. */
static enum check_status malformed(struct check_ctx *c, struct dck_rt *r, int a)
{
	const struct dom0_layout *l = dom0_layout(r->rt);
	struct dom0_vgpu_info in;
	uint32_t *before = gtt_calloc(c->dev->env, 2 * VGT_PVINFO_WORDS, sizeof(uint32_t)), *after;
	enum check_status st = CHECK_PASS;

	if (!before)
		return ck_fail(c, "out of memory");
	after = before + VGT_PVINFO_WORDS;
	dom0_vgpu_info(r->rt, a, &in);
	uint64_t first = in.high_base / 4096, n = in.high_size / 4096;
	uint64_t sample[4] = { dck_phys_pte(c, first), dck_phys_pte(c, first + n - 1), dck_phys_pte(c, first + n),
			       dck_phys_pte(c, first ? first - 1 : 0) };
	pvinfo_page(r, a, before);
	if ((st = want_status(c, r, a, 9, 1, 1, GTTLAB_GM_ST_BAD_CODE, "no such request code")) ||
	    (st = want_status(c, r, a, GTTLAB_GM_REQ_EXPAND, 0, 2, GTTLAB_GM_ST_BAD_COUNT, "Q = 0")) ||
	    (st = want_status(c, r, a, GTTLAB_GM_REQ_EXPAND, l->num_slots + 1, 3, GTTLAB_GM_ST_BAD_COUNT,
			      "Q beyond the slots of high graphics memory")) ||
	    (st = want_status(c, r, a, GTTLAB_GM_REQ_REDUCE, 0, 4, GTTLAB_GM_ST_BAD_COUNT, "Q = 0")))
		goto out;
	/* the host's words are not the guest's to write */
	static const uint32_t host_words[] = { VGT_IF_MAGIC, VGT_IF_NONMAPPABLE_BASE, VGT_IF_NONMAPPABLE_SIZE,
					       GTTLAB_IF_GM_STATUS, GTTLAB_IF_GM_SLOTS };
	for (unsigned k = 0; k < sizeof(host_words) / sizeof(host_words[0]) && !st; k++) {
		if (!dom0_pvinfo_write(r->rt, a, OFF(host_words[k]), 0x1000, NULL))
			st = ck_fail(c, "vGPU %d: a guest write to PVINFO 0x%x (the host's) was accepted", a, host_words[k]);
		else if (pv(r, a, GTTLAB_IF_GM_STATUS) != GTTLAB_GM_ST_BAD_WRITE)
			st = ck_fail(c, "vGPU %d: a guest write to PVINFO 0x%x: status (0x%x) %s, expected BAD_WRITE", a,
				     host_words[k], GTTLAB_IF_GM_STATUS, sname(pv(r, a, GTTLAB_IF_GM_STATUS)));
	}
	if (st)
		goto out;
	pvinfo_page(r, a, after);
	for (uint32_t w = 0; w < VGT_PVINFO_WORDS && !st; w++)
		if (before[w] != after[w] && w != OFF(GTTLAB_IF_GM_CODE) / 4 && w != OFF(GTTLAB_IF_GM_COUNT) / 4 &&
		    w != OFF(GTTLAB_IF_GM_SEQ) / 4)
			st = ck_fail(c, "vGPU %d: PVINFO 0x%x changed from 0x%x to 0x%x after malformed requests", a,
				     VGT_PVINFO_PAGE + w * 4, before[w], after[w]);
	dom0_vgpu_info(r->rt, a, &in);
	uint64_t now[4] = { dck_phys_pte(c, first), dck_phys_pte(c, first + n - 1), dck_phys_pte(c, first + n),
			    dck_phys_pte(c, first ? first - 1 : 0) };
	if (!st && (in.high_base / 4096 != first || in.high_size / 4096 != n))
		st = ck_fail(c, "vGPU %d moved to 0x%llx+0x%llx after malformed requests", a, (unsigned long long)in.high_base,
			     (unsigned long long)in.high_size);
	for (int k = 0; k < 4 && !st; k++)
		if (now[k] != sample[k])
			st = ck_fail(c, "a physical PTE at the edge of vGPU %d's range changed after malformed requests (0x%llx -> 0x%llx)",
				     a, (unsigned long long)sample[k], (unsigned long long)now[k]);
out:
	c->dev->env->free(c->dev->env, before);
	return st;
}

/*
 * Malformed requests over PVINFO are refused with their status and change
 * nothing; a valid expansion and a reduction are granted and reach PVINFO,
 * the shadow and the physical GTT.
 */
static enum check_status check_slot_policy_channel(struct check_ctx *c)
{
	struct dom0_config cfg = { 0 };
	struct dck_rt r = { 0 };
	int a, b;
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	if (dck_create(c, &r, 4ull << 20, 2, 0, -1, &a) || dck_create(c, &r, 4ull << 20, 2, 0, -1, &b))
		return dck_stop(c, &r, CHECK_FAIL);
	if (pv(&r, a, GTTLAB_IF_GM_MAGIC) != GTTLAB_GM_MAGIC)
		return dck_stop(c, &r, ck_fail(c, "PVINFO 0x%x reads 0x%x: the channel's magic 0x%x is missing", GTTLAB_IF_GM_MAGIC,
					     pv(&r, a, GTTLAB_IF_GM_MAGIC), GTTLAB_GM_MAGIC));
	if ((st = map_ranges(c, &r, a, 97)) || (st = map_ranges(c, &r, b, 89)) || (st = dck_agree(c, &r, a)) ||
	    (st = malformed(c, &r, a)) ||
	    (st = want_status(c, &r, a, GTTLAB_GM_REQ_EXPAND, 2, 10, GTTLAB_GM_ST_GRANTED, "no policy: expansions are approved")) ||
	    (st = map_ranges(c, &r, a, 61)) || (st = dck_agree(c, &r, b)) || (st = dck_agree(c, &r, a)) ||
	    (st = want_status(c, &r, a, GTTLAB_GM_REQ_REDUCE, 3, 11, GTTLAB_GM_ST_GRANTED, "a guest may give slots back")) ||
	    (st = dck_agree(c, &r, b)) || (st = dck_agree(c, &r, a)))
		return dck_stop(c, &r, st);
	return dck_stop(c, &r, CHECK_PASS);
}

/* One class: three vGPUs, W set so that f lands in it, one period, then c asks for a slot. */
static enum check_status one_class(struct check_ctx *c, enum dom0_policy_class cls)
{
	static const char *const names[] = { "low", "mid", "high" };
	/* f = W / (200% x 3 vGPUs) with the default alpha: 0.25, 0.75, 1.25 */
	static const uint64_t steal_mpct[] = { 150000, 450000, 750000 };
	struct dom0_config cfg = { 0 };
	struct dck_rt r = { 0 };
	int id[3];
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	/* a and b hold 4 slots each, a well used (1 in 4 entries), b barely (1 in 509); c holds 2 */
	if (dck_create(c, &r, 4ull << 20, 4, 0, -1, &id[0]) || dck_create(c, &r, 4ull << 20, 4, 0, -1, &id[1]) ||
	    dck_create(c, &r, 4ull << 20, 2, 0, -1, &id[2]))
		return dck_stop(c, &r, CHECK_FAIL);
	if ((st = map_ranges(c, &r, id[0], 4)) || (st = map_ranges(c, &r, id[1], 509)) || (st = map_ranges(c, &r, id[2], 31)))
		return dck_stop(c, &r, st);
	struct dom0_policy p = { .copy_ps_per_pte = 1000 };
	if (dom0_policy_set(r.rt, &p, 0, &r.err) || dom0_policy_steal(r.rt, id[2], steal_mpct[cls], &r.err) ||
	    dom0_policy_tick(r.rt, 500, NULL, &r.err))
		return dck_stop(c, &r, ck_error(c, "the policy", &r.err));
	const struct dom0_policy_state *s = dom0_policy_state(r.rt);
	if (s->cls != cls)
		return dck_stop(c, &r, ck_fail(c, "f(W, R_copy) = %llu millionths (W %llu m%%) classifies as %s; expected %s",
					     (unsigned long long)s->f_u, (unsigned long long)s->w_mpct, names[s->cls], names[cls]));
	struct dom0_vgpu_info a, b;
	dom0_vgpu_info(r.rt, id[0], &a);
	dom0_vgpu_info(r.rt, id[1], &b);
	/* §3.2: low reduces nothing; mid, one slot of the most memory and lowest use (b); high, 128 MiB regardless */
	static const unsigned want_a[] = { 4, 4, 3 }, want_b[] = { 4, 3, 3 };
	if (a.slots != want_a[cls] || b.slots != want_b[cls])
		return dck_stop(c, &r, ck_fail(c, "class %s: after the period vGPU %d (utilization 1/4) holds %u slots and vGPU %d (1/509) %u; gBalloon leaves %u and %u",
					     names[cls], id[0], a.slots, id[1], b.slots, want_a[cls], want_b[cls]));
	uint32_t want = cls == DOM0_CLASS_HIGH ? GTTLAB_GM_ST_REFUSED_POLICY : GTTLAB_GM_ST_GRANTED;
	if ((st = want_status(c, &r, id[2], GTTLAB_GM_REQ_EXPAND, 1, 1, want,
			      cls == DOM0_CLASS_HIGH ? "above Threshold_high every expansion is refused"
						     : "below Threshold_high expansions are approved")))
		return dck_stop(c, &r, st);
	for (int k = 0; k < 3 && !st; k++)
		st = dck_agree(c, &r, id[k]);
	return dck_stop(c, &r, st);
}

/* In each class a request over PVINFO leads to the paper's decision, and PVINFO, shadow and GTT agree. */
static enum check_status check_slot_policy_classes(struct check_ctx *c)
{
	enum check_status st = CHECK_PASS;

	for (int cls = DOM0_CLASS_LOW; cls <= DOM0_CLASS_HIGH && !st; cls++)
		st = one_class(c, (enum dom0_policy_class)cls);
	return st;
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "slot-policy-channel", "slot-policy", "gBalloon's requests over PVINFO: malformed ones refused with a status and no change, granted ones in PVINFO, shadow and GTT",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_policy_channel },
	{ "slot-policy-classes", "slot-policy", "gBalloon's policy: in each class of f(W, R_copy) a request gets the paper's decision; PVINFO, shadow and GTT agree",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_policy_classes },
};

const struct check_rows checks_policy = { rows, sizeof(rows) / sizeof(rows[0]) };
