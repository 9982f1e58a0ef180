/* SPDX-License-Identifier: MIT */
/*
 * gBalloon's resizing policy (gBalloon-2019 §3.1-3.2). Every period of the
 * caller's clock (0.5 s), f(W, R_copy) = alpha * W + beta * R_copy:
 *   R_copy = C / (t x N) x 100%  (eq. 1; C: the switches' copy time in the period)
 *   W = sum over vGPUs and vCPUs of steal / (steal + other) (eq. 2; given by the caller)
 * classified with Threshold_low and Threshold_high: below low, every
 * expansion approved; between, the vGPU with the most graphics memory and the
 * lowest utilization gives up one slot; above high, expansions are refused and
 * two 64 MiB slots' worth is taken back regardless of utilization. Fixed
 * point throughout (the core has no floating point): milli-percent, millionths.
 */
#include "dom0/faults.h"
#include "dom0/migrate_queue.h"
#include "dom0/ops.h"
#include "dom0/policy.h"
#include "dom0/state_types.h"
#include "dom0/state.h"
#include "dom0/switch.h"

#define MiB		(1ull << 20)
#define MILLION		1000000ull
#define MAX_COEFF_U	(100 * MILLION)	/* alpha, beta at most 100 per percent: a maximum of 0.01% */
#define MAX_THRESH_U	(1000 * MILLION)

static uint64_t live_vgpus(const struct dom0_runtime *rt)
{
	uint64_t n = 0;

	for (int i = 1; i <= rt->n_ids; i++)
		n += rt->v[i] != NULL;
	return n;
}

int dom0_policy_set(struct dom0_runtime *rt, const struct dom0_policy *p, uint64_t now_ms, struct gtt_err *err)
{
	struct dom0_policy q = *p;

	if (q.alpha_u > MAX_COEFF_U || q.beta_u > MAX_COEFF_U)
		return gtt_err_set(err, GTT_EINVAL, "policy alpha %llu or beta %llu (millionths per percent): at most %llu",
				   (unsigned long long)q.alpha_u, (unsigned long long)q.beta_u, (unsigned long long)MAX_COEFF_U);
	if (!q.low_u && !q.high_u) {
		q.low_u = MILLION / 2;
		q.high_u = MILLION;
	}
	if (q.low_u > q.high_u || q.high_u > MAX_THRESH_U)
		return gtt_err_set(err, GTT_EINVAL, "policy thresholds low %llu, high %llu (millionths): low <= high <= %llu",
				   (unsigned long long)q.low_u, (unsigned long long)q.high_u, (unsigned long long)MAX_THRESH_U);
	if (!q.period_ms)
		q.period_ms = 500;
	if (!q.cpus)
		q.cpus = 1;
	if (!q.min_slots)
		q.min_slots = 1;
	if (!q.evict_slots)
		q.evict_slots = 1;
	if (q.period_ms > 3600000 || q.cpus > 65536 || q.copy_ps_per_pte > 1000 * MILLION || q.min_slots > rt->lay.num_slots ||
	    q.evict_slots > rt->lay.num_slots)
		return gtt_err_set(err, GTT_EINVAL,
				   "policy period %llu ms (at most an hour), cpus %u (at most 65536), copy cost %llu ps per PTE (at most 1 ms), min/evict slots %u/%u (at most %u)",
				   (unsigned long long)q.period_ms, q.cpus, (unsigned long long)q.copy_ps_per_pte, q.min_slots,
				   q.evict_slots, rt->lay.num_slots);
	struct dom0_policy_state *s = &rt->pol;
	*s = (struct dom0_policy_state){ .enabled = true, .p = q, .cls = DOM0_CLASS_LOW, .next_ms = now_ms + q.period_ms };
	rt->copy_ns_mark = rt->c.copy_ns;
	dom0_switch_charge(rt, q.copy_ps_per_pte);
	return GTT_OK;
}

const struct dom0_policy_state *dom0_policy_state(const struct dom0_runtime *rt)
{
	return &rt->pol;
}

int dom0_policy_steal(struct dom0_runtime *rt, int id, uint64_t w_mpct, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	if (w_mpct > 100000ull * 1024)
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: steal %llu milli-percent: at most 100%% for each of 1024 vCPUs",
				   id, (unsigned long long)w_mpct);
	v->steal_mpct = w_mpct;
	return GTT_OK;
}

bool dom0_policy_approves(const struct dom0_runtime *rt)
{
	return !rt->pol.enabled || rt->pol.cls != DOM0_CLASS_HIGH || DOM0_FAULT(rt, policy_ignore_class);
}

int dom0_vgpu_utilization(const struct dom0_runtime *rt, int id, uint64_t *mapped, uint64_t *entries)
{
	if (!dom0_vgpu_exists(rt, id))
		return GTT_EINVAL;
	*mapped = rt->v[id]->high_mapped;
	*entries = (uint64_t)rt->v[id]->slots * (rt->lay.slot_size / 4096);
	return GTT_OK;
}

/* a's utilization below b's (cross-multiplied: no division, no rounding) */
static bool less_used(const struct dom0_runtime *rt, const struct vgpu *a, const struct vgpu *b)
{
	uint64_t pps = rt->lay.slot_size / 4096;
	unsigned __int128 ua = (unsigned __int128)a->high_mapped * ((uint64_t)b->slots * pps);
	unsigned __int128 ub = (unsigned __int128)b->high_mapped * ((uint64_t)a->slots * pps);

	return ua < ub;
}

/*
 * The vGPU to reduce: among those above min_slots, the most slots; in the
 * mid class then the lowest utilization (by_use); ties to the lowest id.
 */
static struct vgpu *victim(struct dom0_runtime *rt, bool by_use)
{
	struct vgpu *best = NULL;

	for (int i = 1; i <= rt->n_ids; i++) {
		struct vgpu *v = rt->v[i];
		if (!v || v->slots <= rt->pol.p.min_slots || dom0_vgpu_locked(v))
			continue;	/* a migrating vGPU is resized after the migration unlocks it */
		if (!best || v->slots > best->slots) {
			best = v;
			continue;
		}
		if (v->slots < best->slots || !by_use)
			continue;
		bool take = DOM0_FAULT(rt, policy_reduce_busiest) ? less_used(rt, best, v) : less_used(rt, v, best);
		if (take)
			best = v;
	}
	return best;
}

static int reduce_one(struct dom0_runtime *rt, bool by_use, unsigned *acted, struct gtt_err *err)
{
	struct vgpu *v = victim(rt, by_use);
	int rc;

	if (!v)
		return GTT_OK;	/* nobody holds more than the floor */
	if ((rc = dom0_reduce(rt, v->id, 1, NULL, NULL, err)))
		return rc;
	rt->pol.policy_reductions++;
	rt->pol.last_reduced = v->id;
	(*acted)++;
	return GTT_OK;
}

/* a x b / d, saturating instead of wrapping (hostile steal rates or copy costs must not make f small) */
static uint64_t mul_div_sat(uint64_t a, uint64_t b, uint64_t d)
{
	if (b && a > UINT64_MAX / b)
		return UINT64_MAX / d;
	return a * b / d;
}

/* f(W, R_copy) over a span of t_ms, in millionths. */
static uint64_t overhead(struct dom0_runtime *rt, uint64_t t_ms)
{
	struct dom0_policy_state *s = &rt->pol;
	uint64_t w = 0, n = live_vgpus(rt), copy = rt->c.copy_ns - rt->copy_ns_mark;

	for (int i = 1; i <= rt->n_ids; i++)
		if (rt->v[i])
			w += rt->v[i]->steal_mpct;
	s->w_mpct = w;
	/* eq. 1 in milli-percent: C / (t x N) x 100% = copy_ns / (t_ms x 1e6 x N) x 1e5 */
	s->rcopy_mpct = copy / (t_ms * s->p.cpus * 10);
	rt->copy_ns_mark = rt->c.copy_ns;
	/* alpha defaults to 1 / W's ceiling, 200% (two vCPUs, gBalloon Table 1) per vGPU; beta to 1 / 100% */
	uint64_t fw = s->p.alpha_u ? mul_div_sat(s->p.alpha_u, w, 1000) : (n ? mul_div_sat(w, MILLION, 200000 * n) : 0);
	uint64_t fr = mul_div_sat(s->p.beta_u ? s->p.beta_u : MILLION / 100, s->rcopy_mpct, 1000);
	return fw > UINT64_MAX - fr ? UINT64_MAX : fw + fr;
}

int dom0_policy_tick(struct dom0_runtime *rt, uint64_t now_ms, unsigned *acted, struct gtt_err *err)
{
	struct dom0_policy_state *s = &rt->pol;
	unsigned n = 0;
	int rc = GTT_OK;

	if (acted)
		*acted = 0;
	if (!s->enabled || now_ms < s->next_ms)
		return GTT_OK;
	/* every whole period elapsed since the last tick, as one span */
	uint64_t k = (now_ms - s->next_ms) / s->p.period_ms + 1;
	s->next_ms += k * s->p.period_ms;
	s->periods += k;
	s->f_u = overhead(rt, k * s->p.period_ms);
	s->cls = s->f_u < s->p.low_u ? DOM0_CLASS_LOW : s->f_u > s->p.high_u ? DOM0_CLASS_HIGH : DOM0_CLASS_MID;
	if (s->cls == DOM0_CLASS_MID) {
		rc = reduce_one(rt, true, &n, err);
	} else if (s->cls == DOM0_CLASS_HIGH) {
		/* "a space corresponding to two 64 MB slots": 128 MiB in this layout's slots, at least one */
		uint64_t want = 128 * MiB / rt->lay.slot_size;
		for (uint64_t i = 0; i < (want ? want : 1) && !rc; i++)
			rc = reduce_one(rt, false, &n, err);
	}
	if (acted)
		*acted = n;
	return rc;
}
