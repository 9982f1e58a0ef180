/* SPDX-License-Identifier: MIT */
/*
 * A VF's MMIO channel to GuC (hw/guc_mmio.h) and its bootstrap
 * (hw/vf_bootstrap.h) against a scripted GuC: each ring of the doorbell
 * takes the next answer of a script, written here as literal header words
 * from the HXG layout in docs/hardware.md §10.2 (origin 31, type 30:28), not
 * from the code under test. Every answer type, every refusal, and a GuC
 * that answers at random by the thousand, whose exchanges must each end
 * within the bounds and succeed only on a success.
 */
#include <criterion/criterion.h>
#include <stdbool.h>
#include <string.h>

#include "hw/guc_mmio.h"
#include "hw/vf_bootstrap.h"
#include "regs/sriov.h"

/* headers written out: origin GuC 0x8..., type in 30:28 */
#define BUSY(c)		(0xb0000000u | (c))
#define RETRY(r)	(0xd0000000u | (r))
#define FAIL(h, e)	(0xe0000000u | ((h) << 16) | (e))
#define OK(d)		(0xf0000000u | (d))
#define EVENT		0x90000000u

enum act { SILENT, LOSE, ANSWER, ANSWER_LATE };

/* What GuC does at one ring: nothing, clear flag 0, or answer (at once, or after `after` polls show `first`). */
struct step {
	enum act act;
	uint32_t hdr, dw[3];
	uint32_t first;		/* ANSWER_LATE: shown first (e.g. a BUSY) */
	unsigned after;		/* ...for this many polls */
};

struct guc {
	uint32_t flag[4];
	struct step script[32];
	unsigned n_script, rings, polls_left;
	struct step late;
	uint32_t req[4];
	uint64_t clock_ns, tick_ns;	/* the test's clock: tick_ns per reading */
	unsigned bad_offsets;
	struct gtt_env env;
	struct hw_guc_mbox mb;
	/* a responder by action instead of a script (the bootstrap tests) */
	void (*by_action)(struct guc *g);
	bool refuse_writes;		/* the write path refuses (its journal could not keep the old value) */
};

static uint64_t clock_now(const struct gtt_env *env)
{
	struct guc *g = env->priv;

	g->clock_ns += g->tick_ns;
	return g->clock_ns;
}

static uint32_t rd(void *ctx, uint32_t off)
{
	struct guc *g = ctx;

	if (off >= VF_SW_FLAG(0) && off <= VF_SW_FLAG(3)) {
		unsigned i = (off - VF_SW_FLAG(0)) / 4;
		if (i == 0 && g->polls_left && !--g->polls_left)
			g->flag[0] = g->late.hdr;
		return g->flag[i];
	}
	g->bad_offsets++;
	return 0xffffffff;
}

static void answer(struct guc *g, const struct step *s)
{
	switch (s->act) {
	case SILENT:
		break;
	case LOSE:
		g->flag[0] = 0;
		break;
	case ANSWER:
		g->flag[0] = s->hdr;
		memcpy(&g->flag[1], s->dw, sizeof(s->dw));
		break;
	case ANSWER_LATE:
		g->flag[0] = s->first;
		memcpy(&g->flag[1], s->dw, sizeof(s->dw));
		g->late = *s;
		g->polls_left = s->after;
		break;
	}
}

static int wr(void *ctx, uint32_t off, uint32_t val)
{
	struct guc *g = ctx;

	if (g->refuse_writes)
		return -1;
	if (off >= VF_SW_FLAG(0) && off <= VF_SW_FLAG(3)) {
		g->flag[(off - VF_SW_FLAG(0)) / 4] = val;
		return 0;
	}
	if (off != GUC_HOST_INTERRUPT || val != 0) {
		g->bad_offsets++;
		return 0;
	}
	memcpy(g->req, g->flag, sizeof(g->req));
	g->polls_left = 0;
	if (g->by_action) {
		g->by_action(g);
	} else {
		cr_assert_lt(g->rings, g->n_script, "rung %u times, the script has %u steps", g->rings + 1, g->n_script);
		answer(g, &g->script[g->rings]);
	}
	g->rings++;
	return 0;
}

static void guc_init(struct guc *g)
{
	memset(g, 0, sizeof(*g));
	g->tick_ns = 10000;	/* 10 us a reading of the clock */
	g->env = (struct gtt_env){ .now_ns = clock_now, .priv = g };
	g->mb = (struct hw_guc_mbox){ .read32 = rd, .write32 = wr, .ctx = g, .env = &g->env, .flag0 = VF_SW_FLAG(0),
				      .doorbell = GUC_HOST_INTERRUPT };
}

static void script(struct guc *g, const struct step *s, unsigned n)
{
	memcpy(g->script, s, n * sizeof(*s));
	g->n_script = n;
}

/* One exchange of a two-dword request; its rc, err, data0 and reply. */
static int xchg(struct guc *g, uint32_t *data0, uint32_t *reply, struct hw_guc_mmio_stats *st, struct gtt_err *err)
{
	uint32_t req[2] = { 0x00005509u, 0x0002u };	/* QUERY_SINGLE_KLV of key 2, written out */

	return hw_guc_mmio_send_recv(&g->mb, req, 2, data0, reply, st, err);
}

Test(guc_mmio, a_success_returns_data0_and_the_reply_dwords)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0, reply[4] = { 0 };

	guc_init(&g);
	script(&g, (struct step[]){ { .act = ANSWER, .hdr = OK(0x2), .dw = { 0x00400000, 0x0, 0xdead } } }, 1);
	cr_assert_eq(xchg(&g, &data0, reply, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(g.req[0], 0x00005509u, "the request's header in VF_SW_FLAG0");
	cr_expect_eq(g.req[1], 0x2u, "its dword 1 in VF_SW_FLAG1");
	cr_expect_eq(data0, 0x2);
	cr_expect(reply[0] == OK(0x2) && reply[1] == 0x00400000 && reply[2] == 0 && reply[3] == 0xdead);
	cr_expect(st.sends == 1 && st.busy == 0 && st.retries == 0 && !st.no_reply);
	cr_expect_eq(g.bad_offsets, 0, "only the mailbox is touched");
}

Test(guc_mmio, busy_then_an_answer_is_waited_for)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0;

	guc_init(&g);
	/* BUSY for 2000 polls (20 ms of the test clock, past the first 50 ms? no: within the 2 s busy limit) */
	script(&g, (struct step[]){ { .act = ANSWER_LATE, .hdr = OK(0x5), .first = BUSY(1), .after = 2000 } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), 0, "%s", err.msg);
	cr_expect(data0 == 5 && st.busy == 1 && st.sends == 1);
}

Test(guc_mmio, busy_for_ever_is_an_error_after_two_seconds)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = ANSWER, .hdr = BUSY(7) } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "action 0x5509: still busy (counter 7) after "), "%s", err.msg);
	/* 50 ms, then 2 s, at one 10 us reading of the clock a poll: about 205000 polls, never unbounded */
	cr_expect(st.polls > 200000 && st.polls < 210000, "%u polls", st.polls);
}

Test(guc_mmio, a_retry_after_busy_is_a_protocol_error)
{
	struct guc g;
	struct gtt_err err = { 0 };
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = ANSWER_LATE, .hdr = RETRY(1), .first = BUSY(0), .after = 10 } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, NULL, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "answered 0xd0000001 after BUSY"), "%s", err.msg);
}

Test(guc_mmio, retry_sends_again_and_is_bounded)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = ANSWER, .hdr = RETRY(3) }, { .act = ANSWER, .hdr = OK(0) } }, 2);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), 0, "%s", err.msg);
	cr_expect(st.sends == 2 && st.retries == 1 && g.rings == 2);

	guc_init(&g);
	struct step s[32];
	for (unsigned i = 0; i < 32; i++)
		s[i] = (struct step){ .act = ANSWER, .hdr = RETRY(9) };
	script(&g, s, 32);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "asked to retry 9 times (reason 9): given up"), "%s", err.msg);
	cr_expect_eq(g.rings, 9, "sent once and again for 8 retries: %u", g.rings);
}

Test(guc_mmio, a_failure_names_its_hint_and_error)
{
	struct guc g;
	struct gtt_err err = { 0 };
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = ANSWER, .hdr = FAIL(0x12, 0x0031) } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, NULL, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "action 0x5509: failed, hint 0x012 error 0x0031"), "%s", err.msg);
}

Test(guc_mmio, no_reply_is_an_error_within_the_limit)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = SILENT } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "no reply within 50 ms (VF_SW_FLAG0 reads 0x00005509)"), "%s", err.msg);
	cr_expect(st.no_reply && st.sends == 1);
	cr_expect(st.polls >= 5000 && st.polls <= 5002, "50 ms at one 10 us reading a poll: %u polls", st.polls);
}

Test(guc_mmio, a_lost_request_is_sent_once_more)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = LOSE }, { .act = ANSWER, .hdr = OK(1) } }, 2);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), 0, "%s", err.msg);
	cr_expect(st.sends == 2 && data0 == 1);

	guc_init(&g);
	script(&g, (struct step[]){ { .act = LOSE }, { .act = LOSE } }, 2);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), GTT_EIO);
	cr_expect(st.sends == 2 && st.no_reply, "once more, not for ever");
}

Test(guc_mmio, a_message_that_answers_nothing_is_an_error)
{
	struct guc g;
	struct gtt_err err = { 0 };
	uint32_t data0 = 0;

	guc_init(&g);
	script(&g, (struct step[]){ { .act = ANSWER, .hdr = EVENT | 0x42 } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, NULL, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "answered 0x90000042: type 1 is no answer"), "%s", err.msg);
}

Test(guc_mmio, a_bad_request_rings_nothing)
{
	struct guc g;
	struct gtt_err err = { 0 };
	uint32_t data0 = 0, req[5] = { 0x5509, 0, 0, 0, 0 };

	guc_init(&g);
	cr_expect_eq(hw_guc_mmio_send_recv(&g.mb, req, 0, &data0, NULL, NULL, &err), GTT_EINVAL);
	cr_expect_eq(hw_guc_mmio_send_recv(&g.mb, req, 5, &data0, NULL, NULL, &err), GTT_EINVAL);
	req[0] = 0x80005509;
	cr_expect_eq(hw_guc_mmio_send_recv(&g.mb, req, 1, &data0, NULL, NULL, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "0x80005509: not a host REQUEST"), "%s", err.msg);
	req[0] = 0x10005509;
	cr_expect_eq(hw_guc_mmio_send_recv(&g.mb, req, 1, &data0, NULL, NULL, &err), GTT_EINVAL);
	cr_expect_eq(g.rings, 0);
	cr_expect(!g.flag[0] && !g.flag[1], "nothing written");
}

/* A write the write path refuses stops the exchange, named, and rings nothing. */
Test(guc_mmio, a_refused_write_stops_it)
{
	struct guc g;
	struct gtt_err err = { 0 };
	uint32_t data0 = 0;

	guc_init(&g);
	g.refuse_writes = true;
	script(&g, (struct step[]){ { .act = ANSWER, .hdr = OK(0) } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, NULL, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "the write of flag 0 (0x190240) was refused"), "%s", err.msg);
	cr_expect_eq(g.rings, 0);
}

/* A clock that stands still: the count of reads ends the wait. */
Test(guc_mmio, a_stuck_clock_cannot_hold_it, .timeout = 30)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_guc_mmio_stats st;
	uint32_t data0 = 0;

	guc_init(&g);
	g.tick_ns = 0;
	script(&g, (struct step[]){ { .act = SILENT } }, 1);
	cr_assert_eq(xchg(&g, &data0, NULL, &st, &err), GTT_EIO);
	cr_expect_eq(st.polls, HW_GUC_MMIO_MAX_POLLS);
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/*
 * A GuC answering at random (any header, origin and type, answers late or
 * lost), 20000 exchanges: each ends within its bounds (sends at most one
 * lost resend plus 9, polls within the time limits at the test clock's
 * pace), touches only the mailbox, and succeeds exactly when the last
 * answer it took was a success from GuC, whose data0 it returns.
 */
Test(guc_mmio, a_random_guc_never_holds_it_or_fools_it, .timeout = 120)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;

	for (unsigned x = 0; x < 20000; x++) {
		struct guc g;
		struct gtt_err err = { 0 };
		struct hw_guc_mmio_stats st;
		uint32_t data0 = 0xffffffff, reply[4];
		struct step s[32];

		guc_init(&g);
		g.tick_ns = 200000;	/* 0.2 ms a reading: short waits, so many exchanges */
		for (unsigned i = 0; i < 32; i++) {
			uint64_t r = next(&seed);
			uint32_t hdr = (uint32_t)r;
			if ((r >> 32) % 3 == 0)	/* often a well formed GuC answer */
				hdr = 0x80000000u | (hdr & 0x7fffffffu);
			s[i] = (struct step){ .act = (enum act)((r >> 40) % 4), .hdr = hdr, .dw = { (uint32_t)(r >> 8), 0, 0 },
					      .first = (uint32_t)(r >> 20) | 0x80000000u, .after = (unsigned)((r >> 50) % 300) };
		}
		script(&g, s, 32);
		int rc = xchg(&g, &data0, reply, &st, &err);
		cr_assert(rc == GTT_OK || rc == GTT_EIO, "exchange %u: rc %d", x, rc);
		cr_assert_leq(st.sends, 1 + 1 + HW_GUC_MMIO_RETRIES, "exchange %u: %u sends", x, st.sends);
		cr_assert_leq(st.polls, 2 * (HW_GUC_MMIO_TIMEOUT_MS + HW_GUC_MMIO_BUSY_MS) * 1000 / 200 * st.sends + 10 * st.sends,
			      "exchange %u: %u polls", x, st.polls);
		cr_assert_eq(g.bad_offsets, 0, "exchange %u", x);
		uint32_t last = g.flag[0];
		if (rc == GTT_OK)
			cr_assert(last >> 28 == 0xf && data0 == (last & 0x0fffffffu) && reply[0] == last,
				  "exchange %u: success on 0x%08x, data0 0x%x", x, last, data0);
		else
			cr_assert(last >> 28 != 0xf || strstr(err.msg, "after BUSY") == NULL,
				  "exchange %u: refused a success 0x%08x: %s", x, last, err.msg);
	}
}

/* ---- the bootstrap: a GuC answering by action ---- */

static struct {
	unsigned resets_silent;		/* VF_RESET rings left unanswered */
	uint32_t version;		/* MATCH_VERSION's reply dword 1 */
	uint32_t version_data0;
	uint32_t klv_hdr[3];		/* QUERY_SINGLE_KLV's reply header, by key */
	uint64_t klv_val[3];
} G;

static void by_action(struct guc *g)
{
	uint32_t action = g->req[0] & 0xffff;

	memset(&g->flag[1], 0, 12);
	if (action == 0x5507) {
		if (G.resets_silent) {
			G.resets_silent--;
			return;
		}
		g->flag[0] = OK(0);
	} else if (action == 0x5500) {
		cr_expect_eq(g->req[1] & 0xff, 0, "MATCH_VERSION's bits 7:0 must be zero");
		g->flag[0] = OK(G.version_data0);
		g->flag[1] = G.version;
	} else if (action == 0x5509 && g->req[1] >= 1 && g->req[1] <= 2) {
		g->flag[0] = G.klv_hdr[g->req[1]];
		g->flag[1] = (uint32_t)G.klv_val[g->req[1]];
		g->flag[2] = (uint32_t)(G.klv_val[g->req[1]] >> 32);
	} else {
		g->flag[0] = FAIL(0, 0x30);
	}
}

/* A GuC that gives ADL-P's VF 1.1 and [16 MiB, 16 MiB + 512 MiB). */
static void good_guc(struct guc *g)
{
	guc_init(g);
	g->by_action = by_action;
	G.resets_silent = 0;
	G.version = 0x00010100;	/* 1.1.0 */
	G.version_data0 = 0;
	G.klv_hdr[1] = G.klv_hdr[2] = OK(2);
	G.klv_val[1] = 16ull << 20;
	G.klv_val[2] = 512ull << 20;
}

static int boot(struct guc *g, bool gmd, struct hw_vf_boot *b, struct gtt_err *err)
{
	return hw_vf_bootstrap(&g->mb, gmd, 2ull << 20, b, err);
}

Test(vf_bootstrap, a_good_guc_gives_the_range)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_vf_boot b;

	good_guc(&g);
	cr_assert_eq(boot(&g, false, &b, &err), 0, "%s", err.msg);
	cr_expect(b.ggtt.start == 16ull << 20 && b.ggtt.size == 512ull << 20);
	cr_expect(b.abi.major == 1 && b.abi.minor == 1 && b.reset_tries == 1);
	cr_expect_eq(g.rings, 4, "reset, version, two KLVs");
}

Test(vf_bootstrap, reset_is_sent_again_while_no_reply_comes)
{
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_vf_boot b;

	good_guc(&g);
	G.resets_silent = 3;
	cr_assert_eq(boot(&g, false, &b, &err), 0, "%s", err.msg);
	cr_expect_eq(b.reset_tries, 4);
	good_guc(&g);
	G.resets_silent = 100;
	cr_assert_eq(boot(&g, false, &b, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "VF_RESET: no reply to 10 tries of 50 ms"), "%s", err.msg);
}

Test(vf_bootstrap, versions_it_cannot_take_are_refused)
{
	static const struct {
		uint32_t version, data0;
		bool gmd;
		const char *says;
	} bad[] = {
		{ 0x01010100, 0, false, "branch 1" },	/* branch 1 */
		{ 0x00020000, 0, false, "offers VF interface 2.0.0" },
		{ 0x00010100, 0, true, "needs 1.2" },	/* 1.1 where GMD_ID needs 1.2 */
		{ 0x00010000, 0, false, "needs 1.1" },
		{ 0x00010100, 0x10, false, "MATCH_VERSION: success with data 0x0000010, must be zero" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct guc g;
		struct gtt_err err = { 0 };
		struct hw_vf_boot b;
		good_guc(&g);
		G.version = bad[i].version;
		G.version_data0 = bad[i].data0;
		cr_expect_eq(boot(&g, bad[i].gmd, &b, &err), GTT_EIO, "case %zu", i);
		cr_expect(strstr(err.msg, bad[i].says), "case %zu: %s", i, err.msg);
	}
	struct guc g;
	struct gtt_err err = { 0 };
	struct hw_vf_boot b;
	good_guc(&g);
	G.version = 0x00010307;	/* 1.3.7 on a GMD_ID GT: a later 1.x */
	cr_assert_eq(boot(&g, true, &b, &err), 0, "%s", err.msg);
	cr_expect(b.abi.minor == 3 && b.abi.patch == 7);
}

Test(vf_bootstrap, klv_replies_are_checked_field_by_field)
{
	static const struct {
		uint32_t start_hdr;
		uint64_t start, size;
		const char *says;
	} bad[] = {
		{ OK(1), 16ull << 20, 512ull << 20, "KLV 0x0001: reply of 1 dwords, the key has 2" },
		{ OK(3), 16ull << 20, 512ull << 20, "KLV 0x0001: reply of 3 dwords, the key has 2" },
		{ OK(0x10002), 16ull << 20, 512ull << 20, "must-be-zero bits 27:16" },
		{ OK(2), 16ull << 20, 0, "size 0" },
		{ OK(2), 1ull << 20, 512ull << 20, "start 0x100000: below WOPCM's 0x200000" },
		{ OK(2), 0xfee01000ull, 4096, "past GUC_GGTT_TOP" },
		{ OK(2), 0xfe000000ull, 0x00e01000ull, "past GUC_GGTT_TOP" },	/* ends 4 KiB past the top */
		{ OK(2), 16ull << 20, (512ull << 20) + 8, "not in whole 4 KiB pages" },
		{ FAIL(0, 0x22), 16ull << 20, 512ull << 20, "action 0x5509: failed, hint 0x000 error 0x0022" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct guc g;
		struct gtt_err err = { 0 };
		struct hw_vf_boot b = { 0 };
		good_guc(&g);
		G.klv_hdr[1] = bad[i].start_hdr;
		G.klv_val[1] = bad[i].start;
		G.klv_val[2] = bad[i].size;
		cr_expect_neq(boot(&g, false, &b, &err), 0, "case %zu", i);
		cr_expect(strstr(err.msg, bad[i].says), "case %zu: %s", i, err.msg);
		cr_expect_eq(b.ggtt.size, 0, "case %zu: nothing returned", i);
	}
}

/* The bounds at their edges, from the documented rules: [WOPCM, GUC_GGTT_TOP), 4 KiB pages, not empty. */
Test(vf_bootstrap, the_range_rules_at_their_edges)
{
	struct gtt_err err = { 0 };
	const uint64_t wopcm = 2ull << 20, top = 0xfee00000ull;

	cr_expect_eq(hw_vf_ggtt_check(wopcm, 4096, wopcm, &err), 0, "the first page above WOPCM");
	cr_expect_eq(hw_vf_ggtt_check(top - 4096, 4096, wopcm, &err), 0, "the last page below the top");
	cr_expect_eq(hw_vf_ggtt_check(wopcm, top - wopcm, wopcm, &err), 0, "all of it");
	cr_expect_eq(hw_vf_ggtt_check(wopcm - 4096, 4096, wopcm, &err), GTT_EINVAL);
	cr_expect_eq(hw_vf_ggtt_check(top - 4096, 8192, wopcm, &err), GTT_EINVAL);
	cr_expect_eq(hw_vf_ggtt_check(top, 4096, wopcm, &err), GTT_EINVAL);
	cr_expect_eq(hw_vf_ggtt_check(wopcm, ~0ull, wopcm, &err), GTT_EINVAL, "a size that wraps");
	cr_expect_eq(hw_vf_ggtt_check(4ull << 20, 4096, 4ull << 20, &err), 0, "MTL's 4 MiB WOPCM");
	cr_expect_eq(hw_vf_ggtt_check(2ull << 20, 4096, 4ull << 20, &err), GTT_EINVAL);
	cr_expect_eq(hw_vf_min_minor(false), 1);
	cr_expect_eq(hw_vf_min_minor(true), 2);
}
