/* SPDX-License-Identifier: MIT */
/*
 * Our Table 1 (VGVM §4.1): request-to-answer latency and host CPU time of
 * the hosted service (dom0/host/serve.h) waiting by busy-polling, by
 * sleeping on an eventfd, and hybrid, for requests of 1 to 32 slots
 * (bench/request_wait.c).
 */
#ifndef BENCH_REQUEST_WAIT_RESULT_H
#define BENCH_REQUEST_WAIT_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

#define BENCH_WAIT_SIZES 6	/* 1, 2, 4, 8, 16, 32 slots */
#define BENCH_WAIT_MODES 3	/* busy, sleep, hybrid */

struct bench_wait_cell {
	double latency_ns;		/* median request-to-answer, the guest's view */
	double cpu_pct;			/* the service thread's CPU time over wall time while it waited and served */
	double over_busy;		/* latency / busy-wait latency of the same size */
	uint64_t wakeups, polls;	/* the service thread's, over the series (exact counts of this run) */
};

struct bench_request_wait {
	unsigned sizes[BENCH_WAIT_SIZES];
	const char *modes[BENCH_WAIT_MODES];
	struct bench_wait_cell cell[BENCH_WAIT_SIZES][BENCH_WAIT_MODES];
	double direct_ns[BENCH_WAIT_SIZES];	/* dom0_expand called directly: the work itself, no channel */
	unsigned reps, hybrid_max_slots;
	uint64_t spin_ns;
	unsigned cores;				/* online */
	double idle_cores[BENCH_WAIT_MODES];	/* idle on average while each mode's series ran; -1 unknown */
};

void bench_request_wait_table(const struct bench_opts *o, const struct bench_request_wait *w);
void bench_request_wait_json(struct bench_json *j, const struct bench_request_wait *w);
struct bench_claim;
/* The paper's claims judged on w (bench/papers.h), at most max into c; returns how many. */
unsigned bench_request_wait_claims(const struct bench_request_wait *w, struct bench_claim *c, unsigned max);

#endif
