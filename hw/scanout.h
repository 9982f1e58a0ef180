/* SPDX-License-Identifier: MIT */
/* The GGTT ranges that enabled display planes scan out (read-only register scan). */
#ifndef HW_SCANOUT_H
#define HW_SCANOUT_H

#include "hw/raw_access.h"

struct hw_scanout {
	uint64_t start, end;		/* GGTT [start, end) */
	const char *what;		/* "primary plane", "sprite", "plane", "cursor" */
	unsigned pipe;
};

/*
 * The most surfaces any platform of the table can scan out at once: Tiger
 * Lake's 4 pipes x (7 universal planes + a cursor). A caller that sizes its
 * table with this never loses one; tests/hw/test_scanout.c holds every platform
 * of regs/platform.c to it.
 */
#define HW_SCANOUT_MAX			32

/*
 * How many surfaces a platform can scan out: per pipe its planes (the
 * primary, or every universal plane), the gen6-8 sprite and the cursor.
 * hw_scanout_ranges never finds more.
 */
static inline size_t hw_scanout_max(const struct gtt_platform *p)
{
	return (size_t)p->num_pipes * (p->num_planes + (p->sprite != SPRITE_NONE) + 1);
}

/*
 * Fill up to max ranges for the enabled planes, sprites and cursors; returns
 * how many it filled. *found (when given) is how many are enabled, which is
 * more than the return value only when max was too small: a caller that must
 * keep off every surface refuses to go on then. A surface whose size the
 * registers do not give is taken as 16 MiB; every range is widened by 1 MiB
 * on either side.
 */
size_t hw_scanout_scan(struct hw_device *dev, struct hw_scanout *out, size_t max, size_t *found);

/* The same without the count of those that did not fit. */
size_t hw_scanout_ranges(struct hw_device *dev, struct hw_scanout *out, size_t max);

#endif
