/* SPDX-License-Identifier: MIT */
/*
 * Every plane, sprite and cursor of a platform enabled at once, laid out so
 * that the ranges the runner must keep off tile the aperture from 4 MiB to
 * its end: a check can only go below 4 MiB, and any surface the runner fails
 * to keep off is a hole the next claim falls into. The registers are written
 * at offsets and with fields as i915 defines them, written out here (not
 * regs/display.h), through a callback (the model's register file, a fake
 * sysfs tree's resource0).
 */
#ifndef TESTS_SCANOUT_LAYOUT_H
#define TESTS_SCANOUT_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "regs/platform.h"

/* Where a claim can still go: below the first kept-off range. */
#define T_LAYOUT_FREE_BELOW	(4ull << 20)

struct t_surface {
	uint64_t start, end;		/* the range to keep off: the surface widened by 1 MiB either side */
	const char *what;		/* as the runner words it: "primary plane", "plane", "sprite", "cursor" */
	int pipe;
};

/*
 * Enable every surface p can scan out, in the order hw/scanout.c reads them
 * (per pipe: planes, sprite, cursor), covering [T_LAYOUT_FREE_BELOW,
 * aperture); fills out (room for 32) and returns how many.
 */
size_t t_enable_every_surface(const struct gtt_platform *p, uint64_t aperture,
			      void (*put32)(void *ctx, uint32_t off, uint32_t val), void *ctx,
			      struct t_surface *out);

#endif
