/* SPDX-License-Identifier: MIT */
/*
 * Our Table 1 across the VM boundary (bench/boundary.c): requests over
 * PVINFO from a guest to `gttlab dom0 serve` in another process, through
 * the pv transport, for each way the host waits; and the guest suite's
 * time per check there against the in-process vgpu: device.
 */
#ifndef BENCH_BOUNDARY_RESULT_H
#define BENCH_BOUNDARY_RESULT_H

#include <stdint.h>

#include "bench/request_wait_result.h"

struct bench_json;
struct bench_opts;

#define BENCH_SUITE_CHECKS 7

struct bench_boundary_cell {
	double latency_ns;		/* median request-to-answer, the guest's view */
	double over_busy;		/* latency / busy-wait's of the same size */
	double over_local;		/* latency / the in-process vgpu: device's of the same size */
	double host_cpu_pct;		/* the serve process's CPU time over its life, every size included */
	uint64_t sleeps;		/* the host's waits on the doorbell over its life (exact) */
};

struct bench_boundary {
	unsigned sizes[BENCH_WAIT_SIZES];
	const char *modes[BENCH_WAIT_MODES];
	struct bench_boundary_cell cell[BENCH_WAIT_SIZES][BENCH_WAIT_MODES];
	double local_ns[BENCH_WAIT_SIZES];	/* the same request on vgpu: in this process: the traps, no boundary */
	unsigned reps;
	/* the guest suite: per check, its time on pv: (host busy-waiting) over its time on vgpu: */
	const char *checks[BENCH_SUITE_CHECKS];
	double suite_pv_ns[BENCH_SUITE_CHECKS], suite_local_ns[BENCH_SUITE_CHECKS], suite_ratio[BENCH_SUITE_CHECKS];
	uint64_t suite_requests;		/* transport requests the suite made (exact) */
};

void bench_boundary_table(const struct bench_opts *o, const struct bench_boundary *b);
void bench_boundary_json(struct bench_json *j, const struct bench_boundary *b);

#endif
