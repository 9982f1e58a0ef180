/* SPDX-License-Identifier: MIT */
/*
 * One gBalloon workload replayed under one layout (bench/balloon_model.c):
 * the benchmarks each VM runs, phase by phase, and what the run counted.
 */
#ifndef BENCH_BALLOON_MODEL_H
#define BENCH_BALLOON_MODEL_H

#include <stdint.h>

#include "bench/balloon_result.h"
#include "dom0/dom0.h"

#define BALLOON_VMS	15
#define BALLOON_PHASES	3
#define BALLOON_HOST_CPUS	8	/* N of eq. 1: gBalloon Table 1's i7-6700 */
#define BALLOON_GPU_VCPU_PCT	25	/* what a GPU-bound VM's vCPU wants of its quantum (the model's choice) */
#define BALLOON_VCPUS		2	/* per guest, Table 1 */
/* R_copy's charge per PTE written, 30 ns: gScale Figure 15 (114688 PTEs in 21.8% of 16 ms) */
#define BALLOON_COPY_NS		(DOM0_QUANTUM_MS * 1000000ull * 218 / 1000 / 114688)
/* 1 / R_copy's maximum, one CPU copying all the time (100% / N), in millionths per percent */
#define BALLOON_BETA_U		(1000000000ull / (100000ull / BALLOON_HOST_CPUS))

enum balloon_layout { BALLOON_384, BALLOON_1024, BALLOON_POLICY, BALLOON_MOVE, BALLOON_RUNS };

/* The paper's benchmarks (§4, Table 2); what each needs is in balloon_model.c's table. */
enum balloon_bench {
	BM_VALLEY, BM_OPENARENA, BM_URBANTERROR, BM_NEXUIZ, BM_LIGHTSMARK,
	BM_GNOME, BM_MIDORI, BM_FIREFOX_AST, BM_FIREFOX_SCR, BM_CG,
};

/*
 * VM i runs bm[i][0], then bm[i][1], ...; each benchmark runs as long as
 * valley's 18 scenes, scene_quanta quanta of 16 ms each.
 */
struct balloon_workload {
	unsigned vms, phases;
	uint8_t bm[BALLOON_VMS][BALLOON_PHASES];
	unsigned scene_quanta;
};

const char *balloon_layout_name(int layout);
const char *balloon_bench_name(int bm);
/* Valley's working set in scene s (0-17), in slots. */
unsigned balloon_valley_slots(unsigned s);
/* Whether VM i of the workload is CPU-bound (cg in every phase). */
int balloon_cpu_bound(const struct balloon_workload *w, int i);
/*
 * The maximum of W (eq. 2) on the model's host for this workload, as §3.2
 * says it is found, by experiment: every vCPU of every VM runnable for a
 * whole quantum and one CPU copying all of it, through the same CPU model
 * the runs use; in percent.
 */
double balloon_w_max_pct(const struct balloon_workload *w);
/* Run the workload under the layout (alpha_u: the policy's W coefficient); dies on a runtime error. */
void balloon_run(const struct balloon_workload *w, int layout, uint64_t alpha_u, struct bench_balloon_layout *out,
		 unsigned *slots);

#endif
