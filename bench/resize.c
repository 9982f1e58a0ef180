/* SPDX-License-Identifier: MIT */
/*
 * P6: the resize decision at 64 slots x 64 vGPUs. The default selector
 * (occupancy counts and prefix sums, dom0/slots_select.h) and Algorithm 1's
 * published loops are timed on the same cases: random layouts, and the two
 * shapes that give Algorithm 1 its longest loops (a one-slot vGPU in the
 * middle growing by half the slots; a vGPU holding every slot giving them all
 * up), every valid Q of expansion and reduction for several K. A first pass
 * times each case in a short batch; the slowest cases of each selector are
 * timed again (median of 9 batches), and the worst of those is the result.
 * Then every case of the default selector call by call in shuffled order
 * (per_call): the worst case's single call, the p99 and the median.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "dom0/slots_select.h"

#define M_SLOTS 64
#define N_VGPUS 64
#define TOP 12

typedef int (*selector)(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R,
			struct gtt_err *err);

struct rcase {
	unsigned layout, K, Q;
	bool reduce;
	double ns;
};

struct layouts {
	unsigned n;
	unsigned (*P)[N_VGPUS], (*S)[N_VGPUS];
};

static struct slot_layout layout_of(const struct layouts *ls, unsigned i)
{
	return (struct slot_layout){ .M = M_SLOTS, .N = N_VGPUS, .P = ls->P[i], .S = ls->S[i] };
}

/* ns per call over a batch of `batch` calls. */
static double time_case(const struct layouts *ls, const struct rcase *c, selector expand, selector reduce,
			unsigned batch)
{
	struct slot_layout l = layout_of(ls, c->layout);
	struct gtt_err err = { 0 };
	unsigned L, R;
	uint64_t t0 = bench_now_ns();

	for (unsigned b = 0; b < batch; b++)
		if ((c->reduce ? reduce : expand)(&l, c->K, c->Q, &L, &R, &err))
			bench_die("P6: a valid case was refused: %s", err.msg);
	return (double)(bench_now_ns() - t0) / batch;
}

static void keep_top(struct rcase *top, unsigned *n, const struct rcase *c)
{
	unsigned at;

	if (*n < TOP)
		at = (*n)++;
	else if (c->ns > top[TOP - 1].ns)
		at = TOP - 1;
	else
		return;
	top[at] = *c;
	while (at && top[at - 1].ns < top[at].ns) {
		struct rcase t = top[at - 1];
		top[at - 1] = top[at];
		top[at] = t;
		at--;
	}
}

static double worst(const struct layouts *ls, struct rcase *top, unsigned n, selector expand, selector reduce,
		    char *desc, size_t dn)
{
	double w = 0;

	for (unsigned i = 0; i < n; i++) {
		double s[9];
		for (int k = 0; k < 9; k++)
			s[k] = time_case(ls, &top[i], expand, reduce, 64);
		double m = bench_median(s, 9);
		if (m > w) {
			w = m;
			snprintf(desc, dn, "%s Q=%u, vGPU with %u slots at %u", top[i].reduce ? "reduce" : "expand",
				 top[i].Q, ls->S[top[i].layout][top[i].K], ls->P[top[i].layout][top[i].K]);
		}
	}
	return w;
}

static int by_ns(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * Every case of the default selector timed call by call, `reps` times each,
 * all calls in one seeded shuffled order (no call follows its own twin, so
 * none is warmed by it). A case's cost is its fastest call (timing noise
 * only adds); the result is the worst case's, with the p99, the median and
 * the slowest single call (an interrupt's, as often as not) of all calls.
 */
static void per_call(const struct layouts *ls, const struct rcase *cases, unsigned n, unsigned reps, uint64_t seed,
		     struct bench_results *r)
{
	size_t total = (size_t)n * reps;
	unsigned *order = malloc(total * sizeof(*order));
	double *ns = malloc(total * sizeof(*ns)), *best = malloc(n * sizeof(*best));

	if (!order || !ns || !best)
		bench_die("out of memory");
	for (size_t i = 0; i < total; i++)
		order[i] = (unsigned)(i % n);
	for (size_t i = total - 1; i > 0; i--) {
		size_t j = bench_range(&seed, 0, i);
		unsigned t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (unsigned i = 0; i < n; i++)
		best[i] = 1e18;
	for (size_t i = 0; i < total; i++) {
		const struct rcase *c = &cases[order[i]];
		struct slot_layout l = layout_of(ls, c->layout);
		struct gtt_err err = { 0 };
		unsigned L, R;
		uint64_t t0 = bench_now_ns();
		int rc = (c->reduce ? occupancy_reduce : occupancy_expand)(&l, c->K, c->Q, &L, &R, &err);
		ns[i] = (double)(bench_now_ns() - t0);
		if (rc)
			bench_die("P6: a valid case was refused: %s", err.msg);
		if (ns[i] < best[order[i]])
			best[order[i]] = ns[i];
	}
	r->p6_call_worst_ns = 0;
	for (unsigned i = 0; i < n; i++)
		if (best[i] > r->p6_call_worst_ns) {
			r->p6_call_worst_ns = best[i];
			snprintf(r->p6_call_case, sizeof(r->p6_call_case), "%s Q=%u, vGPU with %u slots at %u",
				 cases[i].reduce ? "reduce" : "expand", cases[i].Q, ls->S[cases[i].layout][cases[i].K],
				 ls->P[cases[i].layout][cases[i].K]);
		}
	qsort(ns, total, sizeof(*ns), by_ns);
	r->p6_call_median_ns = ns[total / 2];
	r->p6_call_p99_ns = ns[total * 99 / 100];
	r->p6_call_max_ns = ns[total - 1];
	r->p6_calls = total;
	free(order);
	free(ns);
	free(best);
}

void bench_resize(const struct bench_opts *o, struct bench_results *r)
{
	unsigned n_random = o->quick ? 4 : 30, n_k = o->quick ? 3 : 8, batch = o->quick ? 8 : 16;
	struct layouts ls = { .n = n_random + 2 };
	struct rcase top_occ[TOP], top_alg[TOP];
	unsigned n_occ = 0, n_alg = 0, disagree = 0, n_cases = 0;
	struct rcase *cases = NULL;
	uint64_t s = o->seed ^ 0x5eed;

	bench_note("P6: resize decision at %u slots x %u vGPUs: occupancy selector and Algorithm 1", M_SLOTS, N_VGPUS);
	ls.P = calloc(ls.n, sizeof(*ls.P));
	ls.S = calloc(ls.n, sizeof(*ls.S));
	if (!ls.P || !ls.S)
		bench_die("out of memory");
	for (unsigned i = 0; i < ls.n; i++)
		for (unsigned j = 0; j < N_VGPUS; j++) {
			ls.S[i][j] = (unsigned)bench_range(&s, 0, 3) ? (unsigned)bench_range(&s, 1, 8)
								   : (unsigned)bench_range(&s, 1, M_SLOTS);
			ls.P[i][j] = (unsigned)bench_range(&s, 0, M_SLOTS - ls.S[i][j]);
		}
	/* Algorithm 1's longest expansion: one slot in the middle, up to half the slots each side */
	ls.S[n_random][0] = 1;
	ls.P[n_random][0] = M_SLOTS / 2 - 1;
	/* its longest reduction: every slot, all given up */
	ls.S[n_random + 1][0] = M_SLOTS;
	ls.P[n_random + 1][0] = 0;

	for (unsigned i = 0; i < ls.n; i++) {
		struct slot_layout l = layout_of(&ls, i);
		for (unsigned kk = 0; kk < n_k; kk++) {
			unsigned K = kk ? (unsigned)bench_range(&s, 1, N_VGPUS - 1) : 0;
			for (unsigned Q = 1; Q <= M_SLOTS; Q++)
				for (int red = 0; red < 2; red++) {
					struct rcase c = { .layout = i, .K = K, .Q = Q, .reduce = red };
					unsigned La, Ra, Lb, Rb;
					struct gtt_err err = { 0 };
					if (red ? Q > ls.S[i][K] : Q > M_SLOTS - ls.S[i][K])
						continue;
					r->p6_cases++;
					if (!(n_cases & (n_cases + 1)) &&
					    !(cases = realloc(cases, 2 * ((size_t)n_cases + 1) * sizeof(*cases))))
						bench_die("out of memory");
					cases[n_cases++] = c;
					int ra = (red ? occupancy_reduce : occupancy_expand)(&l, K, Q, &La, &Ra, &err);
					int rb = (red ? gballoon_reduce : gballoon_expand)(&l, K, Q, &Lb, &Rb, &err);
					if (ra || rb)
						bench_die("P6: a valid case was refused: %s", err.msg);
					disagree += La != Lb;
					c.ns = time_case(&ls, &c, occupancy_expand, occupancy_reduce, batch);
					keep_top(top_occ, &n_occ, &c);
					c.ns = time_case(&ls, &c, gballoon_expand, gballoon_reduce, batch);
					keep_top(top_alg, &n_alg, &c);
				}
		}
	}
	if (disagree)
		bench_note("P6: the two selectors chose differently in %u of %u cases", disagree, r->p6_cases);
	r->p6_occupancy_ns = worst(&ls, top_occ, n_occ, occupancy_expand, occupancy_reduce, r->p6_occupancy_case,
				   sizeof(r->p6_occupancy_case));
	r->p6_algorithm1_ns = worst(&ls, top_alg, n_alg, gballoon_expand, gballoon_reduce, r->p6_algorithm1_case,
				    sizeof(r->p6_algorithm1_case));
	per_call(&ls, cases, n_cases, o->quick ? 3 : 9, o->seed ^ 0xca11, r);
	free(cases);
	free(ls.P);
	free(ls.S);
}
