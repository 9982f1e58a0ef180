/* SPDX-License-Identifier: MIT */
/*
 * The scenario commands of gBalloon's policy and its request channel:
 * `policy`, `steal`, `request`, `evict`, `pvinfo-write`, and their expects
 * (`class`, `request`). A request is made the way a guest makes it (PVINFO
 * words, then g2v_notify) and served at once, as a host service would.
 */
#include "dom0/ops.h"
#include "dom0/pvinfo.h"
#include "scenario/scenario_internal.h"
#include "regs/pvinfo.h"

#include <inttypes.h>
#include <string.h>

#define MILLION UINT64_C(1000000)

static const char *const status_words[] = {
	[GTTLAB_GM_ST_IDLE] = "idle", [GTTLAB_GM_ST_PENDING] = "pending", [GTTLAB_GM_ST_GRANTED] = "granted",
	[GTTLAB_GM_ST_NOTED] = "noted", [GTTLAB_GM_ST_REFUSED_POLICY] = "refused-policy",
	[GTTLAB_GM_ST_REFUSED_ROOM] = "refused-room", [GTTLAB_GM_ST_BAD_CODE] = "bad-code",
	[GTTLAB_GM_ST_BAD_COUNT] = "bad-count", [GTTLAB_GM_ST_BAD_WRITE] = "bad-write", [GTTLAB_GM_ST_BUSY] = "busy",
	[GTTLAB_GM_ST_PAUSED] = "paused", [GTTLAB_GM_ST_WITHDRAWN] = "withdrawn",
};
#define N_STATUS (sizeof(status_words) / sizeof(status_words[0]))

static const char *const class_words[] = { "low", "mid", "high" };

const char *scen_status_word(uint32_t st)
{
	return st < N_STATUS && status_words[st] ? status_words[st] : "unknown";
}

/*
 * A decimal with at most six places ("0.5", "12", "1.000001") in millionths,
 * at most `max` millionths.
 */
static enum scen_rc need_decimal(struct scen *s, const char *what, const char *t, uint64_t max, uint64_t *out)
{
	uint64_t whole = 0, frac = 0, scale = MILLION;
	const char *p = t;

	if (!t)
		return scen_bad(s, "missing %s", what);
	if (*p < '0' || *p > '9')
		return scen_bad(s, "%s '%s' is not a decimal number (digits, optionally a point and up to 6 places)", what, t);
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (uint64_t)(*p - '0');
		if (whole > max / MILLION + 1)
			return scen_bad(s, "%s '%s' is more than %" PRIu64 ".%06" PRIu64, what, t, max / MILLION, max % MILLION);
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return scen_bad(s, "%s '%s': digits must follow the point", what, t);
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1)
				return scen_bad(s, "%s '%s' has more than 6 decimal places", what, t);
			scale /= 10;
			frac += (uint64_t)(*p - '0') * scale;
		}
	}
	if (*p)
		return scen_bad(s, "%s '%s' is not a decimal number (digits, optionally a point and up to 6 places)", what, t);
	*out = whole * MILLION + frac;
	if (*out > max)
		return scen_bad(s, "%s '%s' is more than %" PRIu64 ".%06" PRIu64, what, t, max / MILLION, max % MILLION);
	return SCEN_RAN;
}

enum scen_rc scen_cmd_policy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "alpha", "beta", "low", "high", "period", "cpus", "copy-ns", "min-slots",
					    "evict-slots", NULL };
	struct dom0_policy p = { 0 };
	uint64_t v;
	enum scen_rc rc;

	if ((rc = scen_only_keys(s, l, 1, keys)))
		return rc;
	if ((scen_kv(l, 1, "alpha") && (rc = need_decimal(s, "alpha", scen_kv(l, 1, "alpha"), 100 * MILLION, &p.alpha_u))) ||
	    (scen_kv(l, 1, "beta") && (rc = need_decimal(s, "beta", scen_kv(l, 1, "beta"), 100 * MILLION, &p.beta_u))) ||
	    (scen_kv(l, 1, "low") && (rc = need_decimal(s, "low", scen_kv(l, 1, "low"), 1000 * MILLION, &p.low_u))) ||
	    (scen_kv(l, 1, "high") && (rc = need_decimal(s, "high", scen_kv(l, 1, "high"), 1000 * MILLION, &p.high_u))))
		return rc;
	if (!!scen_kv(l, 1, "low") != !!scen_kv(l, 1, "high"))
		return scen_bad(s, "policy: low= and high= go together (the defaults are 0.5 and 1.0)");
	if (scen_kv(l, 1, "low") && p.low_u > p.high_u)
		return scen_bad(s, "policy: low=%s is above high=%s", scen_kv(l, 1, "low"), scen_kv(l, 1, "high"));
	if (scen_kv(l, 1, "period")) {
		if ((rc = scen_need_range(s, "period", scen_kv(l, 1, "period"), 1, 3600000, "milliseconds, at most an hour", &v)))
			return rc;
		p.period_ms = v;
	}
	if (scen_kv(l, 1, "cpus")) {
		if ((rc = scen_need_range(s, "cpus", scen_kv(l, 1, "cpus"), 1, 65536, "the host's CPUs, N of eq. 1", &v)))
			return rc;
		p.cpus = (unsigned)v;
	}
	if (scen_kv(l, 1, "copy-ns")) {
		if ((rc = scen_need_range(s, "copy-ns", scen_kv(l, 1, "copy-ns"), 0, MILLION, "ns per PTE copied; 0 measures", &v)))
			return rc;
		p.copy_ps_per_pte = v * 1000;
	}
	if (scen_kv(l, 1, "min-slots")) {
		if ((rc = scen_need_range(s, "min-slots", scen_kv(l, 1, "min-slots"), 1, MAX_SLOTS, "slots of high graphics memory", &v)))
			return rc;
		p.min_slots = (unsigned)v;
	}
	if (scen_kv(l, 1, "evict-slots")) {
		if ((rc = scen_need_range(s, "evict-slots", scen_kv(l, 1, "evict-slots"), 1, MAX_SLOTS, "slots of high graphics memory", &v)))
			return rc;
		p.evict_slots = (unsigned)v;
	}
	if (s->dry)
		return SCEN_RAN;
	if (dom0_policy_set(s->rt, &p, dom0_sim_time_ms(s->rt), err))
		return scen_outcome(s, 1, refuse, err, "policy");
	const struct dom0_policy_state *st = dom0_policy_state(s->rt);
	scen_say(s, "policy on at %" PRIu64 " ms: period %" PRIu64 " ms, thresholds %.6g and %.6g, %u CPUs, copy %s",
		 dom0_sim_time_ms(s->rt), st->p.period_ms, (double)st->p.low_u / MILLION, (double)st->p.high_u / MILLION,
		 st->p.cpus, st->p.copy_ps_per_pte ? "charged per PTE" : "measured");
	return SCEN_RAN;
}

enum scen_rc scen_cmd_steal(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t u;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)))
		return rc;
	if (l->argc != 3)
		return scen_bad(s, "steal NAME PERCENT (the sum over its vCPUs of steal / (steal + other), eq. 2)");
	if ((rc = need_decimal(s, "steal percent", l->argv[2], 102400 * MILLION, &u)) || s->dry)
		return rc;
	if (dom0_policy_steal(s->rt, id, u / 1000, err))
		return scen_outcome(s, 1, refuse, err, "steal");
	scen_say(s, "steal %s %s%%", l->argv[1], l->argv[2]);
	return SCEN_RAN;
}

/* What a status word answers: a request done (or waiting, paused), one the runtime refused, or no answer at all. */
enum answer { ANSWER_DONE, ANSWER_REFUSED, ANSWER_NONE };

static enum answer answer_of(uint32_t st)
{
	switch (st) {
	case GTTLAB_GM_ST_GRANTED:
	case GTTLAB_GM_ST_NOTED:
	case GTTLAB_GM_ST_PAUSED:
	case GTTLAB_GM_ST_WITHDRAWN:
		return ANSWER_DONE;
	case GTTLAB_GM_ST_REFUSED_POLICY:
	case GTTLAB_GM_ST_REFUSED_ROOM:
	case GTTLAB_GM_ST_BAD_CODE:
	case GTTLAB_GM_ST_BAD_COUNT:
	case GTTLAB_GM_ST_BAD_WRITE:
	case GTTLAB_GM_ST_BUSY:
		return ANSWER_REFUSED;
	default:	/* idle, pending: served at once, a request is answered; no answer is no refusal */
		return ANSWER_NONE;
	}
}

/* A change of a vGPU's slots from `was` to `in`, into the history: the slots each side gained or gave back. */
static void note_resize(struct scen *s, const char *name, int id, const struct dom0_vgpu_info *was,
			const struct dom0_vgpu_info *in, const char *grew, const char *shrank)
{
	if (in->first_slot == was->first_slot && in->slots == was->slots)
		return;
	bool gave = in->slots < was->slots;
	const struct dom0_vgpu_info *big = gave ? was : in, *small = gave ? in : was;
	scen_history(s, name, gave ? shrank : grew, id, small->first_slot - big->first_slot,
		     (big->first_slot + big->slots) - (small->first_slot + small->slots));
}

/*
 * The guest's side: PVINFO words, then the doorbell; the host serves at once.
 * Under `fail` only the runtime's refusal (a refused write, a refusing status
 * word) is the expected one.
 */
static enum scen_rc guest_request(struct scen *s, const struct scen_line *l, int id, uint32_t code, uint32_t count,
				  bool refuse, struct gtt_err *err)
{
	struct name *nm = scen_find_name(s, l->argv[1]);
	struct dom0_vgpu_info was, in;
	uint32_t seq = ++nm->seq, st = 0;
	int rc;

	if (dom0_vgpu_info(s->rt, id, &was))
		return scen_failed(s, "%s %s: the runtime has no vGPU %d", l->argv[0], l->argv[1], id);
	if ((rc = dom0_pvinfo_write(s->rt, id, GTTLAB_IF_GM_CODE - VGT_PVINFO_PAGE, code, err)) ||
	    (rc = dom0_pvinfo_write(s->rt, id, GTTLAB_IF_GM_COUNT - VGT_PVINFO_PAGE, count, err)) ||
	    (rc = dom0_pvinfo_write(s->rt, id, GTTLAB_IF_GM_SEQ - VGT_PVINFO_PAGE, seq, err)))
		return scen_outcome(s, rc, refuse, err, l->argv[0]);
	/* the doorbell: a malformed request is answered here, with rc set; a valid one is served at once */
	rc = dom0_pvinfo_write(s->rt, id, VGT_IF_G2V_NOTIFY - VGT_PVINFO_PAGE, GTTLAB_G2V_GM_REQUEST, err);
	if (!rc && (rc = dom0_serve_requests(s->rt, NULL, err)))
		return scen_failed(s, "%s: the host could not serve it: %s", l->argv[0], err->msg);
	if (dom0_pvinfo_read(s->rt, id, GTTLAB_IF_GM_STATUS - VGT_PVINFO_PAGE, &st, NULL) || dom0_vgpu_info(s->rt, id, &in))
		return scen_failed(s, "%s %s: the runtime has no vGPU %d after it", l->argv[0], l->argv[1], id);
	note_resize(s, l->argv[1], id, &was, &in, "was granted", "gave back");
	switch (answer_of(st)) {
	case ANSWER_REFUSED:
		if (refuse) {	/* `fail request ...`: the refusal is the point; say what it was */
			if (!rc)
				gtt_err_set(err, GTT_EINVAL, "answered %s over PVINFO", scen_status_word(st));
			return SCEN_REFUSED;
		}
		return scen_failed(s, "%s %s: answered %s over PVINFO%s%s", l->argv[0], l->argv[1], scen_status_word(st),
				   rc ? ": " : "", rc ? err->msg : "");
	case ANSWER_NONE:
		return scen_failed(s, "%s %s: not answered: the PVINFO status reads %s%s%s", l->argv[0], l->argv[1],
				   scen_status_word(st), rc ? ": " : "", rc ? err->msg : "");
	case ANSWER_DONE:
		if (rc)	/* the doorbell refused, and yet the status tells of an answer: neither can be believed */
			return scen_failed(s, "%s %s: the doorbell was refused (%s), yet the status reads %s", l->argv[0],
					   l->argv[1], err->msg, scen_status_word(st));
		break;
	}
	char slots[32] = "none";
	if (in.slots)
		snprintf(slots, sizeof(slots), "%u-%u", in.first_slot, in.first_slot + in.slots - 1);
	scen_say(s, "%s %s%s%s: %s; slots %s, PVINFO non-mappable 0x%" PRIx64 "+0x%" PRIx64, l->argv[0], l->argv[1],
		 l->argc > 2 ? " " : "", l->argc > 2 ? l->argv[2] : "", scen_status_word(st), slots, in.high_base,
		 in.high_size);
	return SCEN_RAN;
}

/*
 * After `run`: the slots the policy took (it acts inside the scheduler's
 * periods) go into the summary's history like any other resize.
 */
void scen_policy_history(struct scen *s)
{
	for (int i = 0; i < s->n_names && !s->dry; i++) {
		struct name *nm = &s->names[i];
		struct dom0_vgpu_info in;
		const struct hist *h = NULL;

		if (!nm->alive || nm->on != s->cur_dev || dom0_vgpu_info(s->rt, nm->id, &in))
			continue;
		for (int j = s->n_hist; j-- > 0 && !h;)
			if (!strcmp(s->hist[j].name, nm->name))
				h = &s->hist[j];
		if (h && (h->first != in.first_slot || h->slots != in.slots)) {
			struct dom0_vgpu_info was = { .first_slot = h->first, .slots = h->slots };
			note_resize(s, nm->name, nm->id, &was, &in, "grew", "was reduced by the policy");
		}
	}
}

enum scen_rc scen_cmd_request(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t q;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)))
		return rc;
	/* withdraw: the guest takes back its waiting request (code 4; COUNT is not read) */
	if (l->argc == 3 && !strcmp(l->argv[2], "withdraw"))
		return s->dry ? SCEN_RAN : guest_request(s, l, id, GTTLAB_GM_REQ_WITHDRAW, 0, refuse, err);
	if (l->argc != 4)
		return scen_bad(s, "request NAME expand|reduce Q, or request NAME withdraw (over PVINFO; Q is written as given, the host judges it)");
	if (strcmp(l->argv[2], "expand") && strcmp(l->argv[2], "reduce"))
		return scen_bad(s, "request: '%s' is not a request (expand, reduce or withdraw)", l->argv[2]);
	if ((rc = scen_need_range(s, "Q", l->argv[3], 0, UINT32_MAX, "a 32-bit PVINFO word", &q)) || s->dry)
		return rc;
	return guest_request(s, l, id, strcmp(l->argv[2], "expand") ? GTTLAB_GM_REQ_REDUCE : GTTLAB_GM_REQ_EXPAND,
			     (uint32_t)q, refuse, err);
}

enum scen_rc scen_cmd_evict(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t n;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)))
		return rc;
	if (l->argc != 3)
		return scen_bad(s, "evict NAME N (the guest evicted N more objects and reports its count over PVINFO)");
	if ((rc = scen_need_range(s, "evictions", l->argv[2], 0, UINT32_MAX, "a 32-bit PVINFO word", &n)) || s->dry)
		return rc;
	struct name *nm = scen_find_name(s, l->argv[1]);
	if (n > UINT32_MAX - nm->evictions)
		return scen_failed(s, "evict %s: the count would pass 2^32 - 1", l->argv[1]);
	nm->evictions += (uint32_t)n;
	return guest_request(s, l, id, GTTLAB_GM_REQ_EVICTIONS, nm->evictions, refuse, err);
}

enum scen_rc scen_cmd_pvinfo_write(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t off, val;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)))
		return rc;
	if (l->argc != 4)
		return scen_bad(s, "pvinfo-write NAME OFFSET VALUE (a guest's 32-bit write to its PVINFO page)");
	if ((rc = scen_need_range(s, "PVINFO offset", l->argv[2], 0, VGT_PVINFO_SIZE - 1, "bytes of the PVINFO page", &off)) ||
	    (rc = scen_need_range(s, "value", l->argv[3], 0, UINT32_MAX, "a 32-bit word", &val)))
		return rc;
	if (off % 4)
		return scen_bad(s, "PVINFO offset 0x%" PRIx64 " is not a multiple of 4 (a guest writes whole 32-bit words)", off);
	if (s->dry)
		return SCEN_RAN;
	struct dom0_vgpu_info was, in;
	if (dom0_vgpu_info(s->rt, id, &was))
		return scen_failed(s, "pvinfo-write %s: the runtime has no vGPU %d", l->argv[1], id);
	int e = dom0_pvinfo_write(s->rt, id, (uint32_t)off, (uint32_t)val, err);
	if (!e && off == VGT_IF_G2V_NOTIFY - VGT_PVINFO_PAGE && dom0_serve_requests(s->rt, NULL, err))
		return scen_failed(s, "pvinfo-write: the host could not serve the request: %s", err->msg);
	if (e)
		return scen_outcome(s, e, refuse, err, "pvinfo-write");
	/* a request the doorbell rang may have been granted: the history follows the range */
	if (!dom0_vgpu_info(s->rt, id, &in))
		note_resize(s, l->argv[1], id, &was, &in, "was granted", "gave back");
	scen_say(s, "pvinfo-write %s 0x%03" PRIx64 " = 0x%" PRIx64, l->argv[1], off, val);
	return SCEN_RAN;
}

/* expect class == low|mid|high */
enum scen_rc scen_expect_class(struct scen *s, const struct scen_line *l, const char *usage)
{
	int want = -1;

	for (int i = 0; l->argc == 4 && i < 3; i++)
		if (!strcmp(l->argv[3], class_words[i]))
			want = i;
	if (l->argc != 4 || strcmp(l->argv[2], "==") || want < 0)
		return scen_bad(s, "%s", usage);
	if (s->dry)
		return SCEN_RAN;
	const struct dom0_policy_state *st = dom0_policy_state(s->rt);
	if (!st->enabled)
		return scen_failed(s, "expect class: no policy is on (a `policy` line first)");
	return scen_check(s, (int)st->cls == want, "class == %s (it is %s: f %.6f, W %.3f%%, R_copy %.3f%%)", l->argv[3],
			  class_words[st->cls], (double)st->f_u / MILLION, (double)st->w_mpct / 1000,
			  (double)st->rcopy_mpct / 1000);
}

/* expect request NAME == STATUS: the status word of the vGPU's last answer */
enum scen_rc scen_expect_request(struct scen *s, const struct scen_line *l, const char *usage)
{
	enum scen_rc rc;
	int id, want = -1;

	if ((rc = scen_vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)))
		return rc;
	for (unsigned i = 0; l->argc == 5 && i < N_STATUS; i++)
		if (!strcmp(l->argv[4], status_words[i]))
			want = (int)i;
	if (l->argc != 5 || strcmp(l->argv[3], "==") || want < 0)
		return scen_bad(s, "%s", usage);
	if (s->dry)
		return SCEN_RAN;
	uint32_t st = 0;
	struct gtt_err err = { 0 };
	if (dom0_pvinfo_read(s->rt, id, GTTLAB_IF_GM_STATUS - VGT_PVINFO_PAGE, &st, &err))
		return scen_failed(s, "expect request %s: %s", l->argv[2], err.msg);
	return scen_check(s, st == (uint32_t)want, "request %s == %s (PVINFO status 0x%x reads %s)", l->argv[2], l->argv[4],
			  GTTLAB_IF_GM_STATUS, scen_status_word(st));
}

const char *const scen_policy_counters[] = { "policy.periods", "policy.requests", "policy.granted",
					    "policy.refused_policy", "policy.refused_room", "policy.malformed",
					    "policy.noted", "policy.reductions", "policy.evict_expansions", "policy.withdrawn",
					    NULL };

bool scen_policy_counter(struct scen *s, const char *key, uint64_t *v)
{
	for (int i = 0; scen_policy_counters[i]; i++) {
		if (strcmp(key, scen_policy_counters[i]))
			continue;
		if (s->dry)
			return true;
		const struct dom0_policy_state *p = dom0_policy_state(s->rt);
		const struct dom0_channel_stats *ch = dom0_channel_stats(s->rt);
		uint64_t vals[] = { p->periods, ch->requests, ch->granted, ch->refused_policy, ch->refused_room, ch->malformed,
				    ch->noted, p->policy_reductions, ch->evict_expansions, ch->withdrawn };
		*v = vals[i];
		return true;
	}
	return false;
}

void scen_policy_summary(struct scen *s)
{
	const struct dom0_policy_state *p = dom0_policy_state(s->rt);
	const struct dom0_channel_stats *ch = dom0_channel_stats(s->rt);

	if (!p->enabled)
		return;
	fprintf(s->out, "  policy: %" PRIu64 " periods of %" PRIu64 " ms, class now %s (f %.6f: W %.3f%%, R_copy %.3f%%)\n",
		p->periods, p->p.period_ms, class_words[p->cls], (double)p->f_u / MILLION, (double)p->w_mpct / 1000,
		(double)p->rcopy_mpct / 1000);
	fprintf(s->out, "  requests %" PRIu64 ": %" PRIu64 " granted, %" PRIu64 " refused by the policy, %" PRIu64 " for room, %" PRIu64
		" malformed, %" PRIu64 " noted; policy reductions %" PRIu64 ", eviction expansions %" PRIu64 "\n",
		ch->requests, ch->granted, ch->refused_policy, ch->refused_room, ch->malformed, ch->noted, p->policy_reductions,
		ch->evict_expansions);
}
