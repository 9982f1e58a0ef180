/* SPDX-License-Identifier: MIT */
/*
 * The VM boundary's cost isolation (bench/neighbours.c): a victim guest's
 * guest suite over pv: beside a hostile neighbour in the next slot of the
 * same `gttlab dom0 serve` (an audit flood, a long-PTE flood, a socket flood,
 * a doorbell flood: tests/tools/pv_attack.c), against its time beside a
 * control neighbour that burns the same CPU making no requests, so that
 * the machine's own contention cancels out. Interleaved, medians with their
 * spread.
 */
#ifndef BENCH_NEIGHBOURS_RESULT_H
#define BENCH_NEIGHBOURS_RESULT_H

struct bench_json;
struct bench_opts;

#define BENCH_NEIGHBOURS 5	/* the control, then the hostile ones */

struct bench_neighbours {
	const char *names[BENCH_NEIGHBOURS];	/* pv_attack's modes: burn (the control), audit, ptes, socket, doorbell */
	unsigned reps;
	double suite_ms[BENCH_NEIGHBOURS];	/* the victim's suite, wall time beside each: the median */
	double lo_ms[BENCH_NEIGHBOURS], hi_ms[BENCH_NEIGHBOURS];
	unsigned worst;				/* the hostile neighbour the victim was slowest beside */
	double ratio;				/* its median over the control's: boundary_hostile_neighbour_ratio */
};

void bench_neighbours_table(const struct bench_opts *o, const struct bench_neighbours *n);
void bench_neighbours_json(struct bench_json *j, const struct bench_neighbours *n);

#endif
