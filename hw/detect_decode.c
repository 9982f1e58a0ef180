/* SPDX-License-Identifier: MIT */
/* Decoders of the GMCH control word, the BDSM dwords and HSW_EDRAM_CAP (docs/hardware.md §1.3). */
#include "hw/detect_decode.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"

#define MiB (1ull << 20)

void hw_gmch_fields(const struct gtt_platform *p, uint16_t gmch, unsigned *ggms, unsigned *gms)
{
	if (p->gmch_layout == GMCH_LAYOUT_SNB) {
		*ggms = (gmch >> SNB_GMCH_GGMS_SHIFT) & SNB_GMCH_GGMS_MASK;
		*gms = (gmch >> SNB_GMCH_GMS_SHIFT) & SNB_GMCH_GMS_MASK;
	} else {
		*ggms = (gmch >> BDW_GMCH_GGMS_SHIFT) & BDW_GMCH_GGMS_MASK;
		*gms = (gmch >> BDW_GMCH_GMS_SHIFT) & BDW_GMCH_GMS_MASK;
	}
}

uint64_t hw_gsm_size_from_ggms(const struct gtt_platform *p, unsigned ggms)
{
	switch (p->gsm_rule) {
	case GSM_SIZE_GEN6:
		return (uint64_t)ggms * MiB;		/* gen6_get_total_gtt_size */
	case GSM_SIZE_GEN8:
		return ggms ? (1ull << ggms) * MiB : 0;	/* gen8_get_total_gtt_size */
	}
	return 0;
}

uint64_t hw_stolen_size_from_gms(const struct gtt_platform *p, unsigned gms)
{
	switch (p->stolen_rule) {
	case STOLEN_SIZE_GEN6:
	case STOLEN_SIZE_GEN8:
		return (uint64_t)gms << 25;			/* 32 MiB units */
	case STOLEN_SIZE_GEN9:
		if (gms < 0xf0)
			return (uint64_t)gms << 25;
		return (uint64_t)(gms - 0xf0 + 1) << 22;	/* 4 MiB steps */
	}
	return 0;
}

uint64_t hw_stolen_base(const struct gtt_platform *p, uint32_t dw0, uint32_t dw1)
{
	if (p->bdsm == BDSM_64)
		return (uint64_t)dw1 << 32 | (dw0 & INTEL_BSM_MASK);	/* gen11_stolen_base */
	return dw0 & INTEL_BSM_MASK;					/* gen3_stolen_base */
}

bool hw_edram_readable(const struct gtt_platform *p)
{
	return p->gen >= 75;
}

unsigned hw_edram_mb(const struct gtt_platform *p, uint32_t cap)
{
	static const unsigned ways[8] = { 4, 8, 12, 16, 16, 16, 16, 16 };
	static const unsigned sets[4] = { 1, 1, 2, 2 };

	if (!hw_edram_readable(p) || !(cap & EDRAM_ENABLED))
		return 0;
	/* before gen9 the register has no size fields: i915 takes 128 MiB */
	if (p->gen < 90)
		return 128;
	return EDRAM_NUM_BANKS(cap) * ways[EDRAM_WAYS_IDX(cap)] * sets[EDRAM_SETS_IDX(cap)];
}
