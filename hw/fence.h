/* SPDX-License-Identifier: MIT */
/* Gen6+ fence registers: validate, encode, decode, and program in i915's order. */
#ifndef HW_FENCE_H
#define HW_FENCE_H

#include "hw/write_path.h"

enum hw_tiling { HW_TILING_NONE = 0, HW_TILING_X = 1, HW_TILING_Y = 2 };

struct hw_fence {
	uint64_t start;			/* GGTT/aperture offset of the first byte */
	uint64_t size;			/* bytes covered */
	uint32_t stride;		/* bytes per row of the linear view */
	enum hw_tiling tiling;
	bool valid;
};

/* Check a fence against the rules of docs/hardware.md §4.4 and the aperture. */
int hw_fence_validate(const struct gtt_platform *p, uint64_t aperture_size, const struct hw_fence *f,
		      struct gtt_err *err);

/*
 * The 64-bit register value of a valid fence, after validation:
 * ((start + size - 4096) << 32) | start | ((stride / 128 - 1) << 32) | (Y ? 2 : 0) | 1.
 * aperture_size 0 skips the aperture check (pure encoding).
 */
int hw_fence_encode(const struct gtt_platform *p, uint64_t aperture_size, const struct hw_fence *f,
		    uint64_t *val, struct gtt_err *err);

/* Decode a register value (a disabled fence decodes with valid = false). */
void hw_fence_decode(const struct gtt_platform *p, uint64_t val, struct hw_fence *f);

/* The raw fields of a register value, and what in them no i915 encoder writes. */
struct hw_fence_fields {
	uint64_t start;			/* LO 31:12 */
	uint64_t end;			/* HI 31:12 | 0xfff: the last byte the end field names */
	bool end_below_start;		/* the fence covers nothing (decoded size 0) */
	uint32_t pitch_field;		/* HI 11:0: stride / 128 - 1 */
	bool pitch_over_max;		/* pitch_field + 1 > the platform's maximum (fence_max_pitch_val) */
	uint32_t reserved;		/* LO 11:2, which i915 writes as zero */
};
void hw_fence_fields(const struct gtt_platform *p, uint64_t val, struct hw_fence_fields *f);

/* Read fence `i` as one 64-bit value (LO | HI << 32). */
int hw_fence_read(struct hw_device *dev, unsigned i, uint64_t *val, struct gtt_err *err);

/*
 * Program fence `i` in i915's order: LO = 0, posting read, HI, LO, posting
 * read. The fence is never valid while half written.
 */
int hw_fence_write(struct hw_device *dev, unsigned i, uint64_t val, struct gtt_err *err);

const char *hw_tiling_name(enum hw_tiling t);

#endif
