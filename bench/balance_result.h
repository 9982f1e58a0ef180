/* SPDX-License-Identifier: MIT */
/*
 * VOCL's load-balancing comparison (§IV, Figure 10) on the model: two
 * instances of one application start on one device, the second device
 * idle; without balancing both share the first, with VOCL's rebalancer one
 * moves (bench/balance.c).
 */
#ifndef BENCH_BALANCE_RESULT_H
#define BENCH_BALANCE_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

#define BENCH_BALANCE_APPS 4

struct bench_balance_app {
	const char *name;
	unsigned slots, mem_pages;	/* each instance's high slots and guest memory */
	uint64_t work_quanta;		/* GPU time each instance needs */
	uint64_t base_ms, bal_ms;	/* simulated time until both finished, without and with balancing */
	uint64_t move_ms;		/* the move's charged time (PTEs mapped, bytes copied) */
	uint64_t ptes_mapped, bytes_copied;
	uint64_t trigger_ms;		/* when the rebalancer moved one: the loads' difference crossed its threshold */
	uint64_t freed_ms;		/* when the second device's own job ended (measured, the same run) */
	bool moved;
	double speedup;			/* base / balanced */
	double paper;			/* VOCL Figure 10's factor */
};

struct bench_balance {
	struct bench_balance_app app[BENCH_BALANCE_APPS];
	unsigned threshold;		/* the rebalancer's, in busy vGPUs */
	unsigned occupant_share;	/* the second device's own job: 1/occupant_share of an instance's work */
};

void bench_balance_table(const struct bench_opts *o, const struct bench_balance *b);
void bench_balance_json(struct bench_json *j, const struct bench_balance *b);
struct bench_claim;
/* The paper's claims judged on b (bench/papers.h), at most max into c; returns how many. */
unsigned bench_balance_claims(const struct bench_balance *b, struct bench_claim *c, unsigned max);

#endif
