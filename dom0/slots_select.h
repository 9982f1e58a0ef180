/* SPDX-License-Identifier: MIT */
/*
 * Choosing where a vGPU's high range grows or shrinks: gBalloon's Algorithm 1
 * (§3.3) as published, and a selector that makes the same choice from
 * per-slot occupancy counts with prefix sums. Pure functions over a layout.
 */
#ifndef DOM0_SLOTS_SELECT_H
#define DOM0_SLOTS_SELECT_H

#include <stddef.h>

#include "env/err.h"

#define SLOTS_SELECT_MAX_SLOTS	1024	/* M at most this: the prefix sums live on the stack */

/* M slots; vGPU j holds slots [P[j], P[j] + S[j]), inside the M (else GTT_EINVAL). */
struct slot_layout {
	unsigned M, N;
	const unsigned *P, *S;
};

/* Algorithm 1, Expansion / Reduction, for vGPU K and Q slots: L + R = Q. */
int gballoon_expand(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R, struct gtt_err *err);
int gballoon_reduce(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R, struct gtt_err *err);

/* The same choices from occupancy counts: occ[s] = vGPUs other than K holding slot s. */
int occupancy_expand(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R, struct gtt_err *err);
int occupancy_reduce(const struct slot_layout *l, unsigned K, unsigned Q, unsigned *L, unsigned *R, struct gtt_err *err);

/* Where a new vGPU of S slots shares least (first such start); -1 if S > M. */
int slots_place(const unsigned *occ, unsigned M, unsigned S);

#endif
