/* SPDX-License-Identifier: MIT */
/*
 * Every MMIO register gttlab touches, by name, as data: the source of truth
 * that the intel_reg spec files in regs/spec/ are checked against.
 */
#ifndef REGS_REG_NAMES_H
#define REGS_REG_NAMES_H

#include <stddef.h>
#include <stdint.h>

#include "regs/platform.h"

struct gtt_reg_name {
	const char *name;		/* i915's name; fences as FENCE_REG_GEN6_LO_<i> */
	uint32_t offset;		/* in BAR0 */
	unsigned min_gen, max_gen;	/* generations (times ten) that have it */
	int fence;			/* fence index, or -1: present if the platform has that many */
	char pipe;			/* display pipe 'A'..'D' it belongs to, 0 if none */
	unsigned plane;			/* universal plane 1..7 it belongs to, 0 if none */
};

extern const struct gtt_reg_name gtt_reg_names[];
extern const size_t gtt_num_reg_names;

/* Whether platform p has register r. */
int gtt_reg_on_platform(const struct gtt_reg_name *r, const struct gtt_platform *p);

#endif
