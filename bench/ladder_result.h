/* SPDX-License-Identifier: MIT */
/* gScale's Table 2 from the runtime's counters (bench/ladder.c). */
#ifndef BENCH_LADDER_RESULT_H
#define BENCH_LADDER_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

#define BENCH_LADDER_ROWS 16

struct bench_ladder_row {
	const char *name;
	uint64_t modifications, ladder;	/* exact counts */
};

struct bench_ladder {
	struct bench_ladder_row row[BENCH_LADDER_ROWS];
	unsigned rows;
	uint64_t modifications, ladder;	/* over the rows */
};

void bench_ladder_table(const struct bench_opts *o, const struct bench_ladder *l);
void bench_ladder_json(struct bench_json *j, const struct bench_ladder *l);
struct bench_claim;
/* The paper's claims judged on l (bench/papers.h), at most max into c; returns how many. */
unsigned bench_ladder_claims(const struct bench_ladder *l, struct bench_claim *c, unsigned max);

#endif
