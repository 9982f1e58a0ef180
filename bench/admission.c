/* SPDX-License-Identifier: MIT */
/*
 * admission: ConVGPU's scheduling comparison (§IV-C, Tables IV and V)
 * replayed on the model through the public runtime API.
 *
 * The memory: sim:skl's high graphics memory in 39 slots of 96 MiB, share
 * limit 1 (no two vGPUs in a slot, GVT-g's partitioning), so that it holds
 * about 40 of ConVGPU's smallest containers as the paper's 5 GiB K20m holds
 * 40 x 128 MiB. The stream (§IV-A): a request every 5 s, its type drawn
 * uniformly from Table III's six (nano .. xlarge: 128 MiB .. 4 GiB of GPU
 * memory, here 1, 2, 4, 8, 16 and 32 slots), running for 5 s to 45 s by
 * size (5 + 8 x the type's rank), for 4 to 38 requests. A request is a
 * dom0_vgpu_create; one that does not fit is paused by the runtime and
 * admitted by the policy at a later destroy; a request's run starts when it
 * is admitted and ends with its destroy. Time is the runtime's simulated
 * clock (16 ms quanta; 5 s is 312 of them), advanced with dom0_run_quanta
 * while every vGPU is idle, so every figure is a count.
 *
 * Per policy and request count: the finish time of the last request and the
 * mean paused time per request, averaged over the seeds (the paper repeats
 * each 6 times). The bench's own account of paused time must equal the
 * runtime's paused_ms counter, summed over every run.
 */
#include <stdio.h>

#include "bench/bench.h"
#include "bench/papers.h"

#define MiB		(1ull << 20)
#define TYPES		6
#define SLOT_SIZE	(96 * MiB)
#define ARRIVAL_Q	(5000 / DOM0_QUANTUM_MS)	/* 312 quanta: 4.992 s */
#define MAX_REQ		38

static const unsigned type_slots[TYPES] = { 1, 2, 4, 8, 16, 32 };
static const char *const type_names[TYPES] = { "nano", "micro", "small", "medium", "large", "xlarge" };
static const enum dom0_admission policies[BENCH_ADMIT_POLICIES] = {
	DOM0_ADMIT_FIFO, DOM0_ADMIT_BF, DOM0_ADMIT_RU, DOM0_ADMIT_RAND, DOM0_ADMIT_FIFO, DOM0_ADMIT_FIFO,
};
#define COMPACT	4	/* the column that compacts for FIFO's head */
#define RUNS	5	/* the column whose vGPUs hold slots in up to 8 runs (cfg.slot_runs) */

static const char *col_name(unsigned p)
{
	return p == COMPACT ? "fifo+c" : p == RUNS ? "fifo+r" : dom0_admission_name(policies[p]);
}

struct req {
	int id;
	unsigned type;
	uint64_t arrive, start, end;	/* quanta */
	bool started, done;
};

static uint64_t dur_q(unsigned type)
{
	return (5000 + 8000ull * type) / DOM0_QUANTUM_MS;
}

/* Requests that the last destroy or create let run: their run starts now. */
static void note_starts(struct bench_dev *b, struct req *q, unsigned k, uint64_t t)
{
	for (unsigned i = 0; i < k; i++)
		if (!q[i].started && !dom0_vgpu_paused(b->rt, q[i].id)) {
			q[i].started = true;
			q[i].start = t;
			q[i].end = t + dur_q(q[i].type);
		}
}

struct run_out {
	uint64_t finish_q, paused_q, worst_q;	/* the last end, the paused time summed and the longest (quanta) */
	uint64_t moves, slots_moved;		/* compaction's */
	uint64_t attempts, fragmented;		/* heads it was tried for; of them, with enough slots free */
	uint64_t split;				/* requests that ran in two or more runs */
};

/* Compaction for FIFO's head, the oldest created request still waiting (creation is the stream's order). */
static void compact_head(struct bench_dev *b, struct req *q, unsigned k, uint64_t t, struct run_out *out)
{
	struct gtt_err err = { 0 };
	unsigned mv = 0, sm = 0;

	for (unsigned i = 0; i < k; i++) {
		if (q[i].started)
			continue;
		/* free slots before the moves: a head that waits with as many free has no run of them */
		unsigned fr = 0, M = dom0_layout(b->rt)->num_slots;
		for (unsigned s = 0; s < M; s++)
			fr += dom0_slot_occupancy(b->rt, s) == 0;
		int rc = dom0_compact_for(b->rt, q[i].id, &mv, &sm, &err);
		out->attempts++;
		out->fragmented += fr >= type_slots[q[i].type];
		if (rc && rc != GTT_EBUSY)	/* EBUSY: a move's target went to an earlier request meanwhile */
			bench_die("admission: compacting for request %u: %s", i, err.msg);
		out->moves += mv;
		out->slots_moved += sm;
		note_starts(b, q, k, t);
		return;
	}
}

/* One run: n requests under one policy (compact: fifo+c's compaction at every change; runs: fifo+r's slot runs). */
static void one_run(struct bench_dev *b, enum dom0_admission pol, bool compact, bool runs, unsigned n, uint64_t seed,
		    struct run_out *out)
{
	struct dom0_config cfg = { .slot_size = SLOT_SIZE, .share_limit = 1, .admission = pol, .seed = seed,
				   .slot_runs = runs ? DOM0_MAX_RUNS : 0 };
	struct req q[MAX_REQ];
	uint64_t state = seed, t = 0;
	unsigned k = 0, done = 0;
	struct gtt_err err = { 0 };

	bench_start_runtime(b, &cfg);
	for (unsigned i = 0; i < n; i++)
		q[i] = (struct req){ .type = (unsigned)bench_range(&state, 0, TYPES - 1), .arrive = (uint64_t)i * ARRIVAL_Q };
	while (done < n) {
		/* ends first, then arrivals, at the same instant */
		for (unsigned i = 0; i < k; i++)
			if (q[i].started && !q[i].done && q[i].end <= t) {
				struct dom0_vgpu_info in;
				if (!dom0_vgpu_info(b->rt, q[i].id, &in) && in.n_runs > 1)
					out->split++;
				if (dom0_vgpu_destroy(b->rt, q[i].id, &err))
					bench_die("admission: destroying request %u: %s", i, err.msg);
				q[i].done = true;
				done++;
				note_starts(b, q, k, t);
			}
		while (k < n && q[k].arrive <= t) {
			struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = type_slots[q[k].type], .mem_pages = 4 };
			if (dom0_vgpu_create(b->rt, &p, &q[k].id, &err))
				bench_die("admission: request %u (%s, %u slots) refused under %s: %s", k, type_names[q[k].type],
					  p.high_slots, dom0_admission_name(pol), err.msg);
			k++;
			note_starts(b, q, k, t);
		}
		if (compact && dom0_paused_count(b->rt))
			compact_head(b, q, k, t, out);
		uint64_t next = UINT64_MAX;
		if (k < n)
			next = q[k].arrive;
		for (unsigned i = 0; i < k; i++)
			if (q[i].started && !q[i].done && q[i].end < next)
				next = q[i].end;
		if (done == n)
			break;
		if (next == UINT64_MAX)
			bench_die("admission: %s with %u requests: %u paused and none running", dom0_admission_name(pol), n,
				  dom0_paused_count(b->rt));
		if (dom0_run_quanta(b->rt, (unsigned)(next - t), NULL, NULL, &err))
			bench_die("admission: running quanta: %s", err.msg);
		t = next;
	}
	if (dom0_sim_time_ms(b->rt) != t * DOM0_QUANTUM_MS)
		bench_die("admission: the runtime's clock reads %llu ms, the bench's %llu",
			  (unsigned long long)dom0_sim_time_ms(b->rt), (unsigned long long)(t * DOM0_QUANTUM_MS));
	for (unsigned i = 0; i < n; i++) {
		if (q[i].end > out->finish_q)
			out->finish_q = q[i].end;
		out->paused_q += q[i].start - q[i].arrive;
		if (q[i].start - q[i].arrive > out->worst_q)
			out->worst_q = q[i].start - q[i].arrive;
	}
}

void bench_admission(const struct bench_opts *o, struct bench_results *r)
{
	struct bench_admission *a = &r->admission;
	struct bench_dev b = { 0 };
	static const unsigned quick_counts[] = { 4, 18, 38 };

	*a = (struct bench_admission){ .seeds = o->quick ? 2 : 6, .slot_size = SLOT_SIZE };
	if (o->quick) {
		for (unsigned i = 0; i < 3; i++)
			a->counts[a->n_counts++] = quick_counts[i];
	} else {
		for (unsigned n = 4; n <= MAX_REQ; n += 2)
			a->counts[a->n_counts++] = n;
	}
	bench_open_device(&b, "sim:skl");
	bench_note("admission: ConVGPU §IV-C on sim:skl: %u request counts x 4 policies, FIFO with compaction and with slot runs x %u seeds", a->n_counts, a->seeds);
	for (unsigned c = 0; c < a->n_counts; c++)
		for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++) {
			struct bench_admit_cell *cell = &a->cell[c][p];
			double fin = 0, pau = 0, worst = 0;
			for (unsigned s = 0; s < a->seeds; s++) {
				struct run_out ro = { 0 };
				one_run(&b, policies[p], p == COMPACT, p == RUNS, a->counts[c], o->seed * 1000 + s + 1, &ro);
				uint64_t finish_q = ro.finish_q, paused_q = ro.paused_q;
				worst += (double)ro.worst_q * DOM0_QUANTUM_MS / 1000;
				cell->moves += ro.moves;
				cell->slots_moved += ro.slots_moved;
				cell->attempts += ro.attempts;
				cell->fragmented += ro.fragmented;
				cell->split += ro.split;
				const struct dom0_counters *k = dom0_counters(b.rt);
				a->slots = dom0_layout(b.rt)->num_slots;
				cell->paused += k->paused;
				cell->admitted += k->admitted;
				if (k->paused != k->admitted)
					bench_die("admission: %s: %llu paused and %llu admitted", col_name(p),
						  (unsigned long long)k->paused, (unsigned long long)k->admitted);
				a->runtime_paused_ms += k->paused_ms;
				a->bench_paused_ms += paused_q * DOM0_QUANTUM_MS;
				fin += (double)finish_q * DOM0_QUANTUM_MS / 1000;
				pau += (double)paused_q * DOM0_QUANTUM_MS / 1000 / a->counts[c];
				bench_stop_runtime(&b);
			}
			cell->finish_s = fin / a->seeds;
			cell->paused_s = pau / a->seeds;
			cell->worst_s = worst / a->seeds;
		}
	if (a->runtime_paused_ms != a->bench_paused_ms)
		bench_die("admission: the runtime counted %llu ms paused, the bench's clock %llu",
			  (unsigned long long)a->runtime_paused_ms, (unsigned long long)a->bench_paused_ms);
	bench_close(&b);
}

void bench_admission_table(const struct bench_opts *o, const struct bench_admission *a)
{
	printf("\nadmission: ConVGPU §IV-C (Tables IV, V) on the model (%s run, seed %llu): sim:skl, %u slots of %llu MiB,\n"
	       "  share limit 1; a request every 4.992 s, Table III's types drawn uniformly (1, 2, 4, 8, 16, 32 slots),\n"
	       "  running 5-45 s by size; mean of %u seeds; paused time from the runtime's clock (%llu ms in all,\n"
	       "  the bench's own account %llu ms)\n",
	       o->quick ? "quick" : "full", (unsigned long long)o->seed, a->slots,
	       (unsigned long long)(a->slot_size >> 20), a->seeds, (unsigned long long)a->runtime_paused_ms,
	       (unsigned long long)a->bench_paused_ms);
	printf("  %8s  %-39s  %-39s\n", "", "finish time of the last (s)", "mean paused per request (s)");
	printf("  %8s ", "requests");
	for (int h = 0; h < 2; h++)
		for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++)
			printf(" %7s", col_name(p));
	printf("\n");
	for (unsigned c = 0; c < a->n_counts; c++) {
		printf("  %8u ", a->counts[c]);
		for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++)
			printf(" %7.1f", a->cell[c][p].finish_s);
		for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++)
			printf(" %7.1f", a->cell[c][p].paused_s);
		printf("\n");
	}
	struct bench_claim cl[2];
	bench_claims_report(cl, bench_admission_claims(a, cl, 2));
	printf("  longest single pause (s), mean over the seeds, at %u requests:", a->counts[a->n_counts - 1]);
	for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++)
		printf(" %s %.1f", col_name(p), a->cell[a->n_counts - 1][p].worst_s);
	printf("\n");
	const struct bench_admit_cell *f = &a->cell[a->n_counts - 1][0], *fc = &a->cell[a->n_counts - 1][COMPACT];
	uint64_t att = 0, frag = 0, moves = 0;
	for (unsigned c = 0; c < a->n_counts; c++) {
		att += a->cell[c][COMPACT].attempts;
		frag += a->cell[c][COMPACT].fragmented;
		moves += a->cell[c][COMPACT].moves;
	}
	printf("  fifo+c (beyond the papers: FIFO, its head given a run by slot migrations when the free slots suffice\n"
	       "    but no run does): at %u requests mean pause %.1f s against FIFO's %.1f, the last end %.1f s against\n"
	       "    %.1f; over every count and seed, FIFO's head waited at %llu changes, %llu of them with as many slots\n"
	       "    free as it needs (contiguity, not room, what held it), and compaction moved %llu vGPUs (counted, not\n"
	       "    charged: a move's copy is the migration bench's)\n",
	       a->counts[a->n_counts - 1], fc->paused_s, f->paused_s, fc->finish_s, f->finish_s, (unsigned long long)att,
	       (unsigned long long)frag, (unsigned long long)moves);
	const struct bench_admit_cell *fr = &a->cell[a->n_counts - 1][RUNS];
	uint64_t split = 0;
	for (unsigned c = 0; c < a->n_counts; c++) {
		split += a->cell[c][RUNS].split;
	}
	printf("  fifo+r (beyond the papers: FIFO, a vGPU's slots in up to %d runs, gBalloon §6): at %u requests mean\n"
	       "    pause %.1f s against FIFO's %.1f and fifo+c's %.1f, the last end %.1f s against %.1f and %.1f;\n"
	       "    %llu requests ran in two or more runs\n",
	       DOM0_MAX_RUNS, a->counts[a->n_counts - 1], fr->paused_s, f->paused_s, fc->paused_s, fr->finish_s, f->finish_s,
	       fc->finish_s, (unsigned long long)split);
}

/*
 * ConVGPU Table V (K20m, 5 GiB; 18-38 containers): BF finishes ~30 s before the
 * others and pauses ~15 s longer; measured as the mean, over the request counts
 * from 18, of BF's lead on the earliest other and its pause over the longest other.
 */
unsigned bench_admission_claims(const struct bench_admission *a, struct bench_claim *out, unsigned max)
{
	double lead = 0, longer = 0;
	unsigned heavy = 0;

	for (unsigned c = 0; c < a->n_counts; c++) {
		if (a->counts[c] < 18)
			continue;
		double first = 1e300, longest = -1e300;
		for (unsigned p = 0; p < COMPACT; p++) {	/* the paper's four: BF is column 1 */
			if (p == 1)
				continue;
			first = a->cell[c][p].finish_s < first ? a->cell[c][p].finish_s : first;
			longest = a->cell[c][p].paused_s > longest ? a->cell[c][p].paused_s : longest;
		}
		lead += first - a->cell[c][1].finish_s;
		longer += a->cell[c][1].paused_s - longest;
		heavy++;
	}
	struct bench_claim c[2] = {
		bench_claim("ConVGPU", "Table V", "BF finishes before the others (its lead on the earliest, 18+ requests)", " s",
			    30, heavy ? lead / heavy : 0, CLAIM_SIGN | CLAIM_SIZE),
		bench_claim("ConVGPU", "Table V", "BF pauses longer than the others (over the longest, 18+ requests)", " s", 15,
			    heavy ? longer / heavy : 0, CLAIM_SIGN | CLAIM_SIZE),
	};
	snprintf(c[1].why, sizeof(c[1].why), "a request here waits whole until its run of slots is placed, so FIFO's oldest "
		 "blocks the requests behind it longer than BF's passing over a large one costs (ConVGPU runs a container on "
		 "what is assigned so far)");
	snprintf(c[0].why, sizeof(c[0].why), "%s", c[1].why);
	for (unsigned i = 0; i < 2 && i < max; i++)
		out[i] = c[i];
	return max < 2 ? max : 2;
}

void bench_admission_json(struct bench_json *j, const struct bench_admission *a)
{
	char key[16];

	bench_json_open(j, "admission");
	bench_json_kint(j, "slots", a->slots);
	bench_json_kint(j, "slot_mib", a->slot_size >> 20);
	bench_json_kint(j, "seeds", a->seeds);
	bench_json_kint(j, "runtime_paused_ms", a->runtime_paused_ms);
	for (unsigned c = 0; c < a->n_counts; c++) {
		snprintf(key, sizeof(key), "requests_%u", a->counts[c]);
		bench_json_open(j, key);
		for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++) {
			bench_json_open(j, col_name(p));
			bench_json_knum(j, "finish_s", a->cell[c][p].finish_s);
			bench_json_knum(j, "paused_s", a->cell[c][p].paused_s);
			bench_json_knum(j, "worst_s", a->cell[c][p].worst_s);
			if (p == RUNS)
				bench_json_kint(j, "split", a->cell[c][p].split);
			if (p == COMPACT) {
				bench_json_kint(j, "moves", a->cell[c][p].moves);
				bench_json_kint(j, "slots_moved", a->cell[c][p].slots_moved);
			}
			bench_json_kint(j, "paused", a->cell[c][p].paused);
			bench_json_close(j);
		}
		bench_json_close(j);
	}
	bench_json_close(j);
}
