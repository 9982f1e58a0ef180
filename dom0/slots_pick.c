/* SPDX-License-Identifier: MIT */
#include "dom0/slots_pick.h"

#define INF	0xffffffffu

struct table {
	uint32_t *w;
	unsigned n, R;
};

static uint32_t *at(const struct table *t, unsigned s, unsigned k, unsigned r, unsigned prev)
{
	return &t->w[(((size_t)s * (t->n + 1) + k) * (t->R + 1) + r) * 2 + prev];
}

/*
 * One slot's two choices from state (k still to pick, r runs left, prev: the
 * slot before is in the set), against the suffix after it: *out, *in the
 * keys (cost x (R + 1) + runs opened), INF where not allowed.
 */
static void choices(const struct slots_pick *p, const struct table *t, unsigned s, unsigned k, unsigned r,
		    unsigned prev, uint32_t *out, uint32_t *in)
{
	bool fixed = p->fixed && p->fixed[s], take = !fixed && p->cand[s];
	unsigned opens = !prev;

	*out = fixed ? INF : *at(t, s + 1, k, r, 0);
	*in = INF;
	if ((fixed || (take && k)) && r >= opens) {
		uint32_t rest = *at(t, s + 1, k - take, r - opens, 1);
		uint32_t c = p->cost[s] > 0xffffu ? 0xffffu : p->cost[s];
		if (rest != INF)
			*in = rest + opens + (take ? c * (p->R + 1) : 0);
	}
}

unsigned slots_runs(const bool *set, unsigned M)
{
	unsigned n = 0;

	for (unsigned s = 0; s < M; s++)
		n += set[s] && (!s || !set[s - 1]);
	return n;
}

int slots_pick(const struct gtt_env *env, const struct slots_pick *p, bool *pick, struct gtt_err *err)
{
	if (!p->M || p->M > SLOTS_PICK_MAX_SLOTS || !p->R || p->R > SLOTS_PICK_MAX_RUNS || p->n > p->M)
		return gtt_err_set(err, GTT_EINVAL, "picking %u of %u slots in %u runs: 1-%u slots, 1-%u runs",
				   p->n, p->M, p->R, SLOTS_PICK_MAX_SLOTS, SLOTS_PICK_MAX_RUNS);
	struct table t = { gtt_calloc(env, (size_t)(p->M + 1) * (p->n + 1) * (p->R + 1) * 2, sizeof(uint32_t)), p->n, p->R };
	if (!t.w)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the slot table (%u slots)", p->M);
	for (unsigned k = 0; k <= p->n; k++)
		for (unsigned r = 0; r <= p->R; r++)
			*at(&t, p->M, k, r, 0) = *at(&t, p->M, k, r, 1) = k ? INF : 0;
	for (unsigned s = p->M; s-- > 0;)
		for (unsigned k = 0; k <= p->n; k++)
			for (unsigned r = 0; r <= p->R; r++)
				for (unsigned prev = 0; prev < 2; prev++) {
					uint32_t out, in;
					choices(p, &t, s, k, r, prev, &out, &in);
					*at(&t, s, k, r, prev) = in < out ? in : out;
				}
	int rc = GTT_OK;
	if (*at(&t, 0, p->n, p->R, 0) == INF) {
		rc = gtt_err_set(err, GTT_EBUSY, "no %u of the %u slots are free to take in at most %u runs", p->n, p->M, p->R);
	} else {
		/* walk the optimum from the left, taking a slot whenever that stays optimal (the lowest slots) */
		unsigned k = p->n, r = p->R, prev = 0;
		for (unsigned s = 0; s < p->M; s++) {
			uint32_t out, in;
			choices(p, &t, s, k, r, prev, &out, &in);
			bool fixed = p->fixed && p->fixed[s];
			pick[s] = false;
			if (in != INF && in <= out) {
				pick[s] = !fixed;
				k -= !fixed;
				r -= !prev;
				prev = 1;
			} else {
				prev = 0;
			}
		}
	}
	env->free(env, t.w);
	return rc;
}
