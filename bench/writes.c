/* SPDX-License-Identifier: MIT */
/*
 * P1: PTE writes made by context switches against the physical GTT entries
 * whose value they changed, counted from the model's side alone: the writes
 * are the SIM_MMIO_WRITE accesses into the GSM on the model's access trace
 * during each switch, the changes are the entries that differ between a
 * read of the whole GSM before and after it. The runtime's own counters are
 * read only to be printed beside them.
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "hw/device.h"

struct tracer {
	struct bench_dev *b;
	uint64_t *before, *after;
	size_t capacity;
	struct bench_writes w;
};

static uint64_t all_accesses(const struct sim_device *sim)
{
	uint64_t n = 0;

	for (int k = 0; k < SIM_ACCESS_KINDS; k++)
		n += sim_access_count(sim, (enum sim_access)k);
	return n;
}

static void tracer_init(struct tracer *t, struct bench_dev *b)
{
	size_t n = (size_t)b->dev->info.n_ptes;

	memset(t, 0, sizeof(*t));
	t->b = b;
	t->before = malloc(n * sizeof(uint64_t));
	t->after = malloc(n * sizeof(uint64_t));
	/* room for every entry written and read back twice over, and the registers */
	t->capacity = 2 * n + 4096;
	if (!t->before || !t->after)
		bench_die("out of memory for two GSM copies");
}

static void tracer_free(struct tracer *t)
{
	free(t->before);
	free(t->after);
}

/*
 * Run `op` with the trace armed and count: GSM writes on the trace (in PTEs),
 * entries changed between the reads around it. Returns the PTEs written.
 */
static uint64_t traced(struct tracer *t, void (*op)(struct tracer *t, void *arg), void *arg)
{
	struct bench_dev *b = t->b;
	const struct hw_info *in = &b->dev->info;
	uint64_t lo = in->gsm_offset, hi = in->gsm_offset + in->gsm_size, bytes = 0, changed = 0;
	uint64_t switches = dom0_counters(b->rt)->switches, written = dom0_counters(b->rt)->ptes_written;
	uint64_t skipped = dom0_counters(b->rt)->ptes_skipped;

	bench_read_gsm(b, t->before);
	if (sim_trace_start(b->sim, t->capacity))
		bench_die("cannot arm the model's trace (%zu entries)", t->capacity);
	uint64_t seen = all_accesses(b->sim);
	op(t, arg);
	uint64_t made = all_accesses(b->sim) - seen;
	size_t held = sim_trace_len(b->sim);
	if (made != held)
		bench_die("the trace holds %zu of the %llu accesses made: raise its capacity", held,
			  (unsigned long long)made);
	for (size_t i = 0; i < held; i++) {
		struct sim_trace_entry e;
		if (!sim_trace_get(b->sim, i, &e))
			bench_die("trace entry %zu is missing", i);
		if (e.kind == SIM_MMIO_WRITE && e.addr >= lo && e.addr < hi)
			bytes += e.width;
	}
	sim_trace_stop(b->sim);
	bench_read_gsm(b, t->after);
	for (uint64_t i = 0; i < in->n_ptes; i++)
		changed += t->before[i] != t->after[i];
	uint64_t writes = bytes / in->pte_size;
	t->w.switches += dom0_counters(b->rt)->switches - switches;
	t->w.trace_writes += writes;
	t->w.changed += changed;
	t->w.runtime_written += dom0_counters(b->rt)->ptes_written - written;
	t->w.runtime_skipped += dom0_counters(b->rt)->ptes_skipped - skipped;
	return writes;
}

static void op_quantum(struct tracer *t, void *arg)
{
	struct gtt_err err = { 0 };

	(void)arg;
	if (dom0_run_quanta(t->b->rt, 1, NULL, NULL, &err))
		bench_die("run quantum: %s", err.msg);
}

static void op_switch(struct tracer *t, void *arg)
{
	bench_switch(t->b, *(int *)arg, NULL);
}

static void quanta(struct tracer *t, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		traced(t, op_quantum, NULL);
}

static void finish(struct bench_writes *w)
{
	w->ratio = w->changed ? (double)w->trace_writes / (double)w->changed : (w->trace_writes ? 1e9 : 1.0);
}

/*
 * The method's own check: rewrite `n` PTEs with the values they hold,
 * straight on the model, inside a traced window. A counting that sees them
 * reports n writes and no change; a counting that took the runtime's word
 * would see nothing.
 */
struct probe {
	uint64_t first;
	unsigned n;
};

static void op_probe(struct tracer *t, void *arg)
{
	const struct probe *p = arg;
	const struct hw_info *in = &t->b->dev->info;

	for (unsigned k = 0; k < p->n; k++) {
		uint32_t off = in->gsm_offset + (uint32_t)((p->first + k) * in->pte_size);
		if (in->pte_size == 8)
			sim_mmio_write64(t->b->sim, off, t->before[p->first + k]);
		else
			sim_mmio_write32(t->b->sim, off, (uint32_t)t->before[p->first + k]);
	}
}

static void gscale(struct bench_results *r)
{
	struct bench_gscale g;
	struct tracer t;

	bench_gscale_start(&g, false, true);
	tracer_init(&t, &g.b);
	/* scenarios/gscale-15-vgpus.scn: run 30, then vm2 idle and vm4 busy, run 4 */
	quanta(&t, 30);
	bench_busy(&g.b, g.vm[1], false);
	bench_busy(&g.b, g.vm[3], true);
	quanta(&t, 4);
	if (t.w.switches != 34)
		bench_die("gScale layout: %llu switches where the scenario makes 34", (unsigned long long)t.w.switches);
	finish(&t.w);
	r->p1_gscale = t.w;

	/* the method check, on the same device */
	struct tracer probe_t;
	struct probe p = { .first = bench_info(&g.b, g.vm[0]).low_base / 4096, .n = 64 };
	tracer_init(&probe_t, &g.b);
	r->p1_probe_writes = p.n;
	r->p1_probe_counted = traced(&probe_t, op_probe, &p);
	r->p1_probe_changed = probe_t.w.changed;
	tracer_free(&probe_t);
	tracer_free(&t);
	bench_close(&g.b);
}

/* One live vGPU at random, 0 when there is none. */
static int pick(uint64_t *s, const int *ids, int n)
{
	return n ? ids[bench_range(s, 0, (uint64_t)n - 1)] : 0;
}

static int random_vgpu(struct bench_dev *b, uint64_t *s)
{
	const struct dom0_layout *l = dom0_layout(b->rt);
	uint64_t low_pages = l->guest_low_size / 4096;
	struct dom0_vgpu_params p = {
		.low_size = bench_range(s, 1, low_pages < 16384 ? low_pages : 16384) * 4096,
		.high_slots = (unsigned)bench_range(s, 0, l->num_slots < 3 ? l->num_slots : 3),
		.fences = (unsigned)bench_range(s, 0, 2),
		.mem_pages = 64,
	};
	if (bench_range(s, 0, 1) && p.high_slots) {
		p.place = true;
		p.at_slot = (unsigned)bench_range(s, 0, l->num_slots - p.high_slots);
	}
	return bench_create(b, &p);
}

/*
 * A seeded random layout and workload on sim:skl: slot size, vGPU count,
 * low sizes, slot counts and places drawn from the seed; then guest PTE
 * bursts (some not present), busy/idle changes, scheduler quanta, explicit
 * switches to any vGPU (idle ones too), expansions and reductions (refusals
 * are part of the workload), and vGPUs destroyed and created. Every switch
 * is traced.
 */
static void random_workload(const struct bench_opts *o, struct bench_results *r)
{
	static const uint64_t slot_sizes[] = { 64ull << 20, 128ull << 20, 256ull << 20 };
	uint64_t s = o->seed;
	struct dom0_config cfg = { .slot_size = slot_sizes[bench_range(&s, 0, 2)], .slot_aware = bench_range(&s, 0, 1) };
	struct bench_dev b;
	struct tracer t;
	int ids[64], n = 0;
	unsigned steps = o->quick ? 150 : 1500;

	bench_open(&b, "sim:skl", &cfg);
	tracer_init(&t, &b);
	for (int k = (int)bench_range(&s, 6, 16); k > 0; k--)
		ids[n++] = random_vgpu(&b, &s);
	for (unsigned step = 0; step < steps; step++) {
		unsigned op = (unsigned)bench_range(&s, 0, 99);
		int id = pick(&s, ids, n);
		struct gtt_err err = { 0 };
		unsigned L, R;
		if (!id)
			break;
		struct dom0_vgpu_info info = bench_info(&b, id);
		if (op < 35) {
			bool high = info.high_size && bench_range(&s, 0, 1);
			uint64_t base = (high ? info.high_base : info.low_base) / 4096;
			uint64_t size = (high ? info.high_size : info.low_size) / 4096;
			uint64_t first = base + bench_range(&s, 0, size - 1);
			unsigned count = (unsigned)bench_range(&s, 1, 64);
			if (first + count > base + size)
				count = (unsigned)(base + size - first);
			if (bench_range(&s, 0, 9) == 0) {
				for (unsigned k = 0; k < count; k++)
					if (dom0_guest_pte_write(b.rt, id, first + k, 0, &err))
						bench_die("not-present guest PTE: %s", err.msg);
			} else {
				bench_map(&b, id, first, bench_range(&s, 0, info.mem_pages - count), count);
			}
		} else if (op < 50) {
			bench_busy(&b, id, !info.busy);
		} else if (op < 70) {
			quanta(&t, (unsigned)bench_range(&s, 1, 4));
		} else if (op < 85) {
			traced(&t, op_switch, &id);
		} else if (op < 90) {
			dom0_expand(b.rt, id, (unsigned)bench_range(&s, 1, 2), &L, &R, &err);
		} else if (op < 95) {
			dom0_reduce(b.rt, id, (unsigned)bench_range(&s, 1, 2), &L, &R, &err);
		} else if (n > 2) {
			if (dom0_vgpu_destroy(b.rt, id, &err))
				bench_die("destroy vGPU %d: %s", id, err.msg);
			for (int k = 0; k < n; k++)
				if (ids[k] == id)
					ids[k] = ids[--n];
			ids[n++] = random_vgpu(&b, &s);
		}
	}
	finish(&t.w);
	r->p1_random = t.w;
	tracer_free(&t);
	bench_close(&b);
}

void bench_writes(const struct bench_opts *o, struct bench_results *r)
{
	bench_note("P1: PTE writes per changed entry, from the model's trace (gScale layout, seeded random)");
	gscale(r);
	random_workload(o, r);
}
