/* SPDX-License-Identifier: MIT */
/*
 * Isolation: no sequence of guest operations makes the physical GTT point at
 * another vGPU's pages or the host's. Random sequences of PTE writes (good and
 * bad frames, own and foreign indices), fence writes, switches, resizes and
 * destroys; after every step every physical entry is checked against the
 * test's own account of which vGPU should be in the GTT there (from the
 * switches, reductions and destroys it made, not from the runtime's table):
 * such an entry names one of that vGPU's pages or its own scratch page, and every
 * other entry outside the fence pool is as found.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

static bool page_of(const struct d0 *t, int id, uint64_t addr)
{
	struct dom0_vgpu_info in;
	struct hw_page pg;

	dom0_vgpu_info(t->rt, id, &in);
	if (addr == in.scratch_phys)	/* its own scratch page */
		return true;
	for (unsigned g = 0; g < in.mem_pages; g++)
		if (!dom0_guest_page(t->rt, id, g, &pg) && pg.phys == addr)
			return true;
	return false;
}

/* holder[i] := id over the vGPU's ranges (a switch), or back to 0 where it was id (release). */
static void hold(const struct d0 *t, int *holder, int id, bool take)
{
	struct dom0_vgpu_info in;

	dom0_vgpu_info(t->rt, id, &in);
	for (uint64_t i = in.low_base >> 12; i < (in.low_base + in.low_size) >> 12; i++)
		holder[i] = take ? id : holder[i] == id ? 0 : holder[i];
	for (uint64_t i = in.high_base >> 12; i < (in.high_base + in.high_size) >> 12; i++)
		holder[i] = take ? id : holder[i] == id ? 0 : holder[i];
}

static void drop_all(int *holder, uint64_t n, int id)
{
	for (uint64_t i = 0; i < n; i++)
		if (holder[i] == id)
			holder[i] = 0;
}

static void check(const struct d0 *t, const int *holder, const uint64_t *boot, int step)
{
	const struct dom0_layout *l = dom0_layout(t->rt);
	uint64_t n = t->dev->info.n_ptes;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t pte = d0_phys(t, i);
		int owner = holder[i];
		if (i >= l->pool_base >> 12 && i < (l->pool_base + l->pool_size) >> 12)
			owner = dom0_physical_owner(t->rt, i);	/* the pool's own tests check its entries */
		if (!owner) {
			cr_assert_eq(pte, boot[i], "step %d: PTE %llu is 0x%llx with no vGPU holding it; it was 0x%llx",
				     step, (unsigned long long)i, (unsigned long long)pte, (unsigned long long)boot[i]);
			continue;
		}
		uint64_t a = d0_pte_addr(t, pte);
		cr_assert(page_of(t, owner, a),
			  "step %d: PTE %llu held for vGPU %d names 0x%llx, not one of its pages", step,
			  (unsigned long long)i, owner, (unsigned long long)a);
	}
}

static void run(const char *spec, uint64_t seed)
{
	struct d0 t;
	struct gtt_err err = { 0 };
	struct dom0_config cfg = { .slot_size = 256 * MiB };
	int ids[6] = { 0 };

	t.dev = t_open(spec);
	t.sim = t_sim(t.dev);
	uint64_t n = t.dev->info.n_ptes, *boot = malloc(n * sizeof(*boot));
	int *holder = calloc(n, sizeof(*holder));
	for (uint64_t i = 0; i < n; i++)
		boot[i] = d0_phys(&t, i);
	cr_assert_eq(dom0_init(t.dev, &cfg, &t.rt, &err), 0, "%s", err.msg);
	for (int k = 0; k < 6; k++) {
		struct dom0_vgpu_params p = { .low_size = (4 + 4 * (uint64_t)(k % 3)) * MiB, .high_slots = 1 + k % 2,
					      .fences = 2, .mem_pages = 32 };
		cr_assert_eq(dom0_vgpu_create(t.rt, &p, &ids[k], &err), 0, "%s", err.msg);
	}
	struct dom0_vgpu_info in;
	for (int step = 0; step < 300; step++) {
		int id = ids[t_rand(&seed) % 6];
		if (!dom0_vgpu_exists(t.rt, id))
			continue;
		dom0_vgpu_info(t.rt, id, &in);
		uint64_t r = t_rand(&seed);
		switch (r % 8) {
		case 0: case 1: case 2: {	/* PTE writes: own range, maybe a foreign index, maybe a bad frame */
			uint64_t idx = r & 0x100 ? (in.high_base >> 12) + (r >> 20) % (in.high_size >> 12 | 1)
						 : (in.low_base >> 12) + (r >> 20) % (in.low_size >> 12);
			if (r & 0x200)
				idx = (r >> 24) % n;		/* anywhere at all */
			uint64_t gfn = r & 0x400 ? 32 + (r >> 40) % 100 : (r >> 40) % 32;
			dom0_guest_pte_write(t.rt, id, idx, r & 0x800 ? 0 : d0_guest_pte(&t, gfn), NULL);
			break;
		}
		case 3: {			/* fences, in and out of range */
			uint64_t start = (r & 0x100 ? in.low_base : (r >> 16) % 0x8000000) & ~0xfffull;
			uint64_t v = ((start + 0x4000 - 4096) << 32) | start | (3ull << 32) | 1;
			dom0_guest_fence_write(t.rt, id, (unsigned)(r >> 8) % 3, r & 0x200 ? 0 : v, NULL);
			break;
		}
		case 4: case 5:
			if (!dom0_switch(t.rt, id, NULL, NULL))
				hold(&t, holder, id, true);
			break;
		case 6:
			if (r & 1) {
				dom0_expand(t.rt, id, 1 + (unsigned)(r >> 8) % 2, NULL, NULL, NULL);
			} else {
				/* the slots it gives up: its old high range less its new one */
				struct dom0_vgpu_info old = in, now;
				if (!dom0_reduce(t.rt, id, 1, NULL, NULL, NULL)) {
					dom0_vgpu_info(t.rt, id, &now);
					for (uint64_t i = old.high_base >> 12; i < (old.high_base + old.high_size) >> 12; i++) {
						bool kept = i >= now.high_base >> 12 && i < (now.high_base + now.high_size) >> 12;
						if (!kept && holder[i] == id)
							holder[i] = 0;
					}
				}
			}
			break;
		case 7:
			if ((r >> 8) % 10 == 0 && !dom0_vgpu_destroy(t.rt, id, NULL))
				drop_all(holder, n, id);
			break;
		}
		if (step % 10 == 0 || step == 299)
			check(&t, holder, boot, step);
	}
	cr_assert_eq(dom0_fini(t.rt, NULL), 0, "dom0_fini read back what it did not put back");
	for (uint64_t i = 0; i < n; i++)
		cr_assert_eq(d0_phys(&t, i), boot[i], "PTE %llu not restored at the end", (unsigned long long)i);
	free(boot);
	free(holder);
	hw_close(t.dev);
}

Test(dom0_isolation, random_sequences_skl, .timeout = 120) { run("sim:skl", 1); }
Test(dom0_isolation, random_sequences_hsw, .timeout = 120) { run("sim:hsw", 2); }
Test(dom0_isolation, random_sequences_skl_other_seed, .timeout = 120) { run("sim:skl", 3); }

/*
 * Issue 9: every vGPU's not-present entries used to map one shared scratch
 * page, so what guest a wrote through a not-present page of its low range,
 * guest b read through its own. Each vGPU now has a scratch page of its own.
 */
Test(dom0_isolation, scratch_page_is_per_vgpu)
{
	struct d0 t;
	struct dom0_vgpu_info ia, ib;
	char got[16] = { 0 }, gpu[16] = { 0 };

	d0_start(&t, "sim:skl", NULL);
	int a = d0_create(&t, 8 * MiB, 1, 0), b = d0_create(&t, 8 * MiB, 1, 0);
	dom0_vgpu_info(t.rt, a, &ia);
	dom0_vgpu_info(t.rt, b, &ib);
	cr_assert_neq(ia.scratch_phys, ib.scratch_phys, "a and b share scratch page 0x%llx",
		      (unsigned long long)ia.scratch_phys);
	/* a writes through a not-present page; b reads through its own not-present pages */
	cr_assert_eq(dom0_guest_aperture_write(t.rt, a, ia.low_base + 0x5000, "SECRET", 6, NULL), 0);
	cr_assert_eq(dom0_guest_aperture_read(t.rt, b, ib.low_base + 0x6000, got, 6, NULL), 0);
	cr_expect(!memcmp(got, "\0\0\0\0\0\0", 6), "b reads a's write through its own scratch: '%.6s'", got);
	cr_assert_eq(dom0_guest_aperture_read(t.rt, a, ia.low_base + 0x6000, got, 6, NULL), 0);
	cr_expect(!memcmp(got, "SECRET", 6), "a reads its own scratch back: '%.6s'", got);
	/* and on the GPU side: with b in the GTT, its not-present entries map b's scratch */
	cr_assert_eq(dom0_switch(t.rt, b, NULL, NULL), 0);
	cr_assert_eq(hw_gpu_read(t.dev, ib.low_base + 0x7000, gpu, 6, NULL), 0);
	cr_expect(!memcmp(gpu, "\0\0\0\0\0\0", 6), "the GPU reads a's write through b's entries: '%.6s'", gpu);
	cr_expect_eq(d0_pte_addr(&t, d0_phys(&t, (ib.low_base >> 12) + 7)), ib.scratch_phys);
	d0_stop(&t);
}
