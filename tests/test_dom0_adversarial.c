/* SPDX-License-Identifier: MIT */
/*
 * Hostile guests at volume. Eight vGPUs make 100,000 seeded random guest
 * operations on sim:skl and on sim:hsw: PTE writes with hostile values and
 * indexes, fence writes with garbage and borrowed ranges, aperture reads and
 * writes in and out of range, switches, resizes by any count, destroys and
 * re-creates, and reads of PVINFO, fences and PTEs with hostile arguments.
 *
 * The oracle is the data itself, not the runtime's tables. Every byte a guest
 * ever writes, and every byte of its memory, is an 8-byte word tagged with
 * that guest's incarnation (TAG_MAGIC | tag << 32 | nonce); scratch pages
 * start zero. After every batch the test reads, for every live guest, its
 * whole low range through its aperture (ladder map and fences) and, for the
 * vGPU in the GTT, its ranges through the real aperture and the GPU side:
 * every word must be zero or carry that guest's tag. It also checks that the
 * host's ranges and fences hold their boot values and the host's pages their
 * bytes, and that every physical entry in the guest areas names a page of a
 * live vGPU whose range covers it (the test's own PTE decode).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)
#define NV 8
#define OPS 100000
#define BATCH 1000
#define TAG_MAGIC 0xa5c3000000000000ull
#define TAG_OF(w) ((unsigned)((w) >> 32) & 0xffff)

struct guest {
	int id;			/* 0: not alive now */
	unsigned tag;		/* this incarnation's tag */
	struct dom0_vgpu_info in;
};

struct adv {
	struct d0 t;
	uint64_t rng;
	struct guest g[NV];
	unsigned next_tag;
	uint64_t n, *boot;
	uint64_t host_fence[I915_MAX_NUM_FENCES];
	/* host pages named by valid boot PTEs of the host's ranges, and their bytes */
	unsigned n_host_pages;
	uint64_t host_gm[16];
	uint8_t host_bytes[16][4096];
	uint64_t ops_refused;
};

static uint64_t word(struct adv *a, unsigned tag)
{
	return TAG_MAGIC | (uint64_t)tag << 32 | (uint32_t)t_rand(&a->rng);
}

/* Every 8-byte word of buf is zero or tagged `tag`. */
static void all_own(const uint8_t *buf, size_t len, unsigned tag, const char *how, uint64_t gm, uint64_t step)
{
	for (size_t o = 0; o + 8 <= len; o += 8) {
		uint64_t w;
		memcpy(&w, buf + o, 8);
		if (!w)
			continue;
		cr_assert((w & 0xffff000000000000ull) == TAG_MAGIC && TAG_OF(w) == tag,
			  "op %llu: %s at GM 0x%llx reads word 0x%016llx: not the reader's (tag %u) — %s",
			  (unsigned long long)step, how, (unsigned long long)(gm + o), (unsigned long long)w, tag,
			  (w & 0xffff000000000000ull) == TAG_MAGIC ? "another guest's data" : "foreign bytes");
	}
}

static struct guest *by_id(struct adv *a, int id)
{
	for (int k = 0; k < NV; k++)
		if (a->g[k].id == id)
			return &a->g[k];
	return NULL;
}

static void refresh(struct adv *a, struct guest *g)
{
	cr_assert_eq(dom0_vgpu_info(a->t.rt, g->id, &g->in), 0);
}

static void create(struct adv *a, int k)
{
	struct gtt_err err = { 0 };
	struct guest *g = &a->g[k];
	uint64_t r = t_rand(&a->rng);
	struct dom0_vgpu_params p = { .low_size = (32 + (r % 4) * 32) * 4096, .high_slots = 1 + (unsigned)(r >> 8) % 3,
				      .fences = 1 + (unsigned)(r >> 16) % 4, .mem_pages = 16 + (unsigned)(r >> 24) % 32 };

	if (dom0_vgpu_create(a->t.rt, &p, &g->id, &err)) {
		g->id = 0;		/* high memory full: try again later */
		return;
	}
	g->tag = ++a->next_tag;
	refresh(a, g);
	/* the hypervisor fills guest memory: every word is this guest's */
	for (unsigned f = 0; f < g->in.mem_pages; f++) {
		struct hw_page pg;
		cr_assert_eq(dom0_guest_page(a->t.rt, g->id, f, &pg), 0);
		for (unsigned o = 0; o < 4096; o += 8) {
			uint64_t w = word(a, g->tag);
			memcpy((uint8_t *)pg.cpu + o, &w, 8);
		}
	}
}

static bool is_page_of(struct adv *a, const struct guest *g, uint64_t addr)
{
	struct hw_page pg;

	if (addr == g->in.scratch_phys)
		return true;
	for (unsigned f = 0; f < g->in.mem_pages; f++)
		if (!dom0_guest_page(a->t.rt, g->id, f, &pg) && pg.phys == addr)
			return true;
	return false;
}

static bool in_ranges(const struct dom0_vgpu_info *in, uint64_t index)
{
	uint64_t gm = index << 12;

	return (gm >= in->low_base && gm < in->low_base + in->low_size) ||
	       (gm >= in->high_base && gm < in->high_base + in->high_size);
}

/* A hostile guest PTE value. */
static uint64_t hostile_pte(struct adv *a, const struct guest *g)
{
	uint64_t r = t_rand(&a->rng);

	switch (r % 8) {
	case 0: return 0;				/* not present */
	case 1: return t_rand(&a->rng);			/* garbage */
	case 2: return d0_guest_pte(&a->t, g->in.mem_pages + (r >> 8) % 64);	/* a frame it does not own */
	case 3: return d0_guest_pte(&a->t, (r >> 8) % g->in.mem_pages) | (r & 0xfff0000000000000ull);	/* high junk bits */
	case 4: return d0_guest_pte(&a->t, (r >> 8) & 0x7ffffff);	/* far away */
	default: return d0_guest_pte(&a->t, (r >> 8) % g->in.mem_pages);	/* its own */
	}
}

/* A hostile PTE index: its own ranges, their edges, anybody's, anywhere. */
static uint64_t hostile_index(struct adv *a, const struct guest *g)
{
	uint64_t r = t_rand(&a->rng), lo = g->in.low_base >> 12, hi = g->in.high_base >> 12;
	uint64_t nl = g->in.low_size >> 12, nh = g->in.high_size >> 12;

	switch (r % 8) {
	case 0: return (r >> 8) % a->n;
	case 1: return lo + nl - 1 + (r >> 8) % 3;	/* around the end of the low range */
	case 2: return hi + nh - 1 + (r >> 8) % 3;
	case 3: return lo - 1 - (r >> 8) % 2;
	case 4: return r >> 8;				/* beyond the GGTT */
	case 5: case 6: return hi + (nh ? (r >> 8) % nh : 0);
	default: return lo + (r >> 8) % nl;
	}
}

static uint64_t hostile_fence(struct adv *a, const struct guest *g)
{
	uint64_t r = t_rand(&a->rng);
	uint64_t pitch = (uint64_t)((r >> 8) % 8), pages = 1 + (r >> 12) % 16;
	uint64_t start = g->in.low_base + ((r >> 20) % (g->in.low_size >> 12)) * 4096;

	switch (r % 6) {
	case 0: return 0;					/* off */
	case 1: return t_rand(&a->rng);				/* garbage */
	case 2: start = (r >> 24) % (a->t.dev->info.aperture_size >> 12) * 4096;	/* anybody's range */
		break;
	default: break;
	}
	return ((start + pages * 4096 - 4096) << 32) | start | (pitch << 32) | ((r >> 6) & 2) | 1;
}

/* The whole oracle; `step` names the op after which it runs. */
static void check_all(struct adv *a, uint64_t step)
{
	const struct dom0_layout *l = dom0_layout(a->t.rt);
	int owner = dom0_render_owner(a->t.rt);
	uint8_t *buf = malloc(1 * MiB);

	for (int k = 0; k < NV; k++) {
		struct guest *g = &a->g[k];
		if (!g->id)
			continue;
		refresh(a, g);
		cr_assert_eq(dom0_guest_aperture_read(a->t.rt, g->id, g->in.low_base, buf, g->in.low_size, NULL), 0);
		all_own(buf, g->in.low_size, g->tag, "its aperture (ladder map and fences)", g->in.low_base, step);
	}
	struct guest *o = owner ? by_id(a, owner) : NULL;
	if (o) {
		/* what the GPU and the CPU see through the real GTT while it runs */
		cr_assert_eq(hw_aperture_read(a->t.dev, o->in.low_base, buf, o->in.low_size, NULL), 0);
		all_own(buf, o->in.low_size, o->tag, "the real aperture, render owner's low range", o->in.low_base, step);
		for (int s = 0; s < 16 && o->in.high_size; s++) {
			uint64_t gm = o->in.high_base + t_rand(&a->rng) % (o->in.high_size >> 12) * 4096;
			if (!hw_gpu_read(a->t.dev, gm, buf, 4096, NULL))
				all_own(buf, 4096, o->tag, "the GPU side, render owner's high range", gm, step);
		}
	}
	/* physical entries: boot values outside the guest areas; in them, pages of a vGPU whose range covers them */
	uint64_t pool_lo = l->pool_base >> 12, pool_hi = (l->pool_base + l->pool_size) >> 12;
	for (uint64_t i = 0; i < a->n; i++) {
		uint64_t pte = d0_phys(&a->t, i);
		bool guest_area = (i >= l->guest_low_base >> 12 && i < (l->guest_low_base + l->guest_low_size) >> 12) ||
				  i >= l->slots_base >> 12;
		bool pool = i >= pool_lo && i < pool_hi;
		if (pte == a->boot[i])
			continue;
		cr_assert(guest_area || pool, "op %llu: PTE %llu (GM 0x%llx, a host range) is 0x%llx; it was 0x%llx",
			  (unsigned long long)step, (unsigned long long)i, (unsigned long long)(i << 12),
			  (unsigned long long)pte, (unsigned long long)a->boot[i]);
		uint64_t addr = d0_pte_addr(&a->t, pte);
		bool ok = false;
		for (int k = 0; k < NV && !ok; k++)
			ok = a->g[k].id && (pool || in_ranges(&a->g[k].in, i)) && is_page_of(a, &a->g[k], addr);
		cr_assert(ok, "op %llu: PTE %llu (GM 0x%llx) names 0x%llx, a page of no live vGPU whose range covers it",
			  (unsigned long long)step, (unsigned long long)i, (unsigned long long)(i << 12), (unsigned long long)addr);
		if (o && in_ranges(&o->in, i))
			cr_assert(is_page_of(a, o, addr), "op %llu: PTE %llu in the render owner's range names 0x%llx, not its page",
				  (unsigned long long)step, (unsigned long long)i, (unsigned long long)addr);
	}
	for (unsigned f = 0; f < 4; f++) {	/* the host's fences (config default) */
		uint64_t v;
		cr_assert_eq(hw_fence_read(a->t.dev, f, &v, NULL), 0);
		cr_assert_eq(v, a->host_fence[f], "op %llu: host fence %u is 0x%llx; it was 0x%llx", (unsigned long long)step, f,
			     (unsigned long long)v, (unsigned long long)a->host_fence[f]);
	}
	for (unsigned h = 0; h < a->n_host_pages; h++) {
		cr_assert_eq(hw_gpu_read(a->t.dev, a->host_gm[h], buf, 4096, NULL), 0);
		cr_assert(!memcmp(buf, a->host_bytes[h], 4096), "op %llu: the host page at GM 0x%llx changed",
			  (unsigned long long)step, (unsigned long long)a->host_gm[h]);
	}
	free(buf);
}

static void one_op(struct adv *a, uint64_t step)
{
	int k = (int)(t_rand(&a->rng) % NV);
	struct guest *g = &a->g[k];
	uint64_t r = t_rand(&a->rng);
	uint8_t buf[3 * 4096 + 64];
	int rc = 0;

	if (!g->id) {
		if (r % 4 == 0)
			create(a, k);
		return;
	}
	refresh(a, g);
	switch (r % 20) {
	case 0: case 1: case 2: case 3: case 4:
		rc = dom0_guest_pte_write(a->t.rt, g->id, hostile_index(a, g), hostile_pte(a, g), NULL);
		break;
	case 5: case 6: case 7: {	/* aperture writes of its own tagged words, in and around its range */
		uint64_t len = 8 * ((r >> 8) % (sizeof(buf) / 8));
		uint64_t gm = g->in.low_base + 8 * ((r >> 24) % ((g->in.low_size + 8192) / 8)) - ((r >> 40) & 1 ? 4096 : 0);
		for (uint64_t o = 0; o < len; o += 8) {
			uint64_t w = word(a, g->tag);
			memcpy(buf + o, &w, 8);
		}
		rc = dom0_guest_aperture_write(a->t.rt, g->id, gm, buf, len, NULL);
		break;
	}
	case 8: case 9: {		/* reads are checked at once, whatever the range */
		uint64_t len = 8 * ((r >> 8) % (sizeof(buf) / 8));
		uint64_t gm = g->in.low_base + 8 * ((r >> 24) % ((g->in.low_size + 8192) / 8));
		if (!(rc = dom0_guest_aperture_read(a->t.rt, g->id, gm, buf, len, NULL)))
			all_own(buf, len, g->tag, "a read through its aperture", gm, step);
		break;
	}
	case 10: case 11:
		rc = dom0_guest_fence_write(a->t.rt, g->id, (unsigned)(r >> 8) % 20, hostile_fence(a, g), NULL);
		break;
	case 12: case 13: case 14:
		rc = dom0_switch(a->t.rt, g->id, NULL, NULL);
		break;
	case 15: {
		/* any count at all, hostile ones included */
		static const unsigned counts[] = { 1, 2, 3, 0, 4294967295u, 4294967294u, 2147483648u, 1024, 1025 };
		unsigned q = counts[(r >> 8) % (sizeof(counts) / sizeof(counts[0]))];
		rc = (r >> 16) & 1 ? dom0_expand(a->t.rt, g->id, q, NULL, NULL, NULL)
				   : dom0_reduce(a->t.rt, g->id, q, NULL, NULL, NULL);
		break;
	}
	case 16:
		if ((r >> 8) % 8 == 0) {
			cr_assert_eq(dom0_vgpu_destroy(a->t.rt, g->id, NULL), 0);
			g->id = 0;
		}
		break;
	case 17: {
		uint32_t v;
		rc = dom0_pvinfo_read(a->t.rt, g->id, (uint32_t)(r >> 8) % 0x1100, &v, NULL);
		break;
	}
	case 18: {
		uint64_t v;
		rc = dom0_guest_fence_read(a->t.rt, g->id, (unsigned)(r >> 8), &v, NULL);
		break;
	}
	default: {
		uint64_t v;
		rc = dom0_guest_pte_read(a->t.rt, g->id, hostile_index(a, g), &v, NULL);
		break;
	}
	}
	a->ops_refused += rc != 0;
}

static void run(const char *spec, uint64_t seed)
{
	struct adv *a = calloc(1, sizeof(*a));
	struct gtt_err err = { 0 };
	/* 4 MiB slots: several hundred of them, so vGPUs crowd and share them */
	struct dom0_config cfg = { .slot_size = 4 * MiB, .host_high_size = 4 * MiB };

	a->rng = seed;
	a->t.dev = t_open(spec);
	a->t.sim = t_sim(a->t.dev);
	a->n = a->t.dev->info.n_ptes;
	a->boot = malloc(a->n * sizeof(*a->boot));
	for (uint64_t i = 0; i < a->n; i++)
		a->boot[i] = d0_phys(&a->t, i);
	for (unsigned f = 0; f < a->t.dev->info.num_fences; f++)
		hw_fence_read(a->t.dev, f, &a->host_fence[f], NULL);
	/* the host's pages: real pages in the host low and host high ranges, set up before the
	 * runtime starts, as the host's own driver would have; the runtime must never touch them */
	struct hw_page hp[8];
	uint64_t ap = a->t.dev->info.aperture_size;
	cr_assert_eq(hw_alloc_test_pages(a->t.dev, 8, hp, &err), 0, "%s", err.msg);
	for (unsigned h = 0; h < 8; h++) {
		uint64_t idx = h < 4 ? h * 97 : (ap >> 12) + h * 31, pte = d0_guest_pte(&a->t, hp[h].phys >> 12);
		memset(hp[h].cpu, 0x3c + h, 4096);
		if (a->t.dev->info.pte_size == 8)
			sim_mmio_write64(a->t.sim, a->t.dev->info.gsm_offset + (uint32_t)(idx * 8), pte);
		else
			sim_mmio_write32(a->t.sim, a->t.dev->info.gsm_offset + (uint32_t)(idx * 4), (uint32_t)pte);
		a->boot[idx] = pte;
		a->host_gm[a->n_host_pages] = idx << 12;
		memcpy(a->host_bytes[a->n_host_pages++], hp[h].cpu, 4096);
	}
	hw_ggtt_invalidate(a->t.dev);
	cr_assert_eq(dom0_init(a->t.dev, &cfg, &a->t.rt, &err), 0, "%s", err.msg);
	cr_assert_gt(dom0_layout(a->t.rt)->host_low_size, 3 * 97 * 4096ull, "the host pages lie in the host low range");
	for (int k = 0; k < NV; k++)
		create(a, k);
	for (uint64_t step = 1; step <= OPS; step++) {
		one_op(a, step);
		if (step % BATCH == 0)
			check_all(a, step);
	}
	cr_log_info("%s: %d ops, %llu refused", spec, OPS, (unsigned long long)a->ops_refused);
	cr_expect_gt(a->ops_refused, OPS / 10, "the hostile half of the operations must be refused");
	cr_assert_eq(dom0_fini(a->t.rt, NULL), 0, "dom0_fini read back what it did not put back");
	for (uint64_t i = 0; i < a->n; i++)
		cr_assert_eq(d0_phys(&a->t, i), a->boot[i], "PTE %llu not restored at the end", (unsigned long long)i);
	hw_free_test_pages(a->t.dev, 8, hp);
	hw_close(a->t.dev);
	free(a->boot);
	free(a);
}

Test(dom0_adversarial, hostile_guests_skl, .timeout = 600) { run("sim:skl", 0x5eed0001); }
Test(dom0_adversarial, hostile_guests_hsw, .timeout = 600) { run("sim:hsw", 0x5eed0002); }
