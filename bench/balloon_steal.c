/* SPDX-License-Identifier: MIT */
/*
 * balloon_steal: W (gBalloon eq. 2) measured on this host, against the CPU
 * model the balloon runs take W from (bench/balloon_model.c).
 *
 * Real threads play the vCPUs of §4.3's mix, scaled to the CPUs they may run
 * on: per 8 CPUs, 14 that want every quantum (cg's) and 16 that want a
 * quarter of it (a GPU-bound VM's). A quarter-thread spins until it has run
 * 4 ms of its own CPU time in each 16 ms quantum, or the quantum is over,
 * then sleeps to the next; what it did not get in a quantum it does not
 * carry over, as in the model. The steal meter the runtime's host side
 * offers (dom0/host/steal.c: each thread's run-queue wait from its
 * schedstat) measures W over the run, for each kind of vCPU; the model is
 * given the same wants on the same CPUs. The machine's other load is
 * measured beside it (idle cores): it competes with the threads and the
 * model does not know it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "bench/balloon_model.h"
#include "bench/balloon_steal.h"
#include "bench/bench.h"
#include "dom0/host/steal.h"

#define QUANTUM_NS	(DOM0_QUANTUM_MS * 1000000ull)
#define MAX_CPUS	16		/* 28 + 32 threads: within the meter's 64 */
#define QUICK_MS	500
#define FULL_MS		2000

struct vcpu {
	pthread_t t;
	unsigned pct;			/* what it wants of each quantum */
	_Atomic pid_t tid;		/* 0 until the thread runs */
	const _Atomic int *go;		/* 1: run, 2: stop */
	uint64_t t0;			/* the first quantum's start (CLOCK_MONOTONIC) */
	cpu_set_t cpus;
};

static uint64_t thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void *vcpu_main(void *arg)
{
	struct vcpu *v = arg;

	pthread_setaffinity_np(pthread_self(), sizeof(v->cpus), &v->cpus);
	atomic_store(&v->tid, (pid_t)syscall(SYS_gettid));
	while (atomic_load(v->go) == 0)
		sched_yield();
	for (uint64_t q = 0; atomic_load(v->go) == 1; q++) {
		uint64_t end = v->t0 + (q + 1) * QUANTUM_NS, want = QUANTUM_NS * v->pct / 100, c0 = thread_cpu_ns();
		while (thread_cpu_ns() - c0 < want && bench_now_ns() < end && atomic_load(v->go) == 1)
			;
		if (bench_now_ns() < end) {
			struct timespec ts = { .tv_sec = (time_t)(end / 1000000000ull), .tv_nsec = (long)(end % 1000000000ull) };
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		}
	}
	return NULL;
}

/* The first max CPUs this process may run on; how many. */
static unsigned allowed_cpus(cpu_set_t *set, unsigned max)
{
	cpu_set_t all;
	unsigned n = 0;

	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(all), &all))
		bench_die("balloon: sched_getaffinity: the CPUs the threads may use are unknown");
	for (unsigned c = 0; c < CPU_SETSIZE && n < max; c++)
		if (CPU_ISSET(c, &all)) {
			CPU_SET(c, set);
			n++;
		}
	return n;
}

static void meter(struct dom0_steal_meter *m, const struct vcpu *v, unsigned n, uint64_t now)
{
	pid_t tids[DOM0_STEAL_MAX_THREADS];
	struct gtt_err err = { 0 };

	for (unsigned k = 0; k < n; k++)
		tids[k] = atomic_load(&v[k].tid);
	if (dom0_steal_meter_init(m, "/proc", getpid(), tids, n, now, &err))
		bench_die("balloon: W's meter on this host's threads: %s", err.msg);
}

static double sample(struct dom0_steal_meter *m, uint64_t now)
{
	struct gtt_err err = { 0 };
	uint64_t mpct = 0;

	if (dom0_steal_meter_sample(m, now, &mpct, &err))
		bench_die("balloon: W's meter on this host's threads: %s", err.msg);
	return (double)mpct / 1000;
}

void balloon_steal_measure(bool quick, struct bench_balloon_steal *out)
{
	struct vcpu v[DOM0_STEAL_MAX_THREADS];
	double want[DOM0_STEAL_MAX_THREADS], wait[DOM0_STEAL_MAX_THREADS];
	cpu_set_t set;
	_Atomic int go = 0;
	struct dom0_steal_meter mcg, mgpu;
	struct bench_cpu_mark a, b;

	*out = (struct bench_balloon_steal){ .cpus = allowed_cpus(&set, MAX_CPUS), .ms = quick ? QUICK_MS : FULL_MS };
	out->cg = (14 * out->cpus + 4) / 8;
	out->gpu = 2 * out->cpus;
	unsigned n = out->cg + out->gpu;
	if (!out->cpus || n > DOM0_STEAL_MAX_THREADS)
		bench_die("balloon: %u threads on %u CPUs for W's meter (at most %u)", n, out->cpus, DOM0_STEAL_MAX_THREADS);
	/* cg's threads first: the meters' threads are v[0, cg) and v[cg, n) */
	for (unsigned k = 0; k < n; k++) {
		v[k] = (struct vcpu){ .pct = k < out->cg ? 100 : BALLOON_GPU_VCPU_PCT, .go = &go, .cpus = set };
		want[k] = v[k].pct;
		if (pthread_create(&v[k].t, NULL, vcpu_main, &v[k]))
			bench_die("balloon: cannot start vCPU thread %u of %u for W's meter", k + 1, n);
	}
	for (unsigned k = 0; k < n; k++)
		while (!atomic_load(&v[k].tid))
			sched_yield();
	uint64_t t0 = bench_now_ns() + QUANTUM_NS;
	for (unsigned k = 0; k < n; k++)
		v[k].t0 = t0;
	atomic_store(&go, 1);
	/* one quantum to settle, then the meters and the machine's load over the run */
	struct timespec ts = { .tv_sec = (time_t)((t0 + QUANTUM_NS) / 1000000000ull),
			       .tv_nsec = (long)((t0 + QUANTUM_NS) % 1000000000ull) };
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	uint64_t start = bench_now_ns();
	meter(&mcg, v, out->cg, start);
	meter(&mgpu, v + out->cg, out->gpu, start);
	bench_cpu_mark(&a);
	usleep(out->ms * 1000);
	uint64_t end = bench_now_ns();
	out->w_cg_pct = sample(&mcg, end);
	out->w_gpu_pct = sample(&mgpu, end);
	bench_cpu_mark(&b);
	atomic_store(&go, 2);
	for (unsigned k = 0; k < n; k++)
		pthread_join(v[k].t, NULL);
	/* the threads' own spinning keeps the cores busy: idle cores here are what the mix left */
	out->idle_cores = bench_idle_cores(&a, &b);

	balloon_cpu_model(want, wait, n, out->cpus);
	for (unsigned k = 0; k < n; k++)
		*(k < out->cg ? &out->model_cg_pct : &out->model_gpu_pct) += wait[k];
	out->w_pct = out->w_cg_pct + out->w_gpu_pct;
	out->model_pct = out->model_cg_pct + out->model_gpu_pct;
}
