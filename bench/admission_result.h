/* SPDX-License-Identifier: MIT */
/*
 * ConVGPU's comparison of admission policies (§IV-C, Tables IV and V)
 * reproduced on the model: a seeded stream of vGPU requests of Table III's
 * sizes arriving every 5 s, under FIFO, BF, RU and RAND (bench/admission.c).
 */
#ifndef BENCH_ADMISSION_RESULT_H
#define BENCH_ADMISSION_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

/*
 * fifo, bf, ru, rand (a request waits whole for its run of slots); fifo with
 * compaction (fifo+c); the four again with ConVGPU's allocation (fifo+r ..
 * rand+r: a vGPU's slots in up to 8 runs, so a paused request holds each
 * slot as it frees, its Figure 3)
 */
#define BENCH_ADMIT_POLICIES 9
#define BENCH_ADMIT_MAX_COUNTS 18	/* 4, 6, ..., 38 requests */

struct bench_admit_cell {
	double finish_s;		/* the last request's end, mean over the seeds */
	double paused_s;		/* mean paused time per request, mean over the seeds */
	double worst_s;			/* the longest single pause, mean over the seeds (starvation shows here) */
	uint64_t paused, admitted;	/* the runtime's counters, summed over the seeds */
	uint64_t moves, slots_moved;	/* compaction's slot migrations, summed over the seeds (fifo+c) */
	uint64_t attempts, fragmented;	/* waits of FIFO's head it was tried at; of them, with enough slots free */
	uint64_t split;			/* requests that ran in two or more runs of slots, summed over the seeds (+r) */
};

struct bench_admission {
	unsigned counts[BENCH_ADMIT_MAX_COUNTS], n_counts;
	unsigned seeds;			/* runs per cell (the paper repeats 6 times) */
	unsigned slots;			/* slots of the layout (share limit 1) */
	uint64_t slot_size;
	struct bench_admit_cell cell[BENCH_ADMIT_MAX_COUNTS][BENCH_ADMIT_POLICIES];
	uint64_t runtime_paused_ms, bench_paused_ms;	/* the runtime's paused_ms against the bench's own clock: equal */
};

void bench_admission_table(const struct bench_opts *o, const struct bench_admission *a);
void bench_admission_json(struct bench_json *j, const struct bench_admission *a);
struct bench_claim;
/* The paper's claims judged on a (bench/papers.h), at most max into c; returns how many. */
unsigned bench_admission_claims(const struct bench_admission *a, struct bench_claim *c, unsigned max);

#endif
