/* SPDX-License-Identifier: MIT */
/*
 * Context switches: the physical GTT equals the incoming vGPU's shadow in its
 * ranges, the host's ranges stay as found, the data through the aperture is
 * the incoming vGPU's, slot sharing skips exactly what the physical GTT
 * already holds, and the PTE writes are the minimum: counted by the runtime
 * and seen in the model's access trace.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

/* MMIO writes into the GSM since the trace started = PTE writes that reached the device. */
static uint64_t gsm_writes(const struct d0 *t)
{
	struct sim_trace_entry e;
	uint64_t n = 0;

	for (size_t i = 0; sim_trace_get(t->sim, i, &e); i++)
		n += e.kind == SIM_MMIO_WRITE && e.addr >= t->dev->info.gsm_offset &&
		     e.addr < t->dev->info.gsm_offset + t->dev->info.gsm_size &&
		     /* the model splits a 64-bit PTE write into halves: count each PTE once */
		     (e.addr - t->dev->info.gsm_offset) % t->dev->info.pte_size == 0;
	return n;
}

static void fill(struct d0 *t, int id, uint64_t seed)
{
	struct dom0_vgpu_info in;

	dom0_vgpu_info(t->rt, id, &in);
	for (uint64_t i = 0; i < in.low_size >> 12; i += 7)
		cr_assert_eq(dom0_guest_pte_write(t->rt, id, (in.low_base >> 12) + i, d0_guest_pte(t, (i + seed) % 64), NULL), 0);
	for (uint64_t i = 0; i < in.high_size >> 12; i += 97)
		cr_assert_eq(dom0_guest_pte_write(t->rt, id, (in.high_base >> 12) + i, d0_guest_pte(t, (i * 3 + seed) % 64), NULL), 0);
}

static void expect_physical_is_shadow(struct d0 *t, int id)
{
	struct dom0_vgpu_info in;
	uint64_t sh;

	dom0_vgpu_info(t->rt, id, &in);
	for (uint64_t i = in.low_base >> 12; i < (in.low_base + in.low_size) >> 12; i++) {
		dom0_shadow_pte(t->rt, id, i, &sh, NULL);
		cr_assert_eq(d0_phys(t, i), sh, "vGPU %d low PTE %llu differs from its shadow", id, (unsigned long long)i);
	}
	for (uint64_t i = in.high_base >> 12; i < (in.high_base + in.high_size) >> 12; i++) {
		dom0_shadow_pte(t->rt, id, i, &sh, NULL);
		cr_assert_eq(d0_phys(t, i), sh, "vGPU %d high PTE %llu differs from its shadow", id, (unsigned long long)i);
	}
}

Test(dom0_switch, physical_equals_shadow_and_writes_are_minimal)
{
	struct d0 t;
	struct dom0_switch_stats s;
	struct gtt_err err = { 0 };
	const int N = 4;
	int id[4];
	uint64_t low_size[4] = { 16 * MiB, 8 * MiB, 16 * MiB, 4 * MiB };

	d0_start(&t, "sim:skl", NULL);
	const struct dom0_layout *l = dom0_layout(t.rt);
	uint64_t host_lo = l->host_low_base >> 12, host_hi = l->host_high_base >> 12;
	uint64_t host_low0 = d0_phys(&t, host_lo), host_high0 = d0_phys(&t, host_hi + 5);
	for (int i = 0; i < N; i++) {
		struct dom0_vgpu_params p = { .low_size = low_size[i], .high_slots = 1, .mem_pages = 64,
					      .place = true, .at_slot = (unsigned)i / 2 };	/* two per slot */
		cr_assert_eq(dom0_vgpu_create(t.rt, &p, &id[i], &err), 0, "%s", err.msg);
		fill(&t, id[i], (uint64_t)i * 11);
	}
	/* the test's own model of who holds each physical entry */
	uint64_t n = t.dev->info.n_ptes;
	int *holder = calloc(n, sizeof(int));
	int order[] = { 0, 1, 0, 2, 3, 2, 0, 0, 3, 1 };
	cr_assert_eq(sim_trace_start(t.sim, 1 << 22), 0);
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
		int v = id[order[k]];
		struct dom0_vgpu_info in;
		dom0_vgpu_info(t.rt, v, &in);
		uint64_t want = 0, total = (in.low_size + in.high_size) >> 12;
		for (uint64_t i = in.low_base >> 12; i < (in.low_base + in.low_size) >> 12; i++)
			want += holder[i] != v, holder[i] = v;
		for (uint64_t i = in.high_base >> 12; i < (in.high_base + in.high_size) >> 12; i++)
			want += holder[i] != v, holder[i] = v;
		sim_trace_stop(t.sim);
		cr_assert_eq(sim_trace_start(t.sim, 1 << 22), 0);
		cr_assert_eq(dom0_switch(t.rt, v, &s, &err), 0, "%s", err.msg);
		cr_expect_eq(s.ptes_written, want, "switch %zu to vGPU %d wrote %llu PTEs, the minimum is %llu", k, v,
			     (unsigned long long)s.ptes_written, (unsigned long long)want);
		cr_expect_eq(s.ptes_skipped, total - want, "switch %zu skipped %llu", k, (unsigned long long)s.ptes_skipped);
		cr_expect_eq(gsm_writes(&t), want, "switch %zu: the device saw %llu PTE writes, the runtime counted %llu",
			     k, (unsigned long long)gsm_writes(&t), (unsigned long long)s.ptes_written);
		cr_expect_eq(dom0_render_owner(t.rt), v);
		expect_physical_is_shadow(&t, v);
		/* the data path: the first page of the low range reads as the vGPU's page */
		uint64_t g, sh;
		struct hw_page pg;
		cr_assert_eq(dom0_guest_pte_read(t.rt, v, in.low_base >> 12, &g, NULL), 0);
		dom0_guest_page(t.rt, v, d0_pte_addr(&t, g) >> 12, &pg);
		memset(pg.cpu, 0x40 + v, 16);
		uint8_t b[16];
		sim_aperture_read(t.sim, in.low_base, b, 16);
		cr_expect_eq(b[0], 0x40 + v, "switch %zu: aperture shows another vGPU's data", k);
		dom0_shadow_pte(t.rt, v, in.low_base >> 12, &sh, NULL);
		cr_expect_eq(d0_pte_addr(&t, sh), pg.phys);
	}
	cr_expect_eq(d0_phys(&t, host_lo), host_low0, "the host's low range was written");
	cr_expect_eq(d0_phys(&t, host_hi + 5), host_high0, "the host's high range was written");
	/* a vGPU switched in twice in a row copies nothing */
	cr_assert_eq(dom0_switch(t.rt, id[3], &s, NULL), 0);
	cr_assert_eq(dom0_switch(t.rt, id[3], &s, NULL), 0);
	cr_expect_eq(s.ptes_written, 0);
	free(holder);
	d0_stop(&t);
}

Test(dom0_switch, slot_sharing_skips_a_slot_still_held)
{
	struct d0 t;
	struct dom0_switch_stats s;

	d0_start(&t, "sim:skl", NULL);
	int a = d0_create(&t, 4 * MiB, 2, 0), b = d0_create(&t, 4 * MiB, 2, 0);	/* different slots */
	struct dom0_vgpu_info ia, ib;
	dom0_vgpu_info(t.rt, a, &ia);
	dom0_vgpu_info(t.rt, b, &ib);
	cr_assert_neq(ia.first_slot, ib.first_slot, "least-sharing placement put both in one slot");
	cr_assert_eq(dom0_switch(t.rt, a, &s, NULL), 0);
	cr_expect_eq(s.ptes_written, (ia.low_size + ia.high_size) >> 12);
	cr_assert_eq(dom0_switch(t.rt, b, &s, NULL), 0);
	cr_assert_eq(dom0_switch(t.rt, a, &s, NULL), 0);
	/* only the shared low range comes back; A's high slots were never evicted */
	cr_expect_eq(s.ptes_written, ia.low_size >> 12);
	cr_expect_eq(s.ptes_skipped, ia.high_size >> 12);
	cr_expect_eq(dom0_counters(t.rt)->switches, 3);
	cr_expect_eq(dom0_counters(t.rt)->invalidates, 3, "one GGTT invalidate per switch");
	d0_stop(&t);
}

Test(dom0_switch, ladder_map_serves_the_guest_while_another_owns_the_gtt)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	char buf[32];

	d0_start(&t, "sim:hsw", NULL);
	int a = d0_create(&t, 4 * MiB, 1, 0), b = d0_create(&t, 4 * MiB, 1, 0);
	struct dom0_vgpu_info ia;
	dom0_vgpu_info(t.rt, a, &ia);
	uint64_t gm = ia.low_base + 3 * 4096;
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, gm >> 12, d0_guest_pte(&t, 9), &err), 0);
	cr_assert_eq(dom0_guest_pte_write(t.rt, b, gm >> 12, d0_guest_pte(&t, 9), &err), 0);
	cr_assert_eq(dom0_switch(t.rt, b, NULL, &err), 0);	/* B owns the shared low range */
	cr_assert_eq(dom0_guest_aperture_write(t.rt, a, gm + 100, "written by A", 13, &err), 0, "%s", err.msg);
	struct hw_page pa, pb;
	dom0_guest_page(t.rt, a, 9, &pa);
	dom0_guest_page(t.rt, b, 9, &pb);
	cr_expect_str_eq((char *)pa.cpu + 100, "written by A", "A's write did not reach A's page");
	cr_expect_neq(memcmp((char *)pb.cpu + 100, "written by A", 13), 0, "A's write reached B's page");
	cr_assert_eq(dom0_guest_aperture_read(t.rt, a, gm + 100, buf, 13, &err), 0);
	cr_expect_str_eq(buf, "written by A");
	/* the real aperture shows B's page at the same address */
	sim_aperture_read(t.sim, gm + 100, buf, 13);
	cr_expect_neq(memcmp(buf, "written by A", 13), 0);
	/* counters: three writes to one page, two of them changing the ladder entry */
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, gm >> 12, d0_guest_pte(&t, 9), &err), 0);
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, gm >> 12, d0_guest_pte(&t, 10), &err), 0);
	dom0_vgpu_info(t.rt, a, &ia);
	cr_expect_eq(ia.counters.gtt_modifications, 3);
	cr_expect_eq(ia.counters.ladder_mappings, 2);
	cr_expect_eq(dom0_guest_aperture_read(t.rt, a, ia.low_base + ia.low_size, buf, 1, &err), GTT_ERANGE);
	d0_stop(&t);
}

/*
 * Value-minimal: two vGPUs on the same guest pages (a VM's RAM given twice)
 * hold equal entries wherever they map the same frame; a switch writes only
 * the entries whose value differs, counted here from the model's GSM before
 * the switch against the incoming shadow, whatever their pattern (equal
 * entries single, in pairs, at every offset of a run).
 */
Test(dom0_switch, a_switch_writes_exactly_the_entries_whose_value_differs)
{
	struct d0 t;
	struct dom0_switch_stats s;
	struct gtt_err err = { 0 };
	struct hw_page mem[64];
	int a = 0, b = 0;
	uint64_t seed = 0x77;

	d0_start(&t, "sim:skl", NULL);
	cr_assert_eq(hw_alloc_test_pages(t.dev, 64, mem, &err), 0, "%s", err.msg);
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = 1, .mem_pages = 64, .mem = mem, .place = true };
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &a, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_vgpu_create(t.rt, &p, &b, &err), 0, "%s", err.msg);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t lo = in.low_base >> 12, n = in.low_size >> 12;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t f = t_rand(&seed) % 64, differ = t_rand(&seed) % 3;	/* a third equal, at random offsets */
		cr_assert_eq(dom0_guest_pte_write(t.rt, a, lo + i, d0_guest_pte(&t, f), NULL), 0);
		cr_assert_eq(dom0_guest_pte_write(t.rt, b, lo + i, d0_guest_pte(&t, differ ? (f + 1) % 64 : f), NULL), 0);
	}
	cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0, "%s", err.msg);
	for (int round = 0; round < 4; round++) {
		int to = round % 2 ? a : b;
		uint64_t want = 0, low_want = 0, sh, hi = in.high_base >> 12;
		for (uint64_t i = 0; i < n; i++) {
			dom0_shadow_pte(t.rt, to, lo + i, &sh, NULL);
			low_want += d0_phys(&t, lo + i) != sh;
		}
		for (uint64_t i = 0; i < in.high_size >> 12; i++) {
			dom0_shadow_pte(t.rt, to, hi + i, &sh, NULL);
			want += d0_phys(&t, hi + i) != sh;
		}
		want += low_want;
		cr_assert_eq(sim_trace_start(t.sim, 1 << 22), 0);
		cr_assert_eq(dom0_switch(t.rt, to, &s, &err), 0, "%s", err.msg);
		cr_expect_eq(gsm_writes(&t), want, "round %d: the device saw %llu PTE writes; %llu entries differ", round,
			     (unsigned long long)gsm_writes(&t), (unsigned long long)want);
		sim_trace_stop(t.sim);
		cr_expect(low_want > n / 4 && low_want < n, "round %d: %llu of %llu low entries differ: the test has no mix",
			  round, (unsigned long long)low_want, (unsigned long long)n);
		expect_physical_is_shadow(&t, to);
	}
	cr_assert_eq(dom0_vgpu_destroy(t.rt, a, NULL), 0);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, b, NULL), 0);
	hw_free_test_pages(t.dev, 64, mem);
	d0_stop(&t);
}
