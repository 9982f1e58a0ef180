/* SPDX-License-Identifier: MIT */
/* Dom0 runtime: layout, vGPU create/destroy, PVINFO, guest PTE writes and their checks. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

Test(dom0_vgpu, default_layouts)
{
	struct d0 t;
	const struct dom0_layout *l;

	d0_start(&t, "sim:hsw", NULL);	/* 512 MiB aperture: gScale's 56 + 8 MiB */
	l = dom0_layout(t.rt);
	cr_expect_eq(l->reserved_base, 504 * MiB);
	cr_expect_eq(l->pool_base, 448 * MiB);
	cr_expect_eq(l->pool_size, 56 * MiB);
	cr_expect_eq(l->guest_low_base, 64 * MiB);
	cr_expect_eq(l->guest_low_size, 384 * MiB);
	cr_expect_eq(l->slots_base, 576 * MiB);
	cr_expect_eq(l->num_slots, (2048 - 576) / 64);
	cr_expect_eq(l->guest_fences, 28);
	d0_stop(&t);

	d0_start(&t, "sim:skl", NULL);	/* 256 MiB aperture: scaled to 28 + 4 MiB */
	l = dom0_layout(t.rt);
	cr_expect_eq(l->pool_size, 28 * MiB);
	cr_expect_eq(l->reserved_size, 4 * MiB);
	cr_expect_eq(l->pool_base + l->pool_size + l->reserved_size, 256 * MiB);
	cr_expect_eq(l->num_slots, (4096 - 256 - 64) / 64);
	d0_stop(&t);

	struct dom0_config gscale = { .slot_size = 384 * MiB };
	d0_start(&t, "sim:hsw", &gscale);	/* gScale: 1536 MiB high = host slot + 3 */
	cr_expect_eq(dom0_layout(t.rt)->num_slots, 3);
	d0_stop(&t);
}

Test(dom0_vgpu, refuses_what_cannot_fit)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	int id;

	d0_start(&t, "sim:skl", NULL);
	struct dom0_vgpu_params p = { .low_size = 512 * MiB, .high_slots = 1, .fences = 1 };
	cr_expect_eq(dom0_vgpu_create(t.rt, &p, &id, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "low size"), "%s", err.msg);
	p = (struct dom0_vgpu_params){ .low_size = 64 * MiB, .high_slots = 100 };
	cr_expect_eq(dom0_vgpu_create(t.rt, &p, &id, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "100 slots"), "%s", err.msg);
	p = (struct dom0_vgpu_params){ .low_size = 64 * MiB, .high_slots = 1, .fences = 17 };
	cr_expect_eq(dom0_vgpu_create(t.rt, &p, &id, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "17 fences"), "%s", err.msg);
	p = (struct dom0_vgpu_params){ .low_size = 0x1800, .high_slots = 1 };
	cr_expect_eq(dom0_vgpu_create(t.rt, &p, &id, &err), GTT_EINVAL);
	d0_stop(&t);
}

Test(dom0_vgpu, pvinfo_in_the_gvt_layout)
{
	struct d0 t;
	uint32_t v;

	d0_start(&t, "sim:skl", NULL);
	int id = d0_create(&t, 32 * MiB, 2, 4);
	struct dom0_vgpu_info in;
	cr_assert_eq(dom0_vgpu_info(t.rt, id, &in), 0);
	struct { uint32_t off, want; } w[] = {
		{ 0x000, 0x76544776 }, { 0x004, 0x47765447 },		/* "vGTvGTvG" */
		{ 0x008, 1 },						/* major 1, minor 0 */
		{ 0x00c, (uint32_t)id },
		{ 0x010, VGT_CAPS_FULL_PPGTT | VGT_CAPS_HWSP_EMULATION | VGT_CAPS_HUGE_GTT },
		{ 0x040, (uint32_t)in.low_base }, { 0x044, 32 * MiB },
		{ 0x048, (uint32_t)in.high_base }, { 0x04c, 128 * MiB },
		{ 0x050, 4 }, { 0x804, 0 }, { 0x830, 0xffffffffu },
	};
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		cr_assert_eq(dom0_pvinfo_read(t.rt, id, w[i].off, &v, NULL), 0);
		cr_expect_eq(v, w[i].want, "PVINFO 0x%03x = 0x%08x, want 0x%08x", w[i].off, v, w[i].want);
	}
	cr_expect_eq(in.high_base, dom0_layout(t.rt)->slots_base, "the first vGPU goes to slot 0");
	cr_expect_eq(dom0_pvinfo_read(t.rt, id, 0x1000, &v, NULL), GTT_EINVAL);
	d0_stop(&t);
}

Test(dom0_vgpu, guest_pte_goes_to_shadow_then_physical_at_switch)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	struct hw_page pg;
	uint8_t buf[8];

	d0_start(&t, "sim:skl", NULL);
	int a = d0_create(&t, 16 * MiB, 1, 0);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(t.rt, a, &in);
	uint64_t low = in.low_base >> 12, high = in.high_base >> 12;
	uint64_t before_low = d0_phys(&t, low), before_high = d0_phys(&t, high + 3);

	cr_assert_eq(dom0_guest_pte_write(t.rt, a, low, d0_guest_pte(&t, 5), &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, high + 3, d0_guest_pte(&t, 6), &err), 0, "%s", err.msg);
	cr_expect_eq(d0_phys(&t, low), before_low, "a vGPU that is not switched in must not write the physical GTT");
	cr_expect_eq(d0_phys(&t, high + 3), before_high);
	uint64_t g;
	cr_assert_eq(dom0_guest_pte_read(t.rt, a, low, &g, NULL), 0);
	cr_expect_eq(g, d0_guest_pte(&t, 5), "the guest reads back what it wrote");

	cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_guest_page(t.rt, a, 5, &pg), 0);
	cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, low)), pg.phys, "physical PTE must name the host page of guest frame 5");
	memcpy(pg.cpu, "GUEST-5", 8);
	sim_aperture_read(t.sim, in.low_base, buf, 8);
	cr_expect_str_eq((char *)buf, "GUEST-5", "the aperture must show the guest's page");
	cr_assert_eq(dom0_guest_page(t.rt, a, 6, &pg), 0);
	memcpy(pg.cpu, "HIGH-6", 7);
	cr_assert_eq(sim_gpu_read(t.sim, in.high_base + 3 * 4096, buf, 7), 0);
	cr_expect_str_eq((char *)buf, "HIGH-6", "the GPU must see the guest's page in high GM");

	/* a write by the render owner goes to both */
	cr_assert_eq(dom0_guest_pte_write(t.rt, a, low + 1, d0_guest_pte(&t, 7), &err), 0);
	cr_assert_eq(dom0_guest_page(t.rt, a, 7, &pg), 0);
	cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, low + 1)), pg.phys);
	uint64_t sh;
	cr_assert_eq(dom0_shadow_pte(t.rt, a, low + 1, &sh, NULL), 0);
	cr_expect_eq(sh, d0_phys(&t, low + 1), "the render owner's write is kept in its shadow");
	d0_stop(&t);
}

Test(dom0_vgpu, bad_guest_writes_are_rejected)
{
	struct d0 t;
	struct gtt_err err = { 0 };

	d0_start(&t, "sim:hsw", NULL);
	int a = d0_create(&t, 16 * MiB, 1, 0), b = d0_create(&t, 16 * MiB, 1, 0);
	struct dom0_vgpu_info ia, ib;
	dom0_vgpu_info(t.rt, a, &ia);
	dom0_vgpu_info(t.rt, b, &ib);
	cr_assert_eq(dom0_switch(t.rt, a, NULL, &err), 0);
	uint64_t low = ia.low_base >> 12;
	size_t n1, n2;
	uint8_t *before = d0_capture(&t, &n1);

	/* an index in B's high range, and one in the host's low range: nothing may change */
	cr_expect_eq(dom0_guest_pte_write(t.rt, a, ib.high_base >> 12, d0_guest_pte(&t, 1), &err), GTT_ERANGE);
	cr_expect(strstr(err.msg, "outside its ranges"), "%s", err.msg);
	cr_expect_eq(dom0_guest_pte_write(t.rt, a, 0, d0_guest_pte(&t, 1), &err), GTT_ERANGE);
	uint8_t *after = d0_capture(&t, &n2);
	cr_expect_eq(memcmp(before, after, n1), 0, "a rejected index touched the GGTT or the fences");
	free(after);

	/* a frame outside the guest's memory: scratch is mapped at that (own) index */
	cr_expect_eq(dom0_guest_pte_write(t.rt, a, low + 2, d0_guest_pte(&t, 64), &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "0x40") && strstr(err.msg, "scratch"), "%s", err.msg);
	uint64_t sh;
	cr_assert_eq(dom0_shadow_pte(t.rt, a, low + 2, &sh, NULL), 0);
	uint64_t scratch_addr = d0_pte_addr(&t, sh);
	for (unsigned gfn = 0; gfn < 64; gfn++) {
		struct hw_page pg;
		dom0_guest_page(t.rt, a, gfn, &pg);
		cr_expect_neq(scratch_addr, pg.phys, "scratch must not be one of the guest's pages");
	}
	cr_expect_eq(d0_phys(&t, low + 2), sh, "the owner's physical entry is scratch now");
	struct dom0_vgpu_info now;
	dom0_vgpu_info(t.rt, a, &now);
	cr_expect_eq(now.counters.rejected, 3);
	cr_expect_eq(now.counters.gtt_modifications, 0);
	free(before);
	d0_stop(&t);
}

Test(dom0_vgpu, destroying_everything_leaves_the_ggtt_byte_identical)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	size_t n1, n2;

	t.dev = t_open("sim:skl");
	t.sim = t_sim(t.dev);
	uint8_t *before = d0_capture(&t, &n1);
	cr_assert_eq(dom0_init(t.dev, NULL, &t.rt, &err), 0);
	int a = d0_create(&t, 16 * MiB, 2, 2), b = d0_create(&t, 8 * MiB, 1, 2);
	for (uint64_t i = 0; i < 64; i++) {
		struct dom0_vgpu_info in;
		dom0_vgpu_info(t.rt, i % 2 ? a : b, &in);
		dom0_guest_pte_write(t.rt, i % 2 ? a : b, (in.low_base >> 12) + i, d0_guest_pte(&t, i % 64), NULL);
		dom0_guest_pte_write(t.rt, i % 2 ? a : b, (in.high_base >> 12) + i, d0_guest_pte(&t, i % 64), NULL);
	}
	cr_assert_eq(dom0_guest_fence_write(t.rt, a, 1, 0x0400700304000001ull /* X, 32 KiB at 64 MiB, stride 512 */, &err), 0, "%s", err.msg);
	dom0_switch(t.rt, a, NULL, NULL);
	dom0_switch(t.rt, b, NULL, NULL);
	cr_assert_eq(dom0_expand(t.rt, b, 2, NULL, NULL, &err), 0, "%s", err.msg);
	dom0_switch(t.rt, b, NULL, NULL);
	uint8_t *mid = d0_capture(&t, &n2);
	cr_assert(memcmp(before, mid, n1), "nothing changed: the test proves nothing");
	free(mid);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, a, NULL), 0);
	cr_assert_eq(dom0_vgpu_destroy(t.rt, b, NULL), 0);
	uint8_t *after = d0_capture(&t, &n2);
	for (size_t i = 0; i < n1; i++)
		cr_assert_eq(after[i], before[i], "byte %zu of GSM+fences differs after every vGPU is destroyed", i);
	free(after);
	free(before);
	d0_stop(&t);
}
