/* SPDX-License-Identifier: MIT */
/*
 * The ggtt and aperture suites: PTEs read back as written, high address bits
 * reach the right page, the invalidate is what makes a new PTE visible, a
 * scratch fill maps scratch everywhere, the guard page at the top is mapped,
 * CPU accesses through the aperture equal the pages behind it, and two
 * entries naming one page are two ways to the same bytes. Each looks at the
 * registers and at the data path.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "hw/backend_sim.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

/* Walking ones and walking zeros over every address bit of the platform's PTE. */
static enum check_status check_pte_readback(struct check_ctx *c)
{
	const struct gtt_platform *p = c->dev->info.plat;
	uint64_t first = c->claim_gm / 4096, top = (1ull << p->phys_addr_bits) - 4096;
	struct gtt_err err = { 0 };

	for (uint64_t i = 0; i < c->claim_pages; i++) {
		for (unsigned b = 12; b < p->phys_addr_bits; b++) {
			uint64_t addrs[2] = { 1ull << b, top & ~(1ull << b) };
			for (int k = 0; k < 2; k++) {
				uint64_t pte, back;
				struct hw_pte d;
				if (hw_pte_encode_for(&c->dev->info, addrs[k], HW_CACHE_NONE, &pte, &err))
					return ck_error(c, "PTE encode", &err);
				if (ck_pte_write(c, first + i, pte) || ck_pte_read(c, first + i, &back))
					return CHECK_FAIL;
				if (back != pte)
					return ck_fail(c, "PTE %llu (GM 0x%llx): wrote 0x%llx (address 0x%llx), read back 0x%llx",
						       (unsigned long long)(first + i), (unsigned long long)((first + i) * 4096),
						       (unsigned long long)pte, (unsigned long long)addrs[k], (unsigned long long)back);
				hw_pte_decode(p, back, &d);
				if (!d.valid || d.addr != addrs[k])
					return ck_fail(c, "PTE %llu: 0x%llx decodes to address 0x%llx, written for 0x%llx",
						       (unsigned long long)(first + i), (unsigned long long)back,
						       (unsigned long long)d.addr, (unsigned long long)addrs[k]);
			}
		}
	}
	return CHECK_PASS;
}

/* A page above 4 GiB: its PTE keeps the high bits and the aperture reaches its bytes. */
static enum check_status check_high_address_bits(struct check_ctx *c)
{
	struct hw_page *pg;
	uint64_t pte;
	uint8_t got[64];

	if (ck_pages(c, 4, &pg))
		return CHECK_FAIL;
	for (unsigned i = 0; i < 4; i++)
		if (pg[i].phys >> 32 == 0)
			return ck_skip(c, "the backend gave a test page below 4 GiB (0x%llx)", (unsigned long long)pg[i].phys);
	for (unsigned i = 0; i < 4; i++)
		for (unsigned b = 0; b < 64; b++)
			((uint8_t *)pg[i].cpu)[b] = (uint8_t)(0xa0 + i * 4 + b);
	if (ck_map(c, c->claim_gm, pg, 4))
		return CHECK_FAIL;
	for (unsigned i = 0; i < 4; i++) {
		struct hw_pte d;
		uint64_t idx = c->claim_gm / 4096 + i;
		if (ck_pte_read(c, idx, &pte))
			return CHECK_FAIL;
		hw_pte_decode(c->dev->info.plat, pte, &d);
		if (d.addr != pg[i].phys)
			return ck_fail(c, "PTE %llu = 0x%llx names 0x%llx, not the page at 0x%llx: high address bits lost",
				       (unsigned long long)idx, (unsigned long long)pte, (unsigned long long)d.addr,
				       (unsigned long long)pg[i].phys);
		if (ck_aperture_read(c, idx * 4096, got, sizeof(got)))
			return CHECK_FAIL;
		for (unsigned b = 0; b < 64; b++)
			if (got[b] != (uint8_t)(0xa0 + i * 4 + b))
				return ck_fail(c, "GM 0x%llx (PTE %llu) reads 0x%02x through the aperture; the page at 0x%llx holds 0x%02x",
					       (unsigned long long)(idx * 4096 + b), (unsigned long long)idx, got[b],
					       (unsigned long long)pg[i].phys, (uint8_t)(0xa0 + i * 4 + b));
	}
	return CHECK_PASS;
}

/* Rewriting a PTE changes nothing the aperture sees until GFX_FLSH_CNTL_GEN6 is written. */
static enum check_status check_invalidate(struct check_ctx *c)
{
	struct hw_page *pg;
	struct gtt_err err = { 0 };
	uint64_t idx = c->claim_gm / 4096, pb;
	uint8_t b;

	if (ck_pages(c, 2, &pg))
		return CHECK_FAIL;
	for (unsigned i = 0; i < 4096; i++) {
		((uint8_t *)pg[0].cpu)[i] = 0x11;
		((uint8_t *)pg[1].cpu)[i] = 0x22;
	}
	if (ck_map(c, c->claim_gm, &pg[0], 1) || ck_aperture_read(c, c->claim_gm, &b, 1))	/* primes the TLB */
		return CHECK_FAIL;
	if (b != 0x11)
		return ck_fail(c, "after mapping page A at PTE %llu and the GFX_FLSH_CNTL_GEN6 (0x101008) invalidate, GM 0x%llx reads 0x%02x, not A's 0x11",
			       (unsigned long long)idx, (unsigned long long)c->claim_gm, b);
	if (hw_pte_encode_for(&c->dev->info, pg[1].phys, HW_CACHE_NONE, &pb, &err))
		return ck_error(c, "PTE encode", &err);
	if (ck_pte_write(c, idx, pb) || ck_aperture_read(c, c->claim_gm, &b, 1))
		return CHECK_FAIL;
	/* the model's TLB is strict; real hardware may miss its TLB and see B early */
	if (hw_sim_model(c->dev) && b != 0x11)
		return ck_fail(c, "PTE %llu rewritten to page B: GM 0x%llx reads 0x%02x before any invalidate (the TLB should be stale)",
			       (unsigned long long)idx, (unsigned long long)c->claim_gm, b);
	hw_ggtt_invalidate(c->dev);
	if (ck_aperture_read(c, c->claim_gm, &b, 1))
		return CHECK_FAIL;
	if (b != 0x22)
		return ck_fail(c, "after the GFX_FLSH_CNTL_GEN6 (0x101008) invalidate, GM 0x%llx reads 0x%02x: PTE %llu (page B, 0x22) is not in effect",
			       (unsigned long long)c->claim_gm, b, (unsigned long long)idx);
	return CHECK_PASS;
}

/* Every claimed PTE on one scratch page: registers all equal, every page reads the scratch bytes. */
static enum check_status check_scratch_fill(struct check_ctx *c)
{
	struct hw_page *pg;
	struct gtt_err err = { 0 };
	uint64_t pte, back, first = c->claim_gm / 4096;
	uint8_t got[4096];

	if (ck_pages(c, 1, &pg))
		return CHECK_FAIL;
	for (unsigned i = 0; i < 4096; i++)
		((uint8_t *)pg->cpu)[i] = (uint8_t)(i * 7 + 1);
	if (hw_pte_encode_for(&c->dev->info, pg->phys, HW_CACHE_NONE, &pte, &err))
		return ck_error(c, "PTE encode", &err);
	for (uint64_t i = 0; i < c->claim_pages; i++)
		if (ck_pte_write(c, first + i, pte))
			return CHECK_FAIL;
	hw_ggtt_invalidate(c->dev);
	for (uint64_t i = 0; i < c->claim_pages; i++) {
		if (ck_pte_read(c, first + i, &back))
			return CHECK_FAIL;
		if (back != pte)
			return ck_fail(c, "PTE %llu reads 0x%llx after the scratch fill of 0x%llx", (unsigned long long)(first + i),
				       (unsigned long long)back, (unsigned long long)pte);
		if (ck_aperture_read(c, (first + i) * 4096, got, sizeof(got)))
			return CHECK_FAIL;
		for (unsigned b = 0; b < 4096; b++)
			if (got[b] != (uint8_t)(b * 7 + 1))
				return ck_fail(c, "GM 0x%llx (PTE %llu) reads 0x%02x, the scratch page holds 0x%02x",
					       (unsigned long long)((first + i) * 4096 + b), (unsigned long long)(first + i), got[b],
					       (uint8_t)(b * 7 + 1));
	}
	return CHECK_PASS;
}

/* The last GGTT page is mapped (i915 keeps it on scratch so CS prefetch past the end is harmless). */
static enum check_status check_guard_page(struct check_ctx *c)
{
	uint64_t last = c->dev->info.n_ptes - 1, pte;
	struct hw_pte d;
	struct sim_device *sim = hw_sim_model(c->dev);

	if (ck_pte_read(c, last, &pte))
		return CHECK_FAIL;
	hw_pte_decode(c->dev->info.plat, pte, &d);
	if (!d.valid)
		return ck_fail(c, "PTE %llu, the guard page at GM 0x%llx, is 0x%llx: not valid, so a prefetch past the end faults",
			       (unsigned long long)last, (unsigned long long)(last * 4096), (unsigned long long)pte);
	if (sim) {
		uint64_t faults = sim_access_count(sim, SIM_TRANSLATION_FAULT);
		uint8_t buf[64];
		struct gtt_err err = { 0 };
		if (hw_gpu_read(c->dev, last * 4096 + 4096 - sizeof(buf), buf, sizeof(buf), &err))
			return ck_error(c, "GPU read of the guard page", &err);
		if (sim_access_count(sim, SIM_TRANSLATION_FAULT) != faults)
			return ck_fail(c, "a GPU read of the guard page (PTE %llu) faulted", (unsigned long long)last);
	}
	return CHECK_PASS;
}

/* CPU writes and reads through the aperture land in, and come from, the pages behind it. */
static enum check_status check_aperture_rw(struct check_ctx *c)
{
	struct hw_page *pg;
	size_t n = c->claim_pages, size = n * 4096;
	uint8_t chunk[4096];

	if (ck_pages(c, n, &pg) || ck_map(c, c->claim_gm, pg, n))
		return CHECK_FAIL;
	uint64_t seed = c->seed;
	for (size_t i = 0; i < n; i++) {
		for (size_t b = 0; b < 4096; b++)
			chunk[b] = (uint8_t)(ck_rand(c) >> 56);
		if (ck_aperture_write(c, c->claim_gm + i * 4096, chunk, 4096))
			return CHECK_FAIL;
	}
	c->seed = seed;
	for (size_t i = 0; i < n; i++)
		for (size_t b = 0; b < 4096; b++) {
			uint8_t want = (uint8_t)(ck_rand(c) >> 56), got = ((uint8_t *)pg[i].cpu)[b];
			if (got != want)
				return ck_fail(c, "a CPU write of 0x%02x to GM 0x%llx (PTE %llu) left 0x%02x in the page at 0x%llx",
					       want, (unsigned long long)(c->claim_gm + i * 4096 + b),
					       (unsigned long long)(c->claim_gm / 4096 + i), got, (unsigned long long)pg[i].phys);
		}
	for (size_t i = 0; i < n; i++)
		for (size_t b = 0; b < 4096; b++)
			((uint8_t *)pg[i].cpu)[b] = (uint8_t)(i ^ b ^ 0x5a);
	for (size_t i = 0; i < n; i++) {
		if (ck_aperture_read(c, c->claim_gm + i * 4096, chunk, 4096))
			return CHECK_FAIL;
		for (size_t b = 0; b < 4096; b++)
			if (chunk[b] != (uint8_t)(i ^ b ^ 0x5a))
				return ck_fail(c, "GM 0x%llx (PTE %llu) reads 0x%02x; the page at 0x%llx holds 0x%02x",
					       (unsigned long long)(c->claim_gm + i * 4096 + b),
					       (unsigned long long)(c->claim_gm / 4096 + i), chunk[b],
					       (unsigned long long)pg[i].phys, (uint8_t)(i ^ b ^ 0x5a));
	}
	(void)size;
	return CHECK_PASS;
}

/* One pattern through the aperture at `from`; it must read back at `to` and be in the page. */
static enum check_status alias_pass(struct check_ctx *c, const struct hw_page *pg, uint64_t from, uint64_t to)
{
	uint8_t want[4096], got[4096];

	for (size_t b = 0; b < sizeof(want); b++)
		want[b] = (uint8_t)(ck_rand(c) >> 56);
	if (ck_aperture_write(c, from, want, sizeof(want)) || ck_aperture_read(c, to, got, sizeof(got)))
		return CHECK_FAIL;
	for (size_t b = 0; b < sizeof(want); b++) {
		if (((const uint8_t *)pg->cpu)[b] != want[b])
			return ck_fail(c, "a CPU write of 0x%02x to GM 0x%llx (PTE %llu) left 0x%02x in the page at 0x%llx",
				       want[b], (unsigned long long)(from + b), (unsigned long long)(from / 4096),
				       ((const uint8_t *)pg->cpu)[b], (unsigned long long)pg->phys);
		if (got[b] != want[b])
			return ck_fail(c, "GM 0x%llx (PTE %llu) reads 0x%02x where its alias GM 0x%llx (PTE %llu) wrote 0x%02x",
				       (unsigned long long)(to + b), (unsigned long long)(to / 4096), got[b],
				       (unsigned long long)(from + b), (unsigned long long)(from / 4096), want[b]);
	}
	return CHECK_PASS;
}

/*
 * Two entries naming one page (as i915's GGTT views map one object twice): both read back as
 * written and decode to the page, and bytes written through either address of the aperture read
 * back through the other and are in the page.
 */
static enum check_status check_aperture_alias(struct check_ctx *c)
{
	const struct gtt_platform *p = c->dev->info.plat;
	uint64_t gm[2] = { c->claim_gm, c->claim_gm + (c->claim_pages - 1) * 4096 };
	struct hw_page *pg;
	enum check_status st;

	if (ck_pages(c, 1, &pg) || ck_map(c, gm[0], pg, 1) || ck_map(c, gm[1], pg, 1))
		return CHECK_FAIL;
	for (int k = 0; k < 2; k++) {
		uint64_t pte;
		struct hw_pte d;
		if (ck_pte_read(c, gm[k] / 4096, &pte))
			return CHECK_FAIL;
		hw_pte_decode(p, pte, &d);
		if (!d.valid || d.addr != pg->phys)
			return ck_fail(c, "PTE %llu (GM 0x%llx) is 0x%llx, %s 0x%llx, not the page at 0x%llx it was written for",
				       (unsigned long long)(gm[k] / 4096), (unsigned long long)gm[k], (unsigned long long)pte,
				       d.valid ? "naming" : "not valid, at", (unsigned long long)d.addr,
				       (unsigned long long)pg->phys);
	}
	if ((st = alias_pass(c, pg, gm[0], gm[1])) != CHECK_PASS)
		return st;
	return alias_pass(c, pg, gm[1], gm[0]);
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "ggtt-pte-readback", "ggtt", "walking-ones and walking-zeros PTEs over every address bit read back as written",
	  0, 16, 0, check_pte_readback },
	{ "ggtt-high-address-bits", "ggtt", "a page above 4 GiB keeps its high PTE bits and its bytes reach the aperture",
	  REQ_TEST_PAGES | REQ_PAGE_ABOVE_4G, 4, 0, check_high_address_bits },
	{ "ggtt-invalidate", "ggtt", "a rewritten PTE takes effect through the aperture only after the GFX_FLSH_CNTL_GEN6 invalidate",
	  REQ_TEST_PAGES, 1, 0, check_invalidate },
	{ "ggtt-scratch-fill", "ggtt", "a scratch fill leaves every PTE on the scratch page and every page reading its bytes",
	  REQ_TEST_PAGES, 64, 0, check_scratch_fill },
	{ "ggtt-guard-page", "ggtt", "the last GGTT page is mapped, so a prefetch past the end does not fault",
	  REQ_NATIVE, 0, 0, check_guard_page },
	{ "aperture-rw", "aperture", "CPU writes and reads through the aperture equal the pages behind it",
	  REQ_TEST_PAGES, 32, 0, check_aperture_rw },
	{ "aperture-alias", "aperture", "two PTEs naming one page: bytes written through either aperture address read back through the other",
	  REQ_TEST_PAGES, 4, 0, check_aperture_alias },
};

const struct check_rows checks_ggtt = { rows, sizeof(rows) / sizeof(rows[0]) };
