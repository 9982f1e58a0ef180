/* SPDX-License-Identifier: MIT */
/* The GGTT ranges that enabled display planes scan out (read-only register scan). */
#ifndef HW_SCANOUT_H
#define HW_SCANOUT_H

#include "hw/device.h"

struct hw_scanout {
	uint64_t start, end;		/* GGTT [start, end) */
	const char *what;		/* "primary plane", "plane 2", "cursor" */
	unsigned pipe;
};

/*
 * Fill up to max ranges for the enabled planes and cursors; returns how many.
 * A surface whose size the registers do not give is taken as 16 MiB; every
 * range is widened by 1 MiB on either side.
 */
size_t hw_scanout_ranges(struct hw_device *dev, struct hw_scanout *out, size_t max);

#endif
