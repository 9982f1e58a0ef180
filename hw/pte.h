/* SPDX-License-Identifier: MIT */
/* GGTT PTE encode/decode per platform (docs/hardware.md §2). Pure functions. */
#ifndef HW_PTE_H
#define HW_PTE_H

#include <stdbool.h>
#include <stdint.h>

#include "env/err.h"
#include "regs/platform.h"

/* i915's cache levels, as the GGTT encoders take them. */
enum hw_cache { HW_CACHE_NONE, HW_CACHE_LLC, HW_CACHE_L3_LLC, HW_CACHE_WT };

struct hw_pte {
	bool valid;
	uint64_t addr;			/* physical page address */
	uint32_t cache_bits;		/* the control bits as found in the PTE */
	const char *cache;		/* their name ("uncached", "llc", ...) */
};

/* Parse "none", "llc", "l3-llc", "wt"; GTT_EINVAL for anything else. */
int hw_cache_parse(const char *s, enum hw_cache *out, struct gtt_err *err);

/*
 * Encode a valid PTE for physical page `addr`. The address must be 4 KiB
 * aligned and fit the platform's PTE address bits; the cache level must be one
 * the platform's i915 encoder knows.
 */
int hw_pte_encode(const struct gtt_platform *p, uint64_t addr, enum hw_cache cache, uint64_t *pte,
		  struct gtt_err *err);

/*
 * The PTE `pte` pointing at physical page `addr` instead, with its valid and
 * cache-control bits unchanged (how a mediator turns a guest PTE into a host
 * one); every other bit of `pte` is dropped. Same address rules as hw_pte_encode.
 */
int hw_pte_with_addr(const struct gtt_platform *p, uint64_t pte, uint64_t addr, uint64_t *out,
		     struct gtt_err *err);

/* Decode a PTE value; bits that are not part of the format are ignored. */
void hw_pte_decode(const struct gtt_platform *p, uint64_t pte, struct hw_pte *out);

#endif
