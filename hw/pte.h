/* SPDX-License-Identifier: MIT */
/* GGTT PTE encode/decode per platform (docs/hardware.md §2). Pure functions. */
#ifndef HW_PTE_H
#define HW_PTE_H

#include <stdbool.h>
#include <stdint.h>

#include "env/err.h"
#include "hw/handle.h"
#include "regs/platform.h"

/* i915's cache levels, as the GGTT encoders take them. */
enum hw_cache { HW_CACHE_NONE, HW_CACHE_LLC, HW_CACHE_L3_LLC, HW_CACHE_WT };

struct hw_pte {
	bool valid;
	uint64_t addr;			/* physical page address */
	uint32_t cache_bits;		/* the control bits as found in the PTE */
	const char *cache;		/* their name ("uncached", "llc", ...) */
};

/*
 * A cache level by name: "none", "llc", "l3-llc", "wt", or a name
 * hw_pte_decode gives for what an i915 encoder writes ("uncached", "l3+llc",
 * and on Haswell "wb-llc-age3", "wb-ellc-llc-age3", "wt-ellc-llc-age3"), so a
 * decoded name encodes back to the same bits. *edram (when given) is set for
 * the names only an eDRAM part's encoder writes. Names of values no i915
 * encoder writes (age 0, reserved) are GTT_EINVAL saying so.
 */
int hw_cache_parse(const char *s, enum hw_cache *out, bool *edram, struct gtt_err *err);

/*
 * Encode a valid PTE for physical page `addr`. The address must be 4 KiB
 * aligned and fit the platform's PTE address bits; the cache level must be one
 * the platform's i915 encoder knows. On Haswell this is i915's hsw_pte_encode,
 * the encoder of a part without eDRAM (0x0412 among them): every level but
 * none is write-back LLC, age 3.
 */
int hw_pte_encode(const struct gtt_platform *p, uint64_t addr, enum hw_cache cache, uint64_t *pte,
		  struct gtt_err *err);
/*
 * The same for a part with eDRAM (i915's HAS_EDRAM): on Haswell,
 * iris_pte_encode (write-through eLLC+LLC for wt, write-back eLLC+LLC for the
 * others); on other platforms eDRAM changes no GGTT PTE bit (GTT_EINVAL for
 * gen6/7 parts, which have none).
 */
int hw_pte_encode_edram(const struct gtt_platform *p, uint64_t addr, enum hw_cache cache, uint64_t *pte,
			struct gtt_err *err);

/*
 * The PTE i915 would write on this very device: the encoder of a part with
 * eDRAM when detection found it (HSW_EDRAM_CAP, hw_info.edram_mb), the one
 * of a part without otherwise. Every PTE gttlab encodes for an open device
 * goes through here, so a Haswell with eDRAM gets iris_pte_encode's bits.
 */
int hw_pte_encode_for(const struct hw_info *in, uint64_t addr, enum hw_cache cache, uint64_t *pte,
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
