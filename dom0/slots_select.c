/* SPDX-License-Identifier: MIT */
#include "dom0/slots_select.h"

static unsigned min_u(unsigned a, unsigned b)
{
	return a < b ? a : b;
}

/* Slots of [lo, lo + n) that vGPU j holds. */
static unsigned held(const struct slot_layout *l, unsigned j, long lo, long n)
{
	long a = lo > (long)l->P[j] ? lo : (long)l->P[j];
	long b = lo + n < (long)(l->P[j] + l->S[j]) ? lo + n : (long)(l->P[j] + l->S[j]);

	return b > a ? (unsigned)(b - a) : 0;
}

static int check(const struct slot_layout *l, unsigned K, struct gtt_err *err)
{
	if (K >= l->N)
		return gtt_err_set(err, GTT_EINVAL, "vGPU index %u: there are %u", K, l->N);
	if (l->M > SLOTS_SELECT_MAX_SLOTS)
		return gtt_err_set(err, GTT_EINVAL, "%u slots: at most %u are supported", l->M, SLOTS_SELECT_MAX_SLOTS);
	/* every run inside the M slots: the prefix sums are indexed by its ends */
	for (unsigned j = 0; j < l->N; j++)
		if (l->P[j] > l->M || l->S[j] > l->M - l->P[j])
			return gtt_err_set(err, GTT_EINVAL, "vGPU index %u holds slots %u+%u: past the %u slots", j, l->P[j], l->S[j], l->M);
	return GTT_OK;
}

/* Algorithm 1's error cases: line (1) of Expansion and of Reduction. */
static int check_expand(const struct slot_layout *l, unsigned K, unsigned Q, struct gtt_err *err)
{
	int rc = check(l, K, err);

	/* S_K + Q > M, without letting the sum wrap for a hostile Q */
	if (!rc && (l->S[K] > l->M || Q > l->M - l->S[K]))
		rc = gtt_err_set(err, GTT_EINVAL, "expanding by %u slots: the vGPU would hold %llu of the %u slots",
				 Q, (unsigned long long)l->S[K] + Q, l->M);
	return rc;
}

static int check_reduce(const struct slot_layout *l, unsigned K, unsigned Q, struct gtt_err *err)
{
	int rc = check(l, K, err);

	if (!rc && l->S[K] < Q)
		rc = gtt_err_set(err, GTT_EINVAL, "reducing by %u slots: the vGPU holds only %u", Q, l->S[K]);
	return rc;
}

int gballoon_expand(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R,
		    struct gtt_err *err)
{
	unsigned long minimum = (unsigned long)-1;
	int rc = check_expand(l, K, Q, err);

	if (rc)
		return rc;
	unsigned PK = l->P[K], SK = l->S[K], best = 0;
	/* (3): i slots to the left, Q - i to the right */
	for (unsigned i = Q - min_u(Q, l->M - PK - SK); i <= min_u(Q, PK); i++) {
		unsigned long count = 0;
		for (unsigned j = 0; j < l->N; j++)
			count += held(l, j, (long)PK - i, i) + held(l, j, PK + SK, Q - i);
		if (minimum > count) {
			minimum = count;
			best = i;
		}
	}
	*L = best;
	*R = Q - best;
	return GTT_OK;
}

int gballoon_reduce(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R,
		    struct gtt_err *err)
{
	long maximum = -1;
	int rc = check_reduce(l, K, Q, err);

	if (rc)
		return rc;
	unsigned PK = l->P[K], SK = l->S[K], best = 0;
	for (unsigned i = 0; i <= Q; i++) {
		long count = 0;
		for (unsigned j = 0; j < l->N; j++)
			if (j != K)
				count += held(l, j, PK, i) + held(l, j, (long)PK + SK + i - Q, Q - i);
		if (maximum < count) {
			maximum = count;
			best = i;
		}
	}
	*L = best;
	*R = Q - best;
	return GTT_OK;
}

/* pre[s] = sum of occupancy of slots [0, s) by vGPUs other than K. */
static void prefix(const struct slot_layout *l, unsigned K, unsigned long *pre)
{
	long diff[SLOTS_SELECT_MAX_SLOTS + 1] = { 0 };
	long run = 0;

	for (unsigned j = 0; j < l->N; j++) {
		if (j == K || !l->S[j])
			continue;
		diff[l->P[j]]++;
		diff[l->P[j] + l->S[j]]--;
	}
	pre[0] = 0;
	for (unsigned s = 0; s < l->M; s++) {
		run += diff[s];
		pre[s + 1] = pre[s] + (unsigned long)run;
	}
}

int occupancy_expand(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R,
		     struct gtt_err *err)
{
	unsigned long pre[SLOTS_SELECT_MAX_SLOTS + 1], minimum = (unsigned long)-1;
	int rc = check_expand(l, K, Q, err);

	if (rc)
		return rc;
	unsigned PK = l->P[K], SK = l->S[K], best = 0;
	prefix(l, K, pre);
	unsigned lo = Q - min_u(Q, l->M - PK - SK), hi = min_u(Q, PK);
	for (unsigned i = lo; i <= hi; i++) {
		unsigned long count = (pre[PK] - pre[PK - i]) + (pre[PK + SK + Q - i] - pre[PK + SK]);
		if (minimum > count) {
			minimum = count;
			best = i;
		}
	}
	*L = best;
	*R = Q - best;
	return GTT_OK;
}

int occupancy_reduce(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R,
		     struct gtt_err *err)
{
	unsigned long pre[SLOTS_SELECT_MAX_SLOTS + 1];
	long maximum = -1;
	int rc = check_reduce(l, K, Q, err);

	if (rc)
		return rc;
	unsigned PK = l->P[K], SK = l->S[K], best = 0;
	prefix(l, K, pre);
	for (unsigned i = 0; i <= Q; i++) {
		long count = (long)((pre[PK + i] - pre[PK]) + (pre[PK + SK] - pre[PK + SK + i - Q]));
		if (maximum < count) {
			maximum = count;
			best = i;
		}
	}
	*L = best;
	*R = Q - best;
	return GTT_OK;
}

int slots_place(const unsigned *occ, unsigned M, unsigned S)
{
	unsigned long best = (unsigned long)-1, sum = 0;
	int at = -1;

	if (S > M)
		return -1;
	if (!S)
		return 0;
	for (unsigned s = 0; s < S; s++)
		sum += occ[s];
	for (unsigned p = 0; p + S <= M; p++) {
		if (p)
			sum = sum + occ[p + S - 1] - occ[p - 1];	/* widen before subtracting */
		if (sum < best) {
			best = sum;
			at = (int)p;
		}
	}
	return at;
}
