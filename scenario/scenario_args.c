/* SPDX-License-Identifier: MIT */
/*
 * The scenario runner's arguments and messages: reading numbers, key=value
 * words and vGPU names, with each one checked against its field's range, and
 * the three ways a line reports (malformed, failed, a step done).
 */
#include "scenario/scenario_internal.h"
#include "env/num.h"
#include "hosted/text_escape.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

/*
 * FILE:LINE: and a message, with every control byte of it escaped: the words
 * of a scenario file reach these messages, and an ESC or a newline in them
 * must neither drive the terminal nor make one message look like two.
 */
static void message(struct scen *s, FILE *f, const char *tag, const char *fmt, va_list ap)
{
	text_fputs_escaped(f, s->path);
	fprintf(f, ":%d: %s", s->cur_line, tag);
	text_vfprintf_escaped(f, fmt, ap);
	fputc('\n', f);
}

/* A failure at run time, printed (or kept for the JSON document) and counted; `why` leads its message. */
static enum scen_rc failed(struct scen *s, const char *why, const char *fmt, va_list ap)
{
	s->failures++;
	if (!s->json) {
		char lead[64];
		snprintf(lead, sizeof(lead), "FAILED: %s", why);
		message(s, s->out, lead, fmt, ap);
		return SCEN_FAILED;
	}
	if (s->n_fail < MAX_JSON_FAILURES) {
		char *msg = s->fail[s->n_fail].msg;
		size_t n = sizeof(s->fail[0].msg), k = (size_t)snprintf(msg, n, "%s", why);
		if (k < n)
			vsnprintf(msg + k, n - k, fmt, ap);
		s->fail[s->n_fail++].line = s->cur_line;
	}
	return SCEN_FAILED;
}

enum scen_rc scen_bad(struct scen *s, const char *fmt, ...)
{
	enum scen_rc rc;
	va_list ap;

	va_start(ap, fmt);
	if (s->dry) {
		message(s, s->errors, "", fmt, ap);
		rc = SCEN_MALFORMED;
	} else {
		/* the pre-pass let it through (the rule is the line's device's): it cannot run, and that fails the run */
		rc = failed(s, "did not run: ", fmt, ap);
	}
	va_end(ap);
	return rc;
}

enum scen_rc scen_failed(struct scen *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	failed(s, "", fmt, ap);
	va_end(ap);
	return SCEN_FAILED;
}

/* The runtime call failed: under `fail` that is the point; otherwise the step failed. */
enum scen_rc scen_outcome(struct scen *s, int rc, bool expect_refusal, const struct gtt_err *e, const char *what)
{
	if (!rc)
		return SCEN_RAN;
	if (expect_refusal)
		return SCEN_REFUSED;
	return scen_failed(s, "%s: %s", what, e->msg);
}

void scen_say(struct scen *s, const char *fmt, ...)
{
	va_list ap;

	if (s->dry || s->quiet)
		return;
	fprintf(s->out, "%4d  ", s->cur_line);
	va_start(ap, fmt);
	text_vfprintf_escaped(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
}

enum scen_rc scen_check(struct scen *s, bool ok, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ok)
		return scen_failed(s, "expect %s", msg);
	s->expects_passed++;
	scen_say(s, "ok: %s", msg);
	return SCEN_RAN;
}

bool scen_parse_num(const char *t, uint64_t *out)
{
	return gtt_parse_u64(t, out, NULL) == GTT_OK;
}

/* key=value among the tokens from `from` on; NULL when absent. */
const char *scen_kv(const struct scen_line *l, int from, const char *key)
{
	size_t n = strlen(key);

	for (int i = from; i < l->argc; i++)
		if (!strncmp(l->argv[i], key, n) && l->argv[i][n] == '=')
			return l->argv[i] + n + 1;
	return NULL;
}

/* Every token from `from` on must be key=value with a key in `allowed` (NULL-terminated). */
enum scen_rc scen_only_keys(struct scen *s, const struct scen_line *l, int from, const char *const *allowed)
{
	for (int i = from; i < l->argc; i++) {
		const char *eq = strchr(l->argv[i], '=');
		bool ok = false;
		for (const char *const *k = allowed; eq && *k; k++)
			ok |= strlen(*k) == (size_t)(eq - l->argv[i]) && !strncmp(*k, l->argv[i], (size_t)(eq - l->argv[i]));
		if (!ok)
			return scen_bad(s, "'%s' is not an argument of %s", l->argv[i], l->argv[0]);
		/* a key given twice: which one would count is a guess, so neither does */
		for (int j = from; j < i; j++)
			if (!strncmp(l->argv[j], l->argv[i], (size_t)(eq - l->argv[i]) + 1))
				return scen_bad(s, "%.*s= is given twice on one %s line", (int)(eq - l->argv[i]), l->argv[i],
						l->argv[0]);
	}
	return SCEN_RAN;
}

enum scen_rc scen_need_num(struct scen *s, const char *what, const char *t, uint64_t *v)
{
	const char *why;

	if (!t)
		return scen_bad(s, "missing %s", what);
	if (gtt_parse_u64(t, v, &why))
		return scen_bad(s, "%s '%s' %s", what, t, why);
	return SCEN_RAN;
}

/* A number in [lo, hi]; `rule` says why the bounds are what they are. */
enum scen_rc scen_need_range(struct scen *s, const char *what, const char *t, uint64_t lo, uint64_t hi, const char *rule,
			     uint64_t *v)
{
	enum scen_rc rc = scen_need_num(s, what, t, v);

	if (!rc && (*v < lo || *v > hi))
		return scen_bad(s, "%s %" PRIu64 " is out of range: %" PRIu64 " to %" PRIu64 " (%s)", what, *v, lo, hi,
				rule);
	return rc;
}

/* "== VALUE" as the last two words of an expect, from word `at`. */
enum scen_rc scen_expect_value(struct scen *s, const struct scen_line *l, int at, uint64_t *want)
{
	if (l->argc != at + 2 || strcmp(l->argv[at], "=="))
		return scen_bad(s, "expected '== VALUE' at the end of the expect");
	return scen_need_num(s, "value", l->argv[at + 1], want);
}

/* "FIRST-LAST", two slot numbers of the number grammar, FIRST <= LAST. */
bool scen_slot_range(const char *t, uint64_t *first, uint64_t *last)
{
	const char *dash = strchr(t, '-');
	char a[32];

	if (!dash || (size_t)(dash - t) >= sizeof(a))
		return false;
	snprintf(a, sizeof(a), "%.*s", (int)(dash - t), t);
	return scen_parse_num(a, first) && scen_parse_num(dash + 1, last) && *first <= *last && *last < MAX_SLOTS;
}

/* A name some line has created (pre-pass), or a create of it has run (run: alive or not); NULL when none. */
struct name *scen_find_name(struct scen *s, const char *n)
{
	for (int i = 0; i < s->n_names; i++)
		if (!strcmp(s->names[i].name, n))
			return &s->names[i];
	return NULL;
}

enum scen_rc scen_vgpu(struct scen *s, const char *n, int *id)
{
	struct name *nm = n ? scen_find_name(s, n) : NULL;

	if (!n)
		return scen_bad(s, "missing vGPU name");
	if (s->dry) {
		/* all that holds whatever runs: a line before this one creates it */
		if (!nm)
			return scen_bad(s, "no vGPU named '%s': no line before this one creates it", n);
		*id = 0;
		return SCEN_RAN;
	}
	if (!nm)
		return scen_failed(s, "did not run: no vGPU named '%s' exists: no create of it has run", n);
	if (!nm->alive && nm->create_failed)
		return scen_failed(s, "did not run: no vGPU named '%s' exists: its create at line %d failed", n, nm->line);
	if (!nm->alive)
		return scen_failed(s, "did not run: no vGPU named '%s' exists: it was destroyed at line %d", n, nm->line);
	if (nm->on != s->cur_dev)
		return scen_failed(s, "did not run: vGPU '%s' lives on device %s, and this line runs on device %s (`on %s ...` runs it there)",
				   n, s->devs[nm->on].name, s->devs[s->cur_dev].name, s->devs[nm->on].name);
	*id = nm->id;
	return SCEN_RAN;
}

const char *scen_slots_text(const struct dom0_vgpu_info *in, char *buf, size_t n)
{
	if (!in->slots)
		snprintf(buf, n, "none");
	else
		snprintf(buf, n, "%u-%u", in->first_slot, in->first_slot + in->slots - 1);
	return buf;
}

/* The name of a live vGPU id for messages; id 0 is nobody. */
const char *scen_name_of(struct scen *s, int id)
{
	for (int i = 0; i < s->n_names; i++)
		if (s->names[i].alive && s->names[i].id == id && s->names[i].on == s->cur_dev)
			return s->names[i].name;
	return id ? "?" : "none";
}

/* [a-z0-9_-], shorter than 32, and not a word the language gives a meaning of its own. */
bool scen_valid_name(const char *n)
{
	static const char *const reserved[] = { "none", "scratch", "boot", "last", NULL };

	if (!*n || strlen(n) >= 32)
		return false;
	for (const char *p = n; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	for (const char *const *r = reserved; *r; r++)
		if (!strcmp(n, *r))
			return false;
	return true;
}
