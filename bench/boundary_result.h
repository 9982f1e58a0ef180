/* SPDX-License-Identifier: MIT */
/*
 * VGVM's Table 1 across the VM boundary (bench/boundary.c): requests over
 * PVINFO from a guest to `gttlab dom0 serve` in another process, through
 * the pv transport. As in VGVM §4.1 the guest chooses how it waits for its
 * answer: polling, asleep until the host's interrupt, or hybrid (by the size
 * of the request it makes); the host's own waiting is the second table.
 * Each cell is repeated over fresh hosts and reported with its spread. Then
 * the guest suite's time per check there against the in-process vgpu:
 * device.
 */
#ifndef BENCH_BOUNDARY_RESULT_H
#define BENCH_BOUNDARY_RESULT_H

#include <stdint.h>

#include "bench/request_wait_result.h"

struct bench_json;
struct bench_opts;

#define BENCH_SUITE_CHECKS 7
#define BENCH_BOUNDARY_RUNS 5

struct bench_boundary_cell {
	double latency_ns;		/* median over the runs of each run's median request-to-answer */
	double lo_ns, hi_ns;		/* the runs' lowest and highest median: the spread */
	double over_first;		/* latency / the first column's of the same size */
	double over_local;		/* latency / the in-process vgpu: device's of the same size */
};

struct bench_boundary_side {
	double cpu_pct;			/* the side's CPU time over the series' wall time, median over the runs */
	double lo_pct, hi_pct;
};

struct bench_boundary {
	unsigned sizes[BENCH_WAIT_SIZES];
	unsigned runs, reps, hybrid_max_slots;
	char cores[96];			/* where each side ran: "host on CPU 0, guest on CPU 1", or shared */
	double local_ns[BENCH_WAIT_SIZES];	/* the same request on vgpu: in this process: the traps, no boundary */
	/* VGVM's Table 1: the guest waits (poll, sleep, hybrid), the host asleep on its doorbell */
	const char *guest_modes[BENCH_WAIT_MODES];
	struct bench_boundary_cell guest[BENCH_WAIT_SIZES][BENCH_WAIT_MODES];
	struct bench_boundary_side guest_cpu[BENCH_WAIT_MODES], guest_host_cpu[BENCH_WAIT_MODES];
	/* the host's own waiting (busy, sleep, hybrid), the guest polling */
	const char *host_modes[BENCH_WAIT_MODES];
	struct bench_boundary_cell host[BENCH_WAIT_SIZES][BENCH_WAIT_MODES];
	struct bench_boundary_side host_cpu[BENCH_WAIT_MODES];
	/* the guest suite: per check, its time on pv: (host asleep, guest polling) over its time on vgpu: */
	const char *checks[BENCH_SUITE_CHECKS];
	double suite_pv_ns[BENCH_SUITE_CHECKS], suite_local_ns[BENCH_SUITE_CHECKS], suite_ratio[BENCH_SUITE_CHECKS];
	uint64_t suite_requests;		/* transport requests the suite made (exact) */
	unsigned n_cores;			/* online */
	/* idle cores on average while each column's series ran (median over the runs; -1 unknown) */
	double guest_idle[BENCH_WAIT_MODES], host_idle[BENCH_WAIT_MODES];
};

void bench_boundary_table(const struct bench_opts *o, const struct bench_boundary *b);
void bench_boundary_json(struct bench_json *j, const struct bench_boundary *b);
struct bench_claim;
/* VGVM's Table 1 claims judged on the guest-side table (bench/papers.h), at most max into c; returns how many. */
unsigned bench_boundary_claims(const struct bench_boundary *b, struct bench_claim *c, unsigned max);

#endif
