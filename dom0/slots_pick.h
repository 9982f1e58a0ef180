/* SPDX-License-Identifier: MIT */
/*
 * Non-contiguous slots (gBalloon §6, its future work): a vGPU's high memory
 * as up to R runs of slots, so a resize may take or give any slots, not only
 * those at both ends. Algorithm 1 generalised: of the slots a vGPU may take,
 * the Q whose holders sum least (its line (3) count over any slots, not two
 * sides); a reduction keeps the slots whose holders sum least, so what it
 * gives back is what is shared most. Exact, by dynamic programming over the
 * slots with the runs as a constraint. A pure function over arrays.
 */
#ifndef DOM0_SLOTS_PICK_H
#define DOM0_SLOTS_PICK_H

#include <stdbool.h>

#include "env/env.h"
#include "env/err.h"

#define SLOTS_PICK_MAX_SLOTS	256	/* the table is (M + 1) x (n + 1) x (R + 1) x 2 words */
#define SLOTS_PICK_MAX_RUNS	8

/*
 * Of M slots, pick n from `cand` (and not `fixed`) so that the set fixed +
 * picked is in at most R runs; minimise the sum of cost over the picked
 * slots, then the runs; among equals, the lowest slots. pick[] gets the
 * picked slots (fixed ones not included). GTT_EBUSY: no such set;
 * GTT_EINVAL: M, R or n out of range; GTT_ENOMEM: no room for the table.
 */
struct slots_pick {
	unsigned M, n, R;
	const unsigned *cost;
	const bool *cand, *fixed;	/* fixed may be NULL */
};
int slots_pick(const struct gtt_env *env, const struct slots_pick *p, bool *pick, struct gtt_err *err);

/* Runs of set[0..M): maximal stretches of true. */
unsigned slots_runs(const bool *set, unsigned M);

#endif
