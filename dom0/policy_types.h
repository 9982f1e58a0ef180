/* SPDX-License-Identifier: MIT */
/* gBalloon's resizing policy's types (dom0/policy.h): its parameters and its state. */
#ifndef DOM0_POLICY_TYPES_H
#define DOM0_POLICY_TYPES_H

#include "dom0/types.h"

/*
 * gBalloon's resizing policy (§3.1-3.2). Every period of the caller's clock,
 * f(W, R_copy) = alpha * W + beta * R_copy is computed and classified: below
 * `low`, every expansion is approved and nothing is reduced; from `low` to
 * `high`, expansions are approved and the vGPU with the most slots and the
 * lowest utilization (valid non-scratch entries / entries of its high range)
 * loses one slot; above `high`, expansions are refused and two 64 MiB slots'
 * worth of graphics memory is taken from the vGPUs holding most, regardless
 * of utilization. Fixed point: W and R_copy in milli-percent, alpha, beta,
 * f and the thresholds in millionths.
 */
enum dom0_policy_class { DOM0_CLASS_LOW, DOM0_CLASS_MID, DOM0_CLASS_HIGH };

struct dom0_policy {
	uint64_t alpha_u, beta_u;	/* per percent, x 1e6; 0: 1 / (200% x vGPUs) and 1 / 100% (each term's ceiling) */
	uint64_t low_u, high_u;		/* thresholds x 1e6; 0: 0.5 and 1.0, the paper's */
	uint64_t period_ms;		/* 0: 500 */
	unsigned cpus;			/* N of eq. 1; 0: 1 */
	uint64_t copy_ps_per_pte;	/* 0: R_copy from the switches' measured time; else PTEs written x this, in ps (exact) */
	unsigned min_slots;		/* a reduction never leaves a vGPU fewer; 0: 1 */
	unsigned evict_slots;		/* slots a rising eviction count asks for; 0: 1 */
	bool caller_ticks;		/* the caller ticks it on its own clock (a host's wall time), not dom0_run_quanta */
};

struct dom0_policy_state {
	bool enabled;
	struct dom0_policy p;		/* with the defaults filled in */
	enum dom0_policy_class cls;
	uint64_t f_u, w_mpct, rcopy_mpct;	/* of the last period */
	uint64_t periods, next_ms;
	uint64_t policy_reductions;
	int last_reduced;		/* vGPU the last policy reduction took from; 0 none */
};

#endif
