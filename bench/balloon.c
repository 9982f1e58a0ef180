/* SPDX-License-Identifier: MIT */
/*
 * balloon: gBalloon's comparison of CPU and GPU workloads (gBalloon-2019
 * §4.3, Figure 8) replayed on the model: one seeded workload trace, the same
 * for three layouts, through the public runtime API only.
 *
 * The trace: 15 VMs on sim:skl (59 slots of 64 MiB), each with the paper's
 * 64 MiB of low graphics memory. VM 1, 3, ..., 15 are GPU-bound: busy on the
 * render engine all the time, with a working set of high graphics memory
 * that changes with the phase: as in Table 2, each runs three benchmarks in
 * turn and one of them is valley (9-14 slots, 576-896 MiB, more than gVirt's
 * 384 MiB), the others 2-6 slots. VM 2, 4, ..., 14 are CPU-bound (cg): idle
 * on the GPU, one slot mapped; their vCPUs wait while a host CPU copies GTT
 * entries, so each vCPU's steal is the share of its CPU the copies took in
 * the period so far (the copies spread over the host's N = 8 CPUs: R_copy),
 * handed to the policy with dom0_policy_steal as a schedstat meter would.
 * A GPU-bound guest that runs a quantum with fewer slots than its working
 * set evicts one object per missing slot and, under gBalloon, reports its
 * running count over PVINFO; the host answers it after the next quantum (a
 * service answers asynchronously; the vGPU is then no longer the one
 * running, so the new slot is copied at its next switch and counted).
 *
 * Copies are charged a fixed 30 ns per PTE written (gScale Figure 15:
 * gScale-Basic copies 384 MiB high + 64 MiB low, 114688 PTEs, in 21.8% of a
 * 16 ms slice), so R_copy is exact and every number here is a count. alpha
 * and beta are the reciprocals of the maxima on this platform, as §3.2 says
 * they are found: R_copy's is 100% / N (one CPU copying all the time), W's
 * 14 vCPUs x that; f is then twice the copying CPU's busy share.
 *
 * The performance proxy (printed with the table), normalized to gVirt-384:
 *   GPU-bound: the sum over its quanta of (1 - copy time / 16 ms, at least 0)
 *     x min(1, slots / working set): the engine waits for the copy, and a
 *     working set that does not fit renders that share of its frames;
 *   CPU-bound: 1 - R_copy over the trace, the host CPU time the copies leave;
 *   all: the mean over the 15 VMs (8 GPU-bound, 7 CPU-bound).
 * It is a model of the paper's mechanisms, not of its hardware: nothing in
 * it is timed.
 */
#include <stdio.h>

#include "bench/bench.h"
#include "regs/pvinfo.h"

#define MiB		(1ull << 20)
#define OFF(reg)	((reg) - VGT_PVINFO_PAGE)
#define VMS		15
#define PHASES		3
#define SLOT_SIZE	(64 * MiB)
#define LOW_SIZE	(64 * MiB)
#define MEM_PAGES	64
#define HOST_CPUS	8		/* gBalloon Table 1: an i7-6700, 8 CPUs */
#define VCPUS		2		/* per guest, Table 1 */
#define CPU_VCPUS	(VCPUS * (VMS / 2))
#define PERIOD_MS	500
#define QUANTUM_NS	(DOM0_QUANTUM_MS * 1000000ull)
#define COPY_NS		(QUANTUM_NS * 218 / 1000 / 114688)	/* 30 ns: gScale Figure 15 */
#define RCOPY_MAX_MPCT	(100000ull / HOST_CPUS)			/* one CPU copying all the time */
#define W_MAX_MPCT	(CPU_VCPUS * RCOPY_MAX_MPCT)
#define ALPHA_U		(1000000000ull / W_MAX_MPCT)		/* millionths per percent: 1 / 175% */
#define BETA_U		(1000000000ull / RCOPY_MAX_MPCT)	/* 1 / 12.5% */

enum { L_384, L_1024, L_BALLOON };

static const struct {
	const char *name;
	unsigned slots;
	bool policy;
} layouts[BENCH_BALLOON_LAYOUTS] = {
	[L_384] = { "gVirt-384", 6, false },
	[L_1024] = { "gVirt-1024", 16, false },
	[L_BALLOON] = { "gBalloon", 6, true },
};

/* The workload: slots of working set per VM and phase (1 for the CPU-bound). */
struct trace {
	unsigned demand[VMS][PHASES];
	unsigned phase_quanta;
};

/* The guest's side of one VM. */
struct guest {
	int id;
	uint64_t mapped;		/* slots (absolute) whose entries it has mapped */
	uint32_t evictions, seq;
	bool pending;			/* a report not answered yet */
};

/* One layout run over the trace. */
struct run {
	struct bench_dev b;
	const struct trace *t;
	bool policy;
	struct guest g[VMS];
	uint64_t pte[MEM_PAGES];	/* guest PTEs naming its frames, in the platform's format */
	uint64_t slot0, pps;		/* GGTT index of slot 0, entries per slot */
	unsigned phase, num_slots;
	int q_vm;			/* the VM switched in this quantum, its slots then, its copy */
	unsigned q_slots;
	uint64_t q_ptes;
	uint64_t period_copy_ns, next_ms;
	uint64_t gpu_quanta, slot_sum, shared_sum, samples;
	double gpu_work, gpu_copy_ns;
	struct bench_balloon_layout *out;
};

static bool gpu_bound(int i)
{
	return i % 2 == 0;	/* VM 1, 3, ..., 15 */
}

static unsigned popcount(uint64_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

/* Table 2's shape: each GPU-bound VM runs valley in one of its three phases. */
static void make_trace(struct trace *t, const struct bench_opts *o)
{
	uint64_t st = o->seed ^ 0x62616c6c6f6f6eull;

	t->phase_quanta = o->quick ? 125 : 1250;	/* 2 s or 20 s of simulated time */
	for (int i = 0; i < VMS; i++) {
		unsigned valley = (unsigned)bench_range(&st, 0, PHASES - 1);
		for (unsigned p = 0; p < PHASES; p++)
			t->demand[i][p] = !gpu_bound(i) ? 1
					: p == valley	? (unsigned)bench_range(&st, 9, 14)
							: (unsigned)bench_range(&st, 2, 6);
	}
}

static int vm_of(const struct run *r, int id)
{
	for (int i = 0; i < VMS; i++)
		if (r->g[i].id == id)
			return i;
	bench_die("balloon: vGPU %d is none of the trace's VMs", id);
}

static unsigned demand(const struct run *r, int i)
{
	return r->t->demand[i][r->phase];
}

static void write_slot(struct run *r, int i, unsigned slot, bool map)
{
	struct gtt_err err = { 0 };
	uint64_t first = r->slot0 + slot * r->pps;

	for (uint64_t k = 0; k < r->pps; k++)
		if (dom0_guest_pte_write(r->b.rt, r->g[i].id, first + k, map ? r->pte[k % MEM_PAGES] : 0, &err))
			bench_die("balloon: VM %d's PTE write in slot %u: %s", i + 1, slot, err.msg);
}

/*
 * The guest maps its working set, whole slots of its high range, as far as
 * the range holds it, and unmaps what it no longer uses (i915 points unbound
 * entries at scratch); slots it lost went with their objects.
 */
static void guest_fit(struct run *r, int i)
{
	struct guest *g = &r->g[i];
	struct dom0_vgpu_info in = bench_info(&r->b, g->id);
	uint64_t range = (in.slots >= 64 ? ~0ull : (1ull << in.slots) - 1) << in.first_slot;
	unsigned want = in.slots < demand(r, i) ? in.slots : demand(r, i);
	uint64_t mapped, entries;

	g->mapped &= range;
	while (popcount(g->mapped) > want) {
		unsigned s = 63 - (unsigned)__builtin_clzll(g->mapped);
		write_slot(r, i, s, false);
		g->mapped &= ~(1ull << s);
	}
	while (popcount(g->mapped) < want) {
		unsigned s = (unsigned)__builtin_ctzll(range & ~g->mapped);
		write_slot(r, i, s, true);
		g->mapped |= 1ull << s;
	}
	if (dom0_vgpu_utilization(r->b.rt, g->id, &mapped, &entries) || mapped != want * r->pps)
		bench_die("balloon: VM %d mapped %u slots of its high range, the runtime counts %llu entries", i + 1, want,
			  (unsigned long long)mapped);
}

static void fit_all(struct run *r)
{
	for (int i = 0; i < VMS; i++)
		guest_fit(r, i);
}

/* The CPU-bound VMs' steal: each vCPU waits the share of its CPU the copies took this period. */
static void meter_steal(struct run *r)
{
	struct gtt_err err = { 0 };
	uint64_t rcopy_mpct = r->period_copy_ns / (PERIOD_MS * HOST_CPUS * 10);

	for (int i = 0; i < VMS; i++)
		if (!gpu_bound(i) && dom0_policy_steal(r->b.rt, r->g[i].id, VCPUS * rcopy_mpct, &err))
			bench_die("balloon: steal of VM %d: %s", i + 1, err.msg);
}

/*
 * After each switch, inside dom0_run_quanta and before its policy tick: the
 * steal meters then cover every copy of the period the tick classifies (a
 * quantum that switches nothing copies nothing). Only reads and steal
 * rates: nothing here changes what the runtime is in the middle of.
 */
static void on_switch(void *ctx, const struct dom0_switch_stats *s)
{
	struct run *r = ctx;

	r->q_vm = vm_of(r, s->to);
	r->q_slots = bench_info(&r->b, s->to).slots;
	r->q_ptes = s->ptes_written;
	r->period_copy_ns += s->ptes_written * COPY_NS;
	meter_steal(r);
}

/* The guest's report (scenario_policy.c's guest_request): request words, then the doorbell. */
static void report_evictions(struct run *r, int i, unsigned missing)
{
	struct guest *g = &r->g[i];
	struct gtt_err err = { 0 };

	g->evictions += missing;
	g->seq++;
	if (dom0_pvinfo_write(r->b.rt, g->id, OFF(GTTLAB_IF_GM_CODE), GTTLAB_GM_REQ_EVICTIONS, &err) ||
	    dom0_pvinfo_write(r->b.rt, g->id, OFF(GTTLAB_IF_GM_COUNT), g->evictions, &err) ||
	    dom0_pvinfo_write(r->b.rt, g->id, OFF(GTTLAB_IF_GM_SEQ), g->seq, &err) ||
	    dom0_pvinfo_write(r->b.rt, g->id, OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, &err))
		bench_die("balloon: the trap refused VM %d's eviction report: %s", i + 1, err.msg);
	g->pending = true;
}

static uint32_t pvinfo(struct run *r, int i, uint32_t reg)
{
	uint32_t v = 0;

	if (dom0_pvinfo_read(r->b.rt, r->g[i].id, OFF(reg), &v, NULL))
		bench_die("balloon: VM %d's PVINFO 0x%x cannot be read", i + 1, reg);
	return v;
}

/* Answer the reports of earlier quanta; each must be answered, with the range PVINFO shows. */
static void serve(struct run *r)
{
	struct gtt_err err = { 0 };

	if (!dom0_requests_pending(r->b.rt))
		return;
	if (dom0_serve_requests(r->b.rt, NULL, &err))
		bench_die("balloon: serving the eviction reports: %s", err.msg);
	for (int i = 0; i < VMS; i++) {
		struct guest *g = &r->g[i];
		if (!g->pending)
			continue;
		uint32_t st = pvinfo(r, i, GTTLAB_IF_GM_STATUS), seq = pvinfo(r, i, GTTLAB_IF_GM_ANSWER_SEQ);
		if (seq != g->seq || (st != GTTLAB_GM_ST_GRANTED && st != GTTLAB_GM_ST_NOTED &&
				      st != GTTLAB_GM_ST_REFUSED_POLICY && st != GTTLAB_GM_ST_REFUSED_ROOM))
			bench_die("balloon: VM %d's report %u answered with status %u for report %u", i + 1, g->seq, st, seq);
		if (pvinfo(r, i, GTTLAB_IF_GM_SLOTS) != bench_info(&r->b, g->id).slots)
			bench_die("balloon: VM %d's PVINFO does not show the slots it holds", i + 1);
		g->pending = false;
		guest_fit(r, i);
	}
}

/* The quantum just run: the proxy's share of it, and the guest's evictions. */
static void account(struct run *r)
{
	int i = r->q_vm;

	if (i < 0 || !gpu_bound(i))
		bench_die("balloon: a quantum ran no GPU-bound VM (%d)", i + 1);
	unsigned d = demand(r, i);
	double copy = (double)(r->q_ptes * COPY_NS);
	double lost = copy < QUANTUM_NS ? copy : QUANTUM_NS;
	double fits = r->q_slots < d ? (double)r->q_slots / d : 1;

	r->gpu_work += (1 - lost / QUANTUM_NS) * fits;
	r->gpu_copy_ns += copy;
	r->gpu_quanta++;
	r->slot_sum += r->q_slots;
	if (r->q_slots >= d)
		return;
	r->out->short_quanta++;
	r->out->evicted += d - r->q_slots;
	if (r->policy && !r->g[i].pending)
		report_evictions(r, i, d - r->q_slots);
}

/* At each 500 ms of simulated time: the policy's period (it ticked inside the quantum), a sample. */
static void period_end(struct run *r)
{
	if (dom0_sim_time_ms(r->b.rt) < r->next_ms)
		return;
	r->next_ms += PERIOD_MS;
	r->period_copy_ns = 0;
	r->samples++;
	r->shared_sum += dom0_shared_slots(r->b.rt);
	if (!r->policy)
		return;
	const struct dom0_policy_state *st = dom0_policy_state(r->b.rt);
	if (st->periods != r->samples)
		bench_die("balloon: %llu periods of simulated time, the policy counted %llu",
			  (unsigned long long)r->samples, (unsigned long long)st->periods);
	r->out->periods[st->cls]++;
	fit_all(r);	/* the policy may have taken slots */
}

static void start(struct run *r, int l)
{
	struct dom0_config cfg = { .slot_size = SLOT_SIZE };
	struct gtt_err err = { 0 };

	bench_open(&r->b, "sim:skl", &cfg);
	const struct dom0_layout *lay = dom0_layout(r->b.rt);
	if (lay->slot_size != SLOT_SIZE || lay->num_slots > 64 || lay->num_slots < layouts[L_1024].slots)
		bench_die("balloon: sim:skl gives %u slots of %llu MiB; the trace needs 16 to 64 of 64 MiB",
			  lay->num_slots, (unsigned long long)(lay->slot_size / MiB));
	r->num_slots = lay->num_slots;
	r->slot0 = lay->slots_base / 4096;
	r->pps = SLOT_SIZE / 4096;
	for (unsigned k = 0; k < MEM_PAGES; k++)
		r->pte[k] = bench_guest_pte(&r->b, k);
	for (int i = 0; i < VMS; i++) {
		struct dom0_vgpu_params p = { .low_size = LOW_SIZE, .high_slots = layouts[l].slots, .mem_pages = MEM_PAGES };
		r->g[i] = (struct guest){ .id = bench_create(&r->b, &p) };
	}
	fit_all(r);
	for (int i = 0; i < VMS; i++)
		bench_busy(&r->b, r->g[i].id, gpu_bound(i));
	r->next_ms = dom0_sim_time_ms(r->b.rt) + PERIOD_MS;
	if (!r->policy)
		return;
	struct dom0_policy p = { .alpha_u = ALPHA_U, .beta_u = BETA_U, .period_ms = PERIOD_MS, .cpus = HOST_CPUS,
				 .copy_ns_per_pte = COPY_NS };
	if (dom0_policy_set(r->b.rt, &p, dom0_sim_time_ms(r->b.rt), &err))
		bench_die("balloon: dom0_policy_set: %s", err.msg);
}

static void finish(struct run *r, int l)
{
	struct bench_balloon_layout *out = r->out;
	const struct dom0_counters *c = dom0_counters(r->b.rt);

	serve(r);
	for (int i = 0; i < VMS; i++) {
		unsigned held = bench_info(&r->b, r->g[i].id).slots;
		if (!r->policy && held != layouts[l].slots)
			bench_die("balloon: %s is fixed, yet VM %d holds %u slots", layouts[l].name, i + 1, held);
	}
	snprintf(out->name, sizeof(out->name), "%s", layouts[l].name);
	out->sim_ms = dom0_sim_time_ms(r->b.rt);
	out->switches = c->switches;
	out->ptes_written = c->ptes_written;
	if (r->policy && c->copy_ns != c->ptes_written * COPY_NS)
		bench_die("balloon: the runtime charged %llu ns of copies for %llu PTEs at %llu ns",
			  (unsigned long long)c->copy_ns, (unsigned long long)c->ptes_written, (unsigned long long)COPY_NS);
	out->rcopy_pct = (double)(c->ptes_written * COPY_NS) / ((double)out->sim_ms * 1e6 * HOST_CPUS) * 100;
	out->ptes_per_sim_s = (double)c->ptes_written / ((double)out->sim_ms / 1000);
	out->shared_slots_mean = (double)r->shared_sum / (double)r->samples;
	out->shared_slots_end = dom0_shared_slots(r->b.rt);
	out->gpu_copy_pct = r->gpu_copy_ns / ((double)r->gpu_quanta * QUANTUM_NS) * 100;
	out->gpu_slots_mean = (double)r->slot_sum / (double)r->gpu_quanta;
	if (r->policy) {
		const struct dom0_policy_state *st = dom0_policy_state(r->b.rt);
		out->granted = st->granted;
		out->refused_policy = st->refused_policy;
		out->refused_room = st->refused_room;
		out->reductions = st->policy_reductions;
	}
	bench_close(&r->b);
}

static double run_layout(const struct trace *t, int l, struct bench_balloon_layout *out, unsigned *slots)
{
	struct run r = { .t = t, .policy = layouts[l].policy, .out = out };
	struct gtt_err err = { 0 };

	*out = (struct bench_balloon_layout){ 0 };
	start(&r, l);
	for (unsigned q = 0; q < PHASES * t->phase_quanta; q++) {
		if (q / t->phase_quanta != r.phase) {
			r.phase = q / t->phase_quanta;
			fit_all(&r);	/* the next benchmark: another working set */
		}
		r.q_vm = -1;
		r.q_ptes = 0;
		if (dom0_run_quanta(r.b.rt, 1, on_switch, &r, &err))
			bench_die("balloon: %s, quantum %u: %s", layouts[l].name, q, err.msg);
		period_end(&r);
		serve(&r);
		account(&r);
	}
	if (!r.gpu_quanta || !r.samples)
		bench_die("balloon: %s ran no GPU quantum or no period", layouts[l].name);
	double work = r.gpu_work;
	*slots = r.num_slots;
	finish(&r, l);
	return work;
}

void bench_balloon(const struct bench_opts *o, struct bench_results *res)
{
	struct bench_balloon *b = &res->balloon;
	double work[BENCH_BALLOON_LAYOUTS];
	struct trace t;

	make_trace(&t, o);
	*b = (struct bench_balloon){ .vms = VMS, .copy_ns_per_pte = COPY_NS, .cpus = HOST_CPUS, .phases = PHASES,
				     .phase_ms = t.phase_quanta * DOM0_QUANTUM_MS,
				     .alpha_u = ALPHA_U, .beta_u = BETA_U };
	bench_note("balloon: gBalloon §4.3 on sim:skl: 15 VMs (8 GPU-bound, 7 CPU-bound), %u phases of %llu s, 3 layouts",
		   PHASES, (unsigned long long)(b->phase_ms / 1000));
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++)
		work[l] = run_layout(&t, l, &b->l[l], &b->slots);
	const struct bench_balloon_layout *ref = &b->l[L_384];
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++) {
		struct bench_balloon_layout *x = &b->l[l];
		x->perf_gpu = work[l] / work[L_384];
		x->perf_cpu = (1 - x->rcopy_pct / 100) / (1 - ref->rcopy_pct / 100);
		x->perf = (8 * x->perf_gpu + 7 * x->perf_cpu) / VMS;
	}
}

static double pct(double ratio)
{
	return (ratio - 1) * 100;
}

/* Whether a change the model shows has the sign of the paper's. */
static const char *sign(double model_pct, double paper_pct)
{
	return (model_pct > 0) == (paper_pct > 0) ? "same sign" : "OPPOSITE sign";
}

static void layout_rows(const struct bench_balloon *b)
{
	printf("  %-10s %7s %10s %7s %12s %10s %17s %9s %6s %6s %6s\n", "layout", "R_copy", "PTEs/sim s", "copy/q",
	       "shared", "GPU slots", "short q (evicted)", "switches", "GPU", "CPU", "all");
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++) {
		const struct bench_balloon_layout *x = &b->l[l];
		char shared[24], sh[32];
		snprintf(shared, sizeof(shared), "%.1f (%u)", x->shared_slots_mean, x->shared_slots_end);
		snprintf(sh, sizeof(sh), "%llu (%llu)", (unsigned long long)x->short_quanta, (unsigned long long)x->evicted);
		printf("  %-10s %6.3f%% %10.0f %6.2f%% %12s %10.2f %17s %9llu %6.3f %6.3f %6.3f\n", x->name, x->rcopy_pct,
		       x->ptes_per_sim_s, x->gpu_copy_pct, shared, x->gpu_slots_mean, sh, (unsigned long long)x->switches,
		       x->perf_gpu, x->perf_cpu, x->perf);
	}
}

/* The paper's figures beside the model's, and whether each goes the same way. */
static void against_paper(const struct bench_balloon *b)
{
	const struct bench_balloon_layout *g = &b->l[L_BALLOON], *v10 = &b->l[L_1024];
	double all3 = pct(g->perf / b->l[L_384].perf), all10 = pct(g->perf / v10->perf);

	printf("  paper: gBalloon +8%% vs gVirt-384, +32%% vs gVirt-1024 (Figure 7, §4.2's mix of GPU benchmarks);\n"
	       "    Figure 8 (/ gVirt-384): cg -19%% under gVirt-1024, -1.5%% under gBalloon; valley +4%% and +2%%\n");
	printf("  model: gBalloon %+.1f%% vs gVirt-384, %+.1f%% vs gVirt-1024 (%s, %s);\n", all3, all10, sign(all3, 8),
	       sign(all10, 32));
	printf("    CPU-bound %+.1f%% under gVirt-1024, %+.1f%% under gBalloon (%s, %s);\n", pct(v10->perf_cpu),
	       pct(g->perf_cpu), sign(pct(v10->perf_cpu), -19), sign(pct(g->perf_cpu), -1.5));
	printf("    GPU-bound %+.1f%% under gVirt-1024, %+.1f%% under gBalloon (%s, %s)\n", pct(v10->perf_gpu),
	       pct(g->perf_gpu), sign(pct(v10->perf_gpu), 4), sign(pct(g->perf_gpu), 2));
}

void bench_balloon_table(const struct bench_opts *o, const struct bench_balloon *b)
{
	const struct bench_balloon_layout *g = &b->l[L_BALLOON];

	printf("\nballoon: gBalloon §4.3 (Figure 8) on the model (%s run, seed %llu): %u VMs on sim:skl,\n"
	       "  %u slots of 64 MiB; 8 GPU-bound (valley in one of %u phases of %llu s: 9-14 slots, else 2-6),\n"
	       "  7 CPU-bound (cg: steal = copy share); copies charged %llu ns/PTE, N = %u CPUs;\n"
	       "  gBalloon: f = W / %.0f%% + R_copy / %.1f%% every 500 ms, thresholds 0.5 and 1.0\n",
	       o->quick ? "quick" : "full", (unsigned long long)o->seed, b->vms, b->slots, b->phases,
	       (unsigned long long)(b->phase_ms / 1000), (unsigned long long)b->copy_ns_per_pte, b->cpus,
	       1e6 / (double)b->alpha_u, 1e6 / (double)b->beta_u);
	layout_rows(b);
	printf("  gBalloon's policy: periods low %llu, mid %llu, high %llu; eviction reports granted %llu, refused %llu by\n"
	       "    the policy, %llu for room; %llu slots taken back by the policy\n",
	       (unsigned long long)g->periods[0], (unsigned long long)g->periods[1], (unsigned long long)g->periods[2],
	       (unsigned long long)g->granted, (unsigned long long)g->refused_policy, (unsigned long long)g->refused_room,
	       (unsigned long long)g->reductions);
	printf("  proxy (/ gVirt-384): GPU = sum over quanta of (1 - copy time / 16 ms) x min(1, slots / working set);\n"
	       "    CPU = 1 - R_copy; all = mean over the 15 VMs. copy/q: copy time / GPU quanta;\n"
	       "    shared: slots held by 2+ vGPUs, mean over periods (at the end);\n"
	       "    short q: GPU quanta run with fewer slots than the working set\n");
	against_paper(b);
}

static void layout_json(struct bench_json *j, const struct bench_balloon_layout *x)
{
	bench_json_open(j, x->name);
	bench_json_kint(j, "sim_ms", x->sim_ms);
	bench_json_kint(j, "switches", x->switches);
	bench_json_kint(j, "ptes_written", x->ptes_written);
	bench_json_knum(j, "rcopy_pct", x->rcopy_pct);
	bench_json_knum(j, "ptes_per_sim_s", x->ptes_per_sim_s);
	bench_json_knum(j, "gpu_copy_pct", x->gpu_copy_pct);
	bench_json_knum(j, "shared_slots_mean", x->shared_slots_mean);
	bench_json_kint(j, "shared_slots_end", x->shared_slots_end);
	bench_json_knum(j, "gpu_slots_mean", x->gpu_slots_mean);
	bench_json_kint(j, "short_quanta", x->short_quanta);
	bench_json_kint(j, "evicted", x->evicted);
	bench_json_kint(j, "granted", x->granted);
	bench_json_kint(j, "refused_policy", x->refused_policy);
	bench_json_kint(j, "refused_room", x->refused_room);
	bench_json_kint(j, "reductions", x->reductions);
	bench_json_kint(j, "periods_low", x->periods[0]);
	bench_json_kint(j, "periods_mid", x->periods[1]);
	bench_json_kint(j, "periods_high", x->periods[2]);
	bench_json_knum(j, "perf_gpu", x->perf_gpu);
	bench_json_knum(j, "perf_cpu", x->perf_cpu);
	bench_json_knum(j, "perf", x->perf);
	bench_json_close(j);
}

void bench_balloon_json(struct bench_json *j, const struct bench_balloon *b)
{
	bench_json_open(j, "balloon");
	bench_json_kint(j, "vms", b->vms);
	bench_json_kint(j, "slots", b->slots);
	bench_json_kint(j, "copy_ns_per_pte", b->copy_ns_per_pte);
	bench_json_kint(j, "cpus", b->cpus);
	bench_json_kint(j, "phases", b->phases);
	bench_json_kint(j, "phase_ms", b->phase_ms);
	bench_json_kint(j, "alpha_u", b->alpha_u);
	bench_json_kint(j, "beta_u", b->beta_u);
	bench_json_kstr(j, "proxy", "GPU: sum over quanta of (1 - copy/16 ms) x min(1, slots/working set); CPU: 1 - R_copy; "
				    "all: mean over 15 VMs; each / gVirt-384");
	for (int l = 0; l < BENCH_BALLOON_LAYOUTS; l++)
		layout_json(j, &b->l[l]);
	bench_json_close(j);
}
