/* SPDX-License-Identifier: MIT */
#include "hw/sim/sim_format.h"

/*
 * docs/hardware.md §2.1-2.3, as bit positions:
 *  snb/ivb: 32-bit; valid bit 0; phys 31:12 at 31:12; phys 39:32 at 11:4; uncached = 01b at 2:1
 *  hsw:     32-bit; valid bit 0; phys 31:12 at 31:12; phys 38:32 at 10:4; uncached = 0
 *  gen8+:   64-bit; present bit 0; phys 38:12 at 38:12 (IGT's decode for gen8-12); no control bits
 */
static const struct sim_pte_format formats[] = {
	[PTE_FORMAT_SNB] = { 4, 0, 2, { { 12, 20, 12 }, { 4, 8, 32 } }, 0x2 },
	[PTE_FORMAT_IVB] = { 4, 0, 2, { { 12, 20, 12 }, { 4, 8, 32 } }, 0x2 },
	[PTE_FORMAT_HSW] = { 4, 0, 2, { { 12, 20, 12 }, { 4, 7, 32 } }, 0x0 },
	[PTE_FORMAT_GEN8] = { 8, 0, 1, { { 12, 27, 12 } }, 0x0 },
};

const struct sim_pte_format *sim_pte_format_of(enum pte_format f)
{
	return (unsigned)f < sizeof(formats) / sizeof(formats[0]) ? &formats[f] : &formats[PTE_FORMAT_GEN8];
}

static uint64_t ones(unsigned width)
{
	return width >= 64 ? ~0ull : (1ull << width) - 1;
}

bool sim_pte_decode(const struct sim_pte_format *f, uint64_t entry, uint64_t *page)
{
	uint64_t a = 0;

	if (!(entry >> f->valid_bit & 1))
		return false;
	for (unsigned i = 0; i < f->n_pieces; i++) {
		const struct sim_addr_piece *p = &f->piece[i];
		a |= (entry >> p->entry_lo & ones(p->width)) << p->phys_lo;
	}
	*page = a;
	return true;
}

uint64_t sim_pte_make(const struct sim_pte_format *f, uint64_t page)
{
	uint64_t e = 1ull << f->valid_bit | f->uncached;

	for (unsigned i = 0; i < f->n_pieces; i++) {
		const struct sim_addr_piece *p = &f->piece[i];
		e |= (page >> p->phys_lo & ones(p->width)) << p->entry_lo;
	}
	return e;
}

/*
 * docs/hardware.md §4.3: LO bit 0 valid, LO bit 1 Y tiling, LO 31:12 the first
 * page, HI 31:12 the last page, HI 11:0 the pitch in 128-byte units less one.
 */
void sim_fence_decode(uint64_t value, struct sim_fence *f)
{
	uint32_t lo = (uint32_t)value, hi = (uint32_t)(value >> 32);

	f->valid = lo & 1;
	f->y = lo >> 1 & 1;
	f->start = lo >> 12 << 12;
	f->end = ((uint64_t)(hi >> 12) << 12) + 4096;
	f->pitch = ((uint64_t)(hi & 0xfff) + 1) * 128;
}
