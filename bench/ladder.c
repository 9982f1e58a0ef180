/* SPDX-License-Identifier: MIT */
/*
 * table2: gScale's Table 2, how often ladder mapping happens, from the
 * runtime's own counters: per vGPU, the guest PTE writes it accepted
 * (gtt_modifications) and the ladder entries they changed (ladder_mappings:
 * a write in the mappable low range, which the guest's CPU reaches through
 * the aperture). gScale counted both while 3D benchmarks ran in Linux and
 * Windows guests; those workloads are not ours to run, so the rows here are
 * the workloads we have: each check of the guest suite inside a vgpu:
 * device, counted before and after it. The paper's row is printed beside
 * them for what it is, a different workload.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/papers.h"
#include "dom0/dom0.h"
#include "dom0/guest_device.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "checks/runner.h"

static const struct { const char *name; double ladder_k, modify_k; } paper[] = {
	{ "LightsMark", 18.8, 455.3 }, { "Nexuiz", 4.67, 313.5 }, { "Openarena", 4.9, 228.5 },
	{ "Warsow", 6.6, 1629.9 },     { "SM2.0", 10.2, 1134.2 }, { "HDR", 8.1, 1199.7 },
};

void bench_ladder(const struct bench_opts *o, struct bench_results *r)
{
	struct bench_ladder *l = &r->ladder;
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	const struct check *sel[16];
	size_t n = 0;
	int guest;

	(void)o;
	memset(l, 0, sizeof(*l));
	if (hw_open(gtt_env_posix(GTT_LOG_ERROR), "vgpu:sim:skl", gtt_posix_backends, gtt_num_posix_backends, NULL, &dev,
		    &err))
		bench_die("table2: vgpu:sim:skl: %s", err.msg);
	struct dom0_runtime *rt = dom0_guest_device_runtime(dev, &guest);
	if (runner_select("guest", sel, 16, &n, &err) || n > BENCH_LADDER_ROWS)
		bench_die("table2: the guest suite: %zu checks, room for %d", n, BENCH_LADDER_ROWS);
	bench_note("table2: ladder mappings among the guest's GTT modifications, per guest check (vgpu:sim:skl)");
	for (size_t i = 0; i < n; i++) {
		struct dom0_vgpu_info a, z;
		struct check_result res;
		struct runner_opts ro = { .seed = 1 };
		/* the guest's vGPU id can change (a move), so it is asked after each check */
		dom0_guest_device_runtime(dev, &guest);
		dom0_vgpu_info(rt, guest, &a);
		if (runner_run(dev, &sel[i], 1, &ro, &res) != 1 || res.status == CHECK_FAIL || res.status == CHECK_ABORT)
			bench_die("table2: %s: %s %s", sel[i]->name, check_status_name(res.status), res.reason);
		dom0_guest_device_runtime(dev, &guest);
		dom0_vgpu_info(rt, guest, &z);
		struct bench_ladder_row *w = &l->row[l->rows++];
		w->name = sel[i]->name;
		w->modifications = z.counters.gtt_modifications - a.counters.gtt_modifications;
		w->ladder = z.counters.ladder_mappings - a.counters.ladder_mappings;
		l->modifications += w->modifications;
		l->ladder += w->ladder;
	}
	hw_close(dev);
}

void bench_ladder_table(const struct bench_opts *o, const struct bench_ladder *l)
{
	(void)o;
	printf("\ntable2: gScale's Table 2, ladder mappings among GTT modifications, from the runtime's counters (exact);\n"
	       "our workloads are the guest checks inside vgpu:sim:skl, not the paper's 3D benchmarks:\n");
	printf("  %-20s %14s %14s %8s\n", "workload", "GTT modified", "ladder mapped", "share");
	for (unsigned i = 0; i < l->rows; i++) {
		const struct bench_ladder_row *w = &l->row[i];
		printf("  %-20s %14llu %14llu %7.2f%%\n", w->name, (unsigned long long)w->modifications,
		       (unsigned long long)w->ladder, w->modifications ? 100.0 * (double)w->ladder / (double)w->modifications : 0.0);
	}
	printf("  %-20s %14llu %14llu %7.2f%%\n", "the guest suite", (unsigned long long)l->modifications,
	       (unsigned long long)l->ladder, l->modifications ? 100.0 * (double)l->ladder / (double)l->modifications : 0.0);
	printf("  paper (gScale, 3D benchmarks in Linux and Windows guests, thousands):");
	for (size_t i = 0; i < sizeof(paper) / sizeof(paper[0]); i++)
		printf("%s %s %.2f%%", i ? "," : "", paper[i].name, 100.0 * paper[i].ladder_k / paper[i].modify_k);
	printf("\n");
	struct bench_claim c[1];
	bench_claims_report(c, bench_ladder_claims(l, c, 1));
}

/* gScale Table 2: ladder mappings are a small share of GTT modifications (0.4-4%: 2.2 within 1.8 points). */
unsigned bench_ladder_claims(const struct bench_ladder *l, struct bench_claim *out, unsigned max)
{
	if (!max)
		return 0;
	out[0] = bench_claim("gScale", "Table 2", "ladder mappings are few among GTT modifications", "% of writes", 2.2,
			     l->modifications ? 100.0 * (double)l->ladder / (double)l->modifications : 0, CLAIM_NEAR);
	out[0].tol = 1.8;
	snprintf(out[0].why, sizeof(out[0].why), "a guest check writes each entry it tests once, in the mappable slice as often "
		 "as in the high one; the paper's games map CPU-visible objects while loading, then rewrite GPU-only ones");
	return 1;
}

void bench_ladder_json(struct bench_json *j, const struct bench_ladder *l)
{
	bench_json_open(j, "table2");
	bench_json_kint(j, "gtt_modifications", l->modifications);
	bench_json_kint(j, "ladder_mappings", l->ladder);
	for (unsigned i = 0; i < l->rows; i++) {
		bench_json_open(j, l->row[i].name);
		bench_json_kint(j, "gtt_modifications", l->row[i].modifications);
		bench_json_kint(j, "ladder_mappings", l->row[i].ladder);
		bench_json_close(j);
	}
	bench_json_close(j);
}
