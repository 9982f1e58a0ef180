/* SPDX-License-Identifier: MIT */
/*
 * Address translation of the model, written from docs/hardware.md without
 * reference to hw/: the PTE as the hardware reads it (§2), and the fence
 * detiler (§4.3, §5.2) with bit-6 swizzling on gen6/7 (§4.7).
 */
#include "hw/sim/sim_internal.h"
#include "regs/fence_reg.h"
#include "regs/gtt_pte.h"
#include "regs/mmio.h"

static uint64_t tlb_entry(const struct sim_device *sim, uint64_t index)
{
	const uint8_t *p = sim->tlb + index * sim->plat->pte_size;
	uint64_t v = 0;

	for (unsigned b = 0; b < sim->plat->pte_size; b++)
		v |= (uint64_t)p[b] << (8 * b);
	return v;
}

bool sim_translate(struct sim_device *sim, uint64_t gm, uint64_t *phys)
{
	uint64_t pte, page;

	if (gm >> 12 >= sim->n_ptes)
		return false;
	pte = tlb_entry(sim, gm >> 12);
	switch (sim->plat->pte_format) {
	case PTE_FORMAT_SNB:
	case PTE_FORMAT_IVB:
		if (!(pte & GEN6_PTE_VALID))
			return false;
		page = (pte & GEN6_PTE_ADDR_LO_MASK) | (pte & GEN6_PTE_ADDR_HI_MASK) << GEN6_PTE_ADDR_HI_SHIFT;
		break;
	case PTE_FORMAT_HSW:
		if (!(pte & GEN6_PTE_VALID))
			return false;
		page = (pte & GEN6_PTE_ADDR_LO_MASK) | (pte & HSW_PTE_ADDR_HI_MASK) << GEN6_PTE_ADDR_HI_SHIFT;
		break;
	default:
		if (!(pte & GEN8_PAGE_PRESENT))
			return false;
		page = pte & GEN8_GGTT_PTE_ADDR_MASK;
		break;
	}
	*phys = page | (gm & 0xfff);
	return true;
}

uint64_t sim_pte_for(const struct sim_device *sim, uint64_t phys)
{
	if (sim->plat->pte_size == 8)
		return phys | GEN8_PAGE_PRESENT;
	/* gen6/7: high address bits folded into 11:4; uncached, as i915's scratch */
	uint64_t hi = (phys >> GEN6_PTE_ADDR_HI_SHIFT) &
		      (sim->plat->pte_format == PTE_FORMAT_HSW ? HSW_PTE_ADDR_HI_MASK : GEN6_PTE_ADDR_HI_MASK);
	uint64_t cache = sim->plat->pte_format == PTE_FORMAT_HSW ? HSW_PTE_UNCACHED : GEN6_PTE_UNCACHED;
	return (phys & GEN6_PTE_ADDR_LO_MASK) | hi | cache | GEN6_PTE_VALID;
}

/* A fence as the hardware evaluates it: from the combined 64-bit register value. */
struct model_fence {
	uint64_t start, end;		/* end: first byte past the fenced range */
	uint64_t pitch;
	bool y;
};

static bool fence_covering(struct sim_device *sim, uint64_t a, struct model_fence *f)
{
	for (unsigned i = 0; i < sim->plat->num_fences; i++) {
		uint64_t v = sim->regs[FENCE_REG_GEN6_LO(i) / 4] |
			     (uint64_t)sim->regs[FENCE_REG_GEN6_HI(i) / 4] << 32;
		if (!(v & I965_FENCE_REG_VALID))
			continue;
		uint64_t start = v & FENCE_ADDR_MASK;
		uint64_t last = (v >> 32) & FENCE_ADDR_MASK;
		if (a < start || a >= last + I965_FENCE_PAGE)
			continue;
		f->start = start;
		f->end = last + I965_FENCE_PAGE;
		f->pitch = (((v >> 32) & GEN6_FENCE_PITCH_MASK) + 1) * FENCE_PITCH_UNIT;
		f->y = v & (1u << I965_FENCE_TILING_Y_SHIFT);
		return true;
	}
	return false;
}

static bool swizzling(const struct sim_device *sim)
{
	return sim->plat->gen < 80 && (sim->regs[TILECTL / 4] & TILECTL_SWZCTL);
}

/* Bit 6 of a tiled physical address after swizzling, for one of the modes. */
static uint64_t swizzle(uint64_t phys, int mode)
{
	uint64_t b = 0;

	switch (mode) {
	case I915_BIT_6_SWIZZLE_9:
		b = phys >> 9;
		break;
	case I915_BIT_6_SWIZZLE_9_10:
		b = (phys >> 9) ^ (phys >> 10);
		break;
	case I915_BIT_6_SWIZZLE_9_11:
		b = (phys >> 9) ^ (phys >> 11);
		break;
	case I915_BIT_6_SWIZZLE_9_10_11:
		b = (phys >> 9) ^ (phys >> 10) ^ (phys >> 11);
		break;
	default:
		return phys;
	}
	return phys ^ ((b & 1) << 6);
}

size_t sim_aperture_translate(struct sim_device *sim, uint64_t a, uint64_t *phys, bool *mapped)
{
	struct model_fence f;
	uint64_t gm = a, run;

	if (fence_covering(sim, a, &f)) {
		uint64_t o = a - f.start, row = o / f.pitch, col = o % f.pitch, t;
		if (f.y) {
			t = (row / Y_TILE_HEIGHT) * (f.pitch * Y_TILE_HEIGHT) +
			    (col / Y_TILE_WIDTH) * TILE_SIZE +
			    ((col % Y_TILE_WIDTH) / Y_TILE_OWORD) * (Y_TILE_OWORD * Y_TILE_HEIGHT) +
			    (row % Y_TILE_HEIGHT) * Y_TILE_OWORD + (col % Y_TILE_OWORD);
			run = Y_TILE_OWORD - col % Y_TILE_OWORD;
		} else {
			t = (row / X_TILE_HEIGHT) * (f.pitch * X_TILE_HEIGHT) +
			    (col / X_TILE_WIDTH) * TILE_SIZE +
			    (row % X_TILE_HEIGHT) * X_TILE_WIDTH + (col % X_TILE_WIDTH);
			/* swizzling moves 64-byte blocks, so stop at each */
			run = 64 - col % 64;
		}
		if (run > f.pitch - col)
			run = f.pitch - col;
		if (run > f.end - a)
			run = f.end - a;
		gm = f.start + t;
		*mapped = sim_translate(sim, gm, phys);
		if (*mapped && swizzling(sim))
			*phys = swizzle(*phys, f.y ? sim->plat->swizzle_y : sim->plat->swizzle_x);
		return run;
	}
	*mapped = sim_translate(sim, gm, phys);
	run = 4096 - (gm & 0xfff);
	/* stop where a fence begins */
	for (unsigned i = 0; i < sim->plat->num_fences; i++) {
		uint64_t lo = sim->regs[FENCE_REG_GEN6_LO(i) / 4];
		uint64_t start = lo & FENCE_ADDR_MASK;
		if ((lo & I965_FENCE_REG_VALID) && start > a && start - a < run)
			run = start - a;
	}
	return run;
}
