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
#define BALLOON_MODEL_VCPUS	(BALLOON_VMS * BALLOON_VCPUS)	/* the most vCPUs the CPU model shares CPUs among */
/*
 * What the render engine waits per PTE a switch copies on the paper's
 * platform, 30 ns: gScale Figure 15 (114688 PTEs in 21.8% of 16 ms). The
 * model's GSM is RAM, not a GTT behind a BAR, so this part of the proxy is
 * the paper's; the CPU's copy time (R_copy, W) is the runtime's measured one.
 */
#define BALLOON_ENGINE_NS	(DOM0_QUANTUM_MS * 1000000ull * 218 / 1000 / 114688)

enum balloon_layout { BALLOON_384, BALLOON_1024, BALLOON_POLICY, BALLOON_MOVE, BALLOON_RUNS };

/* The paper's benchmarks (§4, Table 2); what each needs is in balloon_model.c's table. */
enum balloon_bench {
	BM_VALLEY, BM_OPENARENA, BM_URBANTERROR, BM_NEXUIZ, BM_LIGHTSMARK,
	BM_GNOME, BM_MIDORI, BM_FIREFOX_AST, BM_FIREFOX_SCR, BM_CG,
	BM_FILL,	/* R_copy's calibration only: maps every slot it holds */
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
/*
 * The CPU model alone: n vCPUs wanting want_pct[k]% of a quantum on cpus
 * CPUs; wait_pct[k] is vCPU k's time in the ready queue, in % of the
 * quantum (W of eq. 2 is their sum).
 */
void balloon_cpu_model(const double *want_pct, double *wait_pct, unsigned n, unsigned cpus);
/* The CPU model against waits worked by hand; prints one line, returns 0 if all match. */
int balloon_cpu_model_self_test(void);
/* Whether VM i of the workload is CPU-bound (cg in every phase). */
int balloon_cpu_bound(const struct balloon_workload *w, int i);
/*
 * The maximum of W (eq. 2) on the model's host for this workload, as §3.2
 * says it is found, by experiment: every vCPU of every VM runnable for a
 * whole quantum and one CPU copying all of it, through the same CPU model
 * the runs use; in percent.
 */
double balloon_w_max_pct(const struct balloon_workload *w);
#define BALLOON_CAL_PASSES	5

/*
 * R_copy's maximum on this platform, found by experiment as gBalloon §3.2
 * says: BALLOON_VMS VMs, all GPU-busy, each mapping all 16 slots gVirt-1024
 * gives it (the most any of the paper's layouts makes a switch copy), for
 * 18 scenes of scene_quanta quanta, the copies timed by the runtime, passes
 * times (at most BALLOON_CAL_PASSES). *ns_per_pte gets the median pass's
 * copy time per PTE written, *pct R_copy at that cost, out the last pass.
 */
void balloon_rcopy_max(unsigned scene_quanta, unsigned passes, struct bench_balloon_layout *out, double *pct,
		       double *ns_per_pte);

/* What a run charges and the policy's coefficients. */
struct balloon_coeffs {
	uint64_t alpha_u, beta_u;	/* the policy's W and R_copy coefficients (millionths per percent) */
	double copy_ns_per_pte;		/* the CPU's copy cost per PTE written (measured); 0: each switch as timed */
};

/* Run the workload under the layout; dies on a runtime error. */
void balloon_run(const struct balloon_workload *w, int layout, const struct balloon_coeffs *k,
		 struct bench_balloon_layout *out, unsigned *slots);

#endif
