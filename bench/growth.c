/* SPDX-License-Identifier: MIT */
/*
 * How the runtime's cost grows: against GGTT size, vGPU count and switch
 * count, three points each (each a median of repetitions), with the fitted
 * order (the least-squares slope of log cost against log size: 0 flat, 1
 * linear, 2 quadratic). Only the runtime is timed, never the model's own
 * creation.
 */
#include <math.h>
#include <stdio.h>

#include "bench/bench.h"

static uint64_t vgpus_workload(struct bench_dev *b, const struct dom0_config *cfg, unsigned n, unsigned switches)
{
	int ids[1024];
	struct gtt_err err = { 0 };
	uint64_t t0 = bench_now_ns();

	bench_start_runtime(b, cfg);
	for (unsigned i = 0; i < n; i++) {
		struct dom0_vgpu_params p = { .low_size = 16ull << 20, .high_slots = 1, .fences = 2, .mem_pages = 16 };
		ids[i] = bench_create(b, &p);
		struct dom0_vgpu_info info = bench_info(b, ids[i]);
		bench_map(b, ids[i], info.low_base / 4096 + i % 4000, 0, 4);
		bench_map(b, ids[i], info.high_base / 4096 + i % 16000, 4, 4);
	}
	for (unsigned k = 0; k < switches; k++)
		bench_switch(b, ids[k % n], NULL);
	for (unsigned i = 0; i < n; i++)
		if (dom0_vgpu_destroy(b->rt, ids[i], &err))
			bench_die("destroy: %s", err.msg);
	bench_stop_runtime(b);
	return bench_now_ns() - t0;
}

/* init, 4 vGPUs, 16 switches, destroy, fini on a sim:skl whose GSM is set by GGMS. */
static double ggtt_point(unsigned ggms, unsigned reps, double *gib)
{
	char spec[32];
	struct bench_dev b;
	double s[9];

	snprintf(spec, sizeof(spec), "simggms:skl:%u", ggms);
	bench_open_device(&b, spec);
	*gib = (double)b.dev->info.ggtt_size / (1u << 30);
	for (unsigned k = 0; k < reps; k++)
		s[k] = (double)vgpus_workload(&b, NULL, 4, 16);
	bench_close(&b);
	return bench_median(s, reps);
}

/* init, n vGPUs each mapped and switched to once, destroy, fini on sim:skl. */
static double vgpus_point(unsigned n, unsigned reps)
{
	struct bench_dev b;
	double s[9];

	bench_open_device(&b, "sim:skl");
	for (unsigned k = 0; k < reps; k++)
		s[k] = (double)vgpus_workload(&b, NULL, n, n);
	bench_close(&b);
	return bench_median(s, reps);
}

/* n steady-state quanta in gScale's layout (after the first round). */
static double switches_point(unsigned n, unsigned reps)
{
	double s[9];

	for (unsigned k = 0; k < reps; k++) {
		struct bench_gscale g;
		struct gtt_err err = { 0 };
		bench_gscale_start(&g, false, true);
		if (dom0_run_quanta(g.b.rt, 6, NULL, NULL, &err))
			bench_die("run: %s", err.msg);
		uint64_t t0 = bench_now_ns();
		if (dom0_run_quanta(g.b.rt, n, NULL, NULL, &err))
			bench_die("run: %s", err.msg);
		s[k] = (double)(bench_now_ns() - t0);
		bench_close(&g.b);
	}
	return bench_median(s, reps);
}

static void fit(struct bench_growth *g)
{
	double sx = 0, sy = 0, sxx = 0, sxy = 0;

	for (int i = 0; i < 3; i++) {
		double x = log(g->pt[i].x), y = log(g->pt[i].ns);
		sx += x, sy += y, sxx += x * x, sxy += x * y;
	}
	g->slope = (3 * sxy - sx * sy) / (3 * sxx - sx * sx);
}

void bench_growth(const struct bench_opts *o, struct bench_results *r)
{
	unsigned reps = o->quick ? 3 : 7;
	static const unsigned ggms[3] = { 1, 2, 3 };
	const unsigned quick_vgpus[3] = { 8, 16, 32 }, full_vgpus[3] = { 32, 128, 512 };
	const unsigned quick_sw[3] = { 30, 100, 300 }, full_sw[3] = { 100, 1000, 10000 };
	const unsigned *nv = o->quick ? quick_vgpus : full_vgpus, *ns = o->quick ? quick_sw : full_sw;

	bench_note("growth: cost against GGTT size, vGPU count and switch count");
	r->growth[0] = (struct bench_growth){ .name = "ggtt_size", .unit = "GiB",
					      .cost = "init, 4 vGPUs, 16 switches, destroy, fini (sim:skl)" };
	for (int i = 0; i < 3; i++)
		r->growth[0].pt[i].ns = ggtt_point(ggms[i], reps, &r->growth[0].pt[i].x);
	r->growth[1] = (struct bench_growth){ .name = "vgpus", .unit = "vGPUs",
					      .cost = "init, n vGPUs each switched to once, destroy, fini (sim:skl)" };
	for (int i = 0; i < 3; i++) {
		r->growth[1].pt[i].x = nv[i];
		r->growth[1].pt[i].ns = vgpus_point(nv[i], reps);
	}
	r->growth[2] = (struct bench_growth){ .name = "switches", .unit = "switches",
					      .cost = "n steady-state quanta, gScale layout (sim:hsw)" };
	for (int i = 0; i < 3; i++) {
		r->growth[2].pt[i].x = ns[i];
		r->growth[2].pt[i].ns = switches_point(ns[i], reps);
	}
	for (int i = 0; i < 3; i++)
		fit(&r->growth[i]);
}
