/* SPDX-License-Identifier: MIT */
/*
 * P2: the steady-state switch in gScale's layout as a share of the 16 ms
 * slice, with slot sharing and with the three busy vGPUs in one slot (the
 * paper's gScale against gScale-Basic), the two layouts' quanta interleaved
 * one by one; warm, and cold as a guest's quantum leaves the caches (64 MiB
 * of its data read before every quantum, untimed).
 * Then P3 (bench/p3_measure.c) on the model and through the linux backend
 * (bench/linux_path.c).
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"

struct last_switch {
	uint64_t written;
};

static void on_switch(void *ctx, const struct dom0_switch_stats *s)
{
	((struct last_switch *)ctx)->written = s->ptes_written;
}

#define COLD_BYTES (64u << 20)

/* What a guest's quantum leaves in the caches: 64 MiB of its own data read (sums kept, so the reads are made). */
static volatile uint64_t cold_sink;

static void evict(const uint64_t *buf)
{
	uint64_t sum = 0;

	for (size_t i = 0; buf && i < COLD_BYTES / 8; i += 8)	/* one word per 64-byte line */
		sum += buf[i];
	cold_sink += sum;
}

/*
 * The two layouts side by side, interleaved: one steady-state quantum of the
 * shared layout, then one of the one-slot layout, `per` times (after the
 * first round and a few more of each). Cold: the caches evicted before every
 * quantum of either, so both start from what a guest's quantum leaves; warm:
 * nothing between. Each pair is taken on the same machine state, so the
 * ratio of a pair is the comparison, and a drifting machine drifts under both.
 */
static void steady_pair(unsigned per, double *shared, double *one, uint64_t *ptes_shared, uint64_t *ptes_one,
			const uint64_t *cold)
{
	struct bench_gscale g[2];
	struct last_switch last[2] = { { 0 }, { 0 } };
	struct gtt_err err = { 0 };
	double *out[2] = { shared, one };

	for (int k = 0; k < 2; k++) {
		bench_gscale_start(&g[k], k == 1, true);
		if (dom0_run_quanta(g[k].b.rt, 6, NULL, NULL, &err))
			bench_die("run: %s", err.msg);
	}
	for (unsigned i = 0; i < per; i++)
		for (int k = 0; k < 2; k++) {
			evict(cold);
			uint64_t t0 = bench_now_ns();
			int rc = dom0_run_quanta(g[k].b.rt, 1, on_switch, &last[k], &err);
			uint64_t t1 = bench_now_ns();
			if (rc)
				bench_die("run: %s", err.msg);
			out[k][i] = (double)(t1 - t0);
		}
	*ptes_shared = last[0].written;
	*ptes_one = last[1].written;
	for (int k = 0; k < 2; k++)
		bench_close(&g[k].b);
}

static void p2(const struct bench_opts *o, struct bench_results *r)
{
	unsigned reps = o->quick ? 1 : 5, per = o->quick ? 15 : 60;
	size_t n = (size_t)reps * per;
	double *shared = calloc(n, sizeof(double)), *one = calloc(n, sizeof(double));
	double *shared_cold = calloc(n, sizeof(double)), *one_cold = calloc(n, sizeof(double));
	double *ratio = calloc(n, sizeof(double));
	uint64_t *guest = malloc(COLD_BYTES), ptes, ptes1;

	if (!shared || !one || !shared_cold || !one_cold || !ratio || !guest)
		bench_die("out of memory");
	for (size_t i = 0; i < COLD_BYTES / 8; i++)
		guest[i] = i;
	/* warm and cold take turns run by run, so drift over the part falls on both */
	for (unsigned k = 0; k < reps; k++) {
		steady_pair(per, shared + (size_t)k * per, one + (size_t)k * per, &r->p2_ptes, &r->p2_one_slot_ptes, NULL);
		steady_pair(per, shared_cold + (size_t)k * per, one_cold + (size_t)k * per, &ptes, &ptes1, guest);
	}
	/* the cold pairs' ratios, before the medians below sort the samples */
	for (size_t i = 0; i < n; i++)
		ratio[i] = one_cold[i] / shared_cold[i];
	r->p2_one_slot_cold_ratio = bench_median(ratio, n);
	r->p2_cold_ratio_lo = ratio[0];
	r->p2_cold_ratio_hi = ratio[n - 1];
	r->p2_switch_ns = bench_median(shared, n);	/* sorts: the range is at the ends */
	r->p2_lo_ns = shared[0];
	r->p2_hi_ns = shared[n - 1];
	r->p2_one_slot_ns = bench_median(one, n);
	r->p2_share_pct = r->p2_switch_ns / (DOM0_QUANTUM_MS * 1e6) * 100;
	r->p2_one_slot_pct = r->p2_one_slot_ns / (DOM0_QUANTUM_MS * 1e6) * 100;
	r->p2_cold_ns = bench_median(shared_cold, n);
	r->p2_cold_lo_ns = shared_cold[0];
	r->p2_cold_hi_ns = shared_cold[n - 1];
	r->p2_one_slot_cold_ns = bench_median(one_cold, n);
	r->p2_cold_pct = r->p2_cold_ns / (DOM0_QUANTUM_MS * 1e6) * 100;
	free(shared);
	free(one);
	free(shared_cold);
	free(one_cold);
	free(ratio);
	free(guest);
}

#define SCHED_QUANTA 300

struct sched_run {
	struct bench_gscale g;
	uint64_t written;
};

static void count_written(void *ctx, const struct dom0_switch_stats *s)
{
	((struct sched_run *)ctx)->written += s->ptes_written;
}

/*
 * The scheduler's fairness in scenarios/gscale-15-vgpus.scn once vm2 is idle
 * and vm4 (vm1's slot) busy: each busy vGPU's worst wait between its turns,
 * in quanta, from the owners seen; Jain's index over their quanta; the PTEs
 * the switches write, slot-aware and plain round robin, so the trade-off is
 * visible. Counts on the simulated clock: exact, no timing.
 */
static void fairness(struct bench_results *r)
{
	struct gtt_err err = { 0 };

	for (int aware = 1; aware >= 0; aware--) {
		struct sched_run s = { 0 };
		int busy[3];
		uint64_t last[3] = { 0 };
		bench_gscale_start(&s.g, false, aware);
		busy[0] = s.g.vm[0];
		busy[1] = s.g.vm[2];
		busy[2] = s.g.vm[3];
		bench_busy(&s.g.b, s.g.vm[1], false);
		bench_busy(&s.g.b, s.g.vm[3], true);
		for (unsigned q = 1; q <= SCHED_QUANTA; q++) {
			if (dom0_run_quanta(s.g.b.rt, 1, count_written, &s, &err))
				bench_die("sched: %s", err.msg);
			int now = dom0_render_owner(s.g.b.rt);
			for (int i = 0; i < 3 && aware; i++) {
				if (busy[i] != now)
					continue;
				if (q - last[i] - 1 > r->sched_worst_wait)
					r->sched_worst_wait = (unsigned)(q - last[i] - 1);
				last[i] = q;
				r->sched_quanta[i]++;
			}
		}
		for (int i = 0; i < 3 && aware; i++)
			if (SCHED_QUANTA - last[i] > r->sched_worst_wait)
				r->sched_worst_wait = (unsigned)(SCHED_QUANTA - last[i]);
		*(aware ? &r->sched_ptes : &r->sched_rr_ptes) = s.written;
		bench_close(&s.g.b);
	}
	double sum = 0, sq = 0;
	for (int i = 0; i < 3; i++) {
		sum += r->sched_quanta[i];
		sq += (double)r->sched_quanta[i] * r->sched_quanta[i];
	}
	r->sched_fairness = sq > 0 ? sum * sum / (3 * sq) : 0;
	r->sched_bound = 2 * 3 - 1;
}

void bench_switch_time(const struct bench_opts *o, struct bench_results *r)
{
	bench_note("P2: steady-state switch / 16 ms slice, gScale layout, slot sharing and one slot");
	p2(o, r);
	bench_note("sched: fairness of the slot-aware scheduler, gScale layout with vm4 in vm1's slot, %u quanta", SCHED_QUANTA);
	fairness(r);
	bench_note("P3: memcpy / switch, per PTE, on sim:skl");
	bench_p3_sim(o, r);
	bench_note("P3: the same through the linux backend, a fake device on tmpfs");
	bench_p3_linux(o, r);
}
