/* SPDX-License-Identifier: MIT */
/*
 * Hostile guests on the request channel, at volume: seeded random PVINFO
 * writes (any offset, any value, real requests among them), serves, policy
 * periods with random steal, guest PTE writes and switches, on three vGPUs.
 * An oracle written here, from the documented rules and not from the
 * runtime's code, judges every step:
 *   - a write the trap refused changed no vGPU's range, and no PVINFO word
 *     but the status pair;
 *   - PVINFO's non-mappable base/size and GM_SLOTS are each vGPU's range;
 *   - ranges lie inside high memory and the occupancy of every slot is the
 *     number of vGPUs whose range covers it;
 *   - after a switch, every physical PTE of the incoming vGPU's high range is
 *     its shadow entry, and every mapped one names one of its own pages
 *     (no guest reaches another's bytes);
 * and at the end the runtime's restore reads back and the GSM and fences are
 * byte-identical to the start.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)
#define NV 3

struct world {
	struct d0 t;
	int id[NV];
	uint64_t seed;
	unsigned ops, refused, granted;
};

static void ranges_consistent(struct world *w, unsigned step)
{
	const struct dom0_layout *l = dom0_layout(w->t.rt);
	struct dom0_vgpu_info in[NV];

	for (int k = 0; k < NV; k++) {
		uint32_t base = 0, size = 0, slots = 0;
		dom0_vgpu_info(w->t.rt, w->id[k], &in[k]);
		dom0_pvinfo_read(w->t.rt, w->id[k], VGT_IF_NONMAPPABLE_BASE - VGT_PVINFO_PAGE, &base, NULL);
		dom0_pvinfo_read(w->t.rt, w->id[k], VGT_IF_NONMAPPABLE_SIZE - VGT_PVINFO_PAGE, &size, NULL);
		dom0_pvinfo_read(w->t.rt, w->id[k], GTTLAB_IF_GM_SLOTS - VGT_PVINFO_PAGE, &slots, NULL);
		cr_assert(in[k].first_slot + in[k].slots <= l->num_slots, "step %u: vGPU %d holds slots past the end", step,
			  w->id[k]);
		uint64_t want_base = l->slots_base + (uint64_t)in[k].first_slot * l->slot_size;
		cr_assert(!in[k].slots || in[k].high_base == want_base, "step %u: vGPU %d's high base", step, w->id[k]);
		cr_assert(base == (uint32_t)in[k].high_base && size == (uint32_t)((uint64_t)in[k].slots * l->slot_size) &&
				  slots == in[k].slots,
			  "step %u: vGPU %d PVINFO 0x%x+0x%x, %u slots; it holds slots %u+%u", step, w->id[k], base, size, slots,
			  in[k].first_slot, in[k].slots);
	}
	for (unsigned s = 0; s < l->num_slots; s++) {
		unsigned n = 0;
		for (int k = 0; k < NV; k++)
			n += in[k].slots && s >= in[k].first_slot && s < in[k].first_slot + in[k].slots;
		cr_assert_eq(dom0_slot_occupancy(w->t.rt, s), n, "step %u: slot %u occupancy", step, s);
	}
}

/* After a switch to k: its high range in the physical GTT is its shadow, mapped entries name its own pages. */
static void isolated(struct world *w, int k, unsigned step)
{
	struct dom0_vgpu_info in;
	struct hw_page pages[64];

	dom0_vgpu_info(w->t.rt, w->id[k], &in);
	for (unsigned g = 0; g < 64; g++)
		cr_assert_eq(dom0_guest_page(w->t.rt, w->id[k], g, &pages[g]), 0);
	for (uint64_t i = in.high_base / 4096; i < (in.high_base + in.high_size) / 4096; i += 7) {
		uint64_t ph = d0_phys(&w->t, i), sh = 0;
		cr_assert_eq(dom0_shadow_pte(w->t.rt, w->id[k], i, &sh, NULL), 0);
		cr_assert_eq(ph, sh, "step %u: vGPU %d PTE %llu is not its shadow", step, w->id[k], (unsigned long long)i);
		uint64_t a = d0_pte_addr(&w->t, ph);
		bool own = a == in.scratch_phys;
		for (unsigned g = 0; g < 64 && !own; g++)
			own = a == pages[g].phys;
		cr_assert(own, "step %u: vGPU %d PTE %llu names 0x%llx, not one of its pages", step, w->id[k],
			  (unsigned long long)i, (unsigned long long)a);
	}
}

static void pvinfo_words(struct world *w, int k, uint32_t *out)
{
	for (uint32_t off = 0; off < VGT_PVINFO_SIZE; off += 4)
		dom0_pvinfo_read(w->t.rt, w->id[k], off, &out[off / 4], NULL);
}

/* Any offset, any value; a refused write must leave the page but the status pair as it was. */
static void hostile_write(struct world *w, int k, unsigned step)
{
	static uint32_t before[VGT_PVINFO_WORDS], after[VGT_PVINFO_WORDS];
	uint64_t r = t_rand(&w->seed);
	/* mostly the channel's and GVT's words, sometimes anywhere (unaligned too) */
	static const uint32_t hot[] = { 0x104, 0x108, 0x10c, 0x818, 0x818, 0x110, 0x048, 0x04c, 0x000, 0x804, 0x100, 0x120 };
	uint32_t off = r % 4 ? hot[(r >> 8) % (sizeof(hot) / sizeof(hot[0]))] : (uint32_t)((r >> 8) % 0x1100);
	uint32_t val = (uint32_t)(r >> 32);
	if (off == 0x818 && r % 3)
		val = GTTLAB_G2V_GM_REQUEST;
	if ((off == 0x104) && r % 5)
		val = 1 + (val % 3);
	if ((off == 0x108) && r % 7)
		val %= 8;
	struct dom0_vgpu_info a, b;
	dom0_vgpu_info(w->t.rt, w->id[k], &a);
	pvinfo_words(w, k, before);
	int rc = dom0_pvinfo_write(w->t.rt, w->id[k], off, val, NULL);
	if (!rc)
		return;
	w->refused++;
	pvinfo_words(w, k, after);
	dom0_vgpu_info(w->t.rt, w->id[k], &b);
	cr_assert(a.first_slot == b.first_slot && a.slots == b.slots, "step %u: a refused write (0x%x = 0x%x) moved vGPU %d",
		  step, off, val, w->id[k]);
	for (unsigned i = 0; i < VGT_PVINFO_WORDS; i++)
		cr_assert(before[i] == after[i] || i == (GTTLAB_IF_GM_STATUS - VGT_PVINFO_PAGE) / 4 ||
				  i == (GTTLAB_IF_GM_ANSWER_SEQ - VGT_PVINFO_PAGE) / 4,
			  "step %u: a refused write (0x%x = 0x%x) changed PVINFO word 0x%x", step, off, val, i * 4);
}

static void one_step(struct world *w, unsigned step)
{
	uint64_t r = t_rand(&w->seed);
	int k = (int)(r % NV);
	unsigned n = 0;

	switch ((r >> 4) % 16) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7:
		hostile_write(w, k, step);
		break;
	case 8: case 9:
		cr_assert_eq(dom0_serve_requests(w->t.rt, &n, NULL), 0);
		break;
	case 10:
		cr_assert_eq(dom0_policy_steal(w->t.rt, w->id[k], (r >> 16) % 300000, NULL), 0);
		break;
	case 11:
		cr_assert_eq(dom0_run_quanta(w->t.rt, 1 + (unsigned)((r >> 16) % 40), NULL, NULL, NULL), 0);
		break;
	case 12: case 13: {
		struct dom0_vgpu_info in;
		dom0_vgpu_info(w->t.rt, w->id[k], &in);
		if (in.slots) {
			uint64_t i = in.high_base / 4096 + (r >> 16) % (in.high_size / 4096);
			/* frames beyond its 64 pages too: those must map its scratch page */
			dom0_guest_pte_write(w->t.rt, w->id[k], i, d0_guest_pte(&w->t, (r >> 40) % 80), NULL);
		}
		break;
	}
	default:
		cr_assert_eq(dom0_switch(w->t.rt, w->id[k], NULL, NULL), 0);
		isolated(w, k, step);
		break;
	}
	ranges_consistent(w, step);
}

static void run(uint64_t seed, const char *spec, unsigned steps)
{
	struct world w = { .seed = seed };
	size_t n0, n1;

	w.t.dev = NULL;
	d0_start(&w.t, spec, &(struct dom0_config){ 0 });
	uint8_t *before = d0_capture(&w.t, &n0);
	for (int k = 0; k < NV; k++) {
		w.id[k] = d0_create(&w.t, 4 * MiB, 1 + (unsigned)k, 0);
		dom0_set_busy(w.t.rt, w.id[k], true, NULL);
	}
	cr_assert_eq(dom0_policy_set(w.t.rt, &(struct dom0_policy){ .copy_ps_per_pte = 50000, .cpus = 2 }, 0, NULL), 0);
	for (unsigned s = 0; s < steps; s++)
		one_step(&w, s);
	for (int k = 0; k < NV; k++) {
		cr_assert_eq(dom0_switch(w.t.rt, w.id[k], NULL, NULL), 0);
		isolated(&w, k, steps);
	}
	const struct dom0_policy_state *p = dom0_policy_state(w.t.rt);
	cr_expect(w.refused > steps / 20 && dom0_channel_stats(w.t.rt)->granted > 0 && p->periods > 0,
		  "the walk must exercise refusals (%u), grants (%llu) and periods (%llu)", w.refused,
		  (unsigned long long)dom0_channel_stats(w.t.rt)->granted, (unsigned long long)p->periods);
	cr_log_info("seed %llu: %u refused writes, %llu granted, %llu refused by policy, %llu for room, %llu periods, %llu reductions",
		    (unsigned long long)seed, w.refused, (unsigned long long)dom0_channel_stats(w.t.rt)->granted, (unsigned long long)dom0_channel_stats(w.t.rt)->refused_policy,
		    (unsigned long long)dom0_channel_stats(w.t.rt)->refused_room, (unsigned long long)p->periods, (unsigned long long)p->policy_reductions);
	struct gtt_err err = { 0 };
	cr_assert_eq(dom0_fini(w.t.rt, &err), 0, "dom0_fini: %s", err.msg);
	w.t.rt = NULL;
	struct d0 after = { .dev = w.t.dev, .sim = w.t.sim };
	uint8_t *now = d0_capture(&after, &n1);
	cr_expect(n0 == n1 && !memcmp(before, now, n0), "the GSM and fences are not as found after the walk");
	free(before);
	free(now);
	hw_close(w.t.dev);
}

Test(dom0_policy_random, hostile_pvinfo_walk_skl, .timeout = 120) { run(12, "sim:skl", 3000); }
Test(dom0_policy_random, hostile_pvinfo_walk_hsw, .timeout = 120) { run(2019, "sim:hsw", 3000); }
