/* SPDX-License-Identifier: MIT */
/*
 * Admission (dom0/admission.c) against an independent oracle: seeded random
 * creates and destroys of vGPUs of 1 to 8 slots on a partitioned layout
 * (share limit 1, FIFO), the oracle keeping its own slot map and queue by
 * the rules of docs/dom0.md, written here from the rules, not the code:
 *   - a create fits when a run of free slots of its size exists; it goes to
 *     the first such run; while anything is paused, every create pauses;
 *   - at a destroy, FIFO takes the paused creates oldest first. Each, in
 *     turn, picks the run of its size with most slots that are free and not
 *     held by a create taken before it at this destroy (among equals the
 *     one with most of the slots it holds already, then the fewest occupied,
 *     then the lowest), holds those slots (taking them
 *     from creates not yet taken) and lets go of any it held elsewhere; if
 *     it holds the whole run it runs there. A held slot is not free for
 *     anyone else until its holder runs or is destroyed.
 * After every operation the runtime's slots, paused state and counters must
 * be the oracle's, no slot is held twice, and no paused vGPU is ever switched in.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "hw/fence.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

#define MAXV 64

struct oracle {
	unsigned M;
	int slot[1024];			/* which oracle vGPU holds it, 0 none */
	int held[1024];			/* which paused oracle vGPU holds its place, 0 none */
	struct { bool alive, paused; unsigned first, n; uint64_t order; int id; } v[MAXV + 1];
	uint64_t orders, paused_total, admitted_total;
};

static int free_run(const struct oracle *o, unsigned n)
{
	for (unsigned s = 0; s + n <= o->M; s++) {
		unsigned k = 0;
		while (k < n && !o->slot[s + k] && !o->held[s + k])
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

static void let_go(struct oracle *o, int i)
{
	for (unsigned s = 0; s < o->M; s++)
		if (o->held[s] == i)
			o->held[s] = 0;
}

/* Slot s for oracle vGPU i at this destroy: free, and not held by a create taken before it. */
static bool usable(const struct oracle *o, unsigned s, int i, const bool *taken)
{
	return !o->slot[s] && (!o->held[s] || o->held[s] == i || !taken[o->held[s]]);
}

static void take_turn(struct oracle *o, int i, const bool *taken)
{
	unsigned n = o->v[i].n, best_have = 0, best_occ = 0, best_mine = 0;
	int best = -1;

	for (unsigned s = 0; s + n <= o->M; s++) {
		unsigned have = 0, occ = 0, mine = 0;
		for (unsigned k = s; k < s + n; k++) {
			have += usable(o, k, i, taken);
			occ += o->slot[k] != 0;
			mine += o->held[k] == i;
		}
		if (best < 0 || have > best_have || (have == best_have && mine > best_mine) ||
		    (have == best_have && mine == best_mine && occ < best_occ)) {
			best = (int)s;
			best_have = have;
			best_occ = occ;
			best_mine = mine;
		}
	}
	if (best < 0)
		return;
	for (unsigned k = (unsigned)best; k < (unsigned)best + n; k++)
		if (usable(o, k, i, taken))
			o->held[k] = i;
	for (unsigned s = 0; s < o->M; s++)
		if (o->held[s] == i && (s < (unsigned)best || s >= (unsigned)best + n))
			o->held[s] = 0;
	if (best_have == n) {
		let_go(o, i);
		place(o, i, best);
		o->v[i].paused = false;
		o->admitted_total++;
	}
}

static void admit(struct oracle *o)
{
	bool taken[MAXV + 1] = { false };

	for (;;) {
		int next = 0;
		for (int i = 1; i <= MAXV; i++)
			if (o->v[i].alive && o->v[i].paused && !taken[i] && (!next || o->v[i].order < o->v[next].order))
				next = i;
		if (!next)
			return;
		taken[next] = true;
		take_turn(o, next, taken);
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
			let_go(&o, i);
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

/* A partitioned layout (share limit 1) filled with one-slot vGPUs; ids[s] holds slot s. */
static unsigned fill_slots(struct d0 *t, enum dom0_admission pol, int *ids)
{
	struct dom0_config cfg = { .slot_size = 256ull << 20, .share_limit = 1, .admission = pol };
	struct dom0_vgpu_params one = { .low_size = 1 << 20, .high_slots = 1, .mem_pages = 2 };
	struct gtt_err err = { 0 };

	d0_start(t, "sim:skl", &cfg);
	unsigned M = dom0_layout(t->rt)->num_slots;
	cr_assert(M >= 6 && M <= 64, "%u slots", M);
	for (unsigned s = 0; s < M; s++) {
		struct dom0_vgpu_info in;
		cr_assert_eq(dom0_vgpu_create(t->rt, &one, &ids[s], &err), 0, "%s", err.msg);
		cr_assert(!dom0_vgpu_info(t->rt, ids[s], &in) && in.first_slot == s && !in.paused);
	}
	return M;
}

static int paused_create(struct d0 *t, unsigned slots)
{
	struct dom0_vgpu_params p = { .low_size = 1 << 20, .high_slots = slots, .mem_pages = 2 };
	struct gtt_err err = { 0 };
	int id = 0;

	cr_assert_eq(dom0_vgpu_create(t->rt, &p, &id, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t->rt, id), DOM0_PAUSE_CREATE);
	return id;
}

static struct dom0_vgpu_info info_of(const struct d0 *t, int id)
{
	struct dom0_vgpu_info in;

	cr_assert_eq(dom0_vgpu_info(t->rt, id, &in), 0);
	return in;
}

/*
 * ConVGPU Figure 3d under BF: freed memory goes to the chosen request and
 * stays its own. A (2 slots) is least short when slot 0 frees and holds it;
 * when slot 2 frees, C (1 slot, paused after A) fits exactly and BF admits
 * it first, but on slot 2: slot 0 is A's. Slot 1 freeing then completes A's
 * run at 0-1. Without holding, C would have taken the lowest free slot, 0.
 */
Test(dom0_admission, bf_keeps_a_freed_slot_for_the_request_it_chose)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct d0 t;

	fill_slots(&t, DOM0_ADMIT_BF, ids);
	int a = paused_create(&t, 2);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[0], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_CREATE, "A cannot run on one slot");
	int c = paused_create(&t, 1);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[2], &err), 0, "%s", err.msg);
	struct dom0_vgpu_info in = info_of(&t, c);
	cr_assert(!in.paused && in.first_slot == 2, "C: paused %d at slot %u; slot 0 is A's, C fits slot 2", in.paused,
		  in.first_slot);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	in = info_of(&t, a);
	cr_assert(!in.paused && in.first_slot == 0 && in.slots == 2, "A: paused %d at %u+%u, not 0+2", in.paused,
		  in.first_slot, in.slots);
	d0_stop(&t);
}

/*
 * FIFO is the oldest created (ConVGPU §III-C): V (slot 0, the first vGPU)
 * pauses an expansion after Y's create paused; when slot 1 frees, V's
 * expansion runs into it and Y waits on.
 */
Test(dom0_admission, fifo_ranks_an_expansion_by_its_vgpus_creation)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct d0 t;

	fill_slots(&t, DOM0_ADMIT_FIFO, ids);
	int y = paused_create(&t, 1);
	cr_assert_eq(dom0_expand(t.rt, ids[0], 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, ids[0]), DOM0_PAUSE_EXPAND);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	struct dom0_vgpu_info v = info_of(&t, ids[0]);
	cr_assert(!v.paused && v.first_slot == 0 && v.slots == 2, "V: paused %d at %u+%u, not 0+2", v.paused, v.first_slot,
		  v.slots);
	cr_assert_eq(dom0_vgpu_paused(t.rt, y), DOM0_PAUSE_CREATE, "Y, created after V, ran first");
	d0_stop(&t);
}

/* A slot a paused create holds is not free for a slot move either; it completes the create's run. */
Test(dom0_admission, a_migration_does_not_take_a_held_slot)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct d0 t;

	fill_slots(&t, DOM0_ADMIT_FIFO, ids);
	int a = paused_create(&t, 2);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[0], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_migrate(t.rt, ids[5], 0, NULL, &err), GTT_EBUSY, "a slot move took slot 0, which A holds");
	cr_assert(strstr(err.msg, "slot 0") && strstr(err.msg, "paused requests"), "%s", err.msg);
	cr_assert_eq(info_of(&t, ids[5]).first_slot, 5);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	struct dom0_vgpu_info in = info_of(&t, a);
	cr_assert(!in.paused && in.first_slot == 0 && in.slots == 2, "A: paused %d at %u+%u", in.paused, in.first_slot,
		  in.slots);
	d0_stop(&t);
}

/*
 * An older vGPU's expansion outranks a younger create: Y (2 slots) holds
 * slot 1 when it frees; V (slot 0, the first vGPU) then asks to grow, and at
 * the next release its expansion takes slot 1 while Y waits on.
 */
Test(dom0_admission, an_older_expansion_takes_a_slot_a_younger_create_holds)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct d0 t;

	fill_slots(&t, DOM0_ADMIT_FIFO, ids);
	int y = paused_create(&t, 2);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, y), DOM0_PAUSE_CREATE);
	cr_assert_eq(dom0_expand(t.rt, ids[0], 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, ids[0]), DOM0_PAUSE_EXPAND);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[4], &err), 0, "%s", err.msg);
	struct dom0_vgpu_info v = info_of(&t, ids[0]);
	cr_assert(!v.paused && v.first_slot == 0 && v.slots == 2, "V: paused %d at %u+%u; its expansion waits behind Y",
		  v.paused, v.first_slot, v.slots);
	cr_assert_eq(dom0_vgpu_paused(t.rt, y), DOM0_PAUSE_CREATE);
	d0_stop(&t);
}

/*
 * Nor for a younger vGPU's expansion: A (M - 1 slots) holds slot 0; B, made
 * after A, runs on the last slot, which A's run cannot use then; B asks to
 * grow. When slot M - 2 frees, A takes it into its run 0..M-2 before B's
 * expansion is considered, and B stays as it is, waiting; A runs once the
 * rest of its run frees.
 */
Test(dom0_admission, a_younger_expansion_does_not_take_a_held_slot)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct d0 t;

	unsigned M = fill_slots(&t, DOM0_ADMIT_FIFO, ids);
	int a = paused_create(&t, M - 1);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[0], &err), 0, "%s", err.msg);
	int b = paused_create(&t, 1);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[M - 1], &err), 0, "%s", err.msg);
	struct dom0_vgpu_info in = info_of(&t, b);
	cr_assert(!in.paused && in.first_slot == M - 1, "B: paused %d at %u, not on the last slot", in.paused, in.first_slot);
	cr_assert_eq(dom0_expand(t.rt, b, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_EXPAND);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[M - 2], &err), 0, "%s", err.msg);
	in = info_of(&t, b);
	cr_assert(in.paused == DOM0_PAUSE_EXPAND && in.first_slot == M - 1 && in.slots == 1,
		  "B: paused %d at %u+%u: its expansion took slot %u, which A holds", in.paused, in.first_slot, in.slots, M - 2);
	for (unsigned s = 1; s + 2 < M; s++)
		cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[s], &err), 0, "%s", err.msg);
	in = info_of(&t, a);
	cr_assert(!in.paused && in.first_slot == 0 && in.slots == M - 1, "A: paused %d at %u+%u", in.paused, in.first_slot,
		  in.slots);
	cr_assert_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_EXPAND, "B grew with no slot free");
	d0_stop(&t);
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

/* ------------------------------------------ hostile guests under admission (issue 22) */

static uint64_t xfence(const struct d0 *t, uint64_t start, uint64_t size)
{
	struct hw_fence f = { .start = start, .size = size, .stride = 4096, .tiling = HW_TILING_X, .valid = true };
	struct gtt_err err = { 0 };
	uint64_t v = 0;

	cr_assert_eq(hw_fence_encode(t->dev->info.plat, t->dev->info.aperture_size, &f, &v, &err), 0, "%s", err.msg);
	return v;
}

/* Two guests of 8 MiB low with their first 256 pages mapped, on a 1 MiB pool, admission FIFO. */
static void two_fenced(struct d0 *t, int *a, int *b)
{
	struct dom0_config cfg = { .admission = DOM0_ADMIT_FIFO, .pool_size = 1 << 20 };
	struct dom0_vgpu_params p = { .low_size = 8 * MiB, .high_slots = 1, .fences = 2, .mem_pages = 256 };
	struct gtt_err err = { 0 };
	int *ids[] = { a, b };

	d0_start(t, "sim:skl", &cfg);
	uint64_t low = dom0_layout(t->rt)->guest_low_base;
	for (int k = 0; k < 2; k++) {
		cr_assert_eq(dom0_vgpu_create(t->rt, &p, ids[k], &err), 0, "%s", err.msg);
		for (uint64_t i = 0; i < 256; i++)
			cr_assert_eq(dom0_guest_pte_write(t->rt, *ids[k], (low >> 12) + i, d0_guest_pte(t, i), &err), 0, "%s",
				     err.msg);
	}
}

/*
 * The reproducer: a's fence grows while paused behind a full pool; b's fence
 * going off admits it. Admission used to re-enter itself through
 * dom0_fence_now for the fence already active, until the stack ran out. The
 * fence must take its 768 KiB once.
 */
Test(dom0_admission, a_growing_fence_is_admitted_once)
{
	struct gtt_err err = { 0 };
	struct d0 t;
	int a, b;

	two_fenced(&t, &a, &b);
	uint64_t low = dom0_layout(t.rt)->guest_low_base;
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 0, xfence(&t, low, 512 << 10), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_guest_fence_write(t.rt, b, 0, xfence(&t, low, 512 << 10), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 0, xfence(&t, low, 768 << 10), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_FENCE);
	cr_assert_eq(dom0_guest_fence_write(t.rt, b, 0, 0, &err), 0, "%s", err.msg);
	const struct dom0_counters *c = dom0_counters(t.rt);
	cr_expect_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_NONE);
	cr_expect_eq(c->admitted, 1u);
	cr_expect_eq(c->pool_pages_used, 192u, "768 KiB is 192 pages, taken once: %llu in use",
		     (unsigned long long)c->pool_pages_used);
	cr_expect_eq(c->pool_allocs, 3u, "a, b, and a's grown fence once: %llu allocations",
		     (unsigned long long)c->pool_allocs);
	uint64_t val = 0;
	cr_assert_eq(dom0_guest_fence_read(t.rt, a, 0, &val, &err), 0);
	cr_expect_eq(val, xfence(&t, low, 768 << 10));
	d0_stop(&t);
}

/*
 * What can never fit is refused at once, as without admission: a fence
 * larger than the whole pool would otherwise hold the head of the queue
 * forever, and every other guest's fence would pause behind it.
 */
Test(dom0_admission, a_fence_larger_than_the_pool_is_refused_at_once)
{
	struct gtt_err err = { 0 };
	struct d0 t;
	int a, b;

	two_fenced(&t, &a, &b);
	uint64_t low = dom0_layout(t.rt)->guest_low_base;
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 0, xfence(&t, low, 2 * MiB), &err), GTT_ENOMEM);
	cr_expect(strstr(err.msg, "pool"), "the refusal names the pool: %s", err.msg);
	cr_expect_eq(dom0_paused_count(t.rt), 0u);
	cr_expect_eq(dom0_counters(t.rt)->paused, 0u);
	/* nothing waits: b's fence runs at once */
	cr_expect_eq(dom0_guest_fence_write(t.rt, b, 0, xfence(&t, low, 512 << 10), &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_NONE);
	d0_stop(&t);
}

/*
 * A guest withdraws its own paused fence write by writing the fence again
 * (off): the pause goes, and what paused behind it runs.
 */
Test(dom0_admission, a_paused_fence_is_withdrawn_by_its_guest)
{
	struct gtt_err err = { 0 };
	struct d0 t;
	int a, b;

	two_fenced(&t, &a, &b);
	uint64_t low = dom0_layout(t.rt)->guest_low_base;
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 0, xfence(&t, low, 768 << 10), &err), 0, "%s", err.msg);
	/* a holds 768 KiB; b wants 512 KiB: it pauses */
	cr_assert_eq(dom0_guest_fence_write(t.rt, b, 0, xfence(&t, low, 512 << 10), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_FENCE);
	/* a asks for 256 KiB more: it would fit beside its own 768 KiB, but queues behind b (FIFO) */
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 1, xfence(&t, low, 256 << 10), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_FENCE);
	/* b withdraws: its write of fence 0 off replaces the paused one, and a, now the head, runs */
	cr_expect_eq(dom0_guest_fence_write(t.rt, b, 0, 0, &err), 0, "withdrawing was refused: %s", err.msg);
	cr_expect_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_NONE);
	cr_expect_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_NONE, "what queued behind the withdrawn write runs");
	cr_expect_eq(dom0_counters(t.rt)->admitted, 1u);
	cr_expect_eq(dom0_counters(t.rt)->pool_pages_used, 256u);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, b, &in);
	cr_expect_eq(in.counters.withdrawn, 1u);
	/* a fence that cannot fit beside the vGPU's own other fence is refused at once, never paused */
	cr_expect_eq(dom0_guest_fence_write(t.rt, a, 1, xfence(&t, low, 512 << 10), &err), GTT_ENOMEM);
	cr_expect_eq(dom0_paused_count(t.rt), 0u);
	cr_expect_eq(dom0_withdraw(t.rt, a, &err), GTT_EINVAL, "nothing is paused any more");
	d0_stop(&t);
}

/* A paused expansion asked over PVINFO is withdrawn by the guest: WITHDRAWN under its SEQ, and the queue moves on. */
Test(dom0_admission, a_paused_channel_expansion_is_withdrawn)
{
	struct dom0_config cfg = { .admission = DOM0_ADMIT_FIFO, .slot_size = 256ull << 20, .share_limit = 1 };
	struct gtt_err err = { 0 };
	struct d0 t;
	int a, b, c;

	d0_start(&t, "sim:skl", &cfg);
	unsigned M = dom0_layout(t.rt)->num_slots;
	cr_assert(M >= 3);
	struct dom0_vgpu_params p = { .low_size = 1 << 20, .high_slots = 1, .mem_pages = 2 };
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &a, &err), 0, "%s", err.msg);
	p.high_slots = M - 1;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &b, &err), 0, "%s", err.msg);
	/* a asks for one more slot over the channel: none is free, it pauses */
	uint32_t words[][2] = { { 0x104, GTTLAB_GM_REQ_EXPAND }, { 0x108, 1 }, { 0x10c, 41 }, { 0x818, 0x100 } };
	for (unsigned i = 0; i < 4; i++)
		cr_assert_eq(dom0_pvinfo_write(t.rt, a, words[i][0], words[i][1], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_serve_requests(t.rt, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_EXPAND);
	/* c's create pauses behind it */
	p.high_slots = 1;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &c, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, c), DOM0_PAUSE_CREATE);
	/* b gives one slot back: a is the head and takes it... unless it withdrew first */
	uint32_t wd[][2] = { { 0x104, GTTLAB_GM_REQ_WITHDRAW }, { 0x10c, 42 }, { 0x818, 0x100 } };
	for (unsigned i = 0; i < 3; i++)
		cr_assert_eq(dom0_pvinfo_write(t.rt, a, wd[i][0], wd[i][1], &err), 0, "%s", err.msg);
	uint32_t st = 0, seq = 0;
	dom0_pvinfo_read(t.rt, a, 0x110, &st, NULL);
	dom0_pvinfo_read(t.rt, a, 0x114, &seq, NULL);
	cr_expect_eq(st, GTTLAB_GM_ST_WITHDRAWN);
	cr_expect_eq(seq, 41u, "the withdrawn request's own SEQ");
	cr_expect_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_NONE);
	cr_assert_eq(dom0_reduce(t.rt, b, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_vgpu_paused(t.rt, c), DOM0_PAUSE_NONE, "c's create runs: nothing holds the queue");
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	cr_expect_eq(in.slots, 1u, "the withdrawn expansion never ran");
	d0_stop(&t);
}
