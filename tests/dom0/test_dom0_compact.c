/* SPDX-License-Identifier: MIT */
/*
 * Compaction by migration (dom0/compact.c), from its rules (docs/dom0.md):
 * a paused create that no run of free slots holds gets one cleared, by the
 * fewest slot migrations that move every holder of some run to free runs
 * outside it; the holders keep their bytes; nothing moves when no run can
 * be cleared.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

/* A partitioned layout with a one-slot vGPU on every slot, each with its own byte in its guest page 0. */
static unsigned full(struct d0 *t, int *ids)
{
	struct dom0_config cfg = { .slot_size = 256 * MiB, .share_limit = 1, .admission = DOM0_ADMIT_FIFO };
	struct dom0_vgpu_params p = { .low_size = 1 * MiB, .high_slots = 1, .mem_pages = 2 };
	struct gtt_err err = { 0 };
	struct hw_page pg;

	d0_start(t, "sim:skl", &cfg);
	unsigned M = dom0_layout(t->rt)->num_slots;
	cr_assert(M >= 8 && M <= 64, "%u slots", M);
	for (unsigned s = 0; s < M; s++) {
		cr_assert_eq(dom0_vgpu_create(t->rt, &p, &ids[s], &err), 0, "%s", err.msg);
		cr_assert_eq(dom0_guest_page(t->rt, ids[s], 0, &pg), 0);
		memset(pg.cpu, 0x40 + (int)s, 4096);
	}
	return M;
}

static int paused(struct d0 *t, unsigned slots)
{
	struct dom0_vgpu_params p = { .low_size = 1 * MiB, .high_slots = slots, .mem_pages = 2 };
	struct gtt_err err = { 0 };
	int id = 0;

	cr_assert_eq(dom0_vgpu_create(t->rt, &p, &id, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t->rt, id), DOM0_PAUSE_CREATE);
	return id;
}

/* Free slots 1, 3 and 5 (three, no two in a run): a 2-slot create gets 0-1 by moving slot 0's vGPU to 3. */
Test(dom0_compact, one_move_clears_a_run)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	struct hw_page pg;
	unsigned moved = 9, slots = 9;
	struct d0 t;

	unsigned M = full(&t, ids);
	int a = paused(&t, 2);
	for (unsigned s = 1; s <= 5; s += 2)
		cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[s], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_CREATE, "no run of 2 is free");
	cr_assert_eq(dom0_compact_for(t.rt, a, &moved, &slots, &err), 0, "%s", err.msg);
	cr_assert(moved == 1 && slots == 1, "%u moves of %u slots; one of one clears 0-1", moved, slots);
	cr_assert_eq(dom0_vgpu_info(t.rt, a, &in), 0);
	cr_assert(!in.paused && in.first_slot == 0 && in.slots == 2, "A: paused %d at %u+%u", in.paused, in.first_slot,
		  in.slots);
	cr_assert_eq(dom0_vgpu_info(t.rt, ids[0], &in), 0);
	cr_assert_eq(in.first_slot, 3, "slot 0's vGPU went to %u, the first free slot outside 0-1", in.first_slot);
	cr_assert_eq(dom0_guest_page(t.rt, ids[0], 0, &pg), 0);
	cr_assert_eq(((const uint8_t *)pg.cpu)[100], 0x40, "the moved vGPU's bytes are not its own");
	for (unsigned s = 0; s < M; s++)
		cr_assert_leq(dom0_slot_occupancy(t.rt, s), 1, "slot %u held twice", s);
	d0_stop(&t);
}

/* Two free slots for a 3-slot create: nothing can clear a run, nothing moves. */
Test(dom0_compact, nothing_moves_when_no_run_can_be_cleared)
{
	int ids[64];
	struct gtt_err err = { 0 };
	unsigned moved = 9, slots = 9;
	struct d0 t;

	full(&t, ids);
	int a = paused(&t, 3);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[4], &err), 0, "%s", err.msg);
	uint64_t moves = dom0_counters(t.rt)->migrations;
	cr_assert_eq(dom0_compact_for(t.rt, a, &moved, &slots, &err), 0, "%s", err.msg);
	cr_assert(moved == 0 && slots == 0 && dom0_counters(t.rt)->migrations == moves, "%u moves", moved);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_CREATE);
	d0_stop(&t);
}

/* Of the runs that can be cleared, the one with the fewest holders, not the lowest: free 1, 5, 6 for a 3-slot create. */
Test(dom0_compact, the_run_with_the_fewest_holders_is_cleared)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	unsigned moved = 9, slots = 9;
	struct d0 t;

	full(&t, ids);
	int a = paused(&t, 3);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[5], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[6], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_CREATE);
	cr_assert_eq(dom0_compact_for(t.rt, a, &moved, &slots, &err), 0, "%s", err.msg);
	/* 0-2 and 1-3 hold two vGPUs each; 4-6 and 5-7 one; 4-6 is the lower of those */
	cr_assert_eq(moved, 1, "%u moves", moved);
	cr_assert_eq(dom0_vgpu_info(t.rt, a, &in), 0);
	cr_assert(!in.paused && in.first_slot == 4, "A: paused %d at %u", in.paused, in.first_slot);
	d0_stop(&t);
}

/*
 * A place another paused create holds is not a place to move to: B (3
 * slots, older) holds slot 7; A (2 slots) holds slot 1 when it frees. The
 * only free place outside any run A could take is B's, so nothing moves.
 */
Test(dom0_compact, a_place_another_request_holds_stays_its_own)
{
	int ids[64];
	struct gtt_err err = { 0 };
	unsigned moved = 9;
	struct d0 t;

	full(&t, ids);
	int b = paused(&t, 3);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[7], &err), 0, "%s", err.msg);
	int a = paused(&t, 2);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	cr_assert(dom0_vgpu_paused(t.rt, a) && dom0_vgpu_paused(t.rt, b));
	uint64_t moves = dom0_counters(t.rt)->migrations;
	cr_assert_eq(dom0_compact_for(t.rt, a, &moved, NULL, &err), 0, "%s", err.msg);
	cr_assert(moved == 0 && dom0_counters(t.rt)->migrations == moves, "%u moves: slot 7 is B's", moved);
	/* B keeps slot 7 through A's turn: a slot move there is refused */
	cr_assert_eq(dom0_migrate(t.rt, ids[0], 7, NULL, &err), GTT_EBUSY, "slot 7 is not B's any more");
	d0_stop(&t);
}

/*
 * ...unless the policy ranks the request it compacts for first: A (2
 * slots, older under FIFO) holds slot 3, B (3 slots, younger) slot 7. To
 * clear 2-3 for A, slot 2's vGPU moves into 7, which B gives up to A.
 */
Test(dom0_compact, a_place_a_later_request_holds_goes_to_the_first)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	unsigned moved = 9;
	struct d0 t;

	full(&t, ids);
	int a = paused(&t, 2), b = paused(&t, 3);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[3], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[7], &err), 0, "%s", err.msg);
	cr_assert(dom0_vgpu_paused(t.rt, a) && dom0_vgpu_paused(t.rt, b));
	cr_assert_eq(dom0_compact_for(t.rt, a, &moved, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(moved, 1, "%u moves", moved);
	cr_assert_eq(dom0_vgpu_info(t.rt, a, &in), 0);
	cr_assert(!in.paused && in.first_slot == 2 && in.slots == 2, "A: paused %d at %u+%u", in.paused, in.first_slot,
		  in.slots);
	cr_assert_eq(dom0_vgpu_info(t.rt, ids[2], &in), 0);
	cr_assert_eq(in.first_slot, 7, "slot 2's vGPU went to %u", in.first_slot);
	cr_assert_eq(dom0_vgpu_paused(t.rt, b), DOM0_PAUSE_CREATE);
	d0_stop(&t);
}

/*
 * A vGPU that can only grow into another's slots moves first to a run
 * where it grows alone (gScale's sharing layout, no share limit): A on 0-1
 * against B on 2-3 moves to 4, and its expansion by one shares nothing.
 * Where it can grow alone it stays.
 */
Test(dom0_compact, a_vgpu_moves_to_grow_alone)
{
	struct dom0_config cfg = { .slot_size = 256 * MiB };
	struct dom0_vgpu_params p = { .low_size = 1 * MiB, .high_slots = 2, .mem_pages = 2, .place = true };
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	bool moved = true;
	int a, b;
	struct d0 t;

	d0_start(&t, "sim:skl", &cfg);
	cr_assert_geq(dom0_layout(t.rt)->num_slots, 8);
	p.at_slot = 0;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &a, &err), 0, "%s", err.msg);
	p.at_slot = 2;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &b, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_move_to_grow(t.rt, a, 1, &moved, NULL, &err), 0, "%s", err.msg);
	cr_assert(moved, "A did not move: it can only grow into B's slot 2");
	cr_assert_eq(dom0_vgpu_info(t.rt, a, &in), 0);
	cr_assert_eq(in.first_slot, 4, "A moved to %u, not 4, the first run of 3 slots no one holds", in.first_slot);
	cr_assert_eq(dom0_expand(t.rt, a, 1, NULL, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_shared_slots(t.rt), 0, "A's expansion after the move shares %u slots", dom0_shared_slots(t.rt));
	/* B (2-3, A now on 4-6) can grow alone into slot 1 */
	cr_assert_eq(dom0_move_to_grow(t.rt, b, 1, &moved, NULL, &err), 0, "%s", err.msg);
	cr_assert(!moved, "B moved though slot 1 is free beside it");
	cr_assert_eq(dom0_vgpu_info(t.rt, b, &in), 0);
	cr_assert_eq(in.first_slot, 2);
	d0_stop(&t);
}

/* A place the request holds elsewhere is free for the holders it moves: A holds 5, 0-1 is cleared into it. */
Test(dom0_compact, the_requests_own_held_place_takes_a_holder)
{
	int ids[64];
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	unsigned moved = 9;
	struct d0 t;

	full(&t, ids);
	int a = paused(&t, 2);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[5], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, ids[1], &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_paused(t.rt, a), DOM0_PAUSE_CREATE);
	cr_assert_eq(dom0_compact_for(t.rt, a, &moved, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(moved, 1, "%u moves", moved);
	cr_assert_eq(dom0_vgpu_info(t.rt, a, &in), 0);
	cr_assert(!in.paused && in.first_slot == 0, "A: paused %d at %u", in.paused, in.first_slot);
	cr_assert_eq(dom0_vgpu_info(t.rt, ids[0], &in), 0);
	cr_assert_eq(in.first_slot, 5, "slot 0's vGPU went to %u, not to slot 5 that A held", in.first_slot);
	d0_stop(&t);
}

Test(dom0_compact, refusals)
{
	int ids[64];
	struct gtt_err err = { 0 };
	unsigned moved;
	struct d0 t;

	full(&t, ids);
	cr_assert_eq(dom0_compact_for(t.rt, ids[0], &moved, NULL, &err), GTT_EINVAL);
	cr_assert(strstr(err.msg, "not paused"), "%s", err.msg);
	cr_assert_eq(dom0_compact_for(t.rt, 99, &moved, NULL, &err), GTT_EINVAL);
	d0_stop(&t);
	d0_start(&t, "sim:skl", NULL);
	cr_assert_eq(dom0_compact_for(t.rt, 1, &moved, NULL, &err), GTT_EINVAL);
	cr_assert(strstr(err.msg, "share limit"), "%s", err.msg);
	d0_stop(&t);
}
