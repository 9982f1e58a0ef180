/* SPDX-License-Identifier: MIT */
/*
 * Admission (dom0/admission.c) against an independent oracle: seeded random
 * creates and destroys of vGPUs of 1 to 8 slots on a partitioned layout
 * (share limit 1, FIFO), the oracle keeping its own slot map and queue by
 * the rules of docs/dom0.md, written here from the rules, not the code:
 *   - a create fits when a run of free slots of its size exists; it goes to
 *     the first such run; while anything is paused, every create pauses;
 *   - at a destroy, FIFO takes the oldest paused; while it fits it runs and
 *     the next oldest is taken; the first that does not fit holds the queue.
 * After every operation the runtime's slots, paused state and counters must
 * be the oracle's, no slot is held twice, and no paused vGPU is ever switched in.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/dom0_helpers.h"

#define MAXV 64

struct oracle {
	unsigned M;
	int slot[1024];			/* which oracle vGPU holds it, 0 none */
	struct { bool alive, paused; unsigned first, n; uint64_t order; int id; } v[MAXV + 1];
	uint64_t orders, paused_total, admitted_total;
};

static int free_run(const struct oracle *o, unsigned n)
{
	for (unsigned s = 0; s + n <= o->M; s++) {
		unsigned k = 0;
		while (k < n && !o->slot[s + k])
			k++;
		if (k == n)
			return (int)s;
	}
	return -1;
}

static void place(struct oracle *o, int i, int at)
{
	o->v[i].first = (unsigned)at;
	for (unsigned k = 0; k < o->v[i].n; k++)
		o->slot[at + k] = i;
}

static bool any_paused(const struct oracle *o)
{
	for (int i = 1; i <= MAXV; i++)
		if (o->v[i].alive && o->v[i].paused)
			return true;
	return false;
}

static void admit(struct oracle *o)
{
	for (;;) {
		int head = 0;
		for (int i = 1; i <= MAXV; i++)
			if (o->v[i].alive && o->v[i].paused && (!head || o->v[i].order < o->v[head].order))
				head = i;
		if (!head)
			return;
		int at = free_run(o, o->v[head].n);
		if (at < 0)
			return;
		place(o, head, at);
		o->v[head].paused = false;
		o->admitted_total++;
	}
}

static unsigned long long rnd(unsigned long long *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void run_seed(unsigned long long seed)
{
	struct dom0_config cfg = { .slot_size = 256ull << 20, .share_limit = 1, .admission = DOM0_ADMIT_FIFO };
	struct oracle o;
	struct d0 t;
	struct gtt_err err = { 0 };

	memset(&o, 0, sizeof(o));
	d0_start(&t, "sim:skl", &cfg);
	o.M = dom0_layout(t.rt)->num_slots;
	cr_assert_geq(o.M, 8);
	for (int op = 0; op < 300; op++) {
		int i = (int)(rnd(&seed) % MAXV) + 1;
		if (!o.v[i].alive) {
			unsigned n = (unsigned)(rnd(&seed) % 8) + 1;
			struct dom0_vgpu_params p = { .low_size = 1 << 20, .high_slots = n, .mem_pages = 2 };
			cr_assert_eq(dom0_vgpu_create(t.rt, &p, &o.v[i].id, &err), 0, "seed %llu op %d: %s", seed, op, err.msg);
			o.v[i].alive = true;
			o.v[i].n = n;
			int at = any_paused(&o) ? -1 : free_run(&o, n);
			o.v[i].paused = at < 0;
			if (at >= 0) {
				place(&o, i, at);
			} else {
				o.v[i].order = ++o.orders;
				o.paused_total++;
			}
		} else {
			cr_assert_eq(dom0_vgpu_destroy(t.rt, o.v[i].id, &err), 0, "seed %llu op %d: %s", seed, op, err.msg);
			if (!o.v[i].paused)
				for (unsigned k = 0; k < o.v[i].n; k++)
					o.slot[o.v[i].first + k] = 0;
			o.v[i].alive = false;
			admit(&o);
		}
		/* the runtime against the oracle */
		for (int k = 1; k <= MAXV; k++) {
			if (!o.v[k].alive)
				continue;
			struct dom0_vgpu_info in;
			cr_assert_eq(dom0_vgpu_info(t.rt, o.v[k].id, &in), 0);
			cr_assert_eq(in.paused != DOM0_PAUSE_NONE, o.v[k].paused, "seed %llu op %d: vGPU %d paused %d, the oracle says %d", seed,
				     op, o.v[k].id, in.paused, o.v[k].paused);
			if (!o.v[k].paused)
				cr_assert(in.first_slot == o.v[k].first && in.slots == o.v[k].n,
					  "seed %llu op %d: vGPU %d holds %u+%u, the oracle %u+%u", seed, op, o.v[k].id, in.first_slot,
					  in.slots, o.v[k].first, o.v[k].n);
			else
				cr_assert_eq(dom0_switch(t.rt, o.v[k].id, NULL, NULL), GTT_EBUSY, "a paused vGPU was switched in");
		}
		for (unsigned s = 0; s < o.M; s++)
			cr_assert_leq(dom0_slot_occupancy(t.rt, s), 1, "slot %u held twice", s);
		const struct dom0_counters *c = dom0_counters(t.rt);
		cr_assert(c->paused == o.paused_total && c->admitted == o.admitted_total, "seed %llu op %d: counters %llu/%llu, oracle %llu/%llu",
			  seed, op, (unsigned long long)c->paused, (unsigned long long)c->admitted,
			  (unsigned long long)o.paused_total, (unsigned long long)o.admitted_total);
	}
	d0_stop(&t);
}

Test(dom0_admission, fifo_matches_an_independent_oracle, .timeout = 60)
{
	for (unsigned long long seed = 1; seed <= 6; seed++)
		run_seed(seed * 0x9e3779b97f4a7c15ull);
}

/* Without admission the share limit refuses what does not fit, and changes nothing. */
Test(dom0_admission, without_admission_the_share_limit_refuses)
{
	struct dom0_config cfg = { .slot_size = 256ull << 20, .share_limit = 1 };
	struct gtt_err err = { 0 };
	struct d0 t;
	int id;

	d0_start(&t, "sim:skl", &cfg);
	unsigned M = dom0_layout(t.rt)->num_slots;
	struct dom0_vgpu_params all = { .low_size = 1 << 20, .high_slots = M, .mem_pages = 2 };
	cr_assert_eq(dom0_vgpu_create(t.rt, &all, &id, &err), 0, "%s", err.msg);
	size_t len;
	uint8_t *before = d0_capture(&t, &len);
	struct dom0_vgpu_params one = { .low_size = 1 << 20, .high_slots = 1, .mem_pages = 2 };
	int other = 0;
	cr_expect_eq(dom0_vgpu_create(t.rt, &one, &other, &err), GTT_EBUSY);
	cr_expect(strstr(err.msg, "share limit"), "%s", err.msg);
	cr_expect(!dom0_vgpu_exists(t.rt, 2), "a refused create left a vGPU");
	uint8_t *after = d0_capture(&t, &len);
	cr_expect(!memcmp(before, after, len), "a refused create changed the device");
	free(before);
	free(after);
	d0_stop(&t);
}
