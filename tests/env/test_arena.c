/* SPDX-License-Identifier: MIT */
/*
 * The EFI application's allocator (env/arena.c) under seeded random
 * allocations and frees, against an oracle that knows only what it handed
 * out: every live block 16-byte aligned, inside the region, apart from every
 * other, its bytes as its owner wrote them; the region's in-use count the sum
 * of the live blocks' rounded sizes; a second free, a pointer into the middle
 * of a block and one outside the region refused without harm; and, once all
 * large blocks are back, the whole region reusable as one block (the free
 * extents merged with their neighbours and the unused top).
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "env/arena.h"

#define REGION	(64u << 20)
#define LIVE	256

struct blk {
	uint8_t *p;
	size_t size;
	uint8_t fill;
};

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
	return *s;
}

/* What the allocator must have set aside for a request: the oracle's own rule, from env/arena.h's description. */
static uint64_t rounded(size_t size)
{
	uint64_t t = size + 16, c = 32;

	if (t <= 65536) {
		while (c < t)
			c <<= 1;
		return c;
	}
	return (t + 4095) & ~4095ull;
}

static size_t pick_size(uint64_t *s, bool large_only)
{
	uint64_t r = rnd(s);

	if (!large_only && r % 4)
		return r % 3 ? (size_t)(r >> 8) % 200 : (size_t)(r >> 8) % 70000;
	return 65536 + (size_t)(r >> 8) % (1u << 20);
}

static void check_apart(struct blk *b, int n, const uint8_t *base)
{
	for (int i = 0; i < n; i++) {
		cr_assert_eq((uintptr_t)b[i].p % 16, 0, "block %d at %p is not 16-byte aligned", i, (void *)b[i].p);
		cr_assert(b[i].p >= base && b[i].p + b[i].size <= base + REGION, "block %d lies outside the region", i);
		for (int j = i + 1; j < n; j++)
			cr_assert(b[i].p + b[i].size <= b[j].p || b[j].p + b[j].size <= b[i].p,
				  "blocks %d (%p+%zu) and %d (%p+%zu) overlap", i, (void *)b[i].p, b[i].size, j,
				  (void *)b[j].p, b[j].size);
	}
}

static void run(uint64_t seed, bool large_only, unsigned ops)
{
	uint8_t *base = aligned_alloc(4096, REGION);
	static struct blk b[LIVE];
	struct gtt_arena a;
	uint64_t s = seed, in_use = 0;
	int n = 0;

	cr_assert_not_null(base);
	gtt_arena_init(&a, base, REGION);
	for (unsigned op = 0; op < ops; op++) {
		if (n < LIVE && (n == 0 || rnd(&s) % 3)) {
			size_t size = pick_size(&s, large_only);
			uint8_t *p = gtt_arena_alloc(&a, size);
			if (!p)
				continue;	/* no room: allowed, and nothing is handed out */
			b[n] = (struct blk){ p, size, (uint8_t)rnd(&s) };
			memset(p, b[n].fill, size);
			in_use += rounded(size);
			n++;
		} else {
			int i = (int)(rnd(&s) % (uint64_t)n);
			/* its first and last 64 bytes and one in every 512 between: where a neighbour or a header would land */
			for (size_t k = 0; k < b[i].size; k += (k < 64 || k + 64 >= b[i].size) ? 1 : 512)
				cr_assert_eq(b[i].p[k], b[i].fill, "seed %llu op %u: byte %zu of a block of %zu changed under its owner",
					     (unsigned long long)seed, op, k, b[i].size);
			cr_assert(gtt_arena_free(&a, b[i].p));
			in_use -= rounded(b[i].size);
			uint64_t bad = a.bad_frees;
			cr_assert(gtt_arena_free(&a, b[i].p), "a second free inside the region is taken (and refused)");
			cr_assert_eq(a.bad_frees, bad + 1, "seed %llu op %u: a second free was not refused", (unsigned long long)seed, op);
			b[i] = b[--n];
		}
		cr_assert_eq(a.in_use, in_use, "seed %llu op %u: in use %llu, the live blocks hold %llu", (unsigned long long)seed,
			     op, (unsigned long long)a.in_use, (unsigned long long)in_use);
		if (op % 500 == 0)
			check_apart(b, n, base);
	}
	check_apart(b, n, base);
	/* pointers that are no block: refused, or not the region's at all */
	if (n && b[0].size > 32) {
		uint64_t bad = a.bad_frees;
		cr_assert(gtt_arena_free(&a, b[0].p + 32));
		cr_assert_eq(a.bad_frees, bad + 1, "a pointer into a block's middle was taken as a block");
	}
	uint8_t outside[64];
	cr_assert_not(gtt_arena_free(&a, outside + 16), "a pointer outside the region was taken");
	while (n)
		cr_assert(gtt_arena_free(&a, b[--n].p));
	cr_assert_eq(a.in_use, 0);
	if (large_only) {
		/* every extent merged back: the whole region is one block again */
		void *all = gtt_arena_alloc(&a, REGION - 16);
		cr_assert_not_null(all, "seed %llu: after every large block came back the region is not whole again",
				   (unsigned long long)seed);
		cr_assert_eq(all, base + 16);
	}
	free(base);
}

Test(arena, random_allocations_and_frees_against_an_oracle)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		run(seed * 0x9e3779b97f4a7c15ull, false, 4000);
}

Test(arena, large_blocks_merge_back_into_one_region)
{
	for (uint64_t seed = 1; seed <= 6; seed++)
		run(seed * 0xc2b2ae3d27d4eb4full, true, 2000);
}

Test(arena, a_request_larger_than_the_region_is_refused)
{
	static uint8_t region[1 << 16] __attribute__((aligned(16)));
	struct gtt_arena a;

	gtt_arena_init(&a, region, sizeof(region));
	cr_assert_null(gtt_arena_alloc(&a, sizeof(region)));
	cr_assert_null(gtt_arena_alloc(&a, SIZE_MAX - 8), "a size that wraps with its header was taken");
	cr_assert_not_null(gtt_arena_alloc(&a, 100));
}
