/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the PTE and fence codecs (hw/pte.c, hw/fence.c) on
 * every platform of regs/platform.c. The input is a run of 64-bit values
 * (little-endian, the last one zero-padded); each is decoded as a PTE and as a
 * fence register, and the invariants below must hold, or the harness aborts:
 *
 *  PTE:   a decoded address is 4 KiB aligned and within the platform's
 *         physical address bits; encoding it again (with each cache level the
 *         platform has) decodes to the same address, valid; the value moved to
 *         that address with hw_pte_with_addr keeps its valid and cache bits;
 *         moved to another address it keeps them too and names that address.
 *  fence: a decoded fence that validates re-encodes to a value that decodes
 *         to the same start, size, stride and tiling (and valid); when the
 *         original was valid, the re-encoding is the original with the bits
 *         the format ignores cleared; a fence that validates against an
 *         aperture validates without one. A fence built from the input's
 *         fields that validates round-trips the same way.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/fence.h"
#include "hw/pte.h"
#include "regs/fence_reg.h"
#include "regs/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void violated(const struct gtt_platform *p, uint64_t v, const char *what)
{
	fprintf(stderr, "fuzz_decode: %s, value 0x%016llx: %s\n", p->name, (unsigned long long)v, what);
	abort();
}

static void check_pte(const struct gtt_platform *p, uint64_t v)
{
	static const enum hw_cache levels[] = { HW_CACHE_NONE, HW_CACHE_LLC, HW_CACHE_L3_LLC, HW_CACHE_WT };
	struct gtt_err err = { 0 };
	struct hw_pte d, d2;
	uint64_t enc, moved;

	hw_pte_decode(p, v, &d);
	if (!d.cache)
		violated(p, v, "a decoded PTE has no cache name");
	if (d.addr & 0xfff)
		violated(p, v, "a decoded address is not 4 KiB aligned");
	if (d.addr >> p->phys_addr_bits)
		violated(p, v, "a decoded address exceeds the platform's physical address bits");
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		if (hw_pte_encode(p, d.addr, levels[i], &enc, &err)) {
			if (!err.msg[0])
				violated(p, v, "hw_pte_encode refused without a reason");
			continue;
		}
		hw_pte_decode(p, enc, &d2);
		if (!d2.valid || d2.addr != d.addr)
			violated(p, v, "hw_pte_encode of a decoded address does not decode to it, valid");
	}
	if (hw_pte_with_addr(p, v, d.addr, &moved, &err))
		violated(p, v, "hw_pte_with_addr refused the PTE's own address");
	hw_pte_decode(p, moved, &d2);
	if (d2.valid != d.valid || d2.addr != d.addr || d2.cache_bits != d.cache_bits)
		violated(p, v, "hw_pte_with_addr to its own address changed the PTE's fields");
	/* another page: the address bits flipped within the platform's range */
	uint64_t other = ~d.addr & (((1ull << p->phys_addr_bits) - 1) & ~0xfffull);
	if (hw_pte_with_addr(p, v, other, &moved, &err))
		violated(p, v, "hw_pte_with_addr refused a valid address");
	hw_pte_decode(p, moved, &d2);
	if (d2.valid != d.valid || d2.addr != other || d2.cache_bits != d.cache_bits)
		violated(p, v, "hw_pte_with_addr to another page lost the PTE's valid or cache bits");
}

static bool same_fence(const struct hw_fence *a, const struct hw_fence *b)
{
	return a->start == b->start && a->size == b->size && a->stride == b->stride && a->tiling == b->tiling;
}

/* A fence that validates must re-encode and decode to itself. */
static void round_trip(const struct gtt_platform *p, uint64_t v, const struct hw_fence *f)
{
	struct gtt_err err = { 0 };
	struct hw_fence g;
	uint64_t enc;

	if (hw_fence_encode(p, 0, f, &enc, &err))
		violated(p, v, "a fence that validates does not encode");
	hw_fence_decode(p, enc, &g);
	if (!same_fence(f, &g) || !g.valid)
		violated(p, v, "a fence that validates re-encodes to a value that decodes to other fields");
	if (hw_fence_validate(p, 0, &g, &err))
		violated(p, v, "the re-encoded fence no longer validates");
}

static void check_fence(const struct gtt_platform *p, uint64_t v)
{
	const uint64_t known = (uint64_t)(FENCE_ADDR_MASK | GEN6_FENCE_PITCH_MASK) << 32 | FENCE_ADDR_MASK |
			       1u << I965_FENCE_TILING_Y_SHIFT | I965_FENCE_REG_VALID;
	struct gtt_err err = { 0 };
	struct hw_fence f;
	uint64_t enc;

	hw_fence_decode(p, v, &f);
	int with_aperture = hw_fence_validate(p, p->sim_aperture_size, &f, &err);
	int bare = hw_fence_validate(p, 0, &f, &err);
	if (!with_aperture && bare)
		violated(p, v, "a fence valid inside the aperture is invalid without one");
	if ((with_aperture || bare) && !err.msg[0])
		violated(p, v, "a refused fence has no reason");
	if (bare)
		return;
	round_trip(p, v, &f);
	if (f.valid && (hw_fence_encode(p, 0, &f, &enc, &err), enc != (v & known)))
		violated(p, v, "a valid fence re-encodes to other bits than the ones it was decoded from");
}

/* A fence from raw fields: when it validates, it must round-trip. */
static void check_fields(const struct gtt_platform *p, uint64_t a, uint64_t b)
{
	struct gtt_err err = { 0 };
	struct hw_fence f = {
		.start = (a & 0xffffffffull) & ~(uint64_t)(b & 1 ? 0 : 0xfff),
		.size = (a >> 32) << (b & 2 ? 12 : 0),
		.stride = (uint32_t)(b >> 8) & 0xfffff,
		.tiling = (enum hw_tiling)((b >> 2) % 4),
		.valid = true,
	};

	if (!hw_fence_validate(p, 0, &f, &err))
		round_trip(p, a, &f);
	else if (!err.msg[0])
		violated(p, a, "a refused fence has no reason");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t vals[64];
	size_t n = 0;

	for (size_t off = 0; off < size && n < 64; off += 8) {
		uint64_t v = 0;
		for (size_t i = 0; i < 8 && off + i < size; i++)
			v |= (uint64_t)data[off + i] << (8 * i);
		vals[n++] = v;
	}
	for (size_t k = 0; k < gtt_num_platforms; k++) {
		const struct gtt_platform *p = &gtt_platforms[k];
		for (size_t i = 0; i < n; i++) {
			check_pte(p, vals[i]);
			check_fence(p, vals[i]);
			if (i + 1 < n)
				check_fields(p, vals[i], vals[i + 1]);
		}
	}
	return 0;
}
