/* SPDX-License-Identifier: MIT */
/*
 * gBalloon's comparison (§4.3, Figure 8) reproduced on the model: one
 * workload trace of 15 VMs (7 CPU-bound with steal, 8 GPU-bound with
 * evictions) under fixed layouts (gVirt-384, gVirt-1024) and under the
 * policy (bench/balloon.c).
 */
#ifndef BENCH_BALLOON_RESULT_H
#define BENCH_BALLOON_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

#define BENCH_BALLOON_LAYOUTS 3

struct bench_balloon_layout {
	char name[16];			/* gVirt-384, gVirt-1024, gBalloon */
	uint64_t sim_ms;		/* simulated time of the trace */
	uint64_t switches, ptes_written;
	double rcopy_pct;		/* eq. 1 over the run: PTEs written x the fixed cost / (t x N) */
	double ptes_per_sim_s;
	double shared_slots_mean;	/* slots held by two or more vGPUs, mean over the periods */
	unsigned shared_slots_end;
	uint64_t granted, refused_policy, refused_room, reductions;
	uint64_t periods[3];		/* periods classified low, mid, high (the policy's layout only) */
	double perf_gpu, perf_cpu, perf;	/* the stated performance proxy, normalized to gVirt-384 */
	uint64_t short_quanta;		/* GPU-bound quanta run with fewer slots than the demand */
	uint64_t evicted;		/* objects the guests evicted for it (one per missing slot per such quantum) */
	double gpu_copy_pct;		/* copy time over the GPU-bound quanta (gScale Figure 15's share) */
	double gpu_slots_mean;		/* slots a GPU-bound VM held, mean over its quanta */
};

struct bench_balloon {
	struct bench_balloon_layout l[BENCH_BALLOON_LAYOUTS];
	unsigned vms, slots;		/* VMs of the trace, slots of the layout */
	uint64_t copy_ns_per_pte;	/* the fixed cost R_copy is charged per PTE written */
	unsigned cpus, phases;		/* N of eq. 1; phases of the trace */
	uint64_t phase_ms;		/* simulated time of one phase */
	uint64_t alpha_u, beta_u;	/* the policy's coefficients (millionths per percent) */
};

void bench_balloon_table(const struct bench_opts *o, const struct bench_balloon *b);
void bench_balloon_json(struct bench_json *j, const struct bench_balloon *b);

#endif
