/* SPDX-License-Identifier: MIT */
/*
 * A paper's claim beside what the bench measured, checked the way the paper
 * makes it, and the verdict computed from the two (bench/papers.c): the
 * sign of the effect, its order against the system the paper compares it
 * with, its size within a band the bench states, or, for "about equal",
 * its distance from the paper's value. Never a fixed string: the same
 * numbers that are printed decide.
 */
#ifndef BENCH_PAPERS_H
#define BENCH_PAPERS_H

#include <stdbool.h>

struct bench_json;

/* What a claim states; a claim checks each of these it names, and nothing else. */
enum {
	CLAIM_SIGN = 1u,	/* the effect has the paper's sign */
	CLAIM_ORDER = 2u,	/* it stands on the paper's side of the other system's effect */
	CLAIM_SIZE = 4u,	/* it lies within `band` times the paper's, either way (same sign) */
	CLAIM_NEAR = 8u,	/* it lies within `tol` (the unit's points) of the paper's value: "about equal" */
};

enum bench_verdict { VERDICT_REPRODUCED, VERDICT_PARTLY, VERDICT_NOT_REPRODUCED };

#define BENCH_CLAIM_REASON 480

struct bench_claim {
	const char *paper;		/* "gBalloon", ... (string literals: the struct crosses fork by value) */
	const char *figure;		/* "Fig. 8" */
	char claim[112];		/* what the paper says, in words (with the run's own figures: a copy) */
	const char *unit;		/* "%" (a change against the paper's baseline), "x", ... */
	double paper_value, value;	/* the paper's effect and the one measured; paper_value NAN: a direction only */
	int paper_dir;			/* with paper_value NAN: +1 "up", -1 "down" (what CLAIM_SIGN checks) */
	unsigned checked;		/* CLAIM_* */
	const char *other;		/* CLAIM_ORDER: the system compared with */
	double paper_other, value_other;	/* its effect in the paper and measured */
	double band;			/* CLAIM_SIZE: e.g. 2 for "within 2x" */
	double tol;			/* CLAIM_NEAR: e.g. 5 (points of unit) */
	char why[320];			/* optional: the measured reason, said when not all of the claim held */
	/* bench_claim_judge's */
	enum bench_verdict verdict;
	char reason[BENCH_CLAIM_REASON];	/* what does not hold, "" when all does */
};

/* The bench's bands, printed with the claims: a size within 2x of the paper's effect, "about equal" within 5 points. */
#define BENCH_CLAIM_BAND 2.0
#define BENCH_CLAIM_TOL 5.0

/* A claim with the bench's band and tolerance, not judged yet; paper_value NAN: the direction +1 ("up"). */
struct bench_claim bench_claim(const char *paper, const char *figure, const char *claim, const char *unit,
			       double paper_value, double value, unsigned checked);
/* Judge c[0..n) and print each; returns n. */
unsigned bench_claims_report(struct bench_claim *c, unsigned n);
/* Decide c->verdict and c->reason from the numbers; any sign failure is "not reproduced". */
void bench_claim_judge(struct bench_claim *c);
const char *bench_verdict_name(enum bench_verdict v);
/* The claim's lines for the report: paper, measured, checked, verdict and why. */
void bench_claim_print(const struct bench_claim *c);
/* results.json's "papers": a list of {paper, figure, claim, paper_value, value, checked, verdict, reason}. */
void bench_claims_json(struct bench_json *j, const struct bench_claim *c, unsigned n);
/* The judge against claims whose verdicts are known by construction; prints one line; 0 when all agree. */
int bench_claims_self_test(void);

#endif
