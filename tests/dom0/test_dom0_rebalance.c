/* SPDX-License-Identifier: MIT */
/*
 * VOCL's load balancing (dom0/rebalance.c), from its rules (docs/dom0.md):
 * a device's load is its busy vGPUs that can run; a move goes to the least
 * loaded device, within a device to the least-shared run of slots; the
 * rebalancer moves the busiest device's cheapest busy vGPU when the loads
 * differ by more than the threshold, and the vGPU's bytes go with it.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

static int vgpu(struct d0 *t, unsigned slots, unsigned mem_pages, bool busy)
{
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = slots, .mem_pages = mem_pages };
	struct gtt_err err = { 0 };
	int id = 0;

	cr_assert_eq(dom0_vgpu_create(t->rt, &p, &id, &err), 0, "%s", err.msg);
	if (busy)
		cr_assert_eq(dom0_set_busy(t->rt, id, true, &err), 0, "%s", err.msg);
	return id;
}

Test(dom0_rebalance, load_counts_busy_vgpus_that_can_run)
{
	struct dom0_config cfg = { .slot_size = 256 * MiB, .share_limit = 1, .admission = DOM0_ADMIT_FIFO };
	struct gtt_err err = { 0 };
	struct d0 t;

	d0_start(&t, "sim:skl", &cfg);
	unsigned M = dom0_layout(t.rt)->num_slots;
	cr_assert_eq(dom0_load(t.rt), 0);
	vgpu(&t, 1, 4, true);
	vgpu(&t, 1, 4, false);
	cr_assert_eq(dom0_load(t.rt), 1, "an idle vGPU is no load");
	int big = vgpu(&t, M, 4, false);	/* does not fit: paused */
	cr_assert_eq(dom0_vgpu_paused(t.rt, big), DOM0_PAUSE_CREATE);
	cr_assert_eq(dom0_set_busy(t.rt, big, true, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_load(t.rt), 1, "a paused vGPU is no load: it cannot run");
	d0_stop(&t);
}

Test(dom0_rebalance, the_least_loaded_device_is_selected)
{
	struct d0 a, b, c;

	d0_start(&a, "sim:skl", NULL);
	d0_start(&b, "sim:skl", NULL);
	d0_start(&c, "sim:kbl", NULL);
	struct dom0_runtime *rts[] = { a.rt, b.rt, c.rt };
	vgpu(&a, 1, 4, true);
	vgpu(&a, 1, 4, true);
	vgpu(&b, 1, 4, true);
	vgpu(&c, 1, 4, true);
	cr_assert_eq(dom0_least_loaded(rts, 3, -1), 1, "b and c carry 1: the first of equals");
	cr_assert_eq(dom0_least_loaded(rts, 3, 1), 2, "b excluded: c");
	vgpu(&c, 1, 4, true);
	cr_assert_eq(dom0_least_loaded(rts, 3, -1), 1);
	cr_assert_eq(dom0_least_loaded(rts, 1, 0), -1, "nothing but the excluded one");
	d0_stop(&a);
	d0_stop(&b);
	d0_stop(&c);
}

/* Within a device: the run with the fewest other holders, never its own run; none under the limit: EBUSY. */
Test(dom0_rebalance, a_slot_move_goes_where_it_shares_least)
{
	struct dom0_config cfg = { .slot_size = 256 * MiB, .share_limit = 2 };
	struct gtt_err err = { 0 };
	unsigned to = 99;
	struct d0 t;

	d0_start(&t, "sim:skl", &cfg);
	unsigned M = dom0_layout(t.rt)->num_slots;
	cr_assert(M >= 6, "%u slots", M);
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 2, .mem_pages = 4, .place = true };
	int v, w, x;
	p.at_slot = 0;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &v, &err), 0, "%s", err.msg);
	p.at_slot = 2;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &w, &err), 0, "%s", err.msg);
	p.at_slot = 4;
	p.high_slots = M - 4;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &x, &err), 0, "%s", err.msg);
	/* every run of 2 other than v's shares with w or x; 1..2 shares one slot with w (v's own slot 1 is not another's) */
	cr_assert_eq(dom0_migrate_target_slot(t.rt, v, &to, &err), 0, "%s", err.msg);
	cr_assert_eq(to, 1, "v (slots 0-1) goes to %u; 1-2 shares only slot 2, with w", to);
	/* a second vGPU on slots 2-3 fills them: w's run has no room for a third */
	p.at_slot = 2;
	p.high_slots = 2;
	int y;
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &y, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_migrate_target_slot(t.rt, v, &to, &err), 0, "%s", err.msg);
	cr_assert(to >= 4, "v goes to %u, past the full slots 2-3", to);
	cr_assert_eq(dom0_migrate_target_slot(t.rt, 77, &to, &err), GTT_EINVAL);
	d0_stop(&t);
	/* partitioned and full: nowhere */
	struct dom0_config part = { .slot_size = 256 * MiB, .share_limit = 1 };
	d0_start(&t, "sim:skl", &part);
	M = dom0_layout(t.rt)->num_slots;
	v = vgpu(&t, 1, 4, false);
	vgpu(&t, M - 1, 4, false);
	cr_assert_eq(dom0_migrate_target_slot(t.rt, v, &to, &err), GTT_EBUSY);
	cr_assert(strstr(err.msg, "share limit"), "%s", err.msg);
	d0_stop(&t);
}

/* voclRebalance: two busy on a, none on b, threshold 1: the one with less guest memory moves, with its bytes. */
Test(dom0_rebalance, the_busiest_device_sheds_its_cheapest_vgpu)
{
	struct gtt_err err = { 0 };
	struct dom0_rebalance r;
	struct d0 a, b;

	d0_start(&a, "sim:skl", NULL);
	d0_start(&b, "sim:skl", NULL);
	struct dom0_runtime *rts[] = { a.rt, b.rt };
	int heavy = vgpu(&a, 2, 64, true), light = vgpu(&a, 2, 16, true);
	struct hw_page pg;
	cr_assert_eq(dom0_guest_page(a.rt, light, 3, &pg), 0);
	memset(pg.cpu, 0x5a, 4096);

	cr_assert_eq(dom0_rebalance(rts, 2, 2, &r, &err), 0, "%s", err.msg);
	cr_assert(!r.moved && r.from == 0 && r.to == 1 && r.load_from == 2 && r.load_to == 0,
		  "2 against 0 is within a threshold of 2: moved %d, %d -> %d", r.moved, r.from, r.to);
	cr_assert_eq(dom0_rebalance(rts, 2, 1, &r, &err), 0, "%s", err.msg);
	cr_assert(r.moved && r.from == 0 && r.to == 1 && r.id == light, "moved %d: vGPU %d from %d to %d", r.moved, r.id,
		  r.from, r.to);
	cr_assert(!dom0_vgpu_exists(a.rt, light) && dom0_vgpu_exists(a.rt, heavy));
	cr_assert_eq(dom0_load(a.rt), 1);
	cr_assert_eq(dom0_load(b.rt), 1, "it stays busy on its new device");
	cr_assert_eq(dom0_guest_page(b.rt, r.new_id, 3, &pg), 0);
	for (unsigned i = 0; i < 4096; i++)
		cr_assert_eq(((const uint8_t *)pg.cpu)[i], 0x5a, "byte %u of its guest page 3 did not come along", i);
	cr_assert(r.m.bytes_copied >= 16 * 4096ull, "%llu bytes copied", (unsigned long long)r.m.bytes_copied);
	cr_assert_eq(dom0_rebalance(rts, 2, 1, &r, &err), 0, "%s", err.msg);
	cr_assert(!r.moved, "1 against 1: nothing moves");
	d0_stop(&a);
	d0_stop(&b);
}
