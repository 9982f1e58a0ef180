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
 * ConVGPU assigns memory to the container its policy chose as it frees, and
 * runs it once it has what it asked for (its Figure 3: C gets part, D
 * nothing, then C completes first and D gets the rest). With a run of
 * contiguous slots that is not possible: a slot that frees outside the
 * chosen request's run goes to the next choice. So every policy runs twice:
 * on whole runs (fifo .. rand) and with a vGPU's slots in up to 8 runs
 * (fifo+r .. rand+r), where the chosen request holds each slot as it frees;
 * the paper's claims are judged on the second, and on the first beside it.
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
	DOM0_ADMIT_FIFO, DOM0_ADMIT_BF, DOM0_ADMIT_RU, DOM0_ADMIT_RAND, DOM0_ADMIT_FIFO,
	DOM0_ADMIT_FIFO, DOM0_ADMIT_BF, DOM0_ADMIT_RU, DOM0_ADMIT_RAND,
};
static const char *const col_names[BENCH_ADMIT_POLICIES] = { "fifo", "bf", "ru", "rand", "fifo+c",
							     "fifo+r", "bf+r", "ru+r", "rand+r" };
#define COMPACT	4	/* the column that compacts for FIFO's head */
#define RUNS	5	/* the first of the four whose vGPUs hold slots in up to 8 runs (cfg.slot_runs) */
#define BF	1	/* BF's column among the four */

static const char *col_name(unsigned p)
{
	return col_names[p];
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
				one_run(&b, policies[p], p == COMPACT, p >= RUNS, a->counts[c], o->seed * 1000 + s + 1, &ro);
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

/* Columns [from, to) of the table: the last request's end, then the mean paused time per request. */
static void admit_rows(const struct bench_admission *a, unsigned from, unsigned to, const char *title)
{
	printf("  %s\n  %8s  %-*s  %-*s\n", title, "", 8 * (int)(to - from) - 1, "finish time of the last (s)",
	       8 * (int)(to - from) - 1, "mean paused per request (s)");
	printf("  %8s ", "requests");
	for (int h = 0; h < 2; h++)
		for (unsigned p = from; p < to; p++)
			printf(" %7s", col_name(p));
	printf("\n");
	for (unsigned c = 0; c < a->n_counts; c++) {
		printf("  %8u ", a->counts[c]);
		for (unsigned p = from; p < to; p++)
			printf(" %7.1f", a->cell[c][p].finish_s);
		for (unsigned p = from; p < to; p++)
			printf(" %7.1f", a->cell[c][p].paused_s);
		printf("\n");
	}
}

void bench_admission_table(const struct bench_opts *o, const struct bench_admission *a)
{
	unsigned last = a->n_counts - 1;

	printf("\nadmission: ConVGPU §IV-C (Tables IV, V) on the model (%s run, seed %llu): sim:skl, %u slots of %llu MiB,\n"
	       "  share limit 1; a request every 4.992 s, Table III's types drawn uniformly (1, 2, 4, 8, 16, 32 slots),\n"
	       "  running 5-45 s by size; mean of %u seeds; paused time from the runtime's clock (%llu ms in all,\n"
	       "  the bench's own account %llu ms)\n",
	       o->quick ? "quick" : "full", (unsigned long long)o->seed, a->slots,
	       (unsigned long long)(a->slot_size >> 20), a->seeds, (unsigned long long)a->runtime_paused_ms,
	       (unsigned long long)a->bench_paused_ms);
	admit_rows(a, RUNS, BENCH_ADMIT_POLICIES,
		   "ConVGPU's allocation (Figure 3): a vGPU's slots in up to 8 runs, the chosen request holds each as it frees");
	admit_rows(a, 0, COMPACT + 1, "whole runs: a request waits until one run of contiguous slots is its own");
	struct bench_claim cl[4];
	bench_claims_report(cl, bench_admission_claims(a, cl, 4));
	printf("  longest single pause (s), mean over the seeds, at %u requests:", a->counts[last]);
	for (unsigned p = 0; p < BENCH_ADMIT_POLICIES; p++)
		printf(" %s %.1f", col_name(p), a->cell[last][p].worst_s);
	printf("\n");
	const struct bench_admit_cell *f = &a->cell[last][0], *fc = &a->cell[last][COMPACT];
	uint64_t att = 0, frag = 0, moves = 0, split = 0;
	for (unsigned c = 0; c < a->n_counts; c++) {
		att += a->cell[c][COMPACT].attempts;
		frag += a->cell[c][COMPACT].fragmented;
		moves += a->cell[c][COMPACT].moves;
		for (unsigned p = RUNS; p < BENCH_ADMIT_POLICIES; p++)
			split += a->cell[c][p].split;
	}
	printf("  fifo+c (beyond the papers: FIFO, its head given a run by slot migrations when the free slots suffice\n"
	       "    but no run does): at %u requests mean pause %.1f s against FIFO's %.1f, the last end %.1f s against\n"
	       "    %.1f; over every count and seed, FIFO's head waited at %llu changes, %llu of them with as many slots\n"
	       "    free as it needs (contiguity, not room, what held it), and compaction moved %llu vGPUs (counted, not\n"
	       "    charged: a move's copy is the migration bench's)\n",
	       a->counts[last], fc->paused_s, f->paused_s, fc->finish_s, f->finish_s, (unsigned long long)att,
	       (unsigned long long)frag, (unsigned long long)moves);
	printf("  with slot runs, %llu requests over every count, seed and policy ran in two or more runs (at most %d)\n",
	       (unsigned long long)split, DOM0_MAX_RUNS);
}

/* BF against the other three of the columns from .. from + 3, over the counts from 18: its lead, its pause over the longest. */
static void bf_against(const struct bench_admission *a, unsigned from, double *lead, double *longer, unsigned *heavy)
{
	*lead = *longer = 0;
	*heavy = 0;
	for (unsigned c = 0; c < a->n_counts; c++) {
		if (a->counts[c] < 18)
			continue;
		double first = 1e300, longest = -1e300;
		for (unsigned p = from; p < from + 4; p++) {
			if (p == from + BF)
				continue;
			first = a->cell[c][p].finish_s < first ? a->cell[c][p].finish_s : first;
			longest = a->cell[c][p].paused_s > longest ? a->cell[c][p].paused_s : longest;
		}
		*lead += first - a->cell[c][from + BF].finish_s;
		*longer += a->cell[c][from + BF].paused_s - longest;
		(*heavy)++;
	}
	if (*heavy) {
		*lead /= *heavy;
		*longer /= *heavy;
	}
}

/*
 * ConVGPU Table V (K20m, 5 GiB; 18-38 containers): BF finishes ~30 s before the
 * others and pauses ~15 s longer; measured as the mean, over the request counts
 * from 18, of BF's lead on the earliest other and its pause over the longest
 * other: with ConVGPU's allocation (the slots assigned as they free), then on
 * whole runs.
 */
unsigned bench_admission_claims(const struct bench_admission *a, struct bench_claim *out, unsigned max)
{
	struct bench_claim c[4];
	double lead, longer;
	unsigned heavy, last = a->n_counts - 1;

	for (int k = 0; k < 2; k++) {
		unsigned from = k ? 0 : RUNS;
		const char *how = k ? "whole runs" : "slots assigned as they free";
		bf_against(a, from, &lead, &longer, &heavy);
		c[2 * k] = bench_claim("ConVGPU", "Table V", "", " s", 30, lead, CLAIM_SIGN | CLAIM_SIZE);
		snprintf(c[2 * k].claim, sizeof(c[0].claim), "BF finishes before the others (its lead, 18+ requests; %s)", how);
		c[2 * k + 1] = bench_claim("ConVGPU", "Table V", "", " s", 15, longer, CLAIM_SIGN | CLAIM_SIZE);
		snprintf(c[2 * k + 1].claim, sizeof(c[0].claim), "BF pauses longer than the others (18+ requests; %s)", how);
		/* the measured terms behind both: the pauses and the longest single one, at the largest count */
		snprintf(c[2 * k].why, sizeof(c[0].why),
			 "at %u requests the mean pause is fifo %.1f, bf %.1f, ru %.1f, rand %.1f s and the longest fifo %.1f, bf "
			 "%.1f, ru %.1f, rand %.1f s (%s)", a->counts[last], a->cell[last][from].paused_s,
			 a->cell[last][from + 1].paused_s, a->cell[last][from + 2].paused_s, a->cell[last][from + 3].paused_s,
			 a->cell[last][from].worst_s, a->cell[last][from + 1].worst_s, a->cell[last][from + 2].worst_s,
			 a->cell[last][from + 3].worst_s, how);
		snprintf(c[2 * k + 1].why, sizeof(c[0].why), "%s", c[2 * k].why);
	}
	for (unsigned i = 0; i < 4 && i < max; i++)
		out[i] = c[i];
	return max < 4 ? max : 4;
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
			if (p >= RUNS)
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
