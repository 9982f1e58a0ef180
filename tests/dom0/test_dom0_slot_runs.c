/* SPDX-License-Identifier: MIT */
/*
 * Non-contiguous slots (gBalloon §6; dom0/slots_pick.h, cfg.slot_runs)
 * against oracles written from the rules, not the code:
 * - the picker against an exhaustive search of every subset on small
 *   layouts (seeded): n slots of the candidates, fixed ones kept, in at most
 *   R runs; least cost, then fewest runs, then the lowest slots;
 * - the runtime under seeded random creates, destroys, expansions and
 *   reductions: each expansion takes slots whose other holders sum least
 *   (Algorithm 1's count over any slots) under the share limit, each
 *   reduction gives back those shared most, in at most R runs; occupancy,
 *   PVINFO's run words (the guest's view), the guest's writes inside and
 *   outside its runs and the physical GTT after a switch agree with it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "dom0/slots_pick.h"
#include "env/env_posix.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

static unsigned popcount(uint32_t m)
{
	unsigned n = 0;

	for (; m; m &= m - 1)
		n++;
	return n;
}

static unsigned runs_of(uint32_t m)
{
	return popcount(m & ~(m << 1));
}

/* The oracle: the best set by (cost, runs, lowest slots), or -1. */
static long best_subset(unsigned M, unsigned n, unsigned R, const unsigned *cost, uint32_t cand, uint32_t fixed,
			unsigned long *best_cost, unsigned *best_runs)
{
	long best = -1;

	for (uint32_t m = 0; m < (1u << M); m++) {
		if ((m & ~cand) || (m & fixed) || popcount(m) != n || runs_of(m | fixed) > R)
			continue;
		unsigned long c = 0;
		for (unsigned s = 0; s < M; s++)
			c += (m >> s & 1) ? cost[s] : 0;
		unsigned r = runs_of(m | fixed);
		uint32_t diff = best < 0 ? 0 : m ^ (uint32_t)best;
		bool lower = best >= 0 && c == *best_cost && r == *best_runs && diff && (m & diff & -diff);
		if (best < 0 || c < *best_cost || (c == *best_cost && r < *best_runs) || lower) {
			best = m;
			*best_cost = c;
			*best_runs = r;
		}
	}
	return best;
}

Test(dom0_slot_runs, picker_matches_an_exhaustive_search)
{
	const struct gtt_env *env = gtt_env_posix(GTT_LOG_WARN);
	uint64_t seed = 0x51075;
	unsigned long cases = 0, none = 0;

	for (unsigned k = 0; k < 60000; k++) {
		unsigned M = 1 + t_rand(&seed) % 9, R = 1 + t_rand(&seed) % 3, cost[16];
		bool cand[16], fixed[16], pick[16];
		uint32_t cm = 0, fm = 0;
		for (unsigned s = 0; s < M; s++) {
			cost[s] = t_rand(&seed) % 4;
			fixed[s] = t_rand(&seed) % 4 == 0;
			cand[s] = !fixed[s] && t_rand(&seed) % 4 != 0;
			cm |= (uint32_t)cand[s] << s;
			fm |= (uint32_t)fixed[s] << s;
		}
		unsigned n = t_rand(&seed) % (M + 1);
		unsigned long bc = 0;
		unsigned br = 0;
		long want = best_subset(M, n, R, cost, cm, fm, &bc, &br);
		struct slots_pick p = { .M = M, .n = n, .R = R, .cost = cost, .cand = cand, .fixed = fixed };
		struct gtt_err err = { 0 };
		int rc = slots_pick(env, &p, pick, &err);
		cases++;
		if (want < 0) {
			none++;
			cr_assert_eq(rc, GTT_EBUSY, "case %u: M %u n %u R %u cand 0x%x fixed 0x%x: no set, yet rc %d", k, M, n, R, cm, fm, rc);
			continue;
		}
		cr_assert_eq(rc, 0, "case %u: %s", k, err.msg);
		uint32_t got = 0;
		for (unsigned s = 0; s < M; s++)
			got |= (uint32_t)pick[s] << s;
		cr_assert_eq(got, (uint32_t)want, "case %u: M %u n %u R %u cand 0x%x fixed 0x%x: picked 0x%x, the best is 0x%lx (cost %lu, %u runs)",
			     k, M, n, R, cm, fm, got, want, bc, br);
	}
	cr_log_info("%lu cases, %lu without a set", cases, none);
	cr_expect(none > 1000 && none < cases / 2, "%lu of %lu cases have no set: the cases do not exercise both", none, cases);
}

Test(dom0_slot_runs, picker_refuses_bad_sizes)
{
	const struct gtt_env *env = gtt_env_posix(GTT_LOG_WARN);
	unsigned cost[4] = { 0 };
	bool cand[4] = { true, true, true, true }, pick[4];
	struct gtt_err err = { 0 };
	struct slots_pick p = { .M = 4, .n = 5, .R = 2, .cost = cost, .cand = cand };

	cr_expect_eq(slots_pick(env, &p, pick, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "5 of 4 slots"), "%s", err.msg);
	p.n = 2;
	p.R = 9;
	cr_expect_eq(slots_pick(env, &p, pick, &err), GTT_EINVAL);
	p.R = 2;
	p.M = 257;
	cr_expect_eq(slots_pick(env, &p, pick, &err), GTT_EINVAL);
}

/* ---- the runtime, from its own view ---- */

struct model {
	unsigned M, R, lim;
	uint32_t set[64];	/* by id: the slots the oracle says it holds */
};

static uint32_t mask_of(const struct dom0_vgpu_info *in)
{
	uint32_t m = 0;

	for (unsigned i = 0; i < in->n_runs; i++)
		for (unsigned s = 0; s < in->runs[i].n; s++)
			m |= 1u << (in->runs[i].first + s);
	return m;
}

static unsigned occ_others(const struct model *o, int id, unsigned s)
{
	unsigned n = 0;

	for (int j = 1; j < 64; j++)
		n += j != id && (o->set[j] >> s & 1);
	return n;
}

/* The oracle's expansion (grow) or kept set (shrink) for id by q; false: none. */
static bool oracle(const struct model *o, int id, unsigned q, bool grow, uint32_t *out)
{
	unsigned cost[32];
	uint32_t cand = 0, fixed = grow ? o->set[id] : 0, mine = o->set[id];
	unsigned long bc;
	unsigned br;

	for (unsigned s = 0; s < o->M; s++) {
		unsigned others = occ_others(o, id, s);
		cost[s] = others;
		if (grow ? !(mine >> s & 1) && (!o->lim || others < o->lim) : (mine >> s & 1))
			cand |= 1u << s;
	}
	unsigned n = grow ? q : popcount(mine) - q;
	long b = best_subset(o->M, n, o->R, cost, cand, fixed, &bc, &br);
	if (b < 0)
		return false;
	*out = grow ? (uint32_t)b | mine : (uint32_t)b;
	return true;
}

/* What the guest and the GTT see of id agrees with the oracle's set. */
static void agrees(struct d0 *t, const struct model *o, int id, uint64_t *seed)
{
	const struct dom0_layout *l = dom0_layout(t->rt);
	uint64_t pps = l->slot_size / 4096, base = l->slots_base / 4096;
	struct dom0_vgpu_info in;
	struct gtt_err err = { 0 };
	uint32_t w;

	cr_assert_eq(dom0_vgpu_info(t->rt, id, &in), 0);
	cr_assert_eq(mask_of(&in), o->set[id], "vGPU %d holds 0x%x, the oracle says 0x%x", id, mask_of(&in), o->set[id]);
	cr_assert(in.n_runs <= o->R && in.n_runs == runs_of(o->set[id]), "vGPU %d: %u runs", id, in.n_runs);
	dom0_pvinfo_read(t->rt, id, GTTLAB_IF_GM_RUNS - VGT_PVINFO_PAGE, &w, NULL);
	cr_assert_eq(w, in.n_runs ? in.n_runs : 1, "vGPU %d: GM_RUNS %u", id, w);
	for (unsigned i = 0, s = 0; s < o->M; s++) {
		if (!(o->set[id] >> s & 1) || (s && (o->set[id] >> (s - 1) & 1)))
			continue;
		uint32_t b, z;
		unsigned n = 0;
		while (s + n < o->M && (o->set[id] >> (s + n) & 1))
			n++;
		uint32_t rb = i ? GTTLAB_IF_GM_RUN_BASE(i) : VGT_IF_NONMAPPABLE_BASE;
		uint32_t rz = i ? GTTLAB_IF_GM_RUN_SIZE(i) : VGT_IF_NONMAPPABLE_SIZE;
		dom0_pvinfo_read(t->rt, id, rb - VGT_PVINFO_PAGE, &b, NULL);
		dom0_pvinfo_read(t->rt, id, rz - VGT_PVINFO_PAGE, &z, NULL);
		cr_assert(b == (uint32_t)(l->slots_base + s * l->slot_size) && z == (uint32_t)(n * l->slot_size),
			  "vGPU %d run %u: PVINFO 0x%x+0x%x, slots %u+%u", id, i, b, z, s, n);
		i++;
	}
	/* a guest write in a random slot: accepted exactly where it holds the slot */
	unsigned s = t_rand(seed) % o->M;
	uint64_t idx = base + s * pps + t_rand(seed) % pps;
	int rc = dom0_guest_pte_write(t->rt, id, idx, d0_guest_pte(t, 1), &err);
	cr_assert_eq(rc == 0, (o->set[id] >> s & 1) != 0, "vGPU %d: write in slot %u: rc %d (%s)", id, s, rc, err.msg);
	if (!rc) {
		cr_assert_eq(dom0_switch(t->rt, id, NULL, &err), 0, "%s", err.msg);
		uint64_t sh = 0;
		dom0_shadow_pte(t->rt, id, idx, &sh, NULL);
		cr_assert_eq(d0_phys(t, idx), sh, "vGPU %d after its switch: PTE %llu is not its shadow", id, (unsigned long long)idx);
	}
}

static void random_ops(unsigned R, unsigned lim, uint64_t seed)
{
	struct dom0_config cfg = { .slot_size = 512 * MiB, .share_limit = lim, .slot_runs = R };
	struct gtt_err err = { 0 };
	struct model o = { .R = R, .lim = lim };
	struct d0 t;
	unsigned grows = 0, shrinks = 0, refused = 0;

	d0_start(&t, "sim:skl", &cfg);
	o.M = dom0_layout(t.rt)->num_slots;
	cr_assert(o.M >= 4 && o.M <= 12, "%u slots", o.M);
	for (unsigned k = 0; k < 400; k++) {
		int ids[64], n = 0;
		for (int j = 1; j < 64; j++)
			if (dom0_vgpu_exists(t.rt, j))
				ids[n++] = j;
		unsigned op = t_rand(&seed) % 8, q = 1 + t_rand(&seed) % 3;
		if (op < 2 || !n) {
			struct dom0_vgpu_params p = { .low_size = MiB, .high_slots = q, .mem_pages = 4 };
			int id = 0;
			int rc = dom0_vgpu_create(t.rt, &p, &id, &err);
			struct model z = o;
			uint32_t want = 0;
			bool fits = false;
			for (int j = 1; j < 64 && !fits; j++)
				if (!o.set[j] && !dom0_vgpu_exists(t.rt, j)) {
					fits = oracle(&z, j, q, true, &want);
					break;
				}
			cr_assert_eq(rc == 0, fits, "create of %u slots: rc %d (%s), the oracle %s", q, rc, err.msg, fits ? "fits" : "does not");
			if (!rc) {
				cr_assert(id < 64);
				o.set[id] = want;
			}
			refused += rc != 0;
			continue;
		}
		int id = ids[t_rand(&seed) % (unsigned)n];
		if (op == 2) {
			cr_assert_eq(dom0_vgpu_destroy(t.rt, id, &err), 0, "%s", err.msg);
			o.set[id] = 0;
			continue;
		}
		bool grow = op < 6;
		uint32_t want = 0;
		bool ok = grow ? popcount(o.set[id]) + q <= o.M && oracle(&o, id, q, true, &want)
			       : q <= popcount(o.set[id]) && oracle(&o, id, q, false, &want);
		int rc = grow ? dom0_expand(t.rt, id, q, NULL, NULL, &err) : dom0_reduce(t.rt, id, q, NULL, NULL, &err);
		cr_assert_eq(rc == 0, ok, "%s vGPU %d (0x%x) by %u: rc %d (%s); the oracle %s 0x%x", grow ? "grow" : "shrink", id,
			     o.set[id], q, rc, err.msg, ok ? "gives" : "refuses", want);
		if (!rc) {
			o.set[id] = want;
			grows += grow;
			shrinks += !grow;
		}
		refused += rc != 0;
		agrees(&t, &o, id, &seed);
	}
	/* occupancy as the oracle counts it */
	for (unsigned s = 0; s < o.M; s++)
		cr_assert_eq(dom0_slot_occupancy(t.rt, s), occ_others(&o, 0, s), "slot %u", s);
	cr_expect(grows > 20 && shrinks > 20 && refused > 10, "R %u limit %u: %u grows, %u shrinks, %u refused", R, lim, grows,
		  shrinks, refused);
	d0_stop(&t);
}

Test(dom0_slot_runs, random_operations_match_the_oracle_shared)
{
	random_ops(2, 0, 0x1234);
	random_ops(3, 0, 0x777);
}

Test(dom0_slot_runs, random_operations_match_the_oracle_partitioned)
{
	random_ops(2, 1, 0x4321);
	random_ops(4, 2, 0x999);
}

/* The config rules: at most 8 runs; non-contiguous slots need at most 256 slots. */
Test(dom0_slot_runs, config_rules)
{
	struct dom0_layout l;
	struct gtt_err err = { 0 };
	struct hw_device *dev = t_open("sim:skl");
	struct dom0_config c = { .slot_runs = 9 };

	cr_expect_eq(dom0_layout_for(&dev->info, &c, &l, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "slot runs 9"), "%s", err.msg);
	c = (struct dom0_config){ .slot_runs = 2, .slot_size = 4 * MiB };
	cr_expect_eq(dom0_layout_for(&dev->info, &c, &l, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "at most 256"), "%s", err.msg);
	hw_close(dev);
}
