/* SPDX-License-Identifier: MIT */
/*
 * balloon_model: one gBalloon workload replayed under one layout on the
 * model, through the public runtime API only.
 *
 * The host: sim:skl (59 slots of 64 MiB); every VM has the paper's 64 MiB of
 * low graphics memory and 2 vCPUs; the host has N = 8 CPUs (gBalloon
 * Table 1). gVirt-384 and gVirt-1024 give every VM 6 or 16 slots and never
 * change; gBalloon starts from 6 and runs dom0/policy.c every 500 ms.
 *
 * The GPU: GPU-bound VMs are busy on the render engine; the runtime's
 * scheduler picks who runs each 16 ms quantum and the switch copies the GTT
 * entries it must. The copy costs twice: the host CPU's time (R_copy of
 * eq. 1, and one CPU taken from the vCPUs) and the render engine's wait. The
 * CPU's time per PTE is measured: balloon_rcopy_max times the runtime's own
 * switches on this layout, and the runs charge every PTE written that
 * measured cost (the runtime's policy too, through copy_ps_per_pte), so
 * that a run's decisions do not move with the machine's noise; each run's
 * own timed copies are kept beside it. R_copy's maximum, the policy's beta,
 * comes from the same calibration, so the policy's R_copy term is a ratio of
 * copy rates. The engine's wait is charged at the paper's platform's 30 ns
 * per PTE written (gScale Figure 15: gScale-Basic copies 114688 PTEs in 21.8%
 * of a 16 ms slice): the model's GSM is RAM and cannot time a GTT behind a
 * BAR. A VM's working set is whole
 * slots of its high range, set by the benchmark it runs (the table below;
 * valley's changes scene by scene). A quantum run with fewer slots than the
 * working set evicts one object per missing slot; under gBalloon the guest
 * then reports its eviction count over PVINFO, at most once per 500 ms (it
 * samples its counter as the host samples steal), and the host answers after
 * the next quantum.
 *
 * The CPUs: every quantum, the host's N CPUs, less the copy's time on one,
 * are shared among the vCPUs as processor sharing: each vCPU is runnable
 * from the quantum's start until it has run what it wants, and every
 * runnable vCPU runs at the same rate, min(1, CPUs / runnable vCPUs) (what a
 * fair scheduler such as CFS or Xen's credit scheduler converges to). A cg
 * vCPU wants its whole quantum; a GPU-bound VM's vCPUs want 25% each
 * (submission and the benchmark's own loop: a model's choice, stated). A
 * vCPU's steal time w is eq. 2's: its time in the ready queue, runnable and
 * not running, so a vCPU that got all it wanted late waited too; W is the
 * sum over the vCPUs of w / (w + s), s the rest of the period, handed to the
 * policy per VM as a schedstat meter would. bench/balloon_steal.c measures
 * the same wants on this host's threads with dom0/host/steal.c's meter, to
 * hold the model to it. W so rises with the copies and with the contention
 * the copies do not cause: the policy's two inputs are independent.
 *
 * The performance proxy, per GPU-bound quantum: (1 - the engine's wait /
 * 16 ms, at least 0) x min(1, slots / working set): the engine waits for the
 * copy, and a working set that does not fit renders that share of its
 * frames. For cg, the CPU time its vCPUs ran. Nothing in it is timed.
 */
#include <stdio.h>
#include <string.h>

#include "bench/balloon_model.h"
#include "bench/bench.h"
#include "dom0/ops.h"
#include "dom0/pvinfo.h"
#include "regs/pvinfo.h"

#define MiB		(1ull << 20)
#define OFF(reg)	((reg) - VGT_PVINFO_PAGE)
#define SLOT_SIZE	(64 * MiB)
#define LOW_SIZE	(64 * MiB)
#define MEM_PAGES	64
#define HOST_CPUS	BALLOON_HOST_CPUS
#define VCPUS		BALLOON_VCPUS
#define GPU_VCPU_PCT	BALLOON_GPU_VCPU_PCT
#define PERIOD_MS	500
#define REPORT_MS	500		/* a guest reports its evictions at most this often */
#define QUANTUM_NS	(DOM0_QUANTUM_MS * 1000000ull)
#define ENGINE_NS	BALLOON_ENGINE_NS

static const struct {
	const char *name;
	unsigned slots;		/* working set; 0: valley's scenes */
	unsigned vcpu_pct;	/* what each vCPU wants of a quantum */
	unsigned cls;		/* Figure 6's groups: valley, other 3D, 2D */
} benches[] = {
	/* The 3D and 2D benchmarks other than valley fit gVirt-384's 6 slots (§4.1); the sizes are the model's. */
	[BM_VALLEY] = { "valley", 0, GPU_VCPU_PCT, BENCH_BALLOON_VALLEY },
	[BM_OPENARENA] = { "openarena", 4, GPU_VCPU_PCT, BENCH_BALLOON_3D },
	[BM_URBANTERROR] = { "urbanterror", 5, GPU_VCPU_PCT, BENCH_BALLOON_3D },
	[BM_NEXUIZ] = { "nexuiz", 4, GPU_VCPU_PCT, BENCH_BALLOON_3D },
	[BM_LIGHTSMARK] = { "lightsmark", 3, GPU_VCPU_PCT, BENCH_BALLOON_3D },
	[BM_GNOME] = { "gnome", 1, GPU_VCPU_PCT, BENCH_BALLOON_2D },
	[BM_MIDORI] = { "midori", 2, GPU_VCPU_PCT, BENCH_BALLOON_2D },
	[BM_FIREFOX_AST] = { "firefox-ast", 2, GPU_VCPU_PCT, BENCH_BALLOON_2D },
	[BM_FIREFOX_SCR] = { "firefox-scr", 2, GPU_VCPU_PCT, BENCH_BALLOON_2D },
	[BM_CG] = { "cg", 1, 100, BENCH_BALLOON_2D },
	[BM_FILL] = { "fill", 16, GPU_VCPU_PCT, BENCH_BALLOON_3D },
};

/*
 * Valley's working set scene by scene: Figure 9's course, a sharp rise at
 * the start and one more slot every few scenes up to 13 (832 MiB). The
 * per-scene sizes are the model's: the paper gives only the curve.
 */
static const unsigned valley_scene[BENCH_BALLOON_SCENES] = { 10, 10, 11, 11, 11, 12, 12, 12, 12,
							     13, 13, 13, 13, 13, 13, 13, 13, 13 };

static const struct {
	const char *name;
	unsigned slots;
	bool policy, move;
	unsigned runs;			/* cfg.slot_runs */
} layouts[BENCH_BALLOON_LAYOUTS] = {
	[BALLOON_384] = { "gVirt-384", 6, false, false, 0 },
	[BALLOON_1024] = { "gVirt-1024", 16, false, false, 0 },
	[BALLOON_POLICY] = { "gBalloon", 6, true, false, 0 },
	/* beyond the papers: a VM that can only grow into others' slots first moves where it grows alone */
	[BALLOON_MOVE] = { "gBalloon+m", 6, true, true, 0 },
	/* beyond the papers (gBalloon §6): a VM's slots in up to 8 runs, grown and shrunk at any slots */
	[BALLOON_RUNS] = { "gBalloon+r", 6, true, false, DOM0_MAX_RUNS },
};

/* The guest's side of one VM. */
struct guest {
	int id;
	uint64_t mapped;		/* slots (absolute) whose entries it has mapped */
	uint32_t evictions, seq;
	bool pending;			/* a report not answered yet */
	uint64_t next_report_ms;
	uint64_t wait_ns;		/* its vCPUs' steal this period */
};

struct run {
	struct bench_dev b;
	const struct balloon_workload *w;
	bool policy, move;
	struct guest g[BALLOON_VMS];
	uint64_t pte[MEM_PAGES];	/* guest PTEs naming its frames, in the platform's format */
	uint64_t slot0, pps;		/* GGTT index of slot 0, entries per slot */
	unsigned scene;			/* scenes since the start */
	int cur;			/* the VM the engine runs, -1 before the first switch */
	bool switched;			/* in this quantum */
	uint64_t q_ptes;		/* the copy of this quantum's switch */
	uint64_t period_ns, next_ms, quantum;
	uint64_t gpu_quanta, slot_sum, shared_sum, samples;
	double fit_sum, free_sum, gpu_copy_ns, w_sum, f_sum;
	uint64_t excess_sum;
	double cost_ns;			/* the CPU's charge per PTE written; 0: the switches' timed copies */
	uint64_t timed_ns, timed_ptes;	/* the switches' copies as timed in this run, and the PTEs they wrote */
	struct bench_balloon_layout *out;
};

const char *balloon_layout_name(int layout)
{
	return layouts[layout].name;
}

const char *balloon_bench_name(int bm)
{
	return benches[bm].name;
}

unsigned balloon_valley_slots(unsigned s)
{
	return valley_scene[s % BENCH_BALLOON_SCENES];
}

int balloon_cpu_bound(const struct balloon_workload *w, int i)
{
	for (unsigned p = 0; p < w->phases; p++)
		if (w->bm[i][p] != BM_CG)
			return 0;
	return 1;
}

/*
 * What processor sharing gives: vCPU k is runnable until it ran want[k],
 * every runnable one at rate min(1, cpus_avail / runnable); ran[k] is what
 * it ran, wait[k] its time runnable and not running, both in ns.
 */
static void processor_sharing(const double *want, double *ran, double *wait, unsigned n, double cpus_avail)
{
	double rem[BALLOON_MODEL_VCPUS], t = 0;
	bool on[BALLOON_MODEL_VCPUS];

	for (unsigned k = 0; k < n; k++) {
		rem[k] = want[k];
		on[k] = want[k] > 0;
		ran[k] = wait[k] = 0;
	}
	/* each step ends when the quantum does or a vCPU has run what it wants: at most n + 1 steps */
	for (unsigned step = 0; step <= n && t < QUANTUM_NS; step++) {
		unsigned runnable = 0;
		for (unsigned k = 0; k < n; k++)
			runnable += on[k];
		if (!runnable)
			break;
		double rate = cpus_avail / runnable < 1 ? cpus_avail / runnable : 1, dt = QUANTUM_NS - t;
		for (unsigned k = 0; k < n; k++)
			if (on[k] && rem[k] / rate < dt)
				dt = rem[k] / rate;
		for (unsigned k = 0; k < n; k++) {
			if (!on[k])
				continue;
			ran[k] += rate * dt;
			rem[k] -= rate * dt;
			wait[k] += (1 - rate) * dt;
			if (rem[k] <= 1e-6 * QUANTUM_NS)
				on[k] = false;
		}
		t += dt;
	}
}

/*
 * One quantum of cpus CPUs: after the copy took copy_ns of one CPU, the rest
 * is shared among the vCPUs' wants (ns); got[k] is what vCPU k ran, wait[k]
 * its time in the ready queue. What each got is the fair share (water
 * filling) and must be what processor sharing ran: the two computations
 * hold each other. Returns the wait summed over the vCPUs.
 */
static double cpus_share(const double *want, double *got, double *wait, unsigned n, double copy_ns, unsigned cpus)
{
	double cap = (double)cpus * QUANTUM_NS - copy_ns, steal = 0, ps_ran[BALLOON_MODEL_VCPUS];
	bool done[BALLOON_MODEL_VCPUS] = { false };
	unsigned left = n;

	processor_sharing(want, ps_ran, wait, n, cap / QUANTUM_NS);
	while (left) {
		double share = cap / left;
		bool fixed = false;
		for (unsigned k = 0; k < n; k++)
			if (!done[k] && want[k] <= share) {
				got[k] = want[k];
				cap -= want[k];
				done[k] = fixed = true;
				left--;
			}
		if (fixed)
			continue;
		for (unsigned k = 0; k < n; k++)
			if (!done[k]) {
				got[k] = share;
				done[k] = true;
			}
		left = 0;
	}
	double ran = 0;
	for (unsigned k = 0; k < n; k++) {
		if (got[k] > want[k] + 1 || got[k] < 0)
			bench_die("balloon: the CPU model gave vCPU %u %.0f ns of %.0f wanted", k, got[k], want[k]);
		if (ps_ran[k] > got[k] + 1000 || ps_ran[k] < got[k] - 1000)
			bench_die("balloon: processor sharing ran vCPU %u %.0f ns, the fair share is %.0f", k, ps_ran[k], got[k]);
		steal += wait[k];
		ran += got[k];
	}
	if (ran + copy_ns > (double)cpus * QUANTUM_NS + n)
		bench_die("balloon: the CPU model ran %.0f ns and copied %.0f on %u CPUs of %llu ns", ran, copy_ns, cpus,
			  (unsigned long long)QUANTUM_NS);
	return steal;
}

/* The model's host: N CPUs. */
static double cpu_share(const double *want, double *got, double *wait, unsigned n, double copy_ns)
{
	return cpus_share(want, got, wait, n, copy_ns, HOST_CPUS);
}

void balloon_cpu_model(const double *want_pct, double *wait_pct, unsigned n, unsigned cpus)
{
	double want[BALLOON_MODEL_VCPUS] = { 0 }, got[BALLOON_MODEL_VCPUS] = { 0 }, wait[BALLOON_MODEL_VCPUS] = { 0 };

	if (n > BALLOON_MODEL_VCPUS || !cpus)
		bench_die("balloon: the CPU model holds at most %u vCPUs on at least one CPU (%u on %u)",
			  BALLOON_MODEL_VCPUS, n, cpus);
	for (unsigned k = 0; k < n; k++)
		want[k] = (double)QUANTUM_NS * want_pct[k] / 100;
	cpus_share(want, got, wait, n, 0, cpus);
	for (unsigned k = 0; k < n; k++)
		wait_pct[k] = wait[k] / QUANTUM_NS * 100;
}

static unsigned phase_of(const struct run *r)
{
	unsigned p = r->scene / BENCH_BALLOON_SCENES;

	return p < r->w->phases ? p : r->w->phases - 1;
}

static unsigned bench_of(const struct run *r, int i)
{
	return r->w->bm[i][phase_of(r)];
}

static unsigned demand(const struct run *r, int i)
{
	unsigned bm = bench_of(r, i);

	return benches[bm].slots ? benches[bm].slots : valley_scene[r->scene % BENCH_BALLOON_SCENES];
}

double balloon_w_max_pct(const struct balloon_workload *w)
{
	double want[BALLOON_MODEL_VCPUS] = { 0 }, got[BALLOON_MODEL_VCPUS] = { 0 }, wait[BALLOON_MODEL_VCPUS] = { 0 };
	unsigned n = w->vms * VCPUS;

	for (unsigned k = 0; k < n; k++)
		want[k] = QUANTUM_NS;
	return cpu_share(want, got, wait, n, QUANTUM_NS) / QUANTUM_NS * 100;
}

/* This quantum's CPUs: each VM's steal, cg's CPU time, W's sample. */
static void cpu_quantum(struct run *r, double copy_ns)
{
	double want[BALLOON_MODEL_VCPUS] = { 0 }, got[BALLOON_MODEL_VCPUS] = { 0 }, wait[BALLOON_MODEL_VCPUS] = { 0 };
	unsigned n = r->w->vms * VCPUS;

	for (unsigned k = 0; k < n; k++)
		want[k] = (double)QUANTUM_NS * benches[bench_of(r, (int)(k / VCPUS))].vcpu_pct / 100;
	r->w_sum += cpu_share(want, got, wait, n, copy_ns) / QUANTUM_NS * 100;
	for (unsigned k = 0; k < n; k++) {
		r->g[k / VCPUS].wait_ns += (uint64_t)wait[k];
		if (bench_of(r, (int)(k / VCPUS)) == BM_CG)
			r->out->cg_cpu_s += got[k] / 1e9;
	}
	r->period_ns += QUANTUM_NS;
}

/* Each VM's W share so far this period (its vCPUs' w / (w + s)), as the policy reads it at its tick. */
static void meter_steal(struct run *r)
{
	struct gtt_err err = { 0 };

	for (unsigned i = 0; i < r->w->vms; i++) {
		uint64_t mpct = r->period_ns ? r->g[i].wait_ns * 100000 / r->period_ns : 0;
		if (dom0_policy_steal(r->b.rt, r->g[i].id, mpct, &err))
			bench_die("balloon: steal of VM %u: %s", i + 1, err.msg);
	}
}

static int vm_of(const struct run *r, int id)
{
	for (unsigned i = 0; i < r->w->vms; i++)
		if (r->g[i].id == id)
			return (int)i;
	bench_die("balloon: vGPU %d is none of the workload's VMs", id);
}

/* After the switch, inside dom0_run_quanta and before its policy tick: the quantum's CPUs with its copy. */
static void on_switch(void *ctx, const struct dom0_switch_stats *s)
{
	struct run *r = ctx;

	r->cur = vm_of(r, s->to);
	r->switched = true;
	r->q_ptes = s->ptes_written;
	r->timed_ns += s->ns;
	r->timed_ptes += s->ptes_written;
	cpu_quantum(r, r->cost_ns ? (double)s->ptes_written * r->cost_ns : (double)s->ns);
	meter_steal(r);
}

static unsigned popcount(uint64_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
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
	uint64_t range = 0;
	for (unsigned k = 0; k < in.n_runs; k++)
		range |= (in.runs[k].n >= 64 ? ~0ull : (1ull << in.runs[k].n) - 1) << in.runs[k].first;
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
	for (unsigned i = 0; i < r->w->vms; i++)
		guest_fit(r, (int)i);
}

/* The guest's report (scenario_policy.c's guest_request): request words, then the doorbell. */
static void report_evictions(struct run *r, int i, unsigned missing)
{
	struct guest *g = &r->g[i];
	struct gtt_err err = { 0 };

	g->seq++;
	if (dom0_pvinfo_write(r->b.rt, g->id, OFF(GTTLAB_IF_GM_CODE), GTTLAB_GM_REQ_EVICTIONS, &err) ||
	    dom0_pvinfo_write(r->b.rt, g->id, OFF(GTTLAB_IF_GM_COUNT), g->evictions, &err) ||
	    dom0_pvinfo_write(r->b.rt, g->id, OFF(GTTLAB_IF_GM_SEQ), g->seq, &err) ||
	    dom0_pvinfo_write(r->b.rt, g->id, OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, &err))
		bench_die("balloon: the trap refused VM %d's eviction report (%u missing): %s", i + 1, missing, err.msg);
	g->pending = true;
	g->next_report_ms = dom0_sim_time_ms(r->b.rt) + REPORT_MS;
}

static uint32_t pvinfo(struct run *r, int i, uint32_t reg)
{
	uint32_t v = 0;

	if (dom0_pvinfo_read(r->b.rt, r->g[i].id, OFF(reg), &v, NULL))
		bench_die("balloon: VM %d's PVINFO 0x%x cannot be read", i + 1, reg);
	return v;
}

/* gBalloon+m: each VM whose report waits moves first where it can grow alone; its mapped slots go with it. */
static void move_to_grow(struct run *r)
{
	struct gtt_err err = { 0 };
	struct dom0_migration m;

	for (unsigned i = 0; i < r->w->vms; i++) {
		struct guest *g = &r->g[i];
		unsigned from = bench_info(&r->b, g->id).first_slot;
		bool moved = false;
		if (!g->pending)
			continue;
		if (dom0_move_to_grow(r->b.rt, g->id, 1, &moved, &m, &err))
			bench_die("balloon: moving VM %u to grow: %s", i + 1, err.msg);
		if (!moved)
			continue;
		unsigned to = bench_info(&r->b, g->id).first_slot;
		g->mapped = to > from ? g->mapped << (to - from) : g->mapped >> (from - to);
		r->out->moves++;
		r->out->move_ptes += m.ptes_released;
	}
}

/* Answer the reports of earlier quanta; each must be answered, with the range PVINFO shows. */
static void serve(struct run *r)
{
	struct gtt_err err = { 0 };

	if (!dom0_requests_pending(r->b.rt))
		return;
	if (r->move)
		move_to_grow(r);
	if (dom0_serve_requests(r->b.rt, NULL, &err))
		bench_die("balloon: serving the eviction reports: %s", err.msg);
	for (unsigned i = 0; i < r->w->vms; i++) {
		struct guest *g = &r->g[i];
		if (!g->pending)
			continue;
		uint32_t st = pvinfo(r, (int)i, GTTLAB_IF_GM_STATUS), seq = pvinfo(r, (int)i, GTTLAB_IF_GM_ANSWER_SEQ);
		if (seq != g->seq || (st != GTTLAB_GM_ST_GRANTED && st != GTTLAB_GM_ST_NOTED &&
				      st != GTTLAB_GM_ST_REFUSED_POLICY && st != GTTLAB_GM_ST_REFUSED_ROOM))
			bench_die("balloon: VM %u's report %u answered with status %u for report %u", i + 1, g->seq, st, seq);
		if (pvinfo(r, (int)i, GTTLAB_IF_GM_SLOTS) != bench_info(&r->b, g->id).slots)
			bench_die("balloon: VM %u's PVINFO does not show the slots it holds", i + 1);
		g->pending = false;
		guest_fit(r, (int)i);
	}
}


/* The quantum just run: the proxy's share of it, and the guest's evictions. */
static void account(struct run *r, unsigned quantum)
{
	int i = r->cur;

	if (i < 0 || balloon_cpu_bound(r->w, i))
		bench_die("balloon: quantum %u ran no GPU-bound VM (%d)", quantum, i + 1);
	unsigned d = demand(r, i), held = bench_info(&r->b, r->g[i].id).slots;
	double copy = (double)(r->q_ptes * ENGINE_NS);
	double lost = copy < QUANTUM_NS ? copy : QUANTUM_NS;
	double fits = held < d ? (double)held / d : 1, work = (1 - lost / QUANTUM_NS) * fits;

	r->out->gpu_work += work;
	r->out->class_work[benches[bench_of(r, i)].cls] += work;
	if (i == 0)
		r->out->scene_work[r->scene % BENCH_BALLOON_SCENES] += work;
	r->fit_sum += fits;
	r->free_sum += 1 - lost / QUANTUM_NS;
	r->gpu_copy_ns += copy;
	r->gpu_quanta++;
	r->slot_sum += held;
	r->excess_sum += held > d ? held - d : 0;
	if (held >= d)
		return;
	r->out->short_quanta++;
	r->out->evicted += d - held;
	r->g[i].evictions += d - held;
	if (r->policy && !r->g[i].pending && dom0_sim_time_ms(r->b.rt) >= r->g[i].next_report_ms)
		report_evictions(r, i, d - held);
}

/* At each 500 ms of simulated time: the policy's period (it ticked inside the quantum), a sample. */
static void period_end(struct run *r)
{
	if (dom0_sim_time_ms(r->b.rt) < r->next_ms)
		return;
	r->next_ms += PERIOD_MS;
	for (unsigned i = 0; i < r->w->vms; i++)
		r->g[i].wait_ns = 0;
	r->period_ns = 0;
	r->samples++;
	r->shared_sum += dom0_shared_slots(r->b.rt);
	if (!r->policy)
		return;
	const struct dom0_policy_state *st = dom0_policy_state(r->b.rt);
	if (st->periods != r->samples)
		bench_die("balloon: %llu periods of simulated time, the policy counted %llu",
			  (unsigned long long)r->samples, (unsigned long long)st->periods);
	r->out->periods[st->cls]++;
	r->f_sum += (double)st->f_u / 1e6;
	fit_all(r);	/* the policy may have taken slots */
}

static void start(struct run *r, int l, const struct balloon_coeffs *co)
{
	struct dom0_config cfg = { .slot_size = SLOT_SIZE, .slot_runs = layouts[l].runs };
	struct gtt_err err = { 0 };

	bench_open(&r->b, "sim:skl", &cfg);
	const struct dom0_layout *lay = dom0_layout(r->b.rt);
	if (lay->slot_size != SLOT_SIZE || lay->num_slots > 64 || lay->num_slots < layouts[BALLOON_1024].slots)
		bench_die("balloon: sim:skl gives %u slots of %llu MiB; the workload needs 16 to 64 of 64 MiB",
			  lay->num_slots, (unsigned long long)(lay->slot_size / MiB));
	r->slot0 = lay->slots_base / 4096;
	r->pps = SLOT_SIZE / 4096;
	for (unsigned k = 0; k < MEM_PAGES; k++)
		r->pte[k] = bench_guest_pte(&r->b, k);
	for (unsigned i = 0; i < r->w->vms; i++) {
		struct dom0_vgpu_params p = { .low_size = LOW_SIZE, .high_slots = layouts[l].slots, .mem_pages = MEM_PAGES };
		r->g[i] = (struct guest){ .id = bench_create(&r->b, &p) };
	}
	fit_all(r);
	for (unsigned i = 0; i < r->w->vms; i++)
		bench_busy(&r->b, r->g[i].id, !balloon_cpu_bound(r->w, (int)i));
	r->next_ms = dom0_sim_time_ms(r->b.rt) + PERIOD_MS;
	if (!r->policy)
		return;
	struct dom0_policy p = { .alpha_u = co->alpha_u, .beta_u = co->beta_u, .period_ms = PERIOD_MS, .cpus = HOST_CPUS,
				 .copy_ps_per_pte = (uint64_t)(co->copy_ns_per_pte * 1000 + 0.5) };
	if (!p.copy_ps_per_pte)
		bench_die("balloon: the policy's copy cost %.4f ns per PTE rounds to 0 ps", co->copy_ns_per_pte);
	if (dom0_policy_set(r->b.rt, &p, dom0_sim_time_ms(r->b.rt), &err))
		bench_die("balloon: dom0_policy_set: %s", err.msg);
}

static void finish(struct run *r, int l, unsigned *slots)
{
	struct bench_balloon_layout *out = r->out;
	const struct dom0_counters *c = dom0_counters(r->b.rt);

	serve(r);
	for (unsigned i = 0; i < r->w->vms; i++) {
		unsigned held = bench_info(&r->b, r->g[i].id).slots;
		if (!r->policy && held != layouts[l].slots)
			bench_die("balloon: %s is fixed, yet VM %u holds %u slots", layouts[l].name, i + 1, held);
	}
	if (!r->gpu_quanta || !r->samples)
		bench_die("balloon: %s ran no GPU quantum or no period", layouts[l].name);
	snprintf(out->name, sizeof(out->name), "%s", layouts[l].name);
	*slots = dom0_layout(r->b.rt)->num_slots;
	out->sim_ms = dom0_sim_time_ms(r->b.rt);
	out->switches = c->switches;
	out->ptes_written = c->ptes_written;
	if ((c->ptes_written > 0) != (r->timed_ns > 0))
		bench_die("balloon: %s wrote %llu PTEs in %llu ns of timed copies", layouts[l].name,
			  (unsigned long long)c->ptes_written, (unsigned long long)r->timed_ns);
	out->copy_ns = r->timed_ns;
	/* per PTE of the switches alone: an expansion's copy of the running vGPU is charged, not timed here */
	out->copy_ns_per_pte = r->timed_ptes ? (double)r->timed_ns / (double)r->timed_ptes : 0;
	/* the runtime charged the policy what the run charges (less under 1 ns a copy: within 0.1%) */
	double charged = (double)c->ptes_written * r->cost_ns;
	if (r->policy && ((double)c->copy_ns > charged + 1 || (double)c->copy_ns < charged * 0.999 - 1))
		bench_die("balloon: %s: the runtime charged %llu ns of copies for %llu PTEs at %.3f ns", layouts[l].name,
			  (unsigned long long)c->copy_ns, (unsigned long long)c->ptes_written, r->cost_ns);
	if (!r->cost_ns)
		charged = (double)c->copy_ns;
	/* the moves' own entry writes are host CPU copies too, at the same cost (the policy's meter is the switches') */
	out->rcopy_pct = (charged + (double)out->move_ptes * (r->cost_ns ? r->cost_ns : out->copy_ns_per_pte)) /
			 ((double)out->sim_ms * 1e6 * HOST_CPUS) * 100;
	out->w_pct = r->w_sum / (double)r->quantum;
	out->ptes_per_sim_s = (double)c->ptes_written / ((double)out->sim_ms / 1000);
	out->shared_slots_mean = (double)r->shared_sum / (double)r->samples;
	out->shared_slots_end = dom0_shared_slots(r->b.rt);
	out->gpu_copy_pct = r->gpu_copy_ns / ((double)r->gpu_quanta * QUANTUM_NS) * 100;
	out->gpu_slots_mean = (double)r->slot_sum / (double)r->gpu_quanta;
	out->fit_mean = r->fit_sum / (double)r->gpu_quanta;
	out->copy_free_mean = r->free_sum / (double)r->gpu_quanta;
	out->excess_mean = (double)r->excess_sum / (double)r->gpu_quanta;
	out->f_mean = r->f_sum / (double)r->samples;
	if (r->policy) {
		const struct dom0_policy_state *st = dom0_policy_state(r->b.rt);
		const struct dom0_channel_stats *ch = dom0_channel_stats(r->b.rt);
		out->granted = ch->granted;
		out->refused_policy = ch->refused_policy;
		out->refused_room = ch->refused_room;
		out->reductions = st->policy_reductions;
	}
	bench_close(&r->b);
}

/* The scene changes with simulated time: every VM's working set follows its benchmark. */
static void next_scene(struct run *r, unsigned q)
{
	unsigned s = q / r->w->scene_quanta;

	if (s == r->scene)
		return;
	r->out->scene_slots[r->scene % BENCH_BALLOON_SCENES] = bench_info(&r->b, r->g[0].id).slots;
	r->scene = s;
	fit_all(r);
}

void balloon_run(const struct balloon_workload *w, int l, const struct balloon_coeffs *k,
		 struct bench_balloon_layout *out, unsigned *slots)
{
	struct run r = { .w = w, .policy = layouts[l].policy, .move = layouts[l].move, .out = out, .cur = -1,
			 .cost_ns = k->copy_ns_per_pte };
	struct gtt_err err = { 0 };
	unsigned quanta = w->phases * BENCH_BALLOON_SCENES * w->scene_quanta;

	*out = (struct bench_balloon_layout){ 0 };
	if (!w->vms || w->vms > BALLOON_VMS || !w->phases || w->phases > BALLOON_PHASES || !w->scene_quanta)
		bench_die("balloon: a workload of %u VMs, %u phases, %u quanta a scene", w->vms, w->phases,
			  w->scene_quanta);
	if (r.policy && !(k->copy_ns_per_pte > 0))
		bench_die("balloon: %s runs the policy without a measured copy cost", layouts[l].name);
	start(&r, l, k);
	for (unsigned q = 0; q < quanta; q++) {
		next_scene(&r, q);
		r.switched = false;
		r.q_ptes = 0;
		meter_steal(&r);
		if (dom0_run_quanta(r.b.rt, 1, on_switch, &r, &err))
			bench_die("balloon: %s, quantum %u: %s", layouts[l].name, q, err.msg);
		if (!r.switched)
			cpu_quantum(&r, 0);
		r.quantum++;
		period_end(&r);
		serve(&r);	/* the reports of earlier quanta */
		account(&r, q);
	}
	next_scene(&r, quanta);
	finish(&r, l, slots);
}

void balloon_rcopy_max(unsigned scene_quanta, unsigned passes, struct bench_balloon_layout *out, double *pct,
		       double *ns_per_pte)
{
	struct balloon_workload w = { .vms = BALLOON_VMS, .phases = 1, .scene_quanta = scene_quanta };
	const struct balloon_coeffs timed = { 0 };
	double per_pte[BALLOON_CAL_PASSES];
	unsigned slots, held = layouts[BALLOON_1024].slots;

	if (!passes || passes > BALLOON_CAL_PASSES)
		bench_die("balloon: R_copy's calibration in %u passes (1 to %u)", passes, BALLOON_CAL_PASSES);
	for (unsigned i = 0; i < w.vms; i++)
		w.bm[i][0] = BM_FILL;
	for (unsigned p = 0; p < passes; p++) {
		balloon_run(&w, BALLOON_1024, &timed, out, &slots);
		/* every switch writes at most the incoming VM's low range and 16 slots: more is a miscount */
		uint64_t most = out->switches * (LOW_SIZE + held * SLOT_SIZE) / 4096;
		if (!out->ptes_written || out->ptes_written > most || out->fit_mean < 1)
			bench_die("balloon: R_copy's calibration wrote %llu PTEs in %llu switches (at most %llu), fit %.3f",
				  (unsigned long long)out->ptes_written, (unsigned long long)out->switches,
				  (unsigned long long)most, out->fit_mean);
		per_pte[p] = out->copy_ns_per_pte;
	}
	/* the passes write the same PTEs: their median cost, and R_copy at that cost */
	*ns_per_pte = (double)(uint64_t)(bench_median(per_pte, passes) * 1000 + 0.5) / 1000;	/* whole ps, as the policy charges */
	*pct = (double)out->ptes_written * *ns_per_pte / ((double)out->sim_ms * 1e6 * HOST_CPUS) * 100;
	snprintf(out->name, sizeof(out->name), "rcopy-max");
}

int balloon_cpu_model_self_test(void)
{
	/* waits worked by hand from processor sharing, in % of a 16 ms quantum */
	static const struct {
		unsigned cpus, n;
		double want[30], wait_total;
		const char *why;
	} cases[] = {
		/* 6 runnable at 1/3 each: the quarters run 4 ms in 12, waiting 8; cg waits as long, then runs alone */
		{ 2, 6, { 100, 100, 25, 25, 25, 25 }, 300, "two wanting all, four a quarter, on 2 CPUs" },
		{ 2, 3, { 100, 100, 100 }, 100, "three wanting all on 2 CPUs: n - N CPUs of waiting" },
		{ 4, 2, { 25, 25 }, 0, "two quarters on 4 CPUs: nobody waits" },
		/* 30 at 8/30 each: 4 ms takes 15, waiting 11 = 68.75% each */
		{ 8, 30, { 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25,
			   25, 25, 25, 25, 25 }, 2062.5, "§4.2: thirty quarters on 8 CPUs" },
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double wait[BALLOON_MODEL_VCPUS] = { 0 }, sum = 0;
		balloon_cpu_model(cases[i].want, wait, cases[i].n, cases[i].cpus);
		for (unsigned k = 0; k < cases[i].n; k++)
			sum += wait[k];
		if (sum < cases[i].wait_total - 0.01 || sum > cases[i].wait_total + 0.01) {
			printf("balloon self-test: %s: the CPU model's W is %.2f%%, by hand %.2f%%\n", cases[i].why, sum,
			       cases[i].wait_total);
			bad++;
		}
	}
	if (!bad)
		printf("balloon self-test: the CPU model's W (time runnable and not running) matches %zu cases worked by hand\n",
		       sizeof(cases) / sizeof(cases[0]));
	return bad ? 1 : 0;
}
