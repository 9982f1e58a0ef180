/* SPDX-License-Identifier: MIT */
/*
 * gBalloon's evaluation (gBalloon-2019 §4.1-§4.4) reproduced on the model:
 * each experiment is one workload of VMs replayed under the paper's layouts
 * (gVirt-384, gVirt-1024 and gBalloon) through the public runtime API
 * (bench/balloon_model.c runs one layout, bench/balloon.c the experiments,
 * bench/balloon_report.c prints them).
 */
#ifndef BENCH_BALLOON_RESULT_H
#define BENCH_BALLOON_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

#define BENCH_BALLOON_LAYOUTS	5	/* gVirt-384, gVirt-1024, gBalloon, gBalloon moving to grow alone, in slot runs */
#define BENCH_BALLOON_SCENES	18	/* valley's scenes (§4.4) */
#define BENCH_BALLOON_FIG5	5	/* 3, 6, 9, 12, 15 VMs */

enum { BENCH_BALLOON_VALLEY, BENCH_BALLOON_3D, BENCH_BALLOON_2D, BENCH_BALLOON_CLASSES };	/* Figure 6's groups */

struct bench_balloon_layout {
	char name[16];			/* gVirt-384, gVirt-1024, gBalloon */
	uint64_t sim_ms;		/* simulated time of the trace */
	uint64_t switches, ptes_written;
	uint64_t copy_ns;		/* the switches' copy time, as the runtime measured it */
	double copy_ns_per_pte;		/* that time per PTE the switches wrote */
	double rcopy_pct;		/* eq. 1 over the run: the measured copy time / (t x N) */
	double w_pct;			/* eq. 2, mean over the quanta, from the vCPUs' waiting in the CPU model */
	double ptes_per_sim_s;
	double shared_slots_mean;	/* slots held by two or more vGPUs, mean over the periods */
	unsigned shared_slots_end;
	uint64_t granted, refused_policy, refused_room, reductions;
	uint64_t moves, move_ptes;	/* gBalloon+m: slot moves before growing, and the source entries they put back */
	uint64_t periods[3];		/* periods classified low, mid, high (the policy's layout only) */
	double gpu_work;		/* the GPU proxy's sum over the GPU-bound quanta */
	double class_work[BENCH_BALLOON_CLASSES];	/* the same by group of benchmark */
	double cg_cpu_s;		/* CPU time the CPU-bound VMs' vCPUs ran, in CPU seconds */
	double perf_gpu, perf_cpu, perf;	/* the proxy, normalized to the experiment's reference layout */
	double fit_mean;		/* min(1, slots / working set), mean over the GPU-bound quanta */
	double copy_free_mean;		/* 1 - copy time / 16 ms, mean over the GPU-bound quanta */
	uint64_t short_quanta;		/* GPU-bound quanta run with fewer slots than the demand */
	uint64_t evicted;		/* objects the guests evicted for it (one per missing slot per such quantum) */
	double gpu_copy_pct;		/* the engine's wait for copies over the GPU-bound quanta (gScale Figure 15's share) */
	double gpu_slots_mean;		/* slots a GPU-bound VM held, mean over its quanta */
	double excess_mean;		/* slots held beyond the working set, mean over the GPU-bound quanta */
	double f_mean;			/* the policy's f (eq. 3), mean over its periods (gBalloon only) */
	/* VM 1's course, scene by scene (§4.4's Figures 9 and 10) */
	unsigned scene_slots[BENCH_BALLOON_SCENES];	/* slots VM 1 held at the scene's end */
	double scene_work[BENCH_BALLOON_SCENES];	/* VM 1's proxy summed over the scene's quanta */
};

/* One experiment: a workload under two or three layouts. */
struct bench_balloon_exp {
	struct bench_balloon_layout l[BENCH_BALLOON_LAYOUTS];
	unsigned vms, gpu_vms, cpu_vms;
	uint64_t alpha_u;		/* 1 / the maximum W found by the calibration (millionths per percent) */
	double w_max_pct;		/* that maximum: every vCPU runnable and one CPU copying */
};

/* W of eq. 2 on this host: real threads as §4.3's vCPUs, metered from schedstat, against the CPU model. */
struct bench_balloon_steal {
	unsigned cpus;			/* the CPUs the threads ran on */
	unsigned cg, gpu;		/* threads wanting every quantum, and a quarter of it */
	unsigned ms;			/* the metered time */
	double w_pct, w_cg_pct, w_gpu_pct;		/* measured: all, the cg threads', the GPU-bound ones' */
	double model_pct, model_cg_pct, model_gpu_pct;	/* the CPU model's, for the same wants on the same CPUs */
	double idle_cores;		/* idle cores on the machine meanwhile (-1: unknown) */
};

struct bench_balloon {
	struct bench_balloon_exp fig8;		/* §4.3: 8 VMs valley, 7 cg */
	struct bench_balloon_exp fig7;		/* §4.2: Table 2's sequence on 15 VMs */
	struct bench_balloon_exp fig5[BENCH_BALLOON_FIG5];	/* §4.1: 3 to 15 VMs, all valley */
	struct bench_balloon_exp fig10;		/* §4.4: one VM, gVirt-1024 against gBalloon from 384 MiB */
	unsigned slots;				/* slots of the platform's layout */
	double copy_ns_per_pte;			/* the CPU's copy time per PTE written, measured in R_copy's calibration */
	uint64_t engine_ns_per_pte;		/* the engine's wait per PTE copied: the paper's platform (gScale Fig. 15) */
	struct bench_balloon_layout rcopy_cal;	/* R_copy's calibration: 15 VMs each mapping gVirt-1024's 16 slots */
	double rcopy_max_pct;			/* R_copy's maximum: the calibration's R_copy */
	unsigned cal_passes;			/* the calibration's passes (the cost is their median) */
	unsigned cpus;				/* N of eq. 1 */
	unsigned gpu_vcpu_pct;			/* what a GPU-bound VM's vCPU wants of its quantum, % */
	uint64_t scene_ms;			/* simulated time of one valley scene */
	uint64_t beta_u;			/* 1 / rcopy_max_pct, millionths per percent */
	struct bench_balloon_steal steal;	/* W's meter against the CPU model, on this host */
};

void bench_balloon_table(const struct bench_opts *o, const struct bench_balloon *b);
void bench_balloon_json(struct bench_json *j, const struct bench_balloon *b);
struct bench_claim;
/* gBalloon's claims (Figures 5-10) judged on b, at most max of them into c; returns how many. */
unsigned bench_balloon_claims(const struct bench_balloon *b, struct bench_claim *c, unsigned max);

#endif
