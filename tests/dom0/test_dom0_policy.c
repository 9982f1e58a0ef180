/* SPDX-License-Identifier: MIT */
/*
 * The graphics-memory request channel over PVINFO and gBalloon's policy.
 * Golden values come from the paper's formulas (eq. 1-3) and the documented
 * word layout (regs/pvinfo.h), written out here, not from the code under test.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)
#define PAGE_OFF(reg) ((reg) - VGT_PVINFO_PAGE)

static uint32_t pv(struct d0 *t, int id, uint32_t reg)
{
	uint32_t v = 0xdeadbeef;

	cr_assert_eq(dom0_pvinfo_read(t->rt, id, PAGE_OFF(reg), &v, NULL), 0);
	return v;
}

/* The guest side of the channel: the three request words, then the doorbell. */
static int ask(struct d0 *t, int id, uint32_t code, uint32_t count, uint32_t seq, struct gtt_err *err)
{
	int rc;

	if ((rc = dom0_pvinfo_write(t->rt, id, 0x104, code, err)) || (rc = dom0_pvinfo_write(t->rt, id, 0x108, count, err)) ||
	    (rc = dom0_pvinfo_write(t->rt, id, 0x10c, seq, err)))
		return rc;
	return dom0_pvinfo_write(t->rt, id, 0x818, 0x100, err);
}

/* ask, then let the host answer; returns the status word. */
static uint32_t request(struct d0 *t, int id, uint32_t code, uint32_t count, uint32_t seq)
{
	struct gtt_err err = { 0 };

	if (!ask(t, id, code, count, seq, &err)) {
		cr_assert_eq(pv(t, id, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_PENDING, "a notified request is pending");
		cr_assert_eq(dom0_serve_requests(t->rt, NULL, &err), 0, "%s", err.msg);
	}
	cr_assert_eq(pv(t, id, GTTLAB_IF_GM_ANSWER_SEQ), seq, "the answer names the request's SEQ");
	return pv(t, id, GTTLAB_IF_GM_STATUS);
}

static void policy(struct d0 *t, const struct dom0_policy *p)
{
	struct gtt_err err = { 0 };

	cr_assert_eq(dom0_policy_set(t->rt, p, dom0_sim_time_ms(t->rt), &err), 0, "%s", err.msg);
}

Test(dom0_policy, pvinfo_layout_keeps_gvt_fields)
{
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int id = d0_create(&t, 16 * MiB, 2, 0);
	/* GVT-g's words where i915_pvinfo.h puts them (docs/hardware.md §6.1) */
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x000), 0x76544776u);
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x004), 0x47765447u);
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x008), 1u);
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x00c), (uint32_t)id);
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x04c), 128 * MiB);
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x830), 0xffffffffu);
	/* the channel's words in rsv3 */
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x100), 0x6d4d6767u, "GTTLAB_GM_MAGIC at 0x100");
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x118), 2u, "slots held");
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x11c), 64 * MiB, "slot size");
	cr_expect_eq(pv(&t, id, VGT_PVINFO_PAGE + 0x110), GTTLAB_GM_ST_IDLE);
	d0_stop(&t);
}

Test(dom0_policy, granted_expansion_reaches_pvinfo_shadow_and_physical_gtt)
{
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint32_t epoch = pv(&t, a, GTTLAB_IF_GM_EPOCH);
	cr_assert_eq(request(&t, a, GTTLAB_GM_REQ_EXPAND, 3, 41), GTTLAB_GM_ST_GRANTED);
	struct dom0_vgpu_info out;
	dom0_vgpu_info(t.rt, a, &out);
	cr_expect_eq(out.slots, 5u);
	cr_expect_eq(pv(&t, a, VGT_IF_NONMAPPABLE_SIZE), 5 * 64 * MiB, "step 4: the new size");
	cr_expect_eq(pv(&t, a, VGT_IF_NONMAPPABLE_BASE), (uint32_t)out.high_base);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_SLOTS), 5u);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_EPOCH), epoch + 1);
	/* the guest maps its new last page; after a switch the physical GTT holds it */
	uint64_t last = (out.high_base + out.high_size) / 4096 - 1;
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, last, d0_guest_pte(&t, 7), NULL), 0);
	cr_assert_eq(dom0_switch(t.rt, a, NULL, NULL), 0);
	struct hw_page pg;
	dom0_guest_page(t.rt, a, 7, &pg);
	cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, last)), pg.phys);
	/* giving back two */
	cr_assert_eq(request(&t, a, GTTLAB_GM_REQ_REDUCE, 2, 42), GTTLAB_GM_ST_GRANTED);
	cr_expect_eq(pv(&t, a, VGT_IF_NONMAPPABLE_SIZE), 3 * 64 * MiB);
	cr_expect_eq(dom0_channel_stats(t.rt)->granted, 2u);
	d0_stop(&t);
}

Test(dom0_policy, malformed_requests_are_answered_at_once_and_change_nothing)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	const struct dom0_layout *l = dom0_layout(t.rt);
	size_t n0, n1;
	uint8_t *before = d0_capture(&t, &n0);
	uint32_t base = pv(&t, a, VGT_IF_NONMAPPABLE_BASE), size = pv(&t, a, VGT_IF_NONMAPPABLE_SIZE);

	cr_expect_eq(request(&t, a, 9, 1, 1), GTTLAB_GM_ST_BAD_CODE);
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_EXPAND, 0, 2), GTTLAB_GM_ST_BAD_COUNT);
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_EXPAND, l->num_slots + 1, 3), GTTLAB_GM_ST_BAD_COUNT);
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_REDUCE, 0, 4), GTTLAB_GM_ST_BAD_COUNT);
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x048, 0, &err), GTT_EINVAL, "avail_rs is the host's");
	cr_expect(strstr(err.msg, "0x048"), "%s", err.msg);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_BAD_WRITE);
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x110, GTTLAB_GM_ST_GRANTED, NULL), GTT_EINVAL, "the status word is the host's");
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_BAD_WRITE);
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x818, 0x99, NULL), GTT_EINVAL, "no such notification");
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x106, 1, NULL), GTT_EINVAL, "unaligned");
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x804, 1, NULL), 0, "display_ready is the guest's to write");
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x818, 2, NULL), 0, "GVT-g's own notification");

	cr_expect_eq(pv(&t, a, VGT_IF_NONMAPPABLE_BASE), base);
	cr_expect_eq(pv(&t, a, VGT_IF_NONMAPPABLE_SIZE), size);
	cr_expect_eq(dom0_requests_pending(t.rt), 0u);
	cr_expect_eq(dom0_channel_stats(t.rt)->malformed, 6u);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	cr_expect_eq(in.slots, 2u);
	cr_expect_eq(dom0_counters(t.rt)->expansions + dom0_counters(t.rt)->reductions, 0u);
	uint8_t *after = d0_capture(&t, &n1);
	cr_expect(n0 == n1 && !memcmp(before, after, n0), "the GGTT and fences are as they were");
	free(before);
	free(after);
	d0_stop(&t);
}

Test(dom0_policy, one_request_at_a_time)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	cr_assert_eq(ask(&t, a, GTTLAB_GM_REQ_EXPAND, 1, 1, &err), 0);
	/* a second request (other words) before the answer: refused with BUSY, the first kept as it was made */
	cr_expect_eq(ask(&t, a, GTTLAB_GM_REQ_EXPAND, 5, 2, &err), GTT_EBUSY);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_BUSY);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 2u);
	cr_expect_eq(dom0_requests_pending(t.rt), 1u);
	unsigned n = 0;
	cr_assert_eq(dom0_serve_requests(t.rt, &n, &err), 0);
	cr_expect_eq(n, 1u);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_GRANTED);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 1u);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_SLOTS), 3u, "the first request's one slot, not the rewritten five");
	/* a destroyed vGPU takes its pending request with it */
	int b = d0_create(&t, 16 * MiB, 1, 0);
	cr_assert_eq(ask(&t, b, GTTLAB_GM_REQ_EXPAND, 1, 1, &err), 0);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, b, NULL), 0);
	cr_expect_eq(dom0_requests_pending(t.rt), 0u);
	d0_stop(&t);
}

/*
 * Eq. 1-3 with the test's own arithmetic: R_copy = C / (t x N) x 100, W the
 * sum of the steal rates, f = alpha W + beta R_copy.
 */
Test(dom0_policy, classes_follow_the_formula)
{
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 3, 0), b = d0_create(&t, 16 * MiB, 3, 0);
	/* alpha = 1/400 (two vGPUs x 200%), beta = 1/100; period 500 ms, N = 2, 1000 ns per PTE copied */
	policy(&t, &(struct dom0_policy){ .cpus = 2, .copy_ps_per_pte = 1000000, .min_slots = 3 });
	dom0_policy_steal(t.rt, a, 60000, NULL);	/* 60% */
	dom0_policy_steal(t.rt, b, 40000, NULL);	/* 40% */
	dom0_set_busy(t.rt, a, true, NULL);
	dom0_set_busy(t.rt, b, true, NULL);
	/* a maps 1000 entries: its switches copy them with the rest of its ranges */
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t first = in.high_base / 4096;
	for (uint64_t i = 0; i < 1000; i++)
		cr_assert_eq(dom0_guest_pte_write(t.rt, a, first + i, d0_guest_pte(&t, i % 64), NULL), 0);
	uint64_t w0 = dom0_counters(t.rt)->ptes_written;
	cr_assert_eq(dom0_run_quanta(t.rt, 32, NULL, NULL, NULL), 0);	/* 512 ms: one period */
	const struct dom0_policy_state *s = dom0_policy_state(t.rt);
	cr_assert_eq(s->periods, 1u);
	/* the switches inside the first 500 ms: the policy ticks at 500 (quantum 31 ends at 512) */
	uint64_t copied = dom0_counters(t.rt)->ptes_written - w0;
	uint64_t c_ns = copied * 1000;
	uint64_t r_mpct = c_ns * 100 * 1000 / (500ull * 1000000 * 2);
	cr_expect_eq(s->rcopy_mpct, r_mpct, "R_copy %llu m%%, formula %llu (%llu PTEs)", (unsigned long long)s->rcopy_mpct,
		     (unsigned long long)r_mpct, (unsigned long long)copied);
	cr_expect_eq(s->w_mpct, 100000u);
	uint64_t f = 100000ull * 1000000 / (400 * 1000) + 10000 * r_mpct / 1000;
	cr_expect_eq(s->f_u, f, "f %llu, formula %llu", (unsigned long long)s->f_u, (unsigned long long)f);
	cr_expect_eq(s->cls, f < 500000 ? DOM0_CLASS_LOW : f > 1000000 ? DOM0_CLASS_HIGH : DOM0_CLASS_MID);
	d0_stop(&t);
}

/* Three vGPUs: a and b hold 4 slots each (a well used, b barely), c holds 2. */
static void three(struct d0 *t, int id[3])
{
	d0_start(t, "sim:skl", &(struct dom0_config){ 0 });
	id[0] = d0_create(t, 16 * MiB, 4, 0);
	id[1] = d0_create(t, 16 * MiB, 4, 0);
	id[2] = d0_create(t, 16 * MiB, 2, 0);
	struct dom0_vgpu_info in;
	for (int k = 0; k < 2; k++) {
		dom0_vgpu_info(t->rt, id[k], &in);
		unsigned n = k ? 100 : 20000;
		for (unsigned i = 0; i < n; i++)
			cr_assert_eq(dom0_guest_pte_write(t->rt, id[k], in.high_base / 4096 + i, d0_guest_pte(t, i % 64), NULL), 0);
	}
	uint64_t m, e;
	dom0_vgpu_utilization(t->rt, id[0], &m, &e);
	cr_assert(m == 20000 && e == 4 * 16384, "utilization %llu / %llu", (unsigned long long)m, (unsigned long long)e);
}

/* W alone sets the class: f = W / (200% x 3 vGPUs) */
static void steal_for(struct d0 *t, int id, uint64_t f_thousandths)
{
	dom0_policy_steal(t->rt, id, f_thousandths * 600, NULL);
}

Test(dom0_policy, low_class_approves_and_reduces_nothing)
{
	struct d0 t;
	int id[3];

	three(&t, id);
	policy(&t, &(struct dom0_policy){ 0 });
	steal_for(&t, id[2], 400);	/* f = 0.4 */
	cr_assert_eq(dom0_run_quanta(t.rt, 32, NULL, NULL, NULL), 0);
	cr_expect_eq(dom0_policy_state(t.rt)->cls, DOM0_CLASS_LOW);
	cr_expect_eq(dom0_policy_state(t.rt)->policy_reductions, 0u);
	cr_expect_eq(request(&t, id[2], GTTLAB_GM_REQ_EXPAND, 2, 5), GTTLAB_GM_ST_GRANTED);
	d0_stop(&t);
}

Test(dom0_policy, mid_class_reduces_the_largest_least_used)
{
	struct d0 t;
	int id[3];

	three(&t, id);
	policy(&t, &(struct dom0_policy){ 0 });
	steal_for(&t, id[2], 700);	/* f = 0.7 */
	cr_assert_eq(dom0_run_quanta(t.rt, 32, NULL, NULL, NULL), 0);
	const struct dom0_policy_state *s = dom0_policy_state(t.rt);
	cr_expect_eq(s->cls, DOM0_CLASS_MID);
	cr_expect_eq(s->policy_reductions, 1u);
	cr_expect_eq(s->last_reduced, id[1], "b: as many slots as a, lower utilization");
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, id[1], &in);
	cr_expect_eq(in.slots, 3u);
	cr_expect_eq(pv(&t, id[1], VGT_IF_NONMAPPABLE_SIZE), 3 * 64 * MiB, "the guest learns of it through PVINFO");
	cr_expect_eq(request(&t, id[2], GTTLAB_GM_REQ_EXPAND, 1, 6), GTTLAB_GM_ST_GRANTED, "mid still approves");
	d0_stop(&t);
}

Test(dom0_policy, high_class_refuses_and_takes_two_slots)
{
	struct d0 t;
	int id[3];

	three(&t, id);
	policy(&t, &(struct dom0_policy){ 0 });
	steal_for(&t, id[2], 1200);	/* f = 1.2 */
	cr_assert_eq(dom0_run_quanta(t.rt, 32, NULL, NULL, NULL), 0);
	const struct dom0_policy_state *s = dom0_policy_state(t.rt);
	cr_expect_eq(s->cls, DOM0_CLASS_HIGH);
	cr_expect_eq(s->policy_reductions, 2u, "two 64 MiB slots");
	struct dom0_vgpu_info a, b;
	dom0_vgpu_info(t.rt, id[0], &a);
	dom0_vgpu_info(t.rt, id[1], &b);
	cr_expect_eq(a.slots + b.slots, 6u, "taken from the two largest, regardless of utilization");
	cr_expect_eq(request(&t, id[2], GTTLAB_GM_REQ_EXPAND, 1, 7), GTTLAB_GM_ST_REFUSED_POLICY);
	cr_expect_eq(request(&t, id[2], GTTLAB_GM_REQ_EVICTIONS, 5, 8), GTTLAB_GM_ST_REFUSED_POLICY, "an eviction rise too");
	cr_expect_eq(request(&t, id[2], GTTLAB_GM_REQ_REDUCE, 1, 9), GTTLAB_GM_ST_GRANTED, "giving back is always taken");
	d0_stop(&t);
}

Test(dom0_policy, eviction_rise_expands)
{
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	policy(&t, &(struct dom0_policy){ .evict_slots = 2 });
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_EVICTIONS, 10, 1), GTTLAB_GM_ST_GRANTED);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_SLOTS), 4u);
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_EVICTIONS, 10, 2), GTTLAB_GM_ST_NOTED, "did not rise");
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_SLOTS), 4u);
	cr_expect_eq(dom0_channel_stats(t.rt)->evict_expansions, 1u);
	d0_stop(&t);
}

Test(dom0_policy, expansion_that_does_not_fit_is_refused_for_room)
{
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	const struct dom0_layout *l = dom0_layout(t.rt);
	int a = d0_create(&t, 16 * MiB, l->num_slots - 1, 0);
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_EXPAND, 2, 1), GTTLAB_GM_ST_REFUSED_ROOM);
	cr_expect_eq(request(&t, a, GTTLAB_GM_REQ_REDUCE, l->num_slots, 2), GTTLAB_GM_ST_REFUSED_ROOM, "holds fewer");
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_SLOTS), l->num_slots - 1);
	d0_stop(&t);
}

Test(dom0_policy, utilization_follows_writes_and_resizes)
{
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t hi = in.high_base / 4096, m, e;
	/* 10 entries in slot 0 and 10 in slot 1 */
	for (unsigned i = 0; i < 10; i++) {
		dom0_guest_pte_write(t.rt, a, hi + i, d0_guest_pte(&t, 1), NULL);
		dom0_guest_pte_write(t.rt, a, hi + 16384 + i, d0_guest_pte(&t, 2), NULL);
	}
	dom0_guest_pte_write(t.rt, a, hi, 0, NULL);	/* not present: back to scratch */
	dom0_guest_pte_write(t.rt, a, hi + 1, d0_guest_pte(&t, 3), NULL);	/* remapped: still one */
	dom0_vgpu_utilization(t.rt, a, &m, &e);
	cr_expect(m == 19 && e == 32768, "%llu / %llu", (unsigned long long)m, (unsigned long long)e);
	unsigned L, R;
	cr_assert_eq(dom0_reduce(t.rt, a, 1, &L, &R, NULL), 0);
	dom0_vgpu_utilization(t.rt, a, &m, &e);
	cr_expect(m == (L ? 10u : 9u) && e == 16384, "after giving up the %s slot: %llu / %llu", L ? "left" : "right",
		  (unsigned long long)m, (unsigned long long)e);
	d0_stop(&t);
}

/*
 * An answer belongs to its request (issue 22, 6): while a request with SEQ 7
 * is pending, a refused write and a second notify that leave SEQ at 7 must not
 * put a final status beside ANSWER_SEQ 7; the guest reads PENDING for 7 until
 * the host answers it. A second notify under another SEQ is answered BUSY
 * under that SEQ.
 */
Test(dom0_policy, an_answer_belongs_to_its_request)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	cr_assert_eq(ask(&t, a, GTTLAB_GM_REQ_EXPAND, 1, 7, &err), 0, "%s", err.msg);
	/* a write outside the writable words, SEQ still 7 */
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x000, 1, NULL), GTT_EINVAL);	/* VGT_MAGIC: the host's */
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 7u);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_PENDING,
		     "a refused write made SEQ 7 read status %u before its answer", pv(&t, a, GTTLAB_IF_GM_STATUS));
	/* the doorbell rung again with SEQ 7 */
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x818, 0x100, NULL), GTT_EBUSY);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_PENDING,
		     "a second notify made SEQ 7 read status %u before its answer", pv(&t, a, GTTLAB_IF_GM_STATUS));
	/* another SEQ: BUSY is that one's answer */
	cr_expect_eq(ask(&t, a, GTTLAB_GM_REQ_EXPAND, 1, 8, NULL), GTT_EBUSY);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_BUSY);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 8u);
	unsigned n = 0;
	cr_assert_eq(dom0_serve_requests(t.rt, &n, &err), 0, "%s", err.msg);
	cr_expect_eq(n, 1u);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_GRANTED);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 7u);
	/* after its answer too: a refused write with SEQ still 7 leaves 7's answer as it was */
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x10c, 7, NULL), 0);
	cr_expect_eq(dom0_pvinfo_write(t.rt, a, 0x000, 1, NULL), GTT_EINVAL);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_GRANTED,
		     "a refused write put status %u beside SEQ 7, whose answer was GRANTED", pv(&t, a, GTTLAB_IF_GM_STATUS));
	d0_stop(&t);
}

/* A guest takes back its pending request: WITHDRAWN under its SEQ, nothing left for the host to answer. */
Test(dom0_policy, a_pending_request_is_withdrawn)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 16 * MiB, 2, 0);
	cr_assert_eq(ask(&t, a, GTTLAB_GM_REQ_EXPAND, 1, 3, &err), 0, "%s", err.msg);
	cr_assert_eq(ask(&t, a, GTTLAB_GM_REQ_WITHDRAW, 0, 4, &err), 0, "%s", err.msg);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_WITHDRAWN);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 3u, "the withdrawn request's own SEQ is answered");
	cr_expect_eq(dom0_requests_pending(t.rt), 0u);
	cr_expect_eq(dom0_channel_stats(t.rt)->withdrawn, 1u);
	unsigned n = 9;
	cr_assert_eq(dom0_serve_requests(t.rt, &n, &err), 0, "%s", err.msg);
	cr_expect_eq(n, 0u);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_SLOTS), 2u, "a withdrawn expansion never runs");
	/* nothing to withdraw: noted under the withdrawal's SEQ */
	cr_assert_eq(ask(&t, a, GTTLAB_GM_REQ_WITHDRAW, 0, 5, &err), 0, "%s", err.msg);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_NOTED);
	cr_expect_eq(pv(&t, a, GTTLAB_IF_GM_ANSWER_SEQ), 5u);
	d0_stop(&t);
}
