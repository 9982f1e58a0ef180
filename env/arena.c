/* SPDX-License-Identifier: MIT */
/* One region, handed out and taken back (env/arena.h). */
#include "env/arena.h"

#define HDR		16u			/* a block's header: its size and a check word */
#define LIVE_MAGIC	0x676c61726e610000ull	/* check = LIVE_MAGIC ^ size: a block handed out */
#define FREE_MAGIC	0x676c667265650000ull	/* check = FREE_MAGIC ^ size: a block taken back */
#define MIN_SHIFT	5
#define MAX_SHIFT	(MIN_SHIFT + GTT_ARENA_CLASSES - 1)
#define PAGE		4096u

struct hdr {
	uint64_t size;		/* the whole block's bytes, header included */
	uint64_t check;
};

/* A free extent, kept in its own first bytes. */
struct gtt_arena_ext {
	struct gtt_arena_ext *next;
	uint64_t size;
};

void gtt_arena_init(struct gtt_arena *a, void *base, size_t size)
{
	*a = (struct gtt_arena){ .base = base, .bump = base, .end = (uint8_t *)base + size };
}

static unsigned class_of(uint64_t total)
{
	unsigned k = MIN_SHIFT;

	while ((1ull << k) < total)
		k++;
	return k;
}

static void *carve(struct gtt_arena *a, uint64_t total)
{
	if ((uint64_t)(a->end - a->bump) < total)
		return NULL;
	void *p = a->bump;
	a->bump += total;
	return p;
}

/* First fit; a remainder of a page or more stays free where it was, so the list keeps its order. */
static void *take_extent(struct gtt_arena *a, uint64_t *total)
{
	for (struct gtt_arena_ext **pp = &a->large; *pp; pp = &(*pp)->next) {
		struct gtt_arena_ext *e = *pp;
		if (e->size < *total)
			continue;
		if (e->size - *total >= PAGE) {
			struct gtt_arena_ext *rest = (struct gtt_arena_ext *)((uint8_t *)e + *total);
			rest->next = e->next;
			rest->size = e->size - *total;
			*pp = rest;
		} else {
			*total = e->size;
			*pp = e->next;
		}
		return e;
	}
	return NULL;
}

void *gtt_arena_alloc(struct gtt_arena *a, size_t size)
{
	uint64_t total = (uint64_t)size + HDR;
	uint8_t *b;

	if (total < size || total > (uint64_t)(a->end - a->base))
		return NULL;
	if (total <= (1ull << MAX_SHIFT)) {
		unsigned k = class_of(total);
		total = 1ull << k;
		if ((b = a->small[k - MIN_SHIFT]))
			a->small[k - MIN_SHIFT] = *(void **)(b + HDR);
		else
			b = carve(a, total);
	} else {
		total = (total + PAGE - 1) & ~(uint64_t)(PAGE - 1);
		if (!(b = take_extent(a, &total)))
			b = carve(a, total);
	}
	if (!b)
		return NULL;
	*(struct hdr *)b = (struct hdr){ total, LIVE_MAGIC ^ total };
	a->allocs++;
	a->in_use += total;
	if (a->in_use > a->peak)
		a->peak = a->in_use;
	return b + HDR;
}

/* Into the address-ordered list, merged with the extents either side; the top one goes back to the bump. */
static void give_extent(struct gtt_arena *a, uint8_t *b, uint64_t size)
{
	struct gtt_arena_ext **pp = &a->large, *prev = NULL, *e = (struct gtt_arena_ext *)b;

	while (*pp && (uint8_t *)*pp < b)
		prev = *pp, pp = &(*pp)->next;
	e->size = size;
	e->next = *pp;
	if (e->next && b + size == (uint8_t *)e->next) {
		e->size += e->next->size;
		e->next = e->next->next;
	}
	if (prev && (uint8_t *)prev + prev->size == b) {
		prev->size += e->size;
		prev->next = e->next;
		e = prev;
	} else {
		*pp = e;
	}
	if (!e->next && (uint8_t *)e + e->size == a->bump) {
		struct gtt_arena_ext **q = &a->large;
		while (*q != e)
			q = &(*q)->next;
		*q = NULL;
		a->bump = (uint8_t *)e;
	}
}

bool gtt_arena_free(struct gtt_arena *a, void *p)
{
	uint8_t *b = (uint8_t *)p - HDR;

	if (!p || (uint8_t *)p < a->base + HDR || (uint8_t *)p >= a->end)
		return false;
	struct hdr *h = (struct hdr *)b;
	uint64_t size = h->size;
	bool small = size >= (1ull << MIN_SHIFT) && size <= (1ull << MAX_SHIFT) && !(size & (size - 1));
	bool large = size > (1ull << MAX_SHIFT) && !(size % PAGE);
	if (h->check != (LIVE_MAGIC ^ size) || (!small && !large) || size > (uint64_t)(a->bump - b)) {
		a->bad_frees++;
		return true;
	}
	a->frees++;
	a->in_use -= size;
	h->check = FREE_MAGIC ^ size;
	if (small) {
		unsigned k = class_of(size);
		*(void **)p = a->small[k - MIN_SHIFT];
		a->small[k - MIN_SHIFT] = b;
	} else {
		give_extent(a, b, size);
	}
	return true;
}
