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
 *
 * The second half (below, "the dynamic half") runs the same guests and the
 * same oracle on two devices with admission, the request channel, the
 * policy and migrations under them.
 */
#include <criterion/criterion.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/sim/sim.h"
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

/* The GGTT index of the first entry of run i of its high range, and the entries of that run (high_base/size: run 0). */
static uint64_t run_first(const struct dom0_vgpu_info *in, unsigned i)
{
	return i && i < in->n_runs ? (in->high_base + (uint64_t)(in->runs[i].first - in->runs[0].first) *
				      (in->high_size / (in->runs[0].n ? in->runs[0].n : 1))) >> 12 : in->high_base >> 12;
}

static uint64_t run_entries(const struct dom0_vgpu_info *in, unsigned i)
{
	return i && i < in->n_runs ? (uint64_t)in->runs[i].n * (in->high_size / (in->runs[0].n ? in->runs[0].n : 1)) >> 12 :
				     in->high_size >> 12;
}

static bool in_ranges(const struct dom0_vgpu_info *in, uint64_t index)
{
	uint64_t gm = index << 12;

	if (gm >= in->low_base && gm < in->low_base + in->low_size)
		return true;
	for (unsigned i = 0; i < (in->n_runs ? in->n_runs : 1); i++)
		if (index >= run_first(in, i) && index < run_first(in, i) + run_entries(in, i))
			return true;
	return false;
}

/* A hostile guest PTE value for a guest with info `in`. */
static uint64_t h_pte(uint64_t *rng, const struct d0 *t, const struct dom0_vgpu_info *in)
{
	uint64_t r = t_rand(rng);

	switch (r % 8) {
	case 0: return 0;				/* not present */
	case 1: return t_rand(rng);			/* garbage */
	case 2: return d0_guest_pte(t, in->mem_pages + (r >> 8) % 64);	/* a frame it does not own */
	case 3: return d0_guest_pte(t, (r >> 8) % in->mem_pages) | (r & 0xfff0000000000000ull);	/* high junk bits */
	case 4: return d0_guest_pte(t, (r >> 8) & 0x7ffffff);	/* far away */
	default: return d0_guest_pte(t, (r >> 8) % in->mem_pages);	/* its own */
	}
}

/* A hostile PTE index: its own ranges, their edges, anybody's, anywhere (n: the GGTT's entries). */
static uint64_t h_index(uint64_t *rng, uint64_t n, const struct dom0_vgpu_info *in)
{
	uint64_t r = t_rand(rng), lo = in->low_base >> 12;
	unsigned run = in->n_runs > 1 ? (unsigned)(t_rand(rng) % in->n_runs) : 0;	/* any run of its high range */
	uint64_t hi = run_first(in, run), nl = in->low_size >> 12, nh = run_entries(in, run);

	switch (r % 8) {
	case 0: return (r >> 8) % n;
	case 1: return lo + nl - 1 + (r >> 8) % 3;	/* around the end of the low range */
	case 2: return hi + nh - 1 + (r >> 8) % 3;
	case 3: return lo - 1 - (r >> 8) % 2;
	case 4: return r >> 8;				/* beyond the GGTT */
	case 5: case 6: return hi + (nh ? (r >> 8) % nh : 0);
	default: return lo + (r >> 8) % nl;
	}
}

static uint64_t h_fence(uint64_t *rng, const struct d0 *t, const struct dom0_vgpu_info *in)
{
	uint64_t r = t_rand(rng);
	uint64_t pitch = (uint64_t)((r >> 8) % 8), pages = 1 + (r >> 12) % 16;
	uint64_t start = in->low_base + ((r >> 20) % (in->low_size >> 12)) * 4096;

	switch (r % 6) {
	case 0: return 0;					/* off */
	case 1: return t_rand(rng);				/* garbage */
	case 2: start = (r >> 24) % (t->dev->info.aperture_size >> 12) * 4096;	/* anybody's range */
		break;
	default: break;
	}
	return ((start + pages * 4096 - 4096) << 32) | start | (pitch << 32) | ((r >> 6) & 2) | 1;
}

static uint64_t hostile_pte(struct adv *a, const struct guest *g)
{
	return h_pte(&a->rng, &a->t, &g->in);
}

static uint64_t hostile_index(struct adv *a, const struct guest *g)
{
	return h_index(&a->rng, a->n, &g->in);
}

static uint64_t hostile_fence(struct adv *a, const struct guest *g)
{
	return h_fence(&a->rng, &a->t, &g->in);
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

/* ====================================================================== the dynamic half */
/*
 * The same hostile guests, now with the runtime's dynamic half under them, on
 * two devices at once (sim:skl + sim:kbl, and sim:hsw twice). Each test runs
 * ROUNDS rounds of ROUND_OPS seeded operations; every round starts both
 * devices afresh with a config drawn from its seed: admission FIFO, BF, RU or
 * RAND (every policy on each device over the rounds), a share limit of 0, 1
 * or 2, a handful of 4 MiB slots (the rest of the GGTT is the host's), a
 * small fence pool and few guest fences, so creates, expansions and guest
 * fence writes pause and are admitted; on half of the devices, from some
 * operation on, the gBalloon policy with steal rates and periods. Besides the guest operations of the
 * first half: creates and destroys, host resizes, withdrawals (dom0_withdraw,
 * a paused fence rewritten, PVINFO code 4), the request channel (hostile
 * PVINFO writes, well-formed and malformed requests, notifications, a
 * second notify while one waits, serves at random times), scheduler quanta,
 * policy periods, and migrations, slot to slot and device to device in both
 * directions. A migration runs the test's hook after every step: random host
 * work on the migrating runtime and its peer (switches, the migrating vGPU
 * included; quanta; serves; policy periods; resizes, the migrating vGPU
 * included; guest operations of the other vGPUs, and the migrating one's,
 * which must be refused), then every oracle below on both devices; before
 * the release it sometimes fails the step, which must roll back.
 *
 * The oracles (the runtime's tables are read only to be judged against them):
 *   - data tags, as in the first half: every live guest reads only zero or
 *     its own tag through its aperture, and page by page what its own guest
 *     PTE names (its frame, else its scratch page) outside its fenced
 *     ranges; the render owner's ranges in the physical GTT are its shadow
 *     entry for entry, and through the real aperture and the GPU side hold
 *     only its tag; every physical entry in the guest areas names a page of
 *     a live vGPU of that device whose range covers it (a vGPU migrating
 *     between slots: its old run too, until the release); the host's ranges,
 *     fences and pages are untouched. After every batch, after every
 *     migration, and inside every step of one.
 *   - the request channel: an answer belongs to its request. Once a valid
 *     request with SEQ s is accepted, whenever ANSWER_SEQ reads s, STATUS is
 *     PENDING, PAUSED, or the one final answer that request got (a legal one
 *     for its code); a refused write, a malformed request, a second notify
 *     or a withdrawal never shows another status against s, before or after
 *     its answer. Whether a notify is accepted follows the documented rules;
 *     a serve answers every pending request of its device but a migrating
 *     vGPU's, which waits; the runtime's pending count is the guests'.
 *     PVINFO's range words are the vGPU's range, and its EPOCH changes
 *     between operations whenever the range did.
 *   - admission: dom0_paused_count is the number of vGPUs that say they are
 *     paused; a paused create holds no slot; the occupancy of every slot is
 *     the number of vGPUs whose slots cover it, and never above the share
 *     limit; the admitted vGPUs' fences fit the guest fences; nothing is
 *     ever paused that could not fit the device were the other vGPUs gone
 *     (a fence write: beside the vGPU's own other fences, which it cannot
 *     turn off while the write waits), and a request that can never fit (a
 *     fence larger than the pool, a create of more slots than high memory,
 *     more fences than the guest fences or past the last slot, an expansion
 *     past high memory) is refused at once with nothing paused; a paused
 *     vGPU is never switched in, by dom0_switch or the scheduler; a
 *     withdrawal unpauses what it names; under FIFO what runs was the oldest
 *     paused on its device.
 *   - migration: the steps come in order; a success ends at unlock, a failed
 *     step rolls back with the vGPU on its source, unlocked; no vGPU is left
 *     on either device that the test did not make; the migrating vGPU is not
 *     switched in, resized or written by a guest while it is locked; the
 *     target's pages are the source's once transferred.
 * Invariants run after every operation and every piece of hook work; the data
 * tags after every batch and migration step. Every failure names the seed,
 * the round and the operation, so it reproduces.
 */

#define NG		12		/* guests over both devices */
#define MAXID		48		/* ids scanned on a device: ids are reused lowest first, so a leak shows */
#define DYN_BATCH	500
#define SLOT		(4 * MiB)
#define SEQ_BASE	0x40000000u	/* SEQs of the test's well-formed requests count up from here */
#define SEQ_TRACKED	(1u << 20)	/* ...and stay below SEQ_BASE + this */
#define SEQ_HOSTILE_CLR	0x40000000u	/* cleared in every hostile SEQ word: it never names a tracked request */
#define SCAN		8192u
#define PVW(reg)	((reg) - VGT_PVINFO_PAGE)

enum rq_state { RQ_UNSEEN, RQ_REFUSED, RQ_WAITING, RQ_FINAL };

/* A well-formed request of the test, by its SEQ. */
struct req {
	unsigned tag;			/* the guest incarnation that asked */
	enum rq_state st;
	uint32_t final;			/* its answer, once final */
};

/*
 * A layout of the table the dynamic half runs over (docs/hostile-input.md
 * lists them): the two devices, how many slots high memory has on each (the
 * slot size is whatever gives that many, the rest of high memory the host's;
 * 0: a handful of 4 MiB slots, 10 to 24, drawn each round), and non-contiguous
 * slots (config.slot_runs drawn from 2..runs each round; 0: one run). Every
 * round draws the rest afresh: the admission policy (each of the four on each
 * device over four rounds), the share limit (0-2), the pool, the guest fences.
 */
struct dyn_layout {
	const char *spec[2];
	unsigned slots;
	unsigned runs;
	unsigned rounds, round_ops;
	bool one_slot;			/* a single slot: no slot migration can ever be made (nowhere to go) */
};

struct ddev {
	struct d0 t;
	const char *spec;
	struct dom0_config cfg;
	const struct dom0_layout *l;
	uint64_t n, *boot;
	unsigned ps;
	uint64_t host_fence[I915_MAX_NUM_FENCES];
	struct hw_page hp[8];
	uint64_t host_gm[8];
	uint8_t host_bytes[8][4096];
	uint64_t clock;			/* the caller's clock of policy periods */
	bool policy_allowed;		/* the policy may be turned on in this round (half of the devices) */
	uint64_t seen_paused, seen_admitted;	/* the runtime's pause and admission counters at the last look */
	bool policy;
};

struct dguest {
	int dev, id;			/* id 0: dead */
	unsigned tag;
	struct dom0_vgpu_info in;
	unsigned ask_slots, ask_fences;	/* its create */
	unsigned ask_expand;		/* Q of the last expansion asked for it (host, PVINFO, evictions) */
	uint64_t fence_pages;		/* pages of its fence write that paused last */
	unsigned pause_fence;		/* ...and which fence */
	uint32_t evictions;		/* the eviction count it reports */
	/* its request waiting for an answer (accepted, not final yet) */
	bool waiting;
	bool w_paused;			/* answered PAUSED: admission answers it later */
	uint32_t w_seq, w_code, w_count;
	/* admission's queue as the test sees it */
	enum dom0_pause seen;		/* what of it was paused at the last look */
	uint64_t order;			/* when its current pause began, in the test's count */
	uint64_t born;			/* when its vGPU was created on its device (a device move makes another) */
	bool queued;			/* it wrote while a migration locked it: the writes run at the unlock */
	bool left;			/* its pause was taken back (withdrawn, replaced, refused at its deadline), not admitted */
	uint64_t expired;		/* its vGPU's pauses refused at their deadline, at the last look */
	bool requeued;			/* its paused write was replaced by one that waits afresh, behind the others */
	/* PVINFO's epoch against its range, between operations */
	bool epoch_known;
	unsigned e_first, e_slots;
	uint32_t epoch;
};

struct holder {
	int gi;				/* guest index */
	int id;
	bool target;			/* the migration's vGPU on the other device */
	struct dom0_vgpu_info in;
	uint64_t extra_lo, extra_hi;	/* PTE indexes a slot migration may still hold: its old run */
};

struct page_ref {
	uint64_t phys;
	int h;				/* holder index */
};

/* The migration under way. */
struct mig {
	bool on, device;
	bool released;			/* a device move past its release: the guest lives on the target */
	int gi, src, id;		/* the guest, its device and id when the move began */
	unsigned from, to, n;		/* a slot move: from run, to run, slots */
	int last;			/* the last step seen, -1 none */
	int fail_at;			/* the step the hook failed, -1 none */
	int tid;			/* the target's id on the other device, once made */
};

struct dyn_counts {
	uint64_t ops, refused, creates, creates_paused, never_fit, expands_paused, fences_paused;
	uint64_t withdraw_api, withdraw_fence, withdraw_channel, requests, answered, answered_paused, malformed;
	uint64_t busy_notifies, serves, slot_moves, dev_moves[2], rollbacks, refused_moves, hook_steps, hook_work;
	uint64_t full_checks, admitted, policy_on, waiting_ops, fifo_checked, queues_run;
};

struct dyn {
	const struct dyn_layout *lay;
	const char *spec[2];
	unsigned occ_lo[DOM0_MAX_SLOTS], occ_hi[DOM0_MAX_SLOTS];	/* the invariants' occupancy, slot by slot */
	uint64_t pause_ctr;		/* looks at the queue so far: the order pauses were seen in */
	uint64_t births;		/* vGPUs created so far, by the test's creates and device moves */
	uint64_t seed, rng;
	unsigned round;
	struct ddev d[2];
	struct dguest g[NG];
	unsigned next_tag;
	struct req *reqs;
	uint32_t next_seq;
	uint64_t op;
	char where[256];
	uint8_t *buf;
	uint64_t *scan;
	struct holder h[NG + 2];
	unsigned nh;
	struct page_ref *pages;
	size_t n_pages, cap_pages;
	struct mig mig;
	struct dyn_counts c;
};

static void failf(const struct dyn *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void failf(const struct dyn *w, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	cr_assert_fail("%s: %s", w->where, msg);
}

/* The failure names the seed, round and operation (w->where) before its own message. */
#define CHECK(w, cond, ...) do { if (!(cond)) failf((w), __VA_ARGS__); } while (0)

static uint64_t rnd(struct dyn *w)
{
	return t_rand(&w->rng);
}

static struct dom0_runtime *grt(struct dyn *w, const struct dguest *g)
{
	return w->d[g->dev].t.rt;
}

static uint32_t pvr(struct dyn *w, const struct dguest *g, uint32_t reg)
{
	uint32_t v = 0;

	CHECK(w, !dom0_pvinfo_read(grt(w, g), g->id, PVW(reg), &v, NULL), "vGPU %d: PVINFO 0x%x unreadable", g->id, reg);
	return v;
}

static bool migrating_now(struct dyn *w, const struct dguest *g)
{
	return dom0_vgpu_migrating(grt(w, g), g->id);
}

static void set_where(struct dyn *w, const char *extra)
{
	snprintf(w->where, sizeof(w->where), "%s+%s seed 0x%llx round %u op %llu%s", w->spec[0], w->spec[1],
		 (unsigned long long)w->seed, w->round, (unsigned long long)w->op, extra);
}

static void dg_refresh(struct dyn *w, struct dguest *g)
{
	CHECK(w, !dom0_vgpu_info(grt(w, g), g->id, &g->in), "guest %ld (vGPU %d on device %d) is gone", (long)(g - w->g),
	      g->id, g->dev);
}

/* A valid fence of `pages` pages at page `at` of its low range; 0 when the platform refuses it. */
static uint64_t fence_of(const struct ddev *d, const struct dom0_vgpu_info *in, uint64_t at, uint64_t pages, bool y)
{
	struct hw_fence f = { .start = in->low_base + at * 4096, .size = pages * 4096, .stride = y ? 128 : 512,
			      .tiling = y ? HW_TILING_Y : HW_TILING_X, .valid = true };
	uint64_t v = 0;

	return hw_fence_encode(d->t.dev->info.plat, d->t.dev->info.aperture_size, &f, &v, NULL) ? 0 : v;
}

static uint64_t fence_pages_of(const struct ddev *d, uint64_t val)
{
	struct hw_fence f;

	hw_fence_decode(d->t.dev->info.plat, val, &f);
	return f.valid ? f.size / 4096 : 0;
}

/* ------------------------------------------------------------- the channel oracle */

static bool legal_final(uint32_t code, uint32_t st)
{
	switch (st) {
	case GTTLAB_GM_ST_GRANTED: case GTTLAB_GM_ST_REFUSED_ROOM: case GTTLAB_GM_ST_WITHDRAWN:
		return true;
	case GTTLAB_GM_ST_REFUSED_POLICY:
		return code != GTTLAB_GM_REQ_REDUCE;
	case GTTLAB_GM_ST_NOTED:
		return code == GTTLAB_GM_REQ_EVICTIONS;
	default:
		return false;
	}
}

static struct req *tracked(struct dyn *w, uint32_t seq)
{
	return seq >= SEQ_BASE && seq - SEQ_BASE < SEQ_TRACKED ? &w->reqs[seq - SEQ_BASE] : NULL;
}

static void finish(struct dyn *w, struct dguest *g, uint32_t st)
{
	struct req *r = tracked(w, g->w_seq);

	g->waiting = false;
	g->w_paused = false;
	if (r) {
		r->st = RQ_FINAL;
		r->final = st;
	}
	w->c.answered++;
	if (st == GTTLAB_GM_ST_WITHDRAWN)
		w->c.withdraw_channel++;
}

/* The status pair against what the guest asked: an answer belongs to its request. */
static void chan_check(struct dyn *w, struct dguest *g)
{
	uint32_t st = pvr(w, g, GTTLAB_IF_GM_STATUS), as = pvr(w, g, GTTLAB_IF_GM_ANSWER_SEQ);
	struct req *r = tracked(w, as);

	if (g->waiting && as == g->w_seq) {
		if (st == GTTLAB_GM_ST_PENDING && !g->w_paused)
			return;
		if (st == GTTLAB_GM_ST_PAUSED) {
			CHECK(w, g->w_code != GTTLAB_GM_REQ_REDUCE, "vGPU %d: its reduce request (SEQ 0x%x) is answered PAUSED",
			      g->id, as);
			if (!g->w_paused)
				w->c.answered_paused++;
			g->w_paused = true;
			return;
		}
		/* once PAUSED: granted, withdrawn, or refused at its deadline holding the queue (config.admit_deadline_ms) */
		CHECK(w, legal_final(g->w_code, st) && (!g->w_paused || st == GTTLAB_GM_ST_GRANTED || st == GTTLAB_GM_ST_WITHDRAWN ||
							  st == GTTLAB_GM_ST_REFUSED_ROOM),
		      "vGPU %d: its request (code %u, SEQ 0x%x, %s) reads status %u: not an answer it can get",
		      g->id, g->w_code, as, g->w_paused ? "answered PAUSED" : "pending", st);
		finish(w, g, st);
		return;
	}
	if (!r || r->st == RQ_UNSEEN || r->st == RQ_REFUSED)
		return;		/* no request of the test was accepted with this SEQ */
	CHECK(w, r->tag == g->tag, "vGPU %d (tag %u) reads the answer to SEQ 0x%x, a request of guest tag %u", g->id, g->tag,
	      as, r->tag);
	CHECK(w, r->st == RQ_FINAL, "vGPU %d: SEQ 0x%x waits, yet the test lost track of it", g->id, as);
	/* after its answer too: a later refusal (a refused write, a malformed or second request, a withdrawal with nothing
	 * waiting) that leaves the SEQ word as it was must not put another status beside s */
	CHECK(w, st == r->final, "vGPU %d: ANSWER_SEQ reads 0x%x, a request answered %u, now with status %u: an answer "
	      "belongs to its request", g->id, as, r->final, st);
}

/*
 * What its queued writes did when they ran at the unlock, taken from the
 * runtime: they ran in an order the test did not watch one by one. The
 * request the runtime holds for it (if any) is the one it waits for; one it
 * waited for and no longer does was answered there (its status is shown
 * unless a later queued request's answer covers it: then it is no longer
 * judged).
 */
static void unqueue(struct dyn *w, struct dguest *g)
{
	if (!g->queued || !g->id)
		return;
	g->queued = false;
	w->c.queues_run++;
	dg_refresh(w, g);
	if (g->in.paused == DOM0_PAUSE_FENCE) {
		g->pause_fence = g->in.pause_fence;
		g->fence_pages = fence_pages_of(&w->d[g->dev], g->in.pause_val);
	}
	g->requeued = g->in.paused != DOM0_PAUSE_NONE;	/* its order is unknown: not judged in this look */
	uint32_t st = pvr(w, g, GTTLAB_IF_GM_STATUS), as = pvr(w, g, GTTLAB_IF_GM_ANSWER_SEQ);
	if (g->in.req_waiting) {
		if (!g->waiting || g->w_seq != g->in.req_seq) {
			struct req *r = tracked(w, g->in.req_seq);
			g->w_seq = g->in.req_seq;
			g->w_code = g->in.req_code;
			g->w_count = g->in.req_count;
			if (r) {
				r->st = RQ_WAITING;
				r->tag = g->tag;
			}
		}
		g->waiting = true;
		g->w_paused = g->in.req_paused;
	} else if (g->waiting) {
		struct req *r = tracked(w, g->w_seq);
		if (as == g->w_seq) {
			finish(w, g, st);
		} else {
			g->waiting = false;
			g->w_paused = false;
			if (r)
				r->st = RQ_REFUSED;	/* its answer was covered: no longer judged */
		}
	}
}

/* ------------------------------------------------------------------ invariants */

static struct dguest *by_dev_id(struct dyn *w, int di, int id)
{
	for (int k = 0; k < NG; k++)
		if (w->g[k].id == id && w->g[k].dev == di)
			return &w->g[k];
	return NULL;
}

/* Pool pages g's valid fences other than `except` hold (their values as the guest reads them back). */
static uint64_t own_fence_pages(struct dyn *w, const struct dguest *g, unsigned except)
{
	struct ddev *d = &w->d[g->dev];
	uint64_t n = 0;

	for (unsigned f = 0; f < g->in.fences && f < DOM0_MAX_GUEST_FENCES; f++) {
		uint64_t v = 0;
		if (f != except && !dom0_guest_fence_read(d->t.rt, g->id, f, &v, NULL))
			n += fence_pages_of(d, v);
	}
	return n;
}

/*
 * Whether what the paused vGPU asked for fits the device were every other
 * vGPU gone. Its own other fences stay: while one write of it waits, the
 * guest cannot turn another off (one at a time), so a fence larger than what
 * they leave of the pool waits for ever and holds the queue.
 */
static void fits_idle(struct dyn *w, const struct ddev *d, const struct dguest *g, enum dom0_pause p)
{
	const struct dom0_layout *l = d->l;

	switch (p) {
	case DOM0_PAUSE_CREATE:
		CHECK(w, g->ask_slots <= l->num_slots && g->ask_fences <= l->guest_fences,
		      "vGPU %d: a create of %u slots and %u fences is paused; high memory has %u slots, guests %u fences: it never fits",
		      g->id, g->ask_slots, g->ask_fences, l->num_slots, l->guest_fences);
		break;
	case DOM0_PAUSE_EXPAND: {
		/* asked over PVINFO (answered PAUSED): its count, or the policy's eviction slots; else the host's Q */
		const struct dom0_policy_state *ps = dom0_policy_state(d->t.rt);
		unsigned q = !(g->waiting && g->w_paused) ? g->ask_expand :
			     g->w_code == GTTLAB_GM_REQ_EVICTIONS ? (ps->enabled ? ps->p.evict_slots : 1) : g->w_count;
		CHECK(w, (uint64_t)g->in.slots + q <= l->num_slots,
		      "vGPU %d: holding %u slots, an expansion by %u is paused; high memory has %u: it never fits", g->id,
		      g->in.slots, q, l->num_slots);
		break;
	}
	case DOM0_PAUSE_FENCE: {
		uint64_t own = own_fence_pages(w, g, g->pause_fence);
		CHECK(w, g->fence_pages && g->fence_pages + own <= l->pool_size / 4096,
		      "vGPU %d: a write of fence %u, %llu pages, is paused; the pool has %llu and its other fences hold %llu: "
		      "it never fits, and they cannot be turned off while it waits", g->id, g->pause_fence,
		      (unsigned long long)g->fence_pages, (unsigned long long)(l->pool_size / 4096), (unsigned long long)own);
		break;
	}
	default:
		break;
	}
}

/* Cheap, after every operation and every piece of hook work. */
static void invariants(struct dyn *w)
{
	/* pauses seen in this look began after every earlier look's; among themselves their order is unknown */
	w->pause_ctr++;
	for (int k = 0; k < NG; k++)
		if (w->g[k].id) {
			struct dguest *g = &w->g[k];
			const struct dom0_layout *l = w->d[g->dev].l;
			dg_refresh(w, g);
			chan_check(w, g);
			if (g->in.counters.expired != g->expired) {
				g->left = true;		/* refused at its deadline: it did not run */
				g->expired = g->in.counters.expired;
			}
			/* PVINFO says where its high range is */
			unsigned nr = g->in.n_runs ? g->in.n_runs : 1;
			CHECK(w, pvr(w, g, VGT_IF_NONMAPPABLE_BASE) == (uint32_t)g->in.high_base &&
				 pvr(w, g, VGT_IF_NONMAPPABLE_SIZE) == (uint32_t)((uint64_t)(g->in.n_runs ? g->in.runs[0].n : 0) * l->slot_size) &&
				 pvr(w, g, GTTLAB_IF_GM_SLOTS) == g->in.slots && pvr(w, g, GTTLAB_IF_GM_RUNS) == nr,
			      "vGPU %d: PVINFO says 0x%x+0x%x, %u slots in %u runs; it holds slots %u+%u at 0x%llx in %u runs", g->id,
			      pvr(w, g, VGT_IF_NONMAPPABLE_BASE), pvr(w, g, VGT_IF_NONMAPPABLE_SIZE), pvr(w, g, GTTLAB_IF_GM_SLOTS),
			      pvr(w, g, GTTLAB_IF_GM_RUNS), g->in.first_slot, g->in.slots, (unsigned long long)g->in.high_base, nr);
			for (unsigned i = 1; i < GTTLAB_GM_MAX_RUNS; i++) {
				uint64_t b = i < g->in.n_runs ? l->slots_base + (uint64_t)g->in.runs[i].first * l->slot_size : 0;
				uint64_t z = i < g->in.n_runs ? (uint64_t)g->in.runs[i].n * l->slot_size : 0;
				CHECK(w, pvr(w, g, GTTLAB_IF_GM_RUN_BASE(i)) == (uint32_t)b && pvr(w, g, GTTLAB_IF_GM_RUN_SIZE(i)) == (uint32_t)z,
				      "vGPU %d: PVINFO's run %u reads 0x%x+0x%x; it holds 0x%llx+0x%llx there", g->id, i,
				      pvr(w, g, GTTLAB_IF_GM_RUN_BASE(i)), pvr(w, g, GTTLAB_IF_GM_RUN_SIZE(i)), (unsigned long long)b,
				      (unsigned long long)z);
			}
		}
	/*
	 * FIFO: what admission ran was the oldest *created* waiting on its
	 * device, or ran on places every older waiting create could not use
	 * (under a share limit a paused create holds its places; an older
	 * expansion or fence write never waits behind a younger request;
	 * docs/dom0.md). The test
	 * knows the order of pauses it saw begin in different looks; one operation
	 * may also admit a request and pause its vGPU again (a serve answering
	 * several requests), unseen: when the runtime's counters of pauses and
	 * admissions say more happened than the test saw, the orders of what waits
	 * there are unknown (0) and that look is not judged.
	 */
	for (int di = 0; di < 2; di++) {
		struct ddev *d = &w->d[di];
		const struct dom0_counters *c = dom0_counters(d->t.rt);
		uint64_t new_seen = 0, ran_seen = 0;
		for (int k = 0; k < NG; k++) {
			struct dguest *g = &w->g[k];
			if (g->id && g->dev == di) {
				new_seen += g->in.paused && (!g->seen || g->requeued);
				ran_seen += !g->in.paused && g->seen && !g->left;
			}
		}
		bool exact = c->paused - d->seen_paused == new_seen && c->admitted - d->seen_admitted == ran_seen;
		d->seen_paused = c->paused;
		d->seen_admitted = c->admitted;
		for (int k = 0; k < NG; k++) {
			struct dguest *g = &w->g[k];
			if (g->id && g->dev == di && g->in.paused && (!exact || !g->seen || g->requeued))
				g->order = exact ? w->pause_ctr : 0;
		}
		for (int k = 0; k < NG && exact && d->cfg.admission == DOM0_ADMIT_FIFO; k++) {
			struct dguest *a = &w->g[k];
			if (!a->id || a->dev != di || a->in.paused || !a->seen || a->left || !a->order)
				continue;
			for (int j = 0; j < NG; j++) {
				struct dguest *b = &w->g[j];
				/* b waited since an earlier look: it was waiting when a ran */
				CHECK(w, !(b->id && b->dev == di && b->in.paused && b->order && b->order < w->pause_ctr &&
					   b->born < a->born && (b->in.paused != DOM0_PAUSE_CREATE || !d->cfg.share_limit)),
				      "device %d (FIFO): vGPU %d's paused %s ran before vGPU %d's %s, created earlier and still waiting",
				      di, a->id, dom0_pause_name(a->seen), b->id, dom0_pause_name(b->in.paused));
			}
			w->c.fifo_checked++;
		}
	}
	for (int k = 0; k < NG; k++) {
		w->g[k].seen = w->g[k].id ? w->g[k].in.paused : DOM0_PAUSE_NONE;
		w->g[k].left = false;
		w->g[k].requeued = false;
	}
	for (int di = 0; di < 2; di++) {
		struct ddev *d = &w->d[di];
		struct dom0_runtime *rt = d->t.rt;
		unsigned M = d->l->num_slots, paused = 0, pending = 0, fences = 0, *lo = w->occ_lo, *hi = w->occ_hi;
		bool target_seen = false;

		memset(lo, 0, M * sizeof(*lo));
		memset(hi, 0, M * sizeof(*hi));

		for (int id = 1; id <= MAXID; id++) {
			struct dguest *g = by_dev_id(w, di, id);
			bool is_target = w->mig.on && w->mig.device && di != w->mig.src && id == w->mig.tid;
			if (!dom0_vgpu_exists(rt, id)) {
				CHECK(w, !g, "device %d: guest %ld's vGPU %d is gone", di, (long)(g - w->g), id);
				CHECK(w, !is_target, "device %d: the migration's target vGPU %d is gone mid-move", di, id);
				continue;
			}
			struct dom0_vgpu_info in;
			CHECK(w, !dom0_vgpu_info(rt, id, &in), "device %d: vGPU %d has no info", di, id);
			if (!g && w->mig.on && w->mig.device && !w->mig.released && di != w->mig.src && !w->mig.tid &&
			    w->mig.last >= DOM0_MIGRATE_SELECT) {
				w->mig.tid = id;	/* made by the migration's select */
				is_target = true;
			}
			CHECK(w, g || is_target, "device %d: vGPU %d exists, and no guest of the test is it (left behind?)", di, id);
			target_seen |= is_target;
			CHECK(w, in.paused == dom0_vgpu_paused(rt, id), "device %d: vGPU %d info and dom0_vgpu_paused disagree", di, id);
			if (in.paused) {
				paused++;
				CHECK(w, !is_target, "device %d: the migration's target vGPU %d is paused", di, id);
				if (g)
					fits_idle(w, d, g, in.paused);
			}
			if (in.paused == DOM0_PAUSE_CREATE)
				CHECK(w, in.slots == 0, "device %d: vGPU %d's create is paused, yet it holds %u slots", di, id, in.slots);
			else
				fences += in.fences;	/* admitted: its fence registers are reserved */
			CHECK(w, in.first_slot + in.slots <= M, "device %d: vGPU %d holds slots %u+%u of %u", di, id, in.first_slot,
			      in.slots, M);
			unsigned held = 0;
			for (unsigned i = 0; i < in.n_runs; i++) {
				CHECK(w, in.runs[i].n && in.runs[i].first + in.runs[i].n <= M && (!i || in.runs[i].first > in.runs[i - 1].first + in.runs[i - 1].n),
				      "device %d: vGPU %d's run %u is slots %u+%u of %u: empty, past the end, or not apart from the one before",
				      di, id, i, in.runs[i].first, in.runs[i].n, M);
				held += in.runs[i].n;
			}
			CHECK(w, held == in.slots && in.n_runs <= (d->cfg.slot_runs >= 2 ? d->cfg.slot_runs : 1),
			      "device %d: vGPU %d holds %u slots in %u runs; its runs add to %u (config slot runs %u)", di, id, in.slots,
			      in.n_runs, held, d->cfg.slot_runs);
			bool mig_self = w->mig.on && !w->mig.released && g && g - w->g == w->mig.gi && di == w->mig.src;
			CHECK(w, !dom0_vgpu_migrating(rt, id) || mig_self || is_target,
			      "device %d: vGPU %d is migrating, and no migration of it is under way", di, id);
			/* occupancy: lo counts its run; hi also the other run a slot migration holds until its release */
			for (unsigned i = 0; i < in.n_runs; i++)
				for (unsigned s = in.runs[i].first; s < in.runs[i].first + in.runs[i].n && s < M; s++) {
					lo[s]++;
					hi[s]++;
				}
			if (mig_self && !w->mig.device && w->mig.last < DOM0_MIGRATE_RELEASE)
				for (unsigned s = 0; s < M; s++) {
					bool in_run = s >= in.first_slot && s < in.first_slot + in.slots;
					bool other = (s >= w->mig.from && s < w->mig.from + w->mig.n) ||
						     (s >= w->mig.to && s < w->mig.to + w->mig.n);
					hi[s] += other && !in_run;
				}
			if (g && g->waiting && !g->w_paused)
				pending++;
		}
		CHECK(w, !(w->mig.on && w->mig.device && di != w->mig.src && w->mig.tid) || target_seen,
		      "device %d: the migration's target vGPU %d is gone", di, w->mig.tid);
		CHECK(w, dom0_paused_count(rt) == paused, "device %d: dom0_paused_count %u, %u vGPUs say they are paused", di,
		      dom0_paused_count(rt), paused);
		CHECK(w, dom0_requests_pending(rt) == pending, "device %d: %u requests pending, the guests' own count is %u", di,
		      dom0_requests_pending(rt), pending);
		CHECK(w, fences <= d->l->guest_fences, "device %d: the admitted vGPUs hold %u fences; guests have %u", di, fences,
		      d->l->guest_fences);
		for (unsigned s = 0; s < M; s++)
			CHECK(w, !d->cfg.share_limit || dom0_slot_occupancy(rt, s) <= d->cfg.share_limit,
			      "device %d: slot %u is held by %u vGPUs; the share limit is %u", di, s, dom0_slot_occupancy(rt, s),
			      d->cfg.share_limit);
		for (unsigned s = 0; s < M; s++)
			CHECK(w, dom0_slot_occupancy(rt, s) >= lo[s] && dom0_slot_occupancy(rt, s) <= hi[s],
			      "device %d: slot %u occupancy %u; the vGPUs' slots cover it %u times%s", di, s,
			      dom0_slot_occupancy(rt, s), lo[s], lo[s] != hi[s] ? " (a migration holds it too)" : "");
	}
}

/* ------------------------------------------------------------ the data-tag oracle */

static int cmp_page(const void *a, const void *b)
{
	const struct page_ref *x = a, *y = b;

	return x->phys < y->phys ? -1 : x->phys > y->phys;
}

static void add_page(struct dyn *w, uint64_t phys, int h)
{
	if (w->n_pages == w->cap_pages) {
		w->cap_pages = w->cap_pages ? 2 * w->cap_pages : 1024;
		w->pages = realloc(w->pages, w->cap_pages * sizeof(*w->pages));
		cr_assert_not_null(w->pages);
	}
	w->pages[w->n_pages++] = (struct page_ref){ phys, h };
}

static int page_owner(const struct dyn *w, uint64_t phys)
{
	size_t lo = 0, hi = w->n_pages;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (w->pages[mid].phys < phys)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->n_pages && w->pages[lo].phys == phys ? w->pages[lo].h : -1;
}

static bool covers(const struct holder *h, uint64_t i)
{
	return in_ranges(&h->in, i) || (i >= h->extra_lo && i < h->extra_hi);
}

/* Every word zero or tagged `tag`; the first other one is named. */
static void own_words(struct dyn *w, const uint8_t *buf, size_t len, unsigned tag, const char *how, int di, uint64_t gm)
{
	for (size_t o = 0; o + 8 <= len; o += 8) {
		uint64_t x;
		memcpy(&x, buf + o, 8);
		if (!x)
			continue;
		CHECK(w, (x & 0xffff000000000000ull) == TAG_MAGIC && TAG_OF(x) == tag,
		      "device %d: %s at GM 0x%llx reads 0x%016llx: not the reader's (tag %u) — %s", di, how,
		      (unsigned long long)(gm + o), (unsigned long long)x, tag,
		      (x & 0xffff000000000000ull) == TAG_MAGIC ? "another guest's data" : "foreign bytes");
	}
}

/*
 * What the guest reads through its aperture, page by page, outside its
 * fenced ranges (those go through the pool, detiled): the page its own guest
 * PTE names, or its scratch page where that PTE is not present or names a
 * frame beyond its memory (the test's own decode of the guest's value).
 */
static void ladder_is_its_ptes(struct dyn *w, int di, const struct holder *h, const uint8_t *buf)
{
	struct ddev *d = &w->d[di];
	struct dom0_runtime *rt = d->t.rt;
	uint64_t fl[DOM0_MAX_GUEST_FENCES], fh[DOM0_MAX_GUEST_FENCES];
	unsigned nf = 0;
	static uint8_t scratch[4096];

	for (unsigned f = 0; f < h->in.fences && f < DOM0_MAX_GUEST_FENCES; f++) {
		uint64_t v = 0;
		struct hw_fence hf;
		CHECK(w, !dom0_guest_fence_read(rt, h->id, f, &v, NULL), "device %d: vGPU %d fence %u unreadable", di, h->id, f);
		hw_fence_decode(d->t.dev->info.plat, v, &hf);
		if (hf.valid) {
			fl[nf] = hf.start;
			fh[nf++] = hf.start + hf.size;
		}
	}
	sim_mem_read(d->t.sim, h->in.scratch_phys, scratch, sizeof(scratch));
	for (uint64_t pg = 0; pg < h->in.low_size >> 12; pg++) {
		uint64_t gm = h->in.low_base + pg * 4096, gpte = 0;
		bool fenced = false;
		for (unsigned f = 0; f < nf && !fenced; f++)
			fenced = gm + 4096 > fl[f] && gm < fh[f];
		if (fenced)
			continue;
		CHECK(w, !dom0_guest_pte_read(rt, h->id, gm >> 12, &gpte, NULL), "device %d: vGPU %d guest PTE unreadable", di, h->id);
		uint64_t frame = d0_pte_addr(&d->t, gpte) >> 12;
		const uint8_t *want = scratch;
		struct hw_page hp;
		if ((gpte & 1) && frame < h->in.mem_pages && !dom0_guest_page(rt, h->id, frame, &hp))
			want = hp.cpu;
		CHECK(w, !memcmp(buf + pg * 4096, want, 4096),
		      "device %d: vGPU %d reads GM 0x%llx through its aperture, not the %s its guest PTE 0x%llx names", di, h->id,
		      (unsigned long long)gm, want == scratch ? "scratch page" : "frame", (unsigned long long)gpte);
	}
}

/* The render owner's ranges in the physical GTT are its shadow, entry for entry. */
static void owner_is_its_shadow(struct dyn *w, int di, const struct holder *o)
{
	struct ddev *d = &w->d[di];
	uint64_t ranges[1 + DOM0_MAX_RUNS][2] = { { o->in.low_base >> 12, o->in.low_size >> 12 } };
	unsigned nr = 1;

	for (unsigned i = 0; i < (o->in.n_runs ? o->in.n_runs : 1); i++, nr++) {
		ranges[nr][0] = run_first(&o->in, i);
		ranges[nr][1] = run_entries(&o->in, i);
	}
	for (unsigned r = 0; r < nr; r++)
		for (uint64_t i0 = 0; i0 < ranges[r][1]; i0 += SCAN) {
			size_t k = ranges[r][1] - i0 < SCAN ? (size_t)(ranges[r][1] - i0) : SCAN;
			uint64_t first = ranges[r][0] + i0;
			sim_gsm_read_run(d->t.sim, d->t.dev->info.gsm_offset + (uint32_t)(first * d->ps), w->scan, k, d->ps);
			for (size_t j = 0; j < k; j++) {
				uint64_t sh = 0;
				CHECK(w, !dom0_shadow_pte(d->t.rt, o->id, first + j, &sh, NULL), "shadow unreadable");
				CHECK(w, w->scan[j] == sh, "device %d: PTE %llu of render owner %d is 0x%llx, its shadow 0x%llx", di,
				      (unsigned long long)(first + j), o->id, (unsigned long long)w->scan[j], (unsigned long long)sh);
			}
		}
}

static void check_device(struct dyn *w, int di)
{
	struct ddev *d = &w->d[di];
	struct dom0_runtime *rt = d->t.rt;
	const struct dom0_layout *l = d->l;
	struct hw_device *dev = d->t.dev;
	int owner = dom0_render_owner(rt);

	/* who lives here, and their pages */
	w->nh = 0;
	w->n_pages = 0;
	for (int k = 0; k < NG; k++) {
		struct dguest *g = &w->g[k];
		if (!g->id || g->dev != di)
			continue;
		struct holder *h = &w->h[w->nh];
		*h = (struct holder){ .gi = k, .id = g->id, .in = g->in };
		if (w->mig.on && !w->mig.device && k == w->mig.gi && w->mig.last < DOM0_MIGRATE_RELEASE) {
			h->extra_lo = (l->slots_base >> 12) + (uint64_t)w->mig.from * (l->slot_size >> 12);
			h->extra_hi = h->extra_lo + (uint64_t)w->mig.n * (l->slot_size >> 12);
		}
		w->nh++;
	}
	if (w->mig.on && w->mig.device && di != w->mig.src && w->mig.tid) {
		struct holder *h = &w->h[w->nh++];
		*h = (struct holder){ .gi = w->mig.gi, .id = w->mig.tid, .target = true };
		CHECK(w, !dom0_vgpu_info(rt, w->mig.tid, &h->in), "the target vGPU %d is gone", w->mig.tid);
	}
	for (unsigned hi = 0; hi < w->nh; hi++) {
		struct hw_page pg;
		for (unsigned f = 0; f < w->h[hi].in.mem_pages; f++) {
			CHECK(w, !dom0_guest_page(rt, w->h[hi].id, f, &pg), "device %d: vGPU %d has no frame %u", di, w->h[hi].id, f);
			add_page(w, pg.phys, (int)hi);
		}
		add_page(w, w->h[hi].in.scratch_phys, (int)hi);
	}
	qsort(w->pages, w->n_pages, sizeof(*w->pages), cmp_page);
	for (size_t i = 1; i < w->n_pages; i++)
		CHECK(w, w->pages[i].phys != w->pages[i - 1].phys, "device %d: page 0x%llx belongs to two vGPUs", di,
		      (unsigned long long)w->pages[i].phys);

	/* every live guest through its aperture; the target's pages are the source's once transferred */
	for (unsigned hi = 0; hi < w->nh; hi++) {
		struct holder *h = &w->h[hi];
		unsigned tag = w->g[h->gi].tag;
		if (h->target) {
			if (w->mig.last < DOM0_MIGRATE_TRANSFER)
				continue;
			struct dguest *g = &w->g[h->gi];
			for (unsigned f = 0; f < h->in.mem_pages; f++) {
				struct hw_page a, b;
				dom0_guest_page(rt, h->id, f, &a);
				dom0_guest_page(grt(w, g), g->id, f, &b);
				CHECK(w, !memcmp(a.cpu, b.cpu, 4096), "device %d: the target's frame %u is not the source's after the transfer",
				      di, f);
			}
			continue;
		}
		struct gtt_err err = { 0 };
		int rc = dom0_guest_aperture_read(rt, h->id, h->in.low_base, w->buf, h->in.low_size, &err);
		if (rc == GTT_EBUSY && dom0_vgpu_migrating(rt, h->id))
			continue;	/* locked by its migration */
		CHECK(w, !rc, "device %d: vGPU %d cannot read its own low range: %s", di, h->id, err.msg);
		own_words(w, w->buf, h->in.low_size, tag, "its aperture (ladder map and fences)", di, h->in.low_base);
		ladder_is_its_ptes(w, di, h, w->buf);
	}
	int oh = -1;
	for (unsigned hi = 0; hi < w->nh; hi++)
		if (owner && w->h[hi].id == owner)
			oh = (int)hi;
	CHECK(w, !owner || oh >= 0, "device %d: render owner %d is no vGPU the test knows", di, owner);
	if (oh >= 0) {
		struct holder *o = &w->h[oh];
		unsigned tag = w->g[o->gi].tag;
		CHECK(w, o->in.paused != DOM0_PAUSE_CREATE, "device %d: render owner %d was never admitted", di, owner);
		CHECK(w, !(dom0_vgpu_migrating(rt, owner) && !o->target && w->mig.last >= DOM0_MIGRATE_DRAIN),
		      "device %d: render owner %d is locked by its migration past the drain", di, owner);
		owner_is_its_shadow(w, di, o);
		CHECK(w, !hw_aperture_read(dev, o->in.low_base, w->buf, o->in.low_size, NULL), "aperture read");
		own_words(w, w->buf, o->in.low_size, tag, "the real aperture, render owner's low range", di, o->in.low_base);
		for (int s = 0; s < 16 && o->in.high_size; s++) {
			unsigned run = o->in.n_runs > 1 ? (unsigned)(rnd(w) % o->in.n_runs) : 0;
			uint64_t gm = (run_first(&o->in, run) + rnd(w) % run_entries(&o->in, run)) << 12;
			if (!hw_gpu_read(dev, gm, w->buf, 4096, NULL))
				own_words(w, w->buf, 4096, tag, "the GPU side, render owner's high range", di, gm);
		}
	}

	/* physical entries */
	uint64_t glo = l->guest_low_base >> 12, ghi = (l->guest_low_base + l->guest_low_size) >> 12;
	uint64_t plo = l->pool_base >> 12, phi = (l->pool_base + l->pool_size) >> 12, slo = l->slots_base >> 12;
	uint64_t last_addr = ~0ull;
	int last_hh = -1;
	for (uint64_t i0 = 0; i0 < d->n; i0 += SCAN) {
		size_t k = d->n - i0 < SCAN ? (size_t)(d->n - i0) : SCAN;
		sim_gsm_read_run(d->t.sim, dev->info.gsm_offset + (uint32_t)(i0 * d->ps), w->scan, k, d->ps);
		if (!memcmp(w->scan, d->boot + i0, k * sizeof(uint64_t)))
			continue;
		for (size_t j = 0; j < k; j++) {
			uint64_t i = i0 + j, pte = w->scan[j];
			if (pte == d->boot[i])
				continue;
			bool pool = i >= plo && i < phi;
			CHECK(w, pool || (i >= glo && i < ghi) || i >= slo,
			      "device %d: PTE %llu (GM 0x%llx, a host range) is 0x%llx; it was 0x%llx", di, (unsigned long long)i,
			      (unsigned long long)(i << 12), (unsigned long long)pte, (unsigned long long)d->boot[i]);
			uint64_t addr = d0_pte_addr(&d->t, pte);
			/* runs of one value (a vGPU's scratch page over its slots) look their page up once */
			int hh = addr == last_addr ? last_hh : page_owner(w, addr);
			last_addr = addr;
			last_hh = hh;
			CHECK(w, hh >= 0, "device %d: PTE %llu (GM 0x%llx) names 0x%llx, a page of no live vGPU there", di,
			      (unsigned long long)i, (unsigned long long)(i << 12), (unsigned long long)addr);
			CHECK(w, pool || covers(&w->h[hh], i),
			      "device %d: PTE %llu (GM 0x%llx) names a page of vGPU %d, whose ranges do not cover it", di,
			      (unsigned long long)i, (unsigned long long)(i << 12), w->h[hh].id);
			if (oh >= 0 && !pool && in_ranges(&w->h[oh].in, i))
				CHECK(w, hh == oh, "device %d: PTE %llu in render owner %d's range names a page of vGPU %d", di,
				      (unsigned long long)i, owner, w->h[hh].id);
		}
	}
	for (unsigned f = 0; f < d->cfg.host_fences; f++) {
		uint64_t v;
		CHECK(w, !hw_fence_read(dev, f, &v, NULL) && v == d->host_fence[f], "device %d: host fence %u changed", di, f);
	}
	for (unsigned hp = 0; hp < 8; hp++) {
		CHECK(w, !hw_gpu_read(dev, d->host_gm[hp], w->buf, 4096, NULL), "gpu read");
		CHECK(w, !memcmp(w->buf, d->host_bytes[hp], 4096), "device %d: the host page at GM 0x%llx changed", di,
		      (unsigned long long)d->host_gm[hp]);
	}
}

static void full_check(struct dyn *w)
{
	invariants(w);
	check_device(w, 0);
	check_device(w, 1);
	w->c.full_checks++;
}

/* ------------------------------------------------------------------ guests */

static unsigned vgpus_on(struct dyn *w, int di)
{
	unsigned n = 0;

	for (int id = 1; id <= MAXID; id++)
		n += dom0_vgpu_exists(w->d[di].t.rt, id);
	return n;
}

static void dyn_create(struct dyn *w, int k, int di)
{
	struct dguest *g = &w->g[k];
	struct ddev *d = &w->d[di];
	struct dom0_runtime *rt = d->t.rt;
	uint64_t r = rnd(w);
	unsigned M = d->l->num_slots, GF = d->l->guest_fences, before = vgpus_on(w, di), pb = dom0_paused_count(rt);
	int id = 0;

	if (r % 12 == 0) {
		/* one that can never fit: refused at once, nothing made, nothing paused */
		struct dom0_vgpu_params p = { .low_size = 32 * 4096, .high_slots = 1, .fences = 1, .mem_pages = 4 };
		if (r & 16 || GF >= DOM0_MAX_GUEST_FENCES)
			p.high_slots = M + 1 + (unsigned)(r >> 8) % 4;
		else
			p.fences = GF + 1 + (unsigned)(r >> 8) % (DOM0_MAX_GUEST_FENCES - GF);
		int rc = dom0_vgpu_create(rt, &p, &id, NULL);
		CHECK(w, rc, "device %d: a create of %u slots (of %u) and %u fences (of %u) that can never fit was not refused", di,
		      p.high_slots, M, p.fences, GF);
		CHECK(w, vgpus_on(w, di) == before && dom0_paused_count(rt) <= pb, "device %d: a refused create left something", di);
		w->c.never_fit++;
		return;
	}
	/* low ranges of 32 to 128 pages, and some of whole 512-entry chunks of the GTT and more */
	static const unsigned low_pages[] = { 32, 64, 96, 128, 32, 64, 520, 700 };
	/* 1 to 3 slots, and now and then a good part of high memory, so that creates wait on any layout */
	unsigned high = M >= 16 && (r >> 50) % 8 == 0 ? 1 + (unsigned)(r >> 53) % (M / 4) : 1 + (unsigned)(r >> 8) % (M < 3 ? M : 3);
	struct dom0_vgpu_params p = { .low_size = low_pages[r % 8] * 4096ull, .high_slots = high,
				      .fences = 1 + (unsigned)(r >> 16) % 2, .mem_pages = 8 + (unsigned)(r >> 24) % 17 };
	struct gtt_err err = { 0 };
	if ((r >> 32) % 4 == 0) {
		/* at a slot of its own choosing: past high memory it can never fit */
		static const unsigned far[] = { 0xffffffffu, 0xfffffffeu, 0x80000000u };
		p.place = true;
		p.at_slot = (r >> 34) % 8 ? (unsigned)(r >> 40) % (M + 1) : far[(r >> 40) % 3];
		if (p.at_slot >= M || p.high_slots > M - p.at_slot) {
			int rc = dom0_vgpu_create(rt, &p, &id, NULL);
			CHECK(w, rc == GTT_EINVAL && vgpus_on(w, di) == before && dom0_paused_count(rt) <= pb,
			      "device %d: a create of %u slots at slot %u of %u: rc %d, nothing may be made or paused", di, p.high_slots,
			      p.at_slot, M, rc);
			w->c.never_fit++;
			return;
		}
	}
	int rc = dom0_vgpu_create(rt, &p, &id, &err);
	CHECK(w, !rc, "device %d: a create that fits an idle device was refused under admission: %s", di, err.msg);
	if (p.place)
		CHECK(w, dom0_vgpu_paused(rt, id) == DOM0_PAUSE_CREATE || dom0_vgpu_info(rt, id, &g->in) || g->in.first_slot == p.at_slot,
		      "device %d: a create placed at slot %u went to slot %u", di, p.at_slot, g->in.first_slot);
	*g = (struct dguest){ .dev = di, .id = id, .tag = ++w->next_tag, .ask_slots = p.high_slots, .ask_fences = p.fences,
			      .born = ++w->births };
	dg_refresh(w, g);
	for (unsigned f = 0; f < g->in.mem_pages; f++) {
		struct hw_page pg;
		CHECK(w, !dom0_guest_page(rt, id, f, &pg), "frame");
		for (unsigned o = 0; o < 4096; o += 8) {
			uint64_t x = TAG_MAGIC | (uint64_t)g->tag << 32 | (uint32_t)rnd(w);
			memcpy((uint8_t *)pg.cpu + o, &x, 8);
		}
	}
	w->c.creates++;
	w->c.creates_paused += g->in.paused == DOM0_PAUSE_CREATE;
}

static void dyn_destroy(struct dyn *w, struct dguest *g)
{
	struct gtt_err err = { 0 };

	CHECK(w, !dom0_vgpu_destroy(grt(w, g), g->id, &err), "destroying vGPU %d: %s", g->id, err.msg);
	g->id = 0;
	g->waiting = false;
}

/* A live guest, or NULL; `not` excluded. */
static struct dguest *pick(struct dyn *w, int not)
{
	int k0 = (int)(rnd(w) % NG);

	for (int i = 0; i < NG; i++) {
		int k = (k0 + i) % NG;
		if (w->g[k].id && k != not)
			return &w->g[k];
	}
	return NULL;
}

/* ------------------------------------------------------------- the request channel */

/* g2v_notify with a graphics-memory request: the answer the documented rules give, checked. */
static void notify(struct dyn *w, struct dguest *g)
{
	struct dom0_runtime *rt = grt(w, g);
	const struct dom0_layout *l = w->d[g->dev].l;
	uint32_t code = pvr(w, g, GTTLAB_IF_GM_CODE), q = pvr(w, g, GTTLAB_IF_GM_COUNT), seq = pvr(w, g, GTTLAB_IF_GM_SEQ);
	uint32_t st0 = pvr(w, g, GTTLAB_IF_GM_STATUS), as0 = pvr(w, g, GTTLAB_IF_GM_ANSWER_SEQ);
	enum dom0_pause p = dom0_vgpu_paused(rt, g->id);
	bool locked = migrating_now(w, g);
	struct gtt_err err = { 0 };
	int rc = dom0_pvinfo_write(rt, g->id, PVW(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, &err);
	uint32_t st = pvr(w, g, GTTLAB_IF_GM_STATUS), as = pvr(w, g, GTTLAB_IF_GM_ANSWER_SEQ);

	w->c.requests++;
	if (locked || p == DOM0_PAUSE_CREATE) {
		CHECK(w, locked ? !rc : rc == GTT_EBUSY, "vGPU %d (%s) a notification: rc %d", g->id,
		      locked ? "migrating: queued" : "paused create: refused", rc);
		CHECK(w, st == st0 && as == as0, "vGPU %d: a queued or refused guest write changed the status words", g->id);
		g->queued |= locked;
		return;
	}
	if (code == GTTLAB_GM_REQ_WITHDRAW) {
		CHECK(w, !rc, "vGPU %d: a withdrawal request refused: %s", g->id, err.msg);
		if (g->waiting) {
			CHECK(w, as == g->w_seq && st == GTTLAB_GM_ST_WITHDRAWN,
			      "vGPU %d: withdrawing its request SEQ 0x%x left status %u for SEQ 0x%x", g->id, g->w_seq, st, as);
			if (g->w_paused)
				CHECK(w, dom0_vgpu_paused(rt, g->id) == DOM0_PAUSE_NONE, "vGPU %d: withdrawn, still paused", g->id);
			g->left |= g->w_paused;
		} else if (tracked(w, seq) && tracked(w, seq)->st == RQ_UNSEEN) {
			/* nothing waits: the withdrawal is noted under its own (fresh) SEQ */
			CHECK(w, as == seq && st == GTTLAB_GM_ST_NOTED, "vGPU %d: a withdrawal with nothing waiting reads status %u for "
			      "SEQ 0x%x, its SEQ 0x%x", g->id, st, as, seq);
		}
		chan_check(w, g);
		return;
	}
	bool ok = !g->waiting && p == DOM0_PAUSE_NONE &&
		  (code == GTTLAB_GM_REQ_EVICTIONS ||
		   ((code == GTTLAB_GM_REQ_EXPAND || code == GTTLAB_GM_REQ_REDUCE) && q >= 1 && q <= l->num_slots));
	CHECK(w, !rc == ok, "vGPU %d: request code %u count %u (SEQ 0x%x, %s, paused %s) %s: %s", g->id, code, q, seq,
	      g->waiting ? "one waiting" : "none waiting", dom0_pause_name(p), rc ? "refused" : "accepted", err.msg);
	struct req *r = tracked(w, seq);
	if (rc) {
		if (g->waiting || p != DOM0_PAUSE_NONE)
			w->c.busy_notifies++;
		else
			w->c.malformed++;
		if (r && r->st == RQ_UNSEEN)
			r->st = RQ_REFUSED;
		/* a malformed one, none waiting, is answered at once against its own SEQ */
		if (!g->waiting && p == DOM0_PAUSE_NONE && (!r || r->st != RQ_FINAL))
			CHECK(w, rc == GTT_EINVAL && as == seq && (st == GTTLAB_GM_ST_BAD_CODE || st == GTTLAB_GM_ST_BAD_COUNT),
			      "vGPU %d: a malformed request (code %u count %u SEQ 0x%x): rc %d, status %u for SEQ 0x%x", g->id, code, q,
			      seq, rc, st, as);
		/* one while another waits is busy: under a fresh SEQ it says so; under the waiting one's it leaves the answer be */
		if (g->waiting || p != DOM0_PAUSE_NONE)
			CHECK(w, rc == GTT_EBUSY, "vGPU %d: a second request while one waits: rc %d", g->id, rc);
		if (g->waiting && seq == g->w_seq)
			CHECK(w, st == st0 && as == as0, "vGPU %d: a second notify under the waiting SEQ 0x%x changed the status words "
			      "(%u for 0x%x, were %u for 0x%x)", g->id, seq, st, as, st0, as0);
		else if ((g->waiting || p != DOM0_PAUSE_NONE) && r && r->st == RQ_UNSEEN)
			CHECK(w, st == GTTLAB_GM_ST_BUSY && as == seq, "vGPU %d: a second request under SEQ 0x%x reads %u for 0x%x",
			      g->id, seq, st, as);
		chan_check(w, g);
		return;
	}
	CHECK(w, as == seq && st == GTTLAB_GM_ST_PENDING, "vGPU %d: an accepted request reads status %u for SEQ 0x%x", g->id,
	      st, as);
	if (r) {
		/* the guest may ask again under a SEQ it used before (its words were left as they were): the new answer is s's */
		CHECK(w, r->st != RQ_WAITING && (r->st != RQ_FINAL || r->tag == g->tag), "SEQ 0x%x of another request accepted", seq);
		r->st = RQ_WAITING;
		r->tag = g->tag;
	}
	g->waiting = true;
	g->w_paused = false;
	g->w_seq = seq;
	g->w_code = code;
	g->w_count = q;
}

/* The guest writes one of its request words (CODE..SEQ), which is always accepted unless it cannot write. */
static void req_word(struct dyn *w, struct dguest *g, uint32_t reg, uint32_t val)
{
	bool migrating = migrating_now(w, g);
	int rc = dom0_pvinfo_write(grt(w, g), g->id, PVW(reg), val, NULL);
	bool locked = !migrating && dom0_vgpu_paused(grt(w, g), g->id) == DOM0_PAUSE_CREATE;

	CHECK(w, locked ? rc == GTT_EBUSY : !rc, "vGPU %d: its write of request word 0x%x: rc %d", g->id, reg, rc);
	g->queued |= migrating;
}

/* A request: its words (some left as they were), then the doorbell. */
static void request(struct dyn *w, struct dguest *g)
{
	uint64_t r = rnd(w);
	unsigned M = w->d[g->dev].l->num_slots;
	uint32_t code, q;

	switch (r % 20) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: code = GTTLAB_GM_REQ_EXPAND; break;
	case 7: case 8: case 9: case 10: case 11: code = GTTLAB_GM_REQ_REDUCE; break;
	case 12: case 13: case 14: code = GTTLAB_GM_REQ_EVICTIONS; break;
	case 15: case 16: code = GTTLAB_GM_REQ_WITHDRAW; break;
	default: {
		static const uint32_t junk[] = { 0, 5, 6, 0x80000001u, 0xffffffffu, 0x101 };
		code = junk[(r >> 8) % (sizeof(junk) / sizeof(junk[0]))];
		break;
	}
	}
	switch ((r >> 16) % 12) {
	case 0: q = 0; break;
	case 1: q = M; break;
	case 2: q = M + 1; break;
	case 3: q = 0xffffffffu; break;
	case 4: q = 1 + (uint32_t)(r >> 20) % (M / 4 + 1); break;
	default: q = 1 + (uint32_t)(r >> 20) % 3; break;
	}
	if (code == GTTLAB_GM_REQ_EVICTIONS) {
		g->evictions += (uint32_t)(r >> 24) % 3;	/* a count that rose, or did not */
		q = g->evictions;
	}
	/* a second notify while one waits keeps the waiting one's SEQ in the word */
	bool again = g->waiting && (r >> 40) % 2;
	if ((r >> 32) % 8)
		req_word(w, g, GTTLAB_IF_GM_CODE, code);
	if ((r >> 35) % 8)
		req_word(w, g, GTTLAB_IF_GM_COUNT, q);
	if (!again)
		req_word(w, g, GTTLAB_IF_GM_SEQ, w->next_seq++);
	notify(w, g);
}

/* Any guest write to its PVINFO page: refused ones change no word but the status pair. */
static void pvinfo_hostile(struct dyn *w, struct dguest *g)
{
	static const uint32_t hot[] = { 0x104, 0x108, 0x10c, 0x818, 0x818, 0x110, 0x114, 0x048, 0x04c, 0x000, 0x804, 0x100,
					0x120, 0x830, 0x838, 0x85c, 0x860, 0x0fc };
	static uint32_t before[VGT_PVINFO_WORDS], after[VGT_PVINFO_WORDS];
	struct dom0_runtime *rt = grt(w, g);
	uint64_t r = rnd(w);
	uint32_t off = r % 4 ? hot[(r >> 8) % (sizeof(hot) / sizeof(hot[0]))] : (uint32_t)((r >> 8) % 0x1100);
	uint32_t val = (uint32_t)(r >> 32);

	if (off == PVW(GTTLAB_IF_GM_SEQ))
		val &= ~SEQ_HOSTILE_CLR;	/* a hostile SEQ never names a request the test tracks */
	if (off == PVW(VGT_IF_G2V_NOTIFY) && r % 3 == 0) {
		notify(w, g);
		return;
	}
	if (off == PVW(VGT_IF_G2V_NOTIFY) && val == GTTLAB_G2V_GM_REQUEST)
		val++;
	for (uint32_t i = 0; i < VGT_PVINFO_WORDS; i++)
		dom0_pvinfo_read(rt, g->id, i * 4, &before[i], NULL);
	bool migrating = migrating_now(w, g);
	int rc = dom0_pvinfo_write(rt, g->id, off, val, NULL);
	if (!rc) {
		CHECK(w, off % 4 == 0 && off < VGT_PVINFO_SIZE, "vGPU %d: a write to PVINFO 0x%x was taken", g->id, off);
		g->queued |= migrating;
		chan_check(w, g);
		return;
	}
	w->c.refused++;
	for (uint32_t i = 0; i < VGT_PVINFO_WORDS; i++) {
		dom0_pvinfo_read(rt, g->id, i * 4, &after[i], NULL);
		CHECK(w, before[i] == after[i] || i * 4 == PVW(GTTLAB_IF_GM_STATUS) || i * 4 == PVW(GTTLAB_IF_GM_ANSWER_SEQ),
		      "vGPU %d: a refused write of 0x%x to PVINFO 0x%x changed word 0x%x", g->id, val, off, i * 4);
	}
	chan_check(w, g);
}

static void serve(struct dyn *w, int di)
{
	struct gtt_err err = { 0 };
	unsigned n = 0;
	int rc = dom0_serve_requests(w->d[di].t.rt, &n, &err);

	w->c.serves++;
	for (int k = 0; k < NG; k++) {
		struct dguest *g = &w->g[k];
		if (!g->id || g->dev != di)
			continue;
		bool locked = migrating_now(w, g), was_pending = g->waiting && !g->w_paused;
		chan_check(w, g);
		if (!rc && was_pending && !locked)
			CHECK(w, !g->waiting || g->w_paused, "vGPU %d: its request SEQ 0x%x still reads pending after a serve", g->id,
			      g->w_seq);
		if (was_pending && locked)
			CHECK(w, g->waiting && !g->w_paused, "vGPU %d: its pending request SEQ 0x%x was answered while its migration "
			      "locks it (it waits, and moves with the vGPU)", g->id, g->w_seq);
	}
}

/* ------------------------------------------------------------ guest operations */

static void fence_op(struct dyn *w, struct dguest *g, uint64_t r)
{
	struct ddev *d = &w->d[g->dev];
	struct dom0_runtime *rt = d->t.rt;
	uint64_t low_pages = g->in.low_size >> 12, pool_pages = d->l->pool_size >> 12, val;
	enum dom0_pause p0 = dom0_vgpu_paused(rt, g->id);
	unsigned pc0 = dom0_paused_count(rt), fence = (unsigned)(r >> 8) % (g->in.fences + 2);
	bool locked = migrating_now(w, g) || p0 == DOM0_PAUSE_CREATE;
	struct gtt_err err = { 0 };

	switch ((r >> 16) % 8) {
	case 0: case 1:
		val = h_fence(&w->rng, &d->t, &g->in);
		break;
	case 2:
		val = 0;		/* off: withdraws this fence's paused write */
		break;
	case 3:
		if (p0 == DOM0_PAUSE_NONE && !locked && pool_pages < low_pages && fence < g->in.fences) {
			/* larger than the whole pool: never fits, refused at once */
			uint64_t pages = pool_pages + 1 + (r >> 24) % (low_pages - pool_pages);
			val = fence_of(d, &g->in, 0, pages, (r >> 40) & 1);
			if (!val)
				return;
			int rc = dom0_guest_fence_write(rt, g->id, fence, val, &err);
			CHECK(w, rc, "vGPU %d: a fence of %llu pages, the pool %llu, was not refused", g->id, (unsigned long long)pages,
			      (unsigned long long)pool_pages);
			CHECK(w, dom0_vgpu_paused(rt, g->id) == DOM0_PAUSE_NONE && dom0_paused_count(rt) <= pc0,
			      "vGPU %d: a fence of %llu pages (the pool %llu) that can never fit: rc %d, paused %s, %u paused (%u before)",
			      g->id, (unsigned long long)pages, (unsigned long long)pool_pages, rc,
			      dom0_pause_name(dom0_vgpu_paused(rt, g->id)), dom0_paused_count(rt), pc0);
			w->c.never_fit++;
			return;
		}
		/* fall through */
	case 4: {
		/* more than its other fences leave of the pool: it can never fit while they stay, and cannot remove them */
		uint64_t own = fence < g->in.fences ? own_fence_pages(w, g, fence) : 0;
		uint64_t max = low_pages < pool_pages ? low_pages : pool_pages;
		if (own && pool_pages - own + 1 <= max) {
			uint64_t pages = pool_pages - own + 1 + (r >> 24) % (max - (pool_pages - own + 1) + 1);
			val = fence_of(d, &g->in, (r >> 32) % (low_pages - pages + 1), pages, (r >> 40) & 1);
			break;
		}
	}
		/* fall through */
	default: {
		uint64_t pages = 1 + (r >> 24) % (low_pages < 16 ? low_pages : 16);
		val = fence_of(d, &g->in, (r >> 32) % (low_pages - pages + 1), pages, (r >> 40) & 1);
		break;
	}
	}
	uint64_t old = 0;
	if (fence < g->in.fences)
		dom0_guest_fence_read(rt, g->id, fence, &old, NULL);
	unsigned paused_fence = ~0u;
	if (p0 == DOM0_PAUSE_FENCE)
		paused_fence = g->pause_fence;
	uint64_t pages = fence_pages_of(d, val);
	int rc = dom0_guest_fence_write(rt, g->id, fence, val, &err);
	enum dom0_pause p1 = dom0_vgpu_paused(rt, g->id);
	if (migrating_now(w, g)) {
		/* queued: judged at the unlock where the vGPU is then (a fence beyond its own is refused at once) */
		CHECK(w, (fence < g->in.fences ? !rc : rc == GTT_EINVAL) && p1 == p0, "vGPU %d (migrating): a fence write of "
		      "fence %u of %u, rc %d", g->id, fence, g->in.fences, rc);
		g->queued = true;
		return;
	}
	if (locked) {
		CHECK(w, rc == GTT_EBUSY && p1 == p0, "vGPU %d (not admitted): a fence write, rc %d", g->id, rc);
		return;
	}
	if (rc)
		w->c.refused++;
	if (p0 == DOM0_PAUSE_FENCE && fence < g->in.fences && fence == paused_fence) {
		/* the same fence written again: the paused write is withdrawn; an off value runs at once */
		g->left = p1 == DOM0_PAUSE_NONE;
		g->requeued = p1 == DOM0_PAUSE_FENCE;
		if (!fence_pages_of(d, val) && !rc) {
			uint64_t now = ~0ull;
			dom0_guest_fence_read(rt, g->id, fence, &now, NULL);
			CHECK(w, p1 != DOM0_PAUSE_FENCE && now == val, "vGPU %d: fence %u written off while its write was paused: "
			      "still paused %s, the fence reads 0x%llx", g->id, fence, dom0_pause_name(p1), (unsigned long long)now);
			w->c.withdraw_fence++;
		}
	} else if (p0 == DOM0_PAUSE_FENCE && fence < g->in.fences) {
		CHECK(w, rc && p1 == DOM0_PAUSE_FENCE, "vGPU %d: fence %u written while fence %u's write is paused: rc %d", g->id,
		      fence, paused_fence, rc);
	}
	if (!rc && p1 == DOM0_PAUSE_FENCE && p0 != DOM0_PAUSE_FENCE) {
		/* this write paused: remember its size, and which fence */
		g->fence_pages = pages;
		g->pause_fence = fence;
		w->c.fences_paused++;
	} else if (!rc && p1 == DOM0_PAUSE_FENCE && fence == paused_fence) {
		g->fence_pages = pages;		/* it replaced the paused one, and waits itself */
	}
	if (rc && fence < g->in.fences && p1 == DOM0_PAUSE_NONE) {
		uint64_t now = ~0ull;
		dom0_guest_fence_read(rt, g->id, fence, &now, NULL);
		CHECK(w, now == old || p0 == DOM0_PAUSE_FENCE, "vGPU %d: a refused write changed fence %u from 0x%llx to 0x%llx",
		      g->id, fence, (unsigned long long)old, (unsigned long long)now);
	}
}

/* One guest operation of g; the vGPU locked by a migration queues every write (checked at the unlock). */
static void guest_op(struct dyn *w, struct dguest *g)
{
	struct ddev *d = &w->d[g->dev];
	struct dom0_runtime *rt = d->t.rt;
	uint64_t r = rnd(w);
	uint8_t buf[3 * 4096 + 64];
	bool locked = migrating_now(w, g), notyet = dom0_vgpu_paused(rt, g->id) == DOM0_PAUSE_CREATE;
	int rc;

	switch (r % 16) {
	case 0: case 1: case 2: case 3: case 4:
		rc = dom0_guest_pte_write(rt, g->id, h_index(&w->rng, d->n, &g->in), h_pte(&w->rng, &d->t, &g->in), NULL);
		CHECK(w, locked ? !rc : !notyet || rc == GTT_EBUSY, "vGPU %d (%s): a guest PTE write, rc %d", g->id,
		      locked ? "migrating: queued" : "not admitted", rc);
		g->queued |= locked;
		break;
	case 5: case 6: case 7: {
		uint64_t len = 8 * ((r >> 8) % (sizeof(buf) / 8));
		uint64_t gm = g->in.low_base + 8 * ((r >> 24) % ((g->in.low_size + 8192) / 8)) - ((r >> 40) & 1 ? 4096 : 0);
		for (uint64_t o = 0; o < len; o += 8) {
			uint64_t x = TAG_MAGIC | (uint64_t)g->tag << 32 | (uint32_t)rnd(w);
			memcpy(buf + o, &x, 8);
		}
		rc = dom0_guest_aperture_write(rt, g->id, gm, buf, len, NULL);
		CHECK(w, locked ? !rc : !notyet || rc == GTT_EBUSY, "vGPU %d (%s): an aperture write, rc %d", g->id,
		      locked ? "migrating: queued" : "not admitted", rc);
		g->queued |= locked;
		break;
	}
	case 8: {
		uint64_t len = 8 * ((r >> 8) % (sizeof(buf) / 8));
		uint64_t gm = g->in.low_base + 8 * ((r >> 24) % ((g->in.low_size + 8192) / 8));
		if (!(rc = dom0_guest_aperture_read(rt, g->id, gm, buf, len, NULL)))
			own_words(w, buf, len, g->tag, "a read through its aperture", g->dev, gm);
		break;
	}
	case 9: case 10:
		fence_op(w, g, r);
		rc = 0;
		break;
	case 11: case 12:
		pvinfo_hostile(w, g);
		rc = 0;
		break;
	case 13: case 14:
		request(w, g);
		rc = 0;
		break;
	default: {
		uint64_t v;
		uint32_t pv;
		rc = (r >> 8) % 3 == 0 ? dom0_pvinfo_read(rt, g->id, (uint32_t)(r >> 12) % 0x1100, &pv, NULL) :
		     (r >> 8) % 3 == 1 ? dom0_guest_fence_read(rt, g->id, (unsigned)(r >> 12) % 20, &v, NULL) :
					 dom0_guest_pte_read(rt, g->id, h_index(&w->rng, d->n, &g->in), &v, NULL);
		break;
	}
	}
	w->c.refused += rc != 0;
}

/* ------------------------------------------------------------- host operations */

/* The scheduler's switches: never to a paused or locked vGPU. */
struct quanta_ctx {
	struct dyn *w;
	struct dom0_runtime *rt;
};

static void on_quantum_switch(void *ctx, const struct dom0_switch_stats *s)
{
	struct quanta_ctx *q = ctx;

	CHECK(q->w, dom0_vgpu_paused(q->rt, s->to) == DOM0_PAUSE_NONE, "the scheduler switched in paused vGPU %d", s->to);
	CHECK(q->w, !dom0_vgpu_migrating(q->rt, s->to), "the scheduler switched in vGPU %d, locked by its migration", s->to);
}

static void quanta(struct dyn *w, int di, unsigned n)
{
	struct quanta_ctx q = { w, w->d[di].t.rt };

	for (int k = 0; k < NG; k++)
		if (w->g[k].id && w->g[k].dev == di && rnd(w) % 4 == 0)
			dom0_set_busy(q.rt, w->g[k].id, rnd(w) % 3 != 0, NULL);
	struct gtt_err err = { 0 };
	CHECK(w, !dom0_run_quanta(q.rt, n, on_quantum_switch, &q, &err), "device %d: %u quanta: %s", di, n, err.msg);
}

static void policy_op(struct dyn *w, int di)
{
	struct ddev *d = &w->d[di];
	struct dom0_runtime *rt = d->t.rt;
	uint64_t r = rnd(w);

	if (!d->policy_allowed)
		return;
	if (!d->policy) {
		/* R_copy charged per PTE written, never measured: the same seed makes the same classes */
		struct dom0_policy p = { .alpha_u = r % 2 ? 0 : 1000 + (r >> 8) % 100000, .beta_u = (r >> 1) % 2 ? 0 : 1000 + (r >> 16) % 200000,
					 .period_ms = 16 + (r >> 24) % 500, .cpus = 1 + (unsigned)(r >> 34) % 4,
					 .copy_ps_per_pte = 1000 * (1 + (r >> 36) % 400),
					 .min_slots = 1 + (unsigned)(r >> 46) % (d->l->num_slots < 2 ? 1 : 2),
					 .evict_slots = 1 + (unsigned)(r >> 47) % (d->l->num_slots < 2 ? 1 : 2) };
		if ((r >> 48) % 2) {
			p.low_u = 10000 + (r >> 50) % 600000;
			p.high_u = p.low_u + (r >> 52) % 900000;
		}
		d->clock = dom0_sim_time_ms(rt);
		struct gtt_err err = { 0 };
		CHECK(w, !dom0_policy_set(rt, &p, d->clock, &err), "device %d: policy: %s", di, err.msg);
		d->policy = true;
		w->c.policy_on++;
		return;
	}
	if (r % 2) {
		struct dguest *g = pick(w, -1);
		if (g && g->dev == di)
			dom0_policy_steal(rt, g->id, (r >> 8) % 250000, NULL);
		return;
	}
	uint64_t now = dom0_sim_time_ms(rt);
	d->clock = (d->clock > now ? d->clock : now) + (r >> 8) % 700;
	dom0_policy_tick(rt, d->clock, NULL, NULL);
}

static void resize_op(struct dyn *w, struct dguest *g, uint64_t r)
{
	static const unsigned counts[] = { 1, 1, 2, 3, 0, 4294967295u, 2147483648u, 1024, 1025, 0, 1, 1 };
	struct dom0_runtime *rt = grt(w, g);
	unsigned M = w->d[g->dev].l->num_slots, pick_q = (unsigned)(r >> 8) % (sizeof(counts) / sizeof(counts[0]));
	unsigned q = pick_q == 10 ? 1 + M / 4 : pick_q == 11 ? 1 + M / 2 : counts[pick_q];	/* a part of high memory */
	enum dom0_pause p0 = dom0_vgpu_paused(rt, g->id);
	unsigned pc0 = dom0_paused_count(rt);
	bool locked = migrating_now(w, g);
	int rc;

	if (!q)
		q = M - g->in.slots + 1;	/* just past high memory */
	if ((r >> 16) & 1) {
		if (p0 == DOM0_PAUSE_NONE && !locked)
			g->ask_expand = q;
		rc = dom0_expand(rt, g->id, q, NULL, NULL, NULL);
		if ((uint64_t)g->in.slots + q > M || !q)
			CHECK(w, rc && dom0_vgpu_paused(rt, g->id) == p0 && dom0_paused_count(rt) <= pc0,
			      "vGPU %d: an expansion of %u slots by %u (high memory %u) that can never fit: rc %d, paused %s", g->id,
			      g->in.slots, q, M, rc, dom0_pause_name(dom0_vgpu_paused(rt, g->id)));
		if (!rc && dom0_vgpu_paused(rt, g->id) == DOM0_PAUSE_EXPAND && p0 == DOM0_PAUSE_NONE)
			w->c.expands_paused++;
	} else {
		rc = dom0_reduce(rt, g->id, q, NULL, NULL, NULL);
	}
	if (locked)
		CHECK(w, rc, "vGPU %d was resized while its migration locks it", g->id);
	if (p0 != DOM0_PAUSE_NONE && (r >> 16) & 1)
		CHECK(w, rc, "vGPU %d: an expansion taken while its %s is paused", g->id, dom0_pause_name(p0));
	w->c.refused += rc != 0;
}

static void switch_op(struct dyn *w, struct dguest *g)
{
	struct dom0_runtime *rt = grt(w, g);
	enum dom0_pause p = dom0_vgpu_paused(rt, g->id);
	bool locked = migrating_now(w, g);
	int rc = dom0_switch(rt, g->id, NULL, NULL);

	if (p != DOM0_PAUSE_NONE || locked)
		CHECK(w, rc == GTT_EBUSY, "vGPU %d (%s) was switched in: rc %d", g->id, locked ? "migrating" : dom0_pause_name(p), rc);
	else
		CHECK(w, !rc && dom0_render_owner(rt) == g->id, "switching to vGPU %d: rc %d", g->id, rc);
}

static void withdraw_op(struct dyn *w, struct dguest *g)
{
	struct dom0_runtime *rt = grt(w, g);
	enum dom0_pause p = dom0_vgpu_paused(rt, g->id);
	unsigned pc0 = dom0_paused_count(rt);
	bool chan = g->waiting && g->w_paused;
	struct gtt_err err = { 0 };
	int rc = dom0_withdraw(rt, g->id, &err);

	switch (p) {
	case DOM0_PAUSE_NONE:
		CHECK(w, rc == GTT_EINVAL, "vGPU %d: withdrawing with nothing paused: rc %d", g->id, rc);
		break;
	case DOM0_PAUSE_CREATE:
		CHECK(w, rc && dom0_vgpu_paused(rt, g->id) == DOM0_PAUSE_CREATE && dom0_paused_count(rt) == pc0,
		      "vGPU %d: dom0_withdraw took a paused create (that is dom0_vgpu_destroy's): rc %d", g->id, rc);
		break;
	default:
		CHECK(w, !rc, "vGPU %d: withdrawing its paused %s: %s", g->id, dom0_pause_name(p), err.msg);
		CHECK(w, dom0_vgpu_paused(rt, g->id) == DOM0_PAUSE_NONE && dom0_paused_count(rt) < pc0,
		      "vGPU %d: withdrawn, still %s (%u paused, %u before)", g->id, dom0_pause_name(dom0_vgpu_paused(rt, g->id)),
		      dom0_paused_count(rt), pc0);
		if (chan)
			CHECK(w, pvr(w, g, GTTLAB_IF_GM_ANSWER_SEQ) == g->w_seq && pvr(w, g, GTTLAB_IF_GM_STATUS) == GTTLAB_GM_ST_WITHDRAWN,
			      "vGPU %d: its paused request SEQ 0x%x withdrawn, not answered WITHDRAWN", g->id, g->w_seq);
		g->left = true;
		w->c.withdraw_api++;
		break;
	}
	chan_check(w, g);
}

/* ------------------------------------------------------------------ migrations */

static void hook_work(struct dyn *w)
{
	struct dguest *m = &w->g[w->mig.gi];
	uint64_t r = rnd(w);
	int src = w->mig.src, other = 1 - src;
	struct dguest *g = r % 3 == 0 ? m : pick(w, -1);

	if (!g)
		return;
	w->c.hook_work++;
	switch ((r >> 8) % 12) {
	case 0: case 1:		/* a switch, the migrating vGPU included */
		if (g->dev == src)
			switch_op(w, g);
		break;
	case 2:
		quanta(w, (r >> 16) % 3 ? src : other, 1 + (unsigned)(r >> 20) % 3);
		break;
	case 3:
		serve(w, (r >> 16) % 3 ? src : other);
		break;
	case 4:
		policy_op(w, (r >> 16) % 3 ? src : other);
		break;
	case 5: case 6:		/* resizes, the migrating vGPU included */
		resize_op(w, g, r >> 20);
		break;
	case 7:
		withdraw_op(w, g);
		break;
	default:		/* a guest's operation: the migrating one's is queued */
		guest_op(w, g);
		break;
	}
}

static int mig_hook(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	struct dyn *w = ctx;
	struct dguest *m = &w->g[w->mig.gi];
	char extra[96];

	snprintf(extra, sizeof(extra), " (%s migration of vGPU %d, after its %s step)", w->mig.device ? "device" : "slot",
		 w->mig.id, dom0_migrate_step_name(s));
	set_where(w, extra);
	CHECK(w, w->mig.on, "a migration hook ran with no migration under way");
	CHECK(w, rt == w->d[w->mig.src].t.rt && id == w->mig.id, "the hook names vGPU %d, not the migrating one", id);
	CHECK(w, (int)s == w->mig.last + 1, "step %s after step %d: the steps come in order", dom0_migrate_step_name(s),
	      w->mig.last);
	w->mig.last = (int)s;
	w->c.hook_steps++;
	if (w->mig.device && s == DOM0_MIGRATE_RELEASE) {
		/* the source is released: the guest lives on the target from now on */
		for (int tid = 1; tid <= MAXID && !w->mig.tid; tid++)
			if (dom0_vgpu_exists(w->d[1 - w->mig.src].t.rt, tid) && !by_dev_id(w, 1 - w->mig.src, tid))
				w->mig.tid = tid;
		CHECK(w, w->mig.tid && !dom0_vgpu_exists(rt, id), "released: vGPU %d still on the source, target %d", id, w->mig.tid);
		m->dev = 1 - w->mig.src;
		m->id = w->mig.tid;
		m->born = ++w->births;	/* made in this operation, after every vGPU made before it */
		w->mig.tid = 0;
		w->mig.released = true;
	}
	if (s == DOM0_MIGRATE_UNLOCK || (w->mig.device && s == DOM0_MIGRATE_RELEASE))
		unqueue(w, m);	/* its queue ran just before this step: on the target, or where it moved */
	invariants(w);
	for (unsigned n = rnd(w) % 4; n; n--) {
		hook_work(w);
		invariants(w);
	}
	full_check(w);
	if (s < DOM0_MIGRATE_RELEASE && rnd(w) % 8 == 0) {
		w->mig.fail_at = (int)s;
		return 1;
	}
	return 0;
}

static void migrate_op(struct dyn *w, struct dguest *g, bool device)
{
	struct dom0_runtime *rt = grt(w, g);
	int src = g->dev, dst = 1 - src, old = g->id;
	const struct dom0_layout *l = w->d[src].l;
	uint64_t r = rnd(w);
	enum dom0_pause p = dom0_vgpu_paused(rt, g->id);
	unsigned to = (unsigned)(r % (l->num_slots + 2)), runs0 = g->in.n_runs;	/* g->in follows it through the hook */
	struct gtt_err err = { 0 };
	int rc, nid = 0;

	w->mig = (struct mig){ .on = true, .device = device, .gi = (int)(g - w->g), .src = src, .id = g->id,
				   .from = g->in.first_slot, .to = to, .n = g->in.slots, .last = -1, .fail_at = -1 };
	uint64_t moves0 = dom0_counters(rt)->migrations;
	rc = device ? dom0_migrate_device(rt, g->id, w->d[dst].t.rt, &nid, NULL, &err) : dom0_migrate(rt, g->id, to, NULL, &err);
	set_where(w, device ? " (after a device migration)" : " (after a slot migration)");
	unqueue(w, g);		/* a rollback forwards its queue on the source as it returns */
	bool hooked = w->mig.last >= 0;
	if (runs0 > 1)	/* a migration moves one run (docs/dom0.md); paused too, it may be refused for either */
		CHECK(w, (rc == GTT_EINVAL || (p != DOM0_PAUSE_NONE && rc == GTT_EBUSY)) && !hooked,
		      "vGPU %d: its slots in %u runs migrated: rc %d", old, runs0, rc);
	else if (p != DOM0_PAUSE_NONE)
		CHECK(w, rc == GTT_EBUSY && !hooked, "vGPU %d, paused (%s), migrated: rc %d", old, dom0_pause_name(p), rc);
	else if (!device && (!w->mig.n || to == w->mig.from || to >= l->num_slots || w->mig.n > l->num_slots - to))
		CHECK(w, rc == GTT_EINVAL && !hooked, "vGPU %d: slots %u+%u to slot %u of %u: rc %d", old, w->mig.from, w->mig.n, to,
		      l->num_slots, rc);
	if (w->mig.fail_at >= 0)
		CHECK(w, rc == GTT_EIO && w->mig.last == w->mig.fail_at, "a failure injected after step %s: rc %d, last step %d",
		      dom0_migrate_step_name((enum dom0_migrate_step)w->mig.fail_at), rc, w->mig.last);
	if (!rc) {
		CHECK(w, w->mig.last == DOM0_MIGRATE_UNLOCK, "a migration succeeded after step %d, not unlock", w->mig.last);
		if (device) {
			CHECK(w, g->dev == dst && g->id == nid && dom0_vgpu_exists(w->d[dst].t.rt, nid),
			      "moved to device %d as vGPU %d; the test followed it to %d/%d", dst, nid, g->dev, g->id);
			g->epoch_known = false;	/* a new PVINFO page on the target */
			w->c.dev_moves[src]++;
		} else {
			CHECK(w, dom0_counters(rt)->migrations == moves0 + 1, "a slot migration is not counted");
			w->c.slot_moves++;
		}
	} else {
		CHECK(w, g->dev == src && g->id == old && dom0_vgpu_exists(rt, old) && !dom0_vgpu_migrating(rt, old),
		      "a failed migration (rc %d after step %d) did not leave vGPU %d on its source, unlocked", rc, w->mig.last, old);
		if (w->mig.fail_at >= 0)
			w->c.rollbacks++;
		else
			w->c.refused_moves++;
	}
	w->mig.on = false;
	w->mig.tid = 0;
	if (hooked)
		full_check(w);
}

/* ------------------------------------------------------------------ the run */

static void one_dyn_op(struct dyn *w)
{
	uint64_t r = rnd(w);
	int k = (int)(r % NG);
	struct dguest *g = &w->g[k];

	if (!g->id) {
		if ((r >> 8) % 3 == 0)
			dyn_create(w, k, (int)((r >> 12) % 2));
		return;
	}
	dg_refresh(w, g);
	switch ((r >> 16) % 40) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: case 9: case 10: case 11: case 12:
		guest_op(w, g);
		break;
	case 13: case 14: case 15: case 16:
		fence_op(w, g, rnd(w));
		break;
	case 17: case 18: case 19: case 20:
		request(w, g);
		break;
	case 21: case 22:
		pvinfo_hostile(w, g);
		break;
	case 23: case 24:
		serve(w, (r >> 24) % 3 ? g->dev : 1 - g->dev);
		break;
	case 25: case 26:
		switch_op(w, g);
		break;
	case 27: case 28:
		quanta(w, g->dev, 1 + (unsigned)(r >> 24) % 8);
		break;
	case 29: case 30:
		resize_op(w, g, rnd(w));
		break;
	case 31:
		policy_op(w, g->dev);
		break;
	case 32: case 33:
		withdraw_op(w, g);
		break;
	case 34:
		if ((r >> 24) % 2 == 0)
			dyn_destroy(w, g);
		break;
	case 35:
		if ((r >> 24) % 5 == 0)
			migrate_op(w, g, false);
		break;
	case 36:
		if ((r >> 24) % 5 == 0)
			migrate_op(w, g, true);
		break;
	default:
		guest_op(w, g);
		break;
	}
}

/* Between operations: a guest whose high range changed reads a new EPOCH (a rolled-back move changed nothing). */
static void epochs(struct dyn *w)
{
	for (int k = 0; k < NG; k++) {
		struct dguest *g = &w->g[k];
		if (!g->id)
			continue;
		uint32_t e = pvr(w, g, GTTLAB_IF_GM_EPOCH);
		if (g->epoch_known && (g->in.first_slot != g->e_first || g->in.slots != g->e_slots))
			CHECK(w, e != g->epoch, "vGPU %d: its high range went from slots %u+%u to %u+%u, and EPOCH still reads %u", g->id,
			      g->e_first, g->e_slots, g->in.first_slot, g->in.slots, e);
		g->epoch_known = true;
		g->e_first = g->in.first_slot;
		g->e_slots = g->in.slots;
		g->epoch = e;
	}
}

static void dev_start(struct dyn *w, int di, const char *spec)
{
	struct ddev *d = &w->d[di];
	struct gtt_err err = { 0 };
	uint64_t r = rnd(w);

	memset(d, 0, sizeof(*d));
	d->spec = spec;
	d->t.dev = t_open(spec);
	d->t.sim = t_sim(d->t.dev);
	const struct hw_info *in = &d->t.dev->info;
	d->n = in->n_ptes;
	d->ps = in->pte_size;
	d->boot = malloc(d->n * sizeof(uint64_t));
	cr_assert_not_null(d->boot);
	for (unsigned f = 0; f < in->num_fences; f++)
		hw_fence_read(d->t.dev, f, &d->host_fence[f], NULL);
	/* the host's own pages, in its low and high ranges, as in the first half */
	uint64_t ap = in->aperture_size;
	cr_assert_eq(hw_alloc_test_pages(d->t.dev, 8, d->hp, &err), 0, "%s", err.msg);
	for (unsigned h = 0; h < 8; h++) {
		uint64_t idx = h < 4 ? h * 97 : (ap >> 12) + h * 31, pte = d0_guest_pte(&d->t, d->hp[h].phys >> 12);
		memset(d->hp[h].cpu, 0x3c + h, 4096);
		if (d->ps == 8)
			sim_mmio_write64(d->t.sim, in->gsm_offset + (uint32_t)(idx * 8), pte);
		else
			sim_mmio_write32(d->t.sim, in->gsm_offset + (uint32_t)(idx * 4), (uint32_t)pte);
		d->host_gm[h] = idx << 12;
		memcpy(d->host_bytes[h], d->hp[h].cpu, 4096);
	}
	hw_ggtt_invalidate(d->t.dev);
	sim_gsm_read_run(d->t.sim, in->gsm_offset, d->boot, d->n, d->ps);
	/* the layout's slots (the rest of high memory is the host's), a small pool, few guest fences */
	unsigned slots = w->lay->slots ? w->lay->slots : 10 + (unsigned)(r % 15), guest_fences = 8 + (unsigned)(r >> 16) % 9;
	/* the host's high range keeps at least 1 MiB: the host pages above live there */
	uint64_t slot = w->lay->slots ? ((in->ggtt_size - ap - MiB) / slots) & ~4095ull : SLOT;
	if (guest_fences >= in->num_fences)
		guest_fences = in->num_fences - 1;
	d->cfg = (struct dom0_config){
		.slot_size = slot, .host_high_size = in->ggtt_size - ap - slots * slot,
		.pool_size = (16 + (r >> 8) % 49) * 4096,
		.host_fences = in->num_fences - guest_fences,
		.slot_runs = w->lay->runs ? 2 + (unsigned)(r >> 40) % (w->lay->runs - 1) : 0,
		.share_limit = (unsigned)(w->round + (unsigned)di + (r >> 24)) % 3,
		.admission = (enum dom0_admission)(DOM0_ADMIT_FIFO + (w->round + 2 * (unsigned)di) % 4),
		.seed = rnd(w),
		.slot_aware = (r >> 32) & 1,
		.algorithm1_selector = (r >> 33) % 4 == 0,
		.migrate_hooks = { mig_hook, w },
	};
	cr_assert_eq(dom0_init(d->t.dev, &d->cfg, &d->t.rt, &err), 0, "%s: %s", spec, err.msg);
	d->l = dom0_layout(d->t.rt);
	d->policy_allowed = (w->round + (unsigned)di) % 2 == 0;
	cr_assert_eq(d->l->num_slots, slots);
	cr_assert_gt(d->l->host_low_size, 3 * 97 * 4096ull, "the host pages lie in the host low range");
	cr_assert_gt(d->l->host_high_size, 7 * 31 * 4096ull, "the host pages lie in the host high range");
	cr_log_info("%s+%s seed 0x%llx round %u device %d (%s): admission %s, share limit %u, %u slots of %llu KiB, slot runs %u, pool %llu pages, %u guest fences%s%s",
		    w->spec[0], w->spec[1], (unsigned long long)w->seed, w->round, di, spec,
		    dom0_admission_name(d->cfg.admission), d->cfg.share_limit, slots, (unsigned long long)(slot >> 10), d->cfg.slot_runs,
		    (unsigned long long)(d->cfg.pool_size >> 12), d->l->guest_fences, d->cfg.algorithm1_selector ? ", Algorithm 1" : "", d->policy_allowed ? ", policy" : "");
}

static void dev_stop(struct dyn *w, int di)
{
	struct ddev *d = &w->d[di];
	struct gtt_err err = { 0 };

	w->c.admitted += dom0_counters(d->t.rt)->admitted;
	CHECK(w, !dom0_fini(d->t.rt, &err), "device %d: dom0_fini: %s", di, err.msg);
	for (uint64_t i0 = 0; i0 < d->n; i0 += SCAN) {
		size_t k = d->n - i0 < SCAN ? (size_t)(d->n - i0) : SCAN;
		sim_gsm_read_run(d->t.sim, d->t.dev->info.gsm_offset + (uint32_t)(i0 * d->ps), w->scan, k, d->ps);
		CHECK(w, !memcmp(w->scan, d->boot + i0, k * sizeof(uint64_t)), "device %d: PTEs from %llu not restored at the end", di,
		      (unsigned long long)i0);
	}
	for (unsigned f = 0; f < d->t.dev->info.num_fences; f++) {
		uint64_t v;
		hw_fence_read(d->t.dev, f, &v, NULL);
		CHECK(w, v == d->host_fence[f], "device %d: fence %u not restored at the end", di, f);
	}
	hw_free_test_pages(d->t.dev, 8, d->hp);
	hw_close(d->t.dev);
	free(d->boot);
}

static void run_dyn(const struct dyn_layout *lay, uint64_t seed0)
{
	struct dyn *w = calloc(1, sizeof(*w));
	const char *spec0 = lay->spec[0], *spec1 = lay->spec[1];

	cr_assert_not_null(w);
	w->lay = lay;
	w->spec[0] = spec0;
	w->spec[1] = spec1;
	w->reqs = calloc(SEQ_TRACKED, sizeof(*w->reqs));
	w->buf = malloc(4 * MiB);	/* the largest low range */
	w->scan = malloc(SCAN * sizeof(uint64_t));
	cr_assert(w->reqs && w->buf && w->scan);
	for (w->round = 0; w->round < lay->rounds; w->round++) {
		w->seed = seed0 + w->round;
		w->rng = w->seed;
		w->next_seq = SEQ_BASE;
		memset(w->reqs, 0, SEQ_TRACKED * sizeof(*w->reqs));
		memset(w->g, 0, sizeof(w->g));
		w->op = 0;
		set_where(w, " (setup)");
		dev_start(w, 0, spec0);
		dev_start(w, 1, spec1);
		for (w->op = 1; w->op <= lay->round_ops; w->op++) {
			set_where(w, "");
			one_dyn_op(w);
			invariants(w);
			epochs(w);
			w->c.waiting_ops += dom0_paused_count(w->d[0].t.rt) > 0;	/* how often admission holds a queue */
			if (w->op % DYN_BATCH == 0)
				full_check(w);
			w->c.ops++;
		}
		set_where(w, " (the end)");
		dev_stop(w, 0);
		dev_stop(w, 1);
	}
	const struct dyn_counts *c = &w->c;
	cr_log_info("%s+%s: %llu ops (%llu refused), %llu creates (%llu paused, %llu never-fit refused), %llu expansions and %llu fence "
		    "writes paused, %llu admitted; withdrawn: %llu by dom0_withdraw, %llu by a fence rewrite, %llu over PVINFO; "
		    "%llu notifies, %llu answered (%llu PAUSED first), %llu malformed, %llu second notifies; %llu serves; "
		    "migrations: %llu slot, %llu %s->%s, %llu back, %llu rolled back, %llu refused; %llu hook steps with %llu "
		    "pieces of host work; %llu queues of a locked guest's writes forwarded; %llu full checks; policy on %llu "
		    "times; device 0 had requests waiting after %llu ops",
		    spec0, spec1, (unsigned long long)c->ops, (unsigned long long)c->refused, (unsigned long long)c->creates,
		    (unsigned long long)c->creates_paused, (unsigned long long)c->never_fit, (unsigned long long)c->expands_paused,
		    (unsigned long long)c->fences_paused, (unsigned long long)c->admitted, (unsigned long long)c->withdraw_api,
		    (unsigned long long)c->withdraw_fence, (unsigned long long)c->withdraw_channel, (unsigned long long)c->requests,
		    (unsigned long long)c->answered, (unsigned long long)c->answered_paused, (unsigned long long)c->malformed,
		    (unsigned long long)c->busy_notifies, (unsigned long long)c->serves, (unsigned long long)c->slot_moves,
		    (unsigned long long)c->dev_moves[0], spec0, spec1, (unsigned long long)c->dev_moves[1],
		    (unsigned long long)c->rollbacks, (unsigned long long)c->refused_moves, (unsigned long long)c->hook_steps,
		    (unsigned long long)c->hook_work, (unsigned long long)c->queues_run, (unsigned long long)c->full_checks, (unsigned long long)c->policy_on, (unsigned long long)c->waiting_ops);
	/* the run reached what it is for */
	cr_expect_geq(c->ops, (uint64_t)lay->rounds * lay->round_ops);
	cr_expect(c->creates_paused && c->expands_paused && c->fences_paused && c->admitted, "admission was not exercised");
	cr_expect(c->never_fit, "no request that can never fit was made");
	cr_expect(c->withdraw_api && c->withdraw_fence && c->withdraw_channel, "withdrawals were not exercised");
	cr_expect(c->answered && c->answered_paused && c->busy_notifies && c->malformed, "the request channel was not exercised");
	cr_expect((c->slot_moves || lay->one_slot) && c->dev_moves[0] && c->dev_moves[1] && c->rollbacks,
		  "migrations were not exercised");
	cr_expect(c->queues_run, "no locked guest's writes were queued and forwarded");
	cr_expect(c->policy_on, "the policy never ran");
	free(w->pages);
	free(w->scan);
	free(w->buf);
	free(w->reqs);
	free(w);
}

/*
 * The table of layouts. Each is a test of its own (they run side by side):
 * a handful of 4 MiB slots on the largest GGTTs (4 GiB, gen8+) and on the
 * smallest (2 GiB, gen6/7), the most slots a layout may have
 * (DOM0_MAX_SLOTS: small slots, 1.5 to 3.7 MiB) on both, one slot as large as
 * high memory, and non-contiguous slots (2 to 8 runs) on a few slots and on
 * the most a layout with runs may have (DOM0_MAX_RUN_SLOTS). Every layout
 * runs each admission policy on each device, share limits 0-2, and the
 * policy on half of its devices.
 */
static const struct dyn_layout few_skl_kbl = { { "sim:skl", "sim:kbl" }, 0, 0, 4, 25000, false };
static const struct dyn_layout few_hsw_hsw = { { "sim:hsw", "sim:hsw" }, 0, 0, 4, 25000, false };
static const struct dyn_layout most_skl_tgl = { { "sim:skl", "sim:tgl" }, DOM0_MAX_SLOTS, 0, 4, 2500, false };
static const struct dyn_layout most_snb_hsw = { { "sim:snb", "sim:hsw" }, DOM0_MAX_SLOTS, 0, 4, 3000, false };
static const struct dyn_layout one_snb_ivb = { { "sim:snb", "sim:ivb" }, 1, 0, 4, 3000, true };
static const struct dyn_layout one_skl_bdw = { { "sim:skl", "sim:bdw" }, 1, 0, 4, 2500, true };
static const struct dyn_layout runs_few_kbl_ivb = { { "sim:kbl", "sim:ivb" }, 0, DOM0_MAX_RUNS, 4, 5000, false };
static const struct dyn_layout runs_most_icl_hsw = { { "sim:icl", "sim:hsw" }, DOM0_MAX_RUN_SLOTS, DOM0_MAX_RUNS, 4, 3000, false };

Test(dom0_adversarial, dynamic_skl_kbl, .timeout = 900) { run_dyn(&few_skl_kbl, 0xd1a0000000000001ull); }
Test(dom0_adversarial, dynamic_hsw_hsw, .timeout = 900) { run_dyn(&few_hsw_hsw, 0xd1a0000000000101ull); }
Test(dom0_adversarial, layout_most_slots_skl_tgl, .timeout = 900) { run_dyn(&most_skl_tgl, 0xd1a0000000000201ull); }
Test(dom0_adversarial, layout_most_slots_snb_hsw, .timeout = 900) { run_dyn(&most_snb_hsw, 0xd1a0000000000301ull); }
Test(dom0_adversarial, layout_one_slot_snb_ivb, .timeout = 900) { run_dyn(&one_snb_ivb, 0xd1a0000000000401ull); }
Test(dom0_adversarial, layout_one_slot_skl_bdw, .timeout = 900) { run_dyn(&one_skl_bdw, 0xd1a0000000000701ull); }
Test(dom0_adversarial, layout_runs_few_slots_kbl_ivb, .timeout = 900) { run_dyn(&runs_few_kbl_ivb, 0xd1a0000000000501ull); }
Test(dom0_adversarial, layout_runs_most_slots_icl_hsw, .timeout = 900) { run_dyn(&runs_most_icl_hsw, 0xd1a0000000000601ull); }
