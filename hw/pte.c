/* SPDX-License-Identifier: MIT */
/*
 * PTE formats, after i915's snb/ivb/hsw/gen8 GGTT encoders:
 *  gen6/7:  phys 31:12 -> PTE 31:12, phys 39:32 -> PTE 11:4, cache 2:1, valid 0
 *  hsw:     phys 38:32 -> PTE 10:4, cache control 3:1 plus bit 11, valid 0
 *  gen8+:   64-bit, phys 38:12 in place, present bit 0, no cache bits
 */
#include "hw/pte.h"
#include "env/fmt.h"
#include "regs/gtt_pte.h"

int hw_cache_parse(const char *s, enum hw_cache *out, bool *edram, struct gtt_err *err)
{
	static const struct { const char *name; enum hw_cache c; bool edram; } names[] = {
		{ "none", HW_CACHE_NONE, false }, { "llc", HW_CACHE_LLC, false },
		{ "l3-llc", HW_CACHE_L3_LLC, false }, { "wt", HW_CACHE_WT, false },
		/* what hw_pte_decode names the bits i915's encoders write */
		{ "uncached", HW_CACHE_NONE, false }, { "l3+llc", HW_CACHE_L3_LLC, false },
		{ "wb-llc-age3", HW_CACHE_LLC, false }, { "wb-ellc-llc-age3", HW_CACHE_LLC, true },
		{ "wt-ellc-llc-age3", HW_CACHE_WT, true },
	};
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!gtt_strcmp(s, names[i].name)) {
			*out = names[i].c;
			if (edram)
				*edram = names[i].edram;
			return GTT_OK;
		}
	if (!gtt_strcmp(s, "wb-llc-age0") || !gtt_strcmp(s, "wb-ellc-llc-age0") || !gtt_strcmp(s, "wt-ellc-llc-age0") ||
	    !gtt_strncmp(s, "reserved", 8))
		return gtt_err_set(err, GTT_EINVAL, "cache '%s': no i915 encoder writes it (Haswell's write age 3; gen6/7 no reserved value)", s);
	return gtt_err_set(err, GTT_EINVAL, "cache level '%s' is not one of none, llc, l3-llc, wt (or a decoded name: uncached, l3+llc, wb-llc-age3, wb-ellc-llc-age3, wt-ellc-llc-age3)", s);
}

static int cache_bits(const struct gtt_platform *p, bool edram, enum hw_cache c, uint32_t *bits, struct gtt_err *err)
{
	switch (p->pte_format) {
	case PTE_FORMAT_SNB:		/* snb_pte_encode */
		if (c == HW_CACHE_WT)
			break;
		*bits = c == HW_CACHE_NONE ? GEN6_PTE_UNCACHED : GEN6_PTE_CACHE_LLC;
		return GTT_OK;
	case PTE_FORMAT_IVB:		/* ivb_pte_encode */
		if (c == HW_CACHE_WT)
			break;
		*bits = c == HW_CACHE_NONE ? GEN6_PTE_UNCACHED :
			c == HW_CACHE_LLC ? GEN6_PTE_CACHE_LLC : GEN7_PTE_CACHE_L3_LLC;
		return GTT_OK;
	case PTE_FORMAT_HSW:
		if (edram)		/* iris_pte_encode (HAS_EDRAM) */
			*bits = c == HW_CACHE_NONE ? HSW_PTE_UNCACHED :
				c == HW_CACHE_WT ? HSW_WT_ELLC_LLC_AGE3 : HSW_WB_ELLC_LLC_AGE3;
		else			/* hsw_pte_encode: anything cached is WB LLC age 3, WT included */
			*bits = c == HW_CACHE_NONE ? HSW_PTE_UNCACHED : HSW_WB_LLC_AGE3;
		return GTT_OK;
	case PTE_FORMAT_GEN8:		/* gen8_ggtt_pte_encode ignores the level */
		*bits = 0;
		return GTT_OK;
	}
	return gtt_err_set(err, GTT_EINVAL, "cache level wt has no PTE encoding on %s (write-through needs eDRAM, Haswell)",
			   p->name);
}

static int encode(const struct gtt_platform *p, bool edram, uint64_t addr, enum hw_cache cache, uint64_t *pte,
		  struct gtt_err *err)
{
	uint32_t bits = 0;
	int rc;

	if (addr & (GTT_PAGE_SIZE - 1))
		return gtt_err_set(err, GTT_EINVAL, "address 0x%llx is not 4 KiB aligned (a PTE maps whole pages)",
				   (unsigned long long)addr);
	if (addr >> p->phys_addr_bits)
		return gtt_err_set(err, GTT_EINVAL, "address 0x%llx exceeds the %u physical address bits a %s PTE holds",
				   (unsigned long long)addr, p->phys_addr_bits, p->name);
	if ((rc = cache_bits(p, edram, cache, &bits, err)))
		return rc;
	if (p->pte_format == PTE_FORMAT_GEN8) {
		*pte = addr | GEN8_PAGE_PRESENT;
		return GTT_OK;
	}
	uint32_t hi_bits = (uint32_t)(addr >> 32);	/* 8 (gen6/7) or 7 (hsw) bits, range checked above */
	*pte = (uint32_t)(addr & GEN6_PTE_ADDR_LO_MASK) | hi_bits << 4 | bits | GEN6_PTE_VALID;
	return GTT_OK;
}

int hw_pte_encode(const struct gtt_platform *p, uint64_t addr, enum hw_cache cache, uint64_t *pte,
		  struct gtt_err *err)
{
	return encode(p, false, addr, cache, pte, err);
}

int hw_pte_encode_edram(const struct gtt_platform *p, uint64_t addr, enum hw_cache cache, uint64_t *pte,
			struct gtt_err *err)
{
	if (p->pte_format == PTE_FORMAT_SNB || p->pte_format == PTE_FORMAT_IVB)
		return gtt_err_set(err, GTT_EINVAL, "%s has no eDRAM (Haswell's Iris Pro is the first; i915's iris_pte_encode)",
				   p->name);
	return encode(p, true, addr, cache, pte, err);
}

int hw_pte_encode_for(const struct hw_info *in, uint64_t addr, enum hw_cache cache, uint64_t *pte,
		      struct gtt_err *err)
{
	if (in->edram_mb)
		return hw_pte_encode_edram(in->plat, addr, cache, pte, err);
	return hw_pte_encode(in->plat, addr, cache, pte, err);
}

int hw_pte_with_addr(const struct gtt_platform *p, uint64_t pte, uint64_t addr, uint64_t *out,
		     struct gtt_err *err)
{
	uint64_t fresh;
	int rc = hw_pte_encode(p, addr, HW_CACHE_NONE, &fresh, err);

	if (rc)
		return rc;
	if (p->pte_format == PTE_FORMAT_GEN8) {
		/* only the control bits below the address survive: a guest's bits 63:39 must not reach the host */
		*out = (pte & 0xfffull) | (fresh & GEN8_GGTT_PTE_ADDR_MASK);
		return GTT_OK;
	}
	uint64_t addr_bits = GEN6_PTE_ADDR_LO_MASK |
			     (p->pte_format == PTE_FORMAT_HSW ? HSW_PTE_ADDR_HI_MASK : GEN6_PTE_ADDR_HI_MASK);
	*out = (pte & ~addr_bits & 0xffffffffull) | (fresh & addr_bits);
	return GTT_OK;
}

static const char *cache_name(const struct gtt_platform *p, uint32_t bits)
{
	switch (p->pte_format) {
	case PTE_FORMAT_SNB:
	case PTE_FORMAT_IVB:
		switch (bits) {
		case 0: return "reserved (0)";
		case GEN6_PTE_UNCACHED: return "uncached";
		case GEN6_PTE_CACHE_LLC: return "llc";
		default: return p->pte_format == PTE_FORMAT_IVB ? "l3+llc" : "reserved (3)";
		}
	case PTE_FORMAT_HSW:
		switch (bits) {
		case HSW_PTE_UNCACHED: return "uncached";
		case HSW_WB_LLC_AGE3: return "wb-llc-age3";
		case HSW_WB_LLC_AGE0: return "wb-llc-age0";
		case HSW_WB_ELLC_LLC_AGE3: return "wb-ellc-llc-age3";
		case HSW_WB_ELLC_LLC_AGE0: return "wb-ellc-llc-age0";
		case HSW_WT_ELLC_LLC_AGE3: return "wt-ellc-llc-age3";
		case HSW_WT_ELLC_LLC_AGE0: return "wt-ellc-llc-age0";
		default: return "other";
		}
	case PTE_FORMAT_GEN8:
		return "none";	/* gen8+ GGTT PTEs carry no cache bits */
	}
	return "?";
}

void hw_pte_decode(const struct gtt_platform *p, uint64_t pte, struct hw_pte *out)
{
	if (p->pte_format == PTE_FORMAT_GEN8) {
		out->valid = pte & GEN8_PAGE_PRESENT;
		out->addr = pte & GEN8_GGTT_PTE_ADDR_MASK;
		out->cache_bits = 0;
	} else {
		unsigned hi_width = p->pte_format == PTE_FORMAT_HSW ? 7 : 8;
		uint64_t hi = (pte >> 4) & ((1u << hi_width) - 1);
		out->valid = pte & GEN6_PTE_VALID;
		out->addr = (pte & GEN6_PTE_ADDR_LO_MASK) | hi << 32;
		out->cache_bits = (uint32_t)pte & (p->pte_format == PTE_FORMAT_HSW ? HSW_PTE_CACHE_MASK
										: GEN6_PTE_CACHE_MASK);
	}
	out->cache = cache_name(p, out->cache_bits);
}
