/* SPDX-License-Identifier: MIT */
/* gBalloon's resizing policy (policy): f(W, R_copy) classified every period, and what each class does. */
#ifndef DOM0_POLICY_H
#define DOM0_POLICY_H

#include "dom0/policy_types.h"
#include "dom0/types.h"

/* Turn the policy on, its first period starting at `now_ms` of the caller's clock (the class is low until it ends). */
int dom0_policy_set(struct dom0_runtime *rt, const struct dom0_policy *p, uint64_t now_ms, struct gtt_err *err);
const struct dom0_policy_state *dom0_policy_state(const struct dom0_runtime *rt);
/* W's share of one vGPU: the sum over its vCPUs of steal / (steal + other), in milli-percent (eq. 2). */
int dom0_policy_steal(struct dom0_runtime *rt, int id, uint64_t w_mpct, struct gtt_err *err);
/*
 * Advance the policy to `now_ms` of the caller's clock: every whole period
 * elapsed since the last is classified and acted on (dom0_run_quanta calls
 * it with the simulated time, unless the policy's caller_ticks says the
 * caller does). *acted (if given) counts the resizes made.
 */
int dom0_policy_tick(struct dom0_runtime *rt, uint64_t now_ms, unsigned *acted, struct gtt_err *err);
/* Valid non-scratch entries of the vGPU's high range, and the range's entries. */
int dom0_vgpu_utilization(const struct dom0_runtime *rt, int id, uint64_t *mapped, uint64_t *entries);

/* ---- dom0/ only ---- */
/* Whether an expansion is approved now (the policy's class; no policy: always). */
bool dom0_policy_approves(const struct dom0_runtime *rt);

#endif
