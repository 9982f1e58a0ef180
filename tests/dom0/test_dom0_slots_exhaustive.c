/* SPDX-License-Identifier: MIT */
/*
 * Algorithm 1 (gBalloon §3.3) and the runtime's occupancy selector against
 * an exhaustive search on every small layout: up to 6 slots and 3 vGPUs,
 * every placement, every K and Q. The oracle is written from the paper's
 * rules, not the code: an expansion by Q takes L slots on the left and
 * Q - L on the right (inside high memory); its cost is the slots of the new
 * area other vGPUs hold, counted per holder (Algorithm 1's count); the
 * choice is the least cost, the smallest L among equals (its loop from the
 * smallest L, "minimum > count"). A reduction frees L on the left and Q - L
 * on the right; it keeps the largest such count, the smallest L among
 * equals. The paper's words say "minimizes the number of shared slots"; the
 * slots held by two or more vGPUs afterwards are counted beside, and how
 * often the least count is not the fewest shared slots is logged (the test
 * asserts only what Algorithm 1 states).
 */
#include <criterion/criterion.h>
#include <criterion/logging.h>

#include "dom0/slots_select.h"

#define MAXM 6
#define MAXN 3

static unsigned held_by_others(const unsigned *P, const unsigned *S, unsigned N, unsigned K, unsigned s)
{
	unsigned n = 0;

	for (unsigned j = 0; j < N; j++)
		n += j != K && s >= P[j] && s < P[j] + S[j];
	return n;
}

/* Slots held by two or more vGPUs when K holds [first, first + size). */
static unsigned shared_after(const unsigned *P, const unsigned *S, unsigned N, unsigned K, unsigned M, unsigned first,
			     unsigned size)
{
	unsigned n = 0;

	for (unsigned s = 0; s < M; s++)
		n += held_by_others(P, S, N, K, s) + (s >= first && s < first + size) >= 2;
	return n;
}

struct tally {
	unsigned long cases, expansions, reductions, not_fewest_shared;
};

static void one_case(const unsigned *P, const unsigned *S, unsigned N, unsigned M, unsigned K, unsigned Q,
		     struct tally *t)
{
	struct slot_layout l = { M, N, P, S };
	unsigned L1, R1, L2, R2;
	int a, b;

	/* expansion */
	int best = -1;
	unsigned best_cost = 0, fewest = ~0u;
	if (S[K] + Q <= M)
		for (unsigned L = 0; L <= Q; L++) {
			if (L > P[K] || P[K] + S[K] + (Q - L) > M)
				continue;
			unsigned cost = 0;
			for (unsigned s = P[K] - L; s < P[K]; s++)
				cost += held_by_others(P, S, N, K, s);
			for (unsigned s = P[K] + S[K]; s < P[K] + S[K] + Q - L; s++)
				cost += held_by_others(P, S, N, K, s);
			unsigned sh = shared_after(P, S, N, K, M, P[K] - L, S[K] + Q);
			if (sh < fewest)
				fewest = sh;
			if (best < 0 || cost < best_cost) {
				best = (int)L;
				best_cost = cost;
			}
		}
	a = gballoon_expand(&l, K, Q, &L1, &R1, NULL);
	b = occupancy_expand(&l, K, Q, &L2, &R2, NULL);
	cr_assert_eq(!a, best >= 0, "expand M=%u N=%u K=%u Q=%u P=%u,%u,%u S=%u,%u,%u: Algorithm 1 rc %d, the search found %d", M,
		     N, K, Q, P[0], P[1], P[2], S[0], S[1], S[2], a, best);
	cr_assert_eq(!b, best >= 0, "expand M=%u K=%u Q=%u: the selector rc %d, the search found %d", M, K, Q, b, best);
	if (best >= 0) {
		cr_assert(L1 == (unsigned)best && R1 == Q - L1, "expand M=%u N=%u K=%u Q=%u: Algorithm 1 takes %u/%u, the search %d/%u",
			  M, N, K, Q, L1, R1, best, Q - (unsigned)best);
		cr_assert(L2 == (unsigned)best && R2 == Q - L2, "expand M=%u N=%u K=%u Q=%u: the selector takes %u/%u, the search %d/%u",
			  M, N, K, Q, L2, R2, best, Q - (unsigned)best);
		t->expansions++;
		t->not_fewest_shared += shared_after(P, S, N, K, M, P[K] - L1, S[K] + Q) > fewest;
	}
	/* reduction */
	best = -1;
	best_cost = 0;
	if (S[K] >= Q)
		for (unsigned L = 0; L <= Q; L++) {
			unsigned cost = 0;
			for (unsigned s = P[K]; s < P[K] + L; s++)
				cost += held_by_others(P, S, N, K, s);
			for (unsigned s = P[K] + S[K] - (Q - L); s < P[K] + S[K]; s++)
				cost += held_by_others(P, S, N, K, s);
			if (best < 0 || cost > best_cost) {
				best = (int)L;
				best_cost = cost;
			}
		}
	a = gballoon_reduce(&l, K, Q, &L1, &R1, NULL);
	b = occupancy_reduce(&l, K, Q, &L2, &R2, NULL);
	cr_assert_eq(!a, best >= 0, "reduce M=%u K=%u Q=%u: Algorithm 1 rc %d, the search found %d", M, K, Q, a, best);
	cr_assert_eq(!b, best >= 0, "reduce M=%u K=%u Q=%u: the selector rc %d, the search found %d", M, K, Q, b, best);
	if (best >= 0) {
		cr_assert(L1 == (unsigned)best && L2 == (unsigned)best,
			  "reduce M=%u N=%u K=%u Q=%u: Algorithm 1 takes %u from the left, the selector %u, the search %d", M, N, K,
			  Q, L1, L2, best);
		t->reductions++;
	}
	t->cases++;
}

/* Every placement of vGPU j and those after it (S 1..M at every start), then every K and Q. */
static void place(unsigned *P, unsigned *S, unsigned j, unsigned N, unsigned M, struct tally *t)
{
	if (j == N) {
		for (unsigned K = 0; K < N; K++)
			for (unsigned Q = 1; Q <= M + 1; Q++)
				one_case(P, S, N, M, K, Q, t);
		return;
	}
	for (S[j] = 1; S[j] <= M; S[j]++)
		for (P[j] = 0; P[j] + S[j] <= M; P[j]++)
			place(P, S, j + 1, N, M, t);
}

Test(dom0_slots_exhaustive, algorithm1_and_the_selector_on_every_small_layout, .timeout = 120)
{
	struct tally t = { 0 };
	unsigned P[MAXN] = { 0 }, S[MAXN] = { 0 };

	for (unsigned M = 1; M <= MAXM; M++)
		for (unsigned N = 1; N <= MAXN; N++)
			place(P, S, 0, N, M, &t);
	cr_log_info("%lu cases: %lu expansions and %lu reductions as the search; %lu expansions (%.1f%%) leave more slots "
		    "shared than the fewest some split would", t.cases, t.expansions, t.reductions, t.not_fewest_shared,
		    100.0 * (double)t.not_fewest_shared / (double)t.expansions);
	cr_assert_gt(t.expansions, 10000);
	cr_assert_gt(t.reductions, 10000);
}
