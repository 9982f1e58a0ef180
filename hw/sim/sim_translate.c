/* SPDX-License-Identifier: MIT */
/*
 * Address translation of the model, written from docs/hardware.md without
 * reference to hw/: the PTE as the hardware reads it (§2) and the fence value
 * as the hardware evaluates it (§4.3), both from the model's own tables in
 * sim_format.c, and the fence detiler (§5.2) with bit-6 swizzling on gen6/7 (§4.7).
 */
#include "hw/sim/sim_internal.h"
#include "regs/fence_reg.h"
#include "regs/mmio.h"

static uint64_t tlb_entry(const struct sim_device *sim, uint64_t index)
{
	const uint8_t *p = sim->tlb + index * sim->pte_fmt->entry_bytes;
	uint64_t v = 0;

	for (unsigned b = 0; b < sim->pte_fmt->entry_bytes; b++)
		v |= (uint64_t)p[b] << (8 * b);
	return v;
}

bool sim_translate(struct sim_device *sim, uint64_t gm, uint64_t *phys)
{
	uint64_t page;

	if (gm >> 12 >= sim->n_ptes)
		return false;
	uint64_t e = tlb_entry(sim, gm >> 12);
	/* a VF's engines reach only PTEs tagged with its id (docs/model.md, "A VF") */
	if ((sim->vf.id && !sim_vf_translates(sim, e)) || !sim_pte_decode(sim->pte_fmt, e, &page))
		return false;
	*phys = page | (gm & 0xfff);
	return true;
}

uint64_t sim_pte_for(const struct sim_device *sim, uint64_t phys)
{
	return sim_pte_make(sim->pte_fmt, phys);
}

static bool fence_covering(struct sim_device *sim, uint64_t a, struct sim_fence *f)
{
	for (unsigned i = 0; i < sim->plat->num_fences; i++) {
		sim_fence_decode(sim->regs[FENCE_REG_GEN6_LO(i) / 4] | (uint64_t)sim->regs[FENCE_REG_GEN6_HI(i) / 4] << 32, f);
		if (f->valid && a >= f->start && a < f->end)
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
	struct sim_fence f;
	uint64_t gm = a, run;

	if (fence_covering(sim, a, &f)) {
		uint64_t o = a - f.start, row = o / f.pitch, col = o % f.pitch, t;
		if (f.y) {
			t = (row / SIM_Y_ROWS) * (f.pitch * SIM_Y_ROWS) +
			    (col / SIM_Y_WIDTH) * SIM_TILE_BYTES +
			    ((col % SIM_Y_WIDTH) / SIM_Y_COLUMN) * (SIM_Y_COLUMN * SIM_Y_ROWS) +
			    (row % SIM_Y_ROWS) * SIM_Y_COLUMN + (col % SIM_Y_COLUMN);
			run = SIM_Y_COLUMN - col % SIM_Y_COLUMN;
		} else {
			t = (row / SIM_X_ROWS) * (f.pitch * SIM_X_ROWS) +
			    (col / SIM_X_WIDTH) * SIM_TILE_BYTES +
			    (row % SIM_X_ROWS) * SIM_X_WIDTH + (col % SIM_X_WIDTH);
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
		struct sim_fence nf;
		sim_fence_decode(sim->regs[FENCE_REG_GEN6_LO(i) / 4], &nf);
		if (nf.valid && nf.start > a && nf.start - a < run)
			run = nf.start - a;
	}
	return run;
}
