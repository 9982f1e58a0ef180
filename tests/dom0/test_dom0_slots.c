/* SPDX-License-Identifier: MIT */
/* Slots and resizing (gBalloon Algorithm 1), the occupancy selector, and the scheduler model. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "dom0/slots_select.h"
#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

/* gBalloon Figure 4 (0-based slots): vGPU1 0-1, vGPU2 2-3, vGPU3 3-4, vGPU4 2. */
static const unsigned fig4_P[] = { 0, 2, 3, 2 }, fig4_S[] = { 2, 2, 2, 1 };

Test(dom0_slots, algorithm1_on_figure_4)
{
	struct slot_layout l = { 5, 4, fig4_P, fig4_S };
	unsigned L, R;

	cr_assert_eq(gballoon_expand(&l, 3, 2, &L, &R, NULL), 0);
	cr_expect(L == 2 && R == 0, "vGPU4 +2: L=%u R=%u, the paper says both to the left", L, R);
	/* after it: vGPU4 holds 0-2; vGPU3 gives up one slot: the shared slot 3, not slot 4 */
	unsigned P2[] = { 0, 2, 3, 0 }, S2[] = { 2, 2, 2, 3 };
	struct slot_layout l2 = { 5, 4, P2, S2 };
	cr_assert_eq(gballoon_reduce(&l2, 2, 1, &L, &R, NULL), 0);
	cr_expect(L == 1 && R == 0, "vGPU3 -1: L=%u R=%u, the paper reduces slot 4 (1-based)", L, R);
}

Test(dom0_slots, algorithm1_error_cases)
{
	struct slot_layout l = { 5, 4, fig4_P, fig4_S };
	unsigned L, R;
	struct gtt_err err = { 0 };

	cr_expect_eq(gballoon_expand(&l, 0, 4, &L, &R, &err), GTT_EINVAL, "2 + 4 > 5 slots");
	cr_expect(strstr(err.msg, "6 of the 5"), "%s", err.msg);
	cr_expect_eq(gballoon_reduce(&l, 3, 2, &L, &R, &err), GTT_EINVAL, "holds 1, reduce 2");
	cr_expect(strstr(err.msg, "holds only 1"), "%s", err.msg);
	cr_expect_eq(occupancy_expand(&l, 0, 4, &L, &R, NULL), GTT_EINVAL);
	cr_expect_eq(occupancy_reduce(&l, 3, 2, &L, &R, NULL), GTT_EINVAL);
}

Test(dom0_slots, occupancy_selector_agrees_with_algorithm1)
{
	uint64_t seed = 2019;
	unsigned agree = 0;

	for (int round = 0; round < 20000; round++) {
		unsigned M = 1 + t_rand(&seed) % 40, N = 1 + t_rand(&seed) % 12, P[12], S[12];
		for (unsigned j = 0; j < N; j++) {
			S[j] = (unsigned)(t_rand(&seed) % (M + 1));
			P[j] = S[j] == M ? 0 : (unsigned)(t_rand(&seed) % (M - S[j] + 1));
		}
		struct slot_layout l = { M, N, P, S };
		unsigned K = (unsigned)(t_rand(&seed) % N), Q = (unsigned)(t_rand(&seed) % (M + 2));
		unsigned L1 = 99, R1 = 99, L2 = 98, R2 = 98;
		int a = gballoon_expand(&l, K, Q, &L1, &R1, NULL), b = occupancy_expand(&l, K, Q, &L2, &R2, NULL);
		cr_assert_eq(a, b, "expand M=%u K=%u Q=%u: %d vs %d", M, K, Q, a, b);
		if (!a) {
			cr_assert(L1 == L2 && R1 == R2, "expand M=%u N=%u K=%u Q=%u: Algorithm 1 %u/%u, selector %u/%u",
				  M, N, K, Q, L1, R1, L2, R2);
			cr_assert_eq(L1 + R1, Q);
			cr_assert(L1 <= P[K] && P[K] + S[K] + R1 <= M, "expansion out of bounds");
			agree++;
		}
		a = gballoon_reduce(&l, K, Q, &L1, &R1, NULL);
		b = occupancy_reduce(&l, K, Q, &L2, &R2, NULL);
		cr_assert_eq(a, b);
		if (!a) {
			cr_assert(L1 == L2 && R1 == R2, "reduce M=%u N=%u K=%u Q=%u: Algorithm 1 %u/%u, selector %u/%u",
				  M, N, K, Q, L1, R1, L2, R2);
			agree++;
		}
	}
	cr_expect_gt(agree, 10000, "too few valid cases (%u) to mean anything", agree);
}

Test(dom0_slots, figure_4_on_the_runtime)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	/* 5 slots: skl, 256 MiB aperture, host high 64 MiB, slots of 640 MiB: (4096-320)/640 = 5 */
	struct dom0_config cfg = { .slot_size = 640 * MiB, .host_high_size = 64 * MiB };
	int id[4];
	unsigned L, R;

	d0_start(&t, "sim:skl", &cfg);
	cr_assert_eq(dom0_layout(t.rt)->num_slots, 5);
	for (int i = 0; i < 4; i++) {
		struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = fig4_S[i], .mem_pages = 16,
					      .place = true, .at_slot = fig4_P[i] };
		cr_assert_eq(dom0_vgpu_create(t.rt, &p, &id[i], &err), 0, "%s", err.msg);
	}
	cr_assert_eq(dom0_switch(t.rt, id[2], NULL, NULL), 0);	/* vGPU3 holds slots 3-4 physically */
	cr_assert_eq(dom0_expand(t.rt, id[3], 2, &L, &R, &err), 0, "%s", err.msg);
	cr_expect(L == 2 && R == 0);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, id[3], &in);
	cr_expect(in.first_slot == 0 && in.slots == 3, "vGPU4 holds %u+%u", in.first_slot, in.slots);
	uint32_t base, size;
	dom0_pvinfo_read(t.rt, id[3], VGT_IF_NONMAPPABLE_BASE - VGT_PVINFO_PAGE, &base, NULL);
	dom0_pvinfo_read(t.rt, id[3], VGT_IF_NONMAPPABLE_SIZE - VGT_PVINFO_PAGE, &size, NULL);
	cr_expect_eq(base, dom0_layout(t.rt)->slots_base, "PVINFO shows the new base at once");
	cr_expect_eq(size, 3 * 640 * MiB);
	uint64_t sh;
	cr_expect_eq(dom0_shadow_pte(t.rt, id[3], base >> 12, &sh, NULL), 0, "the shadow has the new range at once");
	cr_expect_eq(dom0_physical_owner(t.rt, base >> 12), 0, "the physical GTT waits for the next switch");
	cr_expect_eq(dom0_slot_occupancy(t.rt, 0), 2);
	cr_expect_eq(dom0_slot_occupancy(t.rt, 2), 2);

	/* vGPU3 shrinks by one and gives up slot 3, which it shares with vGPU2 */
	dom0_vgpu_info(t.rt, id[2], &in);
	uint64_t released = in.high_base >> 12;
	cr_expect_eq(dom0_physical_owner(t.rt, released), id[2]);
	cr_assert_eq(dom0_reduce(t.rt, id[2], 1, &L, &R, &err), 0, "%s", err.msg);
	cr_expect(L == 1 && R == 0, "L=%u R=%u", L, R);
	dom0_vgpu_info(t.rt, id[2], &in);
	cr_expect(in.first_slot == 4 && in.slots == 1);
	cr_expect_eq(dom0_physical_owner(t.rt, released), 0, "a released slot is given back at once");
	cr_expect_eq(dom0_guest_pte_write(t.rt, id[2], released, d0_guest_pte(&t, 1), &err), GTT_ERANGE,
		     "the released slot is no longer written for it");
	struct dom0_switch_stats s;
	cr_assert_eq(dom0_switch(t.rt, id[2], &s, NULL), 0);
	cr_expect_eq(s.ptes_skipped + s.ptes_written, (4 * MiB + 640 * MiB) >> 12);
	cr_expect_eq(dom0_physical_owner(t.rt, released), 0, "switching in does not touch the released slot");

	/* error cases through the runtime */
	cr_expect_eq(dom0_expand(t.rt, id[0], 4, &L, &R, &err), GTT_EINVAL);
	cr_expect_eq(dom0_reduce(t.rt, id[2], 2, &L, &R, &err), GTT_EINVAL);
	cr_expect_eq(dom0_reduce(t.rt, id[2], 0, &L, &R, &err), GTT_EINVAL);
	d0_stop(&t);
}

Test(dom0_slots, scheduler_round_robin_skips_idle)
{
	struct d0 t;

	d0_start(&t, "sim:skl", NULL);
	int v[4];
	for (int i = 0; i < 4; i++)
		v[i] = d0_create(&t, 4 * MiB, 1, 0);
	dom0_set_busy(t.rt, v[0], true, NULL);
	dom0_set_busy(t.rt, v[2], true, NULL);
	dom0_set_busy(t.rt, v[3], true, NULL);
	int seen[12];
	for (int q = 0; q < 12; q++) {
		cr_assert_eq(dom0_run_quanta(t.rt, 1, NULL, NULL, NULL), 0);
		seen[q] = dom0_render_owner(t.rt);
	}
	static const int busy_order[] = { 0, 2, 3 };
	for (int q = 0; q < 12; q++)
		cr_expect_eq(seen[q], v[busy_order[q % 3]], "quantum %d ran vGPU %d", q, seen[q]);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, v[1], &in);
	cr_expect_eq(in.counters.switches_in, 0, "an idle vGPU is never switched in");
	cr_expect_eq(dom0_sim_time_ms(t.rt), 12 * DOM0_QUANTUM_MS);
	d0_stop(&t);
}

Test(dom0_slots, slot_aware_order_prefers_another_slot)
{
	struct d0 t;
	struct dom0_config cfg = { .slot_aware = true };

	d0_start(&t, "sim:skl", &cfg);
	int v[4];
	unsigned at[4] = { 0, 0, 1, 1 };	/* v0, v1 share slot 0; v2, v3 share slot 1 */
	for (int i = 0; i < 4; i++) {
		struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 8, .place = true, .at_slot = at[i] };
		cr_assert_eq(dom0_vgpu_create(t.rt, &p, &v[i], NULL), 0);
		dom0_set_busy(t.rt, v[i], true, NULL);
	}
	int prev = 0;
	for (int q = 0; q < 8; q++) {
		cr_assert_eq(dom0_run_quanta(t.rt, 1, NULL, NULL, NULL), 0);
		int now = dom0_render_owner(t.rt);
		if (prev) {
			struct dom0_vgpu_info a, b;
			dom0_vgpu_info(t.rt, prev, &a);
			dom0_vgpu_info(t.rt, now, &b);
			cr_expect_neq(a.first_slot, b.first_slot, "quantum %d: vGPU %d after %d, same slot", q, now, prev);
		}
		prev = now;
	}
	d0_stop(&t);
}

/*
 * Slot awareness never starves (dom0/sched.c): gScale's layout where vm1 and
 * vm4 share slot 0 and vm3 is alone, all busy; then seeded random layouts and
 * busy sets. Every busy vGPU runs within 2N - 1 quanta of its last turn (N
 * busy), counted here from the owners seen, not from the runtime's state.
 */
static unsigned worst_wait(struct d0 *t, const int *ids, unsigned n, unsigned quanta)
{
	uint64_t last[16] = { 0 };
	unsigned worst = 0;

	for (unsigned q = 1; q <= quanta; q++) {
		cr_assert_eq(dom0_run_quanta(t->rt, 1, NULL, NULL, NULL), 0);
		int now = dom0_render_owner(t->rt);
		for (unsigned i = 0; i < n; i++) {
			if (ids[i] != now)
				continue;
			if (q - last[i] - 1 > worst)
				worst = (unsigned)(q - last[i] - 1);
			last[i] = q;
		}
	}
	for (unsigned i = 0; i < n; i++)
		if (quanta - last[i] > worst)
			worst = (unsigned)(quanta - last[i]);
	return worst;
}

Test(dom0_slots, slot_aware_never_starves_a_busy_vgpu)
{
	struct dom0_config cfg = { .slot_aware = true };
	struct d0 t;
	int v[3];
	unsigned at[3] = { 0, 2, 0 };	/* vm1, vm3, vm4 of gscale-15-vgpus.scn */

	d0_start(&t, "sim:skl", &cfg);
	for (int i = 0; i < 3; i++) {
		struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 8, .place = true, .at_slot = at[i] };
		cr_assert_eq(dom0_vgpu_create(t.rt, &p, &v[i], NULL), 0);
		dom0_set_busy(t.rt, v[i], true, NULL);
	}
	unsigned w = worst_wait(&t, v, 3, 300);
	cr_expect(w <= 5, "a busy vGPU waited %u quanta; with 3 busy the bound is 5", w);
	d0_stop(&t);

	uint64_t seed = 0x5ced;
	for (unsigned k = 0; k < 40; k++) {
		int ids[16];
		unsigned n = 2 + t_rand(&seed) % 7;
		d0_start(&t, "sim:skl", &cfg);
		for (unsigned i = 0; i < n; i++) {
			struct dom0_vgpu_params p = { .low_size = 1 * MiB, .high_slots = 1, .mem_pages = 2, .place = true,
						      .at_slot = (unsigned)(t_rand(&seed) % 3) };
			cr_assert_eq(dom0_vgpu_create(t.rt, &p, &ids[i], NULL), 0);
			dom0_set_busy(t.rt, ids[i], true, NULL);
		}
		w = worst_wait(&t, ids, n, 200);
		cr_expect(w <= 2 * n - 1, "layout %u: a busy vGPU waited %u quanta; with %u busy the bound is %u", k, w, n, 2 * n - 1);
		d0_stop(&t);
	}
}

/* The running vGPU's new slots are its own at once: another vGPU's entries must not stay there. */
Test(dom0_slots, the_render_owner_expands_into_its_own_entries)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:skl", NULL);
	struct dom0_vgpu_params pa = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 16, .place = true, .at_slot = 0 };
	struct dom0_vgpu_params pb = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 16, .place = true, .at_slot = 1 };
	int a, b;
	cr_assert_eq(dom0_vgpu_create(t.rt, &pa, &a, &err), 0);
	cr_assert_eq(dom0_vgpu_create(t.rt, &pb, &b, &err), 0);
	struct dom0_vgpu_info ib;
	dom0_vgpu_info(t.rt, b, &ib);
	cr_assert_eq(dom0_guest_pte_write(t.rt, b, ib.high_base >> 12, d0_guest_pte(&t, 3), &err), 0);
	cr_assert_eq(dom0_switch(t.rt, b, NULL, &err), 0);
	cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0);
	unsigned L, R;
	cr_assert_eq(dom0_expand(t.rt, a, 1, &L, &R, &err), 0, "%s", err.msg);
	cr_assert(L == 0 && R == 1, "slot 1 is the only way to grow");
	cr_expect_eq(dom0_physical_owner(t.rt, ib.high_base >> 12), a, "the running vGPU's new slot still holds vGPU %d's entries", b);
	struct hw_page pb3;
	dom0_guest_page(t.rt, b, 3, &pb3);
	cr_expect_neq(d0_pte_addr(&t, d0_phys(&t, ib.high_base >> 12)), pb3.phys, "vGPU %d's page is mapped in vGPU %d's range", b, a);
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, ib.high_base >> 12, d0_guest_pte(&t, 5), &err), 0);
	struct hw_page pa5;
	dom0_guest_page(t.rt, a, 5, &pa5);
	cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, ib.high_base >> 12)), pa5.phys, "the running vGPU's write did not reach the GTT");
	d0_stop(&t);
}

/*
 * The copy an expansion of the running vGPU makes is a copy like a switch's
 * (issue 27): its PTEs and, at a fixed cost per PTE, R_copy's time are
 * charged to the runtime, exactly: a 64 MiB slot is 16,384 entries, every
 * one of them changed (the new slot held the boot entries, now the vGPU's
 * scratch page).
 */
Test(dom0_slots, the_running_vgpus_expansion_copy_is_charged)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	struct dom0_policy pol = { .period_ms = 500, .cpus = 1, .copy_ps_per_pte = 30000, .min_slots = 1 };

	d0_start(&t, "sim:skl", NULL);
	struct dom0_vgpu_params pa = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 16, .place = true, .at_slot = 0 };
	int a;
	cr_assert_eq(dom0_vgpu_create(t.rt, &pa, &a, &err), 0);
	cr_assert_eq(dom0_policy_set(t.rt, &pol, 0, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0);
	struct dom0_counters before = *dom0_counters(t.rt);
	cr_assert_eq(dom0_expand(t.rt, a, 1, NULL, NULL, &err), 0, "%s", err.msg);
	const struct dom0_counters *after = dom0_counters(t.rt);
	cr_expect_eq(after->ptes_written - before.ptes_written, 16384, "the expansion's copy wrote %llu PTEs as counted",
		     (unsigned long long)(after->ptes_written - before.ptes_written));
	cr_expect_eq(after->copy_ns - before.copy_ns, 16384 * 30, "R_copy's time grew by %llu ns",
		     (unsigned long long)(after->copy_ns - before.copy_ns));
	cr_expect_eq(after->switches, before.switches, "an expansion is no switch");
	d0_stop(&t);
}

/*
 * Issue 9: `expand a 4294967295` wrapped S_K + Q past Algorithm 1's check and
 * wrote past the shadow tables; an `at` slot near 2^32 wrapped the placement
 * check. Every such count is refused and nothing changes.
 */
Test(dom0_slots, huge_counts_are_refused_without_wrapping)
{
	static const unsigned counts[] = { 4294967295u, 4294967294u, 4294967293u, 2147483648u, 1025 };
	struct gtt_err err = { 0 };
	struct d0 t;
	unsigned L, R;

	d0_start(&t, "sim:skl", NULL);
	int a = d0_create(&t, 4 * MiB, 2, 0);
	size_t len0;
	uint8_t *before = d0_capture(&t, &len0);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
		cr_expect_eq(dom0_expand(t.rt, a, counts[i], &L, &R, &err), GTT_EINVAL, "expand by %u", counts[i]);
		cr_expect(strstr(err.msg, "would hold"), "%s", err.msg);
		cr_expect_eq(dom0_reduce(t.rt, a, counts[i], &L, &R, &err), GTT_EINVAL, "reduce by %u", counts[i]);
	}
	struct slot_layout l = { 64, 1, (unsigned[]){ 3 }, (unsigned[]){ 2 } };
	cr_expect_eq(occupancy_expand(&l, 0, 4294967295u, &L, &R, &err), GTT_EINVAL);
	cr_expect_eq(gballoon_expand(&l, 0, 4294967294u, &L, &R, &err), GTT_EINVAL);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	cr_expect_eq(in.slots, 2);
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 2, .place = true, .at_slot = 4294967295u };
	int id;
	cr_expect_eq(dom0_vgpu_create(t.rt, &p, &id, &err), GTT_EINVAL, "at slot 2^32-1");
	p.at_slot = 4294967294u;
	cr_expect_eq(dom0_vgpu_create(t.rt, &p, &id, &err), GTT_EINVAL, "at slot 2^32-2 with 2 slots wraps to 0");
	cr_expect(strstr(err.msg, "slots 4294967294.."), "%s", err.msg);
	size_t len1;
	uint8_t *after = d0_capture(&t, &len1);
	cr_expect(len0 == len1 && !memcmp(before, after, len0), "refused resizes changed the GGTT or fences");
	free(before);
	free(after);
	d0_stop(&t);
}
