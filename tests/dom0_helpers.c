/* SPDX-License-Identifier: MIT */
#include "tests/dom0_helpers.h"
#include "regs/mmio.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

void d0_start(struct d0 *t, const char *spec, const struct dom0_config *cfg)
{
	struct gtt_err err = { 0 };

	t->dev = t_open(spec);
	t->sim = t_sim(t->dev);
	cr_assert_eq(dom0_init(t->dev, cfg, &t->rt, &err), 0, "dom0_init: %s", err.msg);
}

void d0_stop(struct d0 *t)
{
	struct gtt_err err = { 0 };

	cr_assert_eq(dom0_fini(t->rt, &err), 0, "dom0_fini: %s", err.msg);
	hw_close(t->dev);
}

int d0_create(struct d0 *t, uint64_t low, unsigned slots, unsigned fences)
{
	struct dom0_vgpu_params p = { .low_size = low, .high_slots = slots, .fences = fences, .mem_pages = 64 };
	struct gtt_err err = { 0 };
	int id = 0;

	cr_assert_eq(dom0_vgpu_create(t->rt, &p, &id, &err), 0, "create: %s", err.msg);
	return id;
}

uint64_t d0_guest_pte(const struct d0 *t, uint64_t gfn)
{
	uint64_t a = gfn << 12;

	switch (t->dev->info.plat->pte_format) {
	case PTE_FORMAT_GEN8: return a | 1;
	case PTE_FORMAT_HSW: return (uint32_t)(a | ((a >> 28) & 0x7f0)) | 1;
	default: return (uint32_t)(a | ((a >> 28) & 0xff0)) | 2 | 1;
	}
}

uint64_t d0_phys(const struct d0 *t, uint64_t index)
{
	uint32_t off = t->dev->info.gsm_offset + (uint32_t)(index * t->dev->info.pte_size);

	return t->dev->info.pte_size == 8 ? sim_mmio_read64(t->sim, off) : sim_mmio_read32(t->sim, off);
}

uint64_t d0_pte_addr(const struct d0 *t, uint64_t pte)
{
	switch (t->dev->info.plat->pte_format) {
	case PTE_FORMAT_GEN8: return pte & 0x7ffffff000ull;
	case PTE_FORMAT_HSW: return (pte & 0xfffff000ull) | (pte & 0x7f0) << 28;
	default: return (pte & 0xfffff000ull) | (pte & 0xff0) << 28;
	}
}

uint8_t *d0_capture(const struct d0 *t, size_t *len)
{
	size_t gsm = t->dev->info.gsm_size, fences = t->dev->info.num_fences * 8;
	uint8_t *b = malloc(gsm + fences);

	for (size_t off = 0; off < gsm; off += 4) {
		uint32_t v = sim_mmio_read32(t->sim, t->dev->info.gsm_offset + (uint32_t)off);
		memcpy(b + off, &v, 4);
	}
	for (size_t off = 0; off < fences; off += 4) {
		uint32_t v = sim_mmio_read32(t->sim, FENCE_REG_GEN6_BASE + (uint32_t)off);
		memcpy(b + gsm + off, &v, 4);
	}
	*len = gsm + fences;
	return b;
}
