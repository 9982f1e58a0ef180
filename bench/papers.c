/* SPDX-License-Identifier: MIT */
/*
 * Claims of the papers judged from the measured numbers (bench/papers.h):
 * each check the claim names holds or is said in the reason; a wrong sign,
 * or every check failing, is "not reproduced", some failing "partly".
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/papers.h"

const char *bench_verdict_name(enum bench_verdict v)
{
	return v == VERDICT_REPRODUCED ? "reproduced" : v == VERDICT_PARTLY ? "partly" : "not reproduced";
}

struct bench_claim bench_claim(const char *paper, const char *figure, const char *claim, const char *unit,
			       double paper_value, double value, unsigned checked)
{
	struct bench_claim c = { .paper = paper, .figure = figure, .unit = unit, .paper_value = paper_value,
				 .value = value, .checked = checked, .band = BENCH_CLAIM_BAND, .tol = BENCH_CLAIM_TOL,
				 .paper_dir = isnan(paper_value) ? 1 : 0 };

	snprintf(c.claim, sizeof(c.claim), "%s", claim);
	return c;
}

unsigned bench_claims_report(struct bench_claim *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		bench_claim_judge(&c[i]);
		bench_claim_print(&c[i]);
	}
	return n;
}

/* v in the claim's unit: a signed change (percent, seconds), or a plain figure */
static const char *fmt(char *buf, size_t n, double v, const char *unit)
{
	if (isnan(v))
		snprintf(buf, n, "(no figure)");
	else if (!strcmp(unit, "%") || !strcmp(unit, " s"))
		snprintf(buf, n, "%+.1f%s", v, unit);
	else
		snprintf(buf, n, "%.3g%s", v, unit);
	return buf;
}

static void add(struct bench_claim *c, const char *f, ...) __attribute__((format(printf, 2, 3)));
static void add(struct bench_claim *c, const char *f, ...)
{
	size_t k = strlen(c->reason);
	va_list ap;

	if (k && k + 2 < sizeof(c->reason))
		k += (size_t)snprintf(c->reason + k, sizeof(c->reason) - k, "; ");
	va_start(ap, f);
	if (k < sizeof(c->reason))
		vsnprintf(c->reason + k, sizeof(c->reason) - k, f, ap);
	va_end(ap);
}

void bench_claim_judge(struct bench_claim *c)
{
	char a[24], b[24], x[24], y[24];
	const char *u = c->unit ? c->unit : "%";
	unsigned held = 0, failed = 0;
	bool sign_ok = true;

	c->reason[0] = '\0';
	fmt(a, sizeof(a), c->value, u);
	fmt(b, sizeof(b), c->paper_value, u);
	if (isnan(c->paper_value))
		snprintf(b, sizeof(b), "%s", c->paper_dir > 0 ? "up" : "down");
	if (c->checked & CLAIM_SIGN) {
		bool up = isnan(c->paper_value) ? c->paper_dir > 0 : c->paper_value > 0;
		sign_ok = c->value != 0 && (c->value > 0) == up;
		if (!sign_ok)
			add(c, "sign: measured %s, the paper %s", a, b);
		sign_ok ? held++ : failed++;
	}
	if (c->checked & CLAIM_ORDER) {
		bool above = c->paper_value > c->paper_other;
		bool ok = above ? c->value > c->value_other : c->value < c->value_other;
		fmt(x, sizeof(x), c->value_other, u);
		fmt(y, sizeof(y), c->paper_other, u);
		if (!ok)
			add(c, "order: measured %s against %s's %s, the paper %s %s its %s", a, c->other, x, b,
			    above ? "above" : "below", y);
		ok ? held++ : failed++;
	}
	if (c->checked & CLAIM_SIZE) {
		double q = c->paper_value != 0 ? c->value / c->paper_value : 0;
		bool ok = q > 0 && q <= c->band && q >= 1 / c->band;
		if (!ok)
			add(c, "size: measured %s is %.2gx the paper's %s, outside %gx either way", a, q, b, c->band);
		ok ? held++ : failed++;
	}
	if (c->checked & CLAIM_NEAR) {
		bool ok = fabs(c->value - c->paper_value) <= c->tol;
		if (!ok)
			add(c, "near: measured %s is %.1f from the paper's %s, beyond %g", a, fabs(c->value - c->paper_value), b,
			    c->tol);
		ok ? held++ : failed++;
	}
	if (!held && !failed)
		add(c, "the claim names no check");
	c->verdict = !failed && held ? VERDICT_REPRODUCED : !sign_ok || !held ? VERDICT_NOT_REPRODUCED : VERDICT_PARTLY;
	if (c->verdict != VERDICT_REPRODUCED && c->why[0])
		add(c, "measured why: %s", c->why);
}

/* CLAIM_* by bit, as the report and results.json name them */
static const char *const check_names[] = { "sign", "order", "size", "near" };

static void checked_names(const struct bench_claim *c, char *buf, size_t n)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < 4; i++)
		if (c->checked & (1u << i))
			snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "", check_names[i]);
}

void bench_claim_print(const struct bench_claim *c)
{
	char a[24], b[24], ck[40];
	const char *u = c->unit ? c->unit : "%";

	checked_names(c, ck, sizeof(ck));
	fmt(b, sizeof(b), c->paper_value, u);
	if (isnan(c->paper_value))
		snprintf(b, sizeof(b), "%s", c->paper_dir > 0 ? "up" : "down");
	printf("  [%s %s] %s: paper %s, measured %s; checked %s: %s\n", c->paper, c->figure, c->claim, b,
	       fmt(a, sizeof(a), c->value, u), ck, bench_verdict_name(c->verdict));
	if (c->reason[0])
		printf("    (%s)\n", c->reason);
}

void bench_claims_json(struct bench_json *j, const struct bench_claim *c, unsigned n)
{
	bench_json_key(j, "papers");
	fputc('[', j->f);
	j->depth++;
	for (unsigned i = 0; i < n; i++) {
		if (i)
			fputc(',', j->f);
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
		bench_json_open(j, NULL);
		bench_json_kstr(j, "paper", c[i].paper);
		bench_json_kstr(j, "figure", c[i].figure);
		bench_json_kstr(j, "claim", c[i].claim);
		bench_json_kstr(j, "unit", c[i].unit ? c[i].unit : "%");
		bench_json_knum(j, "paper_value", c[i].paper_value);
		if (isnan(c[i].paper_value))
			bench_json_kstr(j, "paper_direction", c[i].paper_dir > 0 ? "up" : "down");
		bench_json_knum(j, "value", c[i].value);
		if (c[i].checked & CLAIM_ORDER) {
			bench_json_kstr(j, "other", c[i].other);
			bench_json_knum(j, "paper_other", c[i].paper_other);
			bench_json_knum(j, "value_other", c[i].value_other);
		}
		if (c[i].checked & CLAIM_SIZE)
			bench_json_knum(j, "band", c[i].band);
		if (c[i].checked & CLAIM_NEAR)
			bench_json_knum(j, "tol", c[i].tol);
		bench_json_key(j, "checked");
		fputc('[', j->f);
		for (unsigned b = 0, k = 0; b < 4; b++)
			if (c[i].checked & (1u << b))
				fprintf(j->f, "%s\"%s\"", k++ ? ", " : "", check_names[b]);
		fputc(']', j->f);
		bench_json_kstr(j, "verdict", bench_verdict_name(c[i].verdict));
		bench_json_kstr(j, "reason", c[i].reason);
		bench_json_close(j);
	}
	j->depth--;
	fprintf(j->f, "\n%*s]", 2 * j->depth, "");
	j->first = false;
}

/* Claims whose verdicts follow from the rules alone, the reason's first words with them. */
int bench_claims_self_test(void)
{
	static const struct {
		struct bench_claim c;
		enum bench_verdict want;
		const char *says;
	} cases[] = {
		{ { .paper = "t", .figure = "1", .claim = "a gain of the paper's size", .paper_value = 8, .value = 10,
		    .checked = CLAIM_SIGN | CLAIM_SIZE, .band = 2 }, VERDICT_REPRODUCED, "" },
		{ { .paper = "t", .figure = "2", .claim = "a gain measured as a loss", .paper_value = 8, .value = -6.2,
		    .checked = CLAIM_SIGN | CLAIM_SIZE, .band = 2, .why = "f stayed low" }, VERDICT_NOT_REPRODUCED, "sign:" },
		{ { .paper = "t", .figure = "3", .claim = "a gain 30x the paper's", .paper_value = 2, .value = 63.2,
		    .checked = CLAIM_SIGN | CLAIM_SIZE, .band = 2 }, VERDICT_PARTLY, "size:" },
		{ { .paper = "t", .figure = "3b", .claim = "a loss a tenth of the paper's, with its reason", .paper_value = -19,
		    .value = -0.4, .checked = CLAIM_SIGN | CLAIM_SIZE, .band = 2, .why = "the copies took little" },
		  VERDICT_PARTLY, "size: measured -0.4% is 0.021x the paper's -19.0%, outside 2x either way; measured why: the copies took little" },
		{ { .paper = "t", .figure = "4", .claim = "below the other system, measured above", .paper_value = 2,
		    .value = 3, .checked = CLAIM_SIGN | CLAIM_ORDER, .other = "u", .paper_other = 4, .value_other = 2 },
		  VERDICT_PARTLY, "order:" },
		{ { .paper = "t", .figure = "5", .claim = "about equal, and so measured", .paper_value = 0, .value = -3,
		    .checked = CLAIM_NEAR, .tol = 5 }, VERDICT_REPRODUCED, "" },
		{ { .paper = "t", .figure = "6", .claim = "about equal, measured far", .paper_value = 0, .value = 12,
		    .checked = CLAIM_NEAR, .tol = 5 }, VERDICT_NOT_REPRODUCED, "near:" },
		{ { .paper = "t", .figure = "7", .claim = "no change measured for a loss", .paper_value = -1.9, .value = 0,
		    .checked = CLAIM_SIGN }, VERDICT_NOT_REPRODUCED, "sign:" },
		{ { .paper = "t", .figure = "7b", .claim = "up, with no figure, measured down", .paper_value = NAN, .paper_dir = 1,
		    .value = -2, .checked = CLAIM_SIGN }, VERDICT_NOT_REPRODUCED, "sign: measured -2.0%, the paper up" },
		{ { .paper = "t", .figure = "8", .claim = "a claim that checks nothing", .paper_value = 1, .value = 1 },
		  VERDICT_NOT_REPRODUCED, "the claim names no check" },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bench_claim c = cases[i].c;
		bench_claim_judge(&c);
		if (c.verdict != cases[i].want || strncmp(c.reason, cases[i].says, strlen(cases[i].says)) ||
		    (!cases[i].says[0] && c.reason[0])) {
			printf("papers self-test: '%s' judged %s (%s), want %s starting '%s'\n", c.claim,
			       bench_verdict_name(c.verdict), c.reason, bench_verdict_name(cases[i].want), cases[i].says);
			bad++;
		}
	}
	if (!bad)
		printf("papers self-test: the judge gives the %zu known verdicts (reproduced, partly, not reproduced) with "
		       "their reasons\n", sizeof(cases) / sizeof(cases[0]));
	return bad ? 1 : 0;
}
