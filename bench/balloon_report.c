/* SPDX-License-Identifier: MIT */
/*
 * balloon's tables and JSON: each gBalloon experiment beside the paper's
 * figure, with whether the model's change has the paper's sign and the
 * measured terms that make it (bench/balloon.c runs them).
 */
#include <stdio.h>

#include "bench/balloon_model.h"
#include "bench/bench.h"

static double pct(double ratio)
{
	return (ratio - 1) * 100;
}

/* Whether a change the model shows has the sign of the paper's. */
static const char *sign(double model_pct, double paper_pct)
{
	return (model_pct > 0) == (paper_pct > 0) ? "same sign" : "OPPOSITE sign";
}

static void layout_rows(const struct bench_balloon_exp *e)
{
	printf("  %-10s %7s %7s %7s %11s %6s %5s %6s %16s %6s %6s %6s\n", "layout", "R_copy", "W", "copy/q", "shared",
	       "slots", "fit", "1-copy", "short q (evict)", "GPU", "CPU", "all");
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++) {
		const struct bench_balloon_layout *x = &e->l[l];
		char shared[24], sh[32];
		if (!x->name[0])
			continue;
		snprintf(shared, sizeof(shared), "%.1f (%u)", x->shared_slots_mean, x->shared_slots_end);
		snprintf(sh, sizeof(sh), "%llu (%llu)", (unsigned long long)x->short_quanta, (unsigned long long)x->evicted);
		printf("  %-10s %6.3f%% %6.0f%% %6.2f%% %11s %6.2f %5.3f %6.3f %16s %6.3f %6.3f %6.3f\n", x->name,
		       x->rcopy_pct, x->w_pct, x->gpu_copy_pct, shared, x->gpu_slots_mean, x->fit_mean, x->copy_free_mean,
		       sh, x->perf_gpu, e->cpu_vms ? x->perf_cpu : 0, x->perf);
	}
}

/* Beyond the papers: what moving a VM where it grows alone bought, against gBalloon as published. */
static void move_line(const struct bench_balloon_exp *e)
{
	const struct bench_balloon_layout *g = &e->l[2], *m = &e->l[3];

	if (!m->name[0])
		return;
	printf("  gBalloon+m (beyond the papers: a VM that can only grow into others' slots first moves where it grows\n"
	       "    alone): %llu moves (%llu entries put back, in its R_copy); GPU %+.1f%%, all %+.1f%% against gBalloon;\n"
	       "    shared slots %.1f against %.1f\n", (unsigned long long)m->moves, (unsigned long long)m->move_ptes,
	       (m->perf_gpu / g->perf_gpu - 1) * 100, (m->perf / g->perf - 1) * 100, m->shared_slots_mean,
	       g->shared_slots_mean);
}

/* Beyond the papers (gBalloon §6): what slot runs bought, against gBalloon as published. */
static void runs_line(const struct bench_balloon_exp *e)
{
	const struct bench_balloon_layout *g = &e->l[BALLOON_POLICY], *r = &e->l[BALLOON_RUNS];

	if (!r->name[0])
		return;
	printf("  gBalloon+r (beyond the papers, gBalloon §6: a VM's slots in up to 8 runs, Algorithm 1 over any slots):\n"
	       "    GPU %+.1f%%, all %+.1f%% against gBalloon; shared slots %.1f against %.1f; R_copy %.3f%% against %.3f%%\n",
	       (r->perf_gpu / g->perf_gpu - 1) * 100, (r->perf / g->perf - 1) * 100, r->shared_slots_mean,
	       g->shared_slots_mean, r->rcopy_pct, g->rcopy_pct);
}

static void policy_line(const struct bench_balloon_layout *g)
{
	printf("  gBalloon's policy: periods low %llu, mid %llu, high %llu; eviction reports granted %llu, refused %llu by\n"
	       "    the policy, %llu for room; %llu slots taken back by the policy\n",
	       (unsigned long long)g->periods[0], (unsigned long long)g->periods[1], (unsigned long long)g->periods[2],
	       (unsigned long long)g->granted, (unsigned long long)g->refused_policy, (unsigned long long)g->refused_room,
	       (unsigned long long)g->reductions);
}

/* §4.3: the paper's Figure 8 beside the model's, and the terms of the valley sign. */
static void fig8(const struct bench_balloon *b)
{
	const struct bench_balloon_exp *e = &b->fig8;
	const struct bench_balloon_layout *v3 = &e->l[0], *v10 = &e->l[1], *g = &e->l[2];

	printf("\nballoon §4.3 (Figure 8): 8 VMs run valley throughout, 7 run cg; W's maximum %.0f%% (calibration:\n"
	       "  every vCPU runnable, one CPU copying), f = W / %.0f%% + R_copy / %.1f%%, thresholds 0.5 and 1.0\n",
	       e->w_max_pct, e->w_max_pct, 1e6 / (double)b->beta_u);
	layout_rows(e);
	policy_line(g);
	move_line(e);
	runs_line(e);
	printf("  paper (/ gVirt-384): cg -19%% under gVirt-1024, -1.5%% under gBalloon; valley +4%% and +2%%\n");
	printf("  model: cg %+.1f%% under gVirt-1024 (%s), %+.1f%% under gBalloon (%s);\n", pct(v10->perf_cpu),
	       sign(pct(v10->perf_cpu), -19), pct(g->perf_cpu), sign(pct(g->perf_cpu), -1.5));
	printf("    valley %+.1f%% under gVirt-1024 (%s), %+.1f%% under gBalloon (%s)\n", pct(v10->perf_gpu),
	       sign(pct(v10->perf_gpu), 4), pct(g->perf_gpu), sign(pct(g->perf_gpu), 2));
	printf("    valley under gVirt-1024 = fit %.3f / %.3f x copy-free %.3f / %.3f of gVirt-384's: the slots it gains\n"
	       "    against the copies that sharing 16 slots among 8 busy VMs costs\n",
	       v10->fit_mean, v3->fit_mean, v10->copy_free_mean, v3->copy_free_mean);
}

static double class_perf(const struct bench_balloon_exp *e, int l, int c)
{
	return e->l[0].class_work[c] > 0 ? e->l[l].class_work[c] / e->l[0].class_work[c] : 0;
}

/* §4.2: Table 2's mix, Figure 7's summary and Figure 6's groups. */
static void fig7(const struct bench_balloon *b)
{
	const struct bench_balloon_exp *e = &b->fig7;
	double g3 = pct(e->l[2].perf / e->l[0].perf), g10 = pct(e->l[2].perf / e->l[1].perf);

	printf("\nballoon §4.2 (Figures 6-7): 15 VMs run Table 2's three benchmarks each\n");
	layout_rows(e);
	policy_line(&e->l[2]);
	move_line(e);
	runs_line(e);
	printf("  %-10s %7s %9s %7s   (/ gVirt-384, Figure 6's groups)\n", "layout", "valley", "other 3D", "2D");
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++)
		if (e->l[l].name[0])
			printf("  %-10s %7.3f %9.3f %7.3f\n", e->l[l].name, class_perf(e, l, BENCH_BALLOON_VALLEY),
		       class_perf(e, l, BENCH_BALLOON_3D), class_perf(e, l, BENCH_BALLOON_2D));
	printf("  paper: gBalloon +8%% vs gVirt-384, +32%% vs gVirt-1024; under gVirt-1024 valley up, other 3D -50%%, 2D -25%%\n");
	printf("  model: gBalloon %+.1f%% vs gVirt-384 (%s), %+.1f%% vs gVirt-1024 (%s); under gVirt-1024 valley %+.1f%%,\n"
	       "    other 3D %+.1f%%, 2D %+.1f%% (the proxy charges every benchmark the same copy: 2D is not less sensitive)\n",
	       g3, sign(g3, 8), g10, sign(g10, 32), pct(class_perf(e, 1, BENCH_BALLOON_VALLEY)),
	       pct(class_perf(e, 1, BENCH_BALLOON_3D)), pct(class_perf(e, 1, BENCH_BALLOON_2D)));
	if (g3 < 0)
		printf("  why gBalloon is below gVirt-384 here: f stayed at %.2f on average (threshold low 0.5), so the policy\n"
		       "    took nothing back; slots grown for valley stay held after it ends (%.2f slots beyond the working\n"
		       "    set per quantum) and every switch copies them: 1-copy %.3f against gVirt-384's %.3f\n",
		       e->l[2].f_mean, e->l[2].excess_mean, e->l[2].copy_free_mean, e->l[0].copy_free_mean);
}

/* §4.1: Figure 5, 3 to 15 VMs of valley. */
static void fig5(const struct bench_balloon *b)
{
	printf("\nballoon §4.1 (Figure 5): n VMs all run valley; GPU proxy / gVirt-384\n");
	printf("  %4s %11s %9s %11s %11s %8s %8s %7s   paper: <= 6 VMs gVirt-1024 above gVirt-384\n", "VMs",
	       "gVirt-1024", "gBalloon", "gBalloon+m", "gBalloon+r", "R_copy", "(1024)", "shared");
	printf("  %4s %11s %9s %11s %11s %8s %8s %7s   and gBalloon near it; >= 9 VMs all about equal\n", "", "", "", "", "",
	       "(gBal.)", "", "(gBal.)");
	for (int k = 0; k < BENCH_BALLOON_FIG5; k++) {
		const struct bench_balloon_exp *e = &b->fig5[k];
		double d10 = pct(e->l[1].perf_gpu), dg = pct(e->l[2].perf_gpu);
		printf("  %4u %+10.1f%% %+8.1f%% %+10.1f%% %+10.1f%% %7.2f%% %7.2f%% %7.1f   %s\n", e->vms, d10, dg,
		       pct(e->l[BALLOON_MOVE].perf_gpu), pct(e->l[BALLOON_RUNS].perf_gpu), e->l[2].rcopy_pct, e->l[1].rcopy_pct,
		       e->l[2].shared_slots_mean, e->vms <= 6 ? sign(d10, 1) : "");
	}
	printf("  where gBalloon stays below gVirt-1024 with room for all: its ranges are contiguous and grow only at\n"
	       "    their ends (Algorithm 1), so neighbours end up sharing slots that a free slot elsewhere would spare;\n"
	       "    gBalloon+m moves a VM to such a slot run before it grows; gBalloon+r grows into any free slot\n");
}

/* §4.4: Figures 9 and 10, one VM scene by scene. */
static void fig10(const struct bench_balloon *b)
{
	const struct bench_balloon_exp *e = &b->fig10;
	const struct bench_balloon_layout *v = &e->l[1], *g = &e->l[2];
	double all = pct(g->perf_gpu);

	printf("\nballoon §4.4 (Figures 9-10): one VM runs valley, gVirt-1024 against gBalloon from 384 MiB\n");
	printf("  %5s %11s %15s %16s\n", "scene", "working set", "gBalloon slots", "perf / gVirt");
	for (int s = 0; s < BENCH_BALLOON_SCENES; s++)
		printf("  %5d %11u %15u %16.3f\n", s + 1, balloon_valley_slots((unsigned)s), g->scene_slots[s],
		       v->scene_work[s] > 0 ? g->scene_work[s] / v->scene_work[s] : 0);
	printf("  paper: up to 13 slots (832 MiB), overall -1.9%% (the first scenes short of memory)\n");
	printf("  model: up to %u slots, overall %+.1f%% (%s); eviction reports granted %llu\n", g->scene_slots[17], all,
	       sign(all, -1.9), (unsigned long long)g->granted);
}

void bench_balloon_table(const struct bench_opts *o, const struct bench_balloon *b)
{
	printf("\nballoon: gBalloon §4 on the model (%s run): sim:skl, %u slots of 64 MiB, 64 MiB low each;\n"
	       "  valley's 18 scenes of %llu ms; copies charged %llu ns/PTE, N = %u CPUs, 2 vCPUs a VM; gBalloon's\n"
	       "  policy every 500 ms, guests report evictions at most every 500 ms.\n"
	       "  proxy: GPU = sum over quanta of (1 - copy / 16 ms) x min(1, slots / working set) (fit, 1-copy: means);\n"
	       "  CPU = cg's CPU time; all = mean over the VMs; W from the vCPUs' waiting in the CPU model\n",
	       o->quick ? "quick" : "full", b->slots, (unsigned long long)b->scene_ms,
	       (unsigned long long)b->copy_ns_per_pte, b->cpus);
	fig8(b);
	fig7(b);
	fig5(b);
	fig10(b);
}

static void layout_json(struct bench_json *j, const struct bench_balloon_layout *x)
{
	bench_json_open(j, x->name);
	bench_json_kint(j, "sim_ms", x->sim_ms);
	bench_json_kint(j, "switches", x->switches);
	bench_json_kint(j, "ptes_written", x->ptes_written);
	bench_json_knum(j, "rcopy_pct", x->rcopy_pct);
	bench_json_knum(j, "w_pct", x->w_pct);
	bench_json_knum(j, "ptes_per_sim_s", x->ptes_per_sim_s);
	bench_json_knum(j, "gpu_copy_pct", x->gpu_copy_pct);
	bench_json_knum(j, "shared_slots_mean", x->shared_slots_mean);
	bench_json_kint(j, "shared_slots_end", x->shared_slots_end);
	bench_json_knum(j, "gpu_slots_mean", x->gpu_slots_mean);
	bench_json_knum(j, "fit_mean", x->fit_mean);
	bench_json_knum(j, "copy_free_mean", x->copy_free_mean);
	bench_json_knum(j, "excess_mean", x->excess_mean);
	bench_json_knum(j, "f_mean", x->f_mean);
	bench_json_kint(j, "short_quanta", x->short_quanta);
	bench_json_kint(j, "evicted", x->evicted);
	bench_json_kint(j, "granted", x->granted);
	bench_json_kint(j, "refused_policy", x->refused_policy);
	bench_json_kint(j, "refused_room", x->refused_room);
	bench_json_kint(j, "reductions", x->reductions);
	bench_json_kint(j, "moves", x->moves);
	bench_json_kint(j, "move_ptes", x->move_ptes);
	bench_json_kint(j, "periods_low", x->periods[0]);
	bench_json_kint(j, "periods_mid", x->periods[1]);
	bench_json_kint(j, "periods_high", x->periods[2]);
	bench_json_knum(j, "perf_gpu", x->perf_gpu);
	bench_json_knum(j, "perf_cpu", x->perf_cpu);
	bench_json_knum(j, "perf", x->perf);
	bench_json_close(j);
}

static void exp_json(struct bench_json *j, const char *name, const struct bench_balloon_exp *e)
{
	bench_json_open(j, name);
	bench_json_kint(j, "vms", e->vms);
	bench_json_kint(j, "cpu_vms", e->cpu_vms);
	bench_json_knum(j, "w_max_pct", e->w_max_pct);
	bench_json_kint(j, "alpha_u", e->alpha_u);
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++)
		if (e->l[l].name[0])
			layout_json(j, &e->l[l]);
	bench_json_close(j);
}

void bench_balloon_json(struct bench_json *j, const struct bench_balloon *b)
{
	char name[16];

	bench_json_open(j, "balloon");
	bench_json_kint(j, "slots", b->slots);
	bench_json_kint(j, "copy_ns_per_pte", b->copy_ns_per_pte);
	bench_json_kint(j, "cpus", b->cpus);
	bench_json_kint(j, "scene_ms", b->scene_ms);
	bench_json_kint(j, "beta_u", b->beta_u);
	bench_json_kstr(j, "proxy", "GPU: sum over quanta of (1 - copy/16 ms) x min(1, slots/working set); CPU: cg's CPU "
				    "time; each / gVirt-384 (fig10: / gVirt-1024)");
	exp_json(j, "fig8", &b->fig8);
	exp_json(j, "fig7", &b->fig7);
	for (int k = 0; k < BENCH_BALLOON_FIG5; k++) {
		snprintf(name, sizeof(name), "fig5_%u", b->fig5[k].vms);
		exp_json(j, name, &b->fig5[k]);
	}
	exp_json(j, "fig10", &b->fig10);
	bench_json_close(j);
}
