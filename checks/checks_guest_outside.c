/* SPDX-License-Identifier: MIT */
/*
 * guest-outside: a guest writes where it has no right to — GGTT entries
 * outside its slices naming its own page, fences at or above fence_num,
 * aperture bytes outside its slice — and bytes through a not-present entry
 * of its own (its scratch page). None of it may change what it or anyone
 * can see: its entries, fences and bytes read as before, and the host side
 * (where the device shows it) finds its peers, the GGTT outside the guest
 * and the peers' scratch pages as they were.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_guest_common.h"
#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "regs/fence_reg.h"

#define OWN_PAGES 4
#define FENCED_PAGE (OWN_PAGES - 1)
#define MAX_PROBES (7 + 2 * GTTLAB_GM_MAX_RUNS)

/* Whether PTE index x lies in one of the vGPU's slices (the non-mappable one's every run). */
static bool in_slices(const struct hw_pvinfo *pv, uint64_t x)
{
	if (x >= pv->mappable_base / 4096 && x < (pv->mappable_base + pv->mappable_size) / 4096)
		return true;
	for (unsigned i = 0; i < pv->high_runs && i < GTTLAB_GM_MAX_RUNS; i++)
		if (x >= pv->run[i].base / 4096 && x < (pv->run[i].base + pv->run[i].size) / 4096)
			return true;
	return false;
}

/* Indexes just outside each slice and each run (between runs too) and at the GGTT's ends that lie in no slice. */
static size_t outside_indexes(const struct check_ctx *c, uint64_t *idx)
{
	const struct hw_pvinfo *pv = &c->dev->info.pvinfo;
	uint64_t n_ptes = c->dev->info.n_ptes, lo = pv->mappable_base / 4096, lo_end = lo + pv->mappable_size / 4096;
	uint64_t hi = pv->nonmappable_base / 4096, hi_end = hi + pv->nonmappable_size / 4096;
	uint64_t cand[7 + 2 * GTTLAB_GM_MAX_RUNS] = { lo - 1, lo_end, c->dev->info.aperture_size / 4096, hi - 1, hi_end, 0,
						      n_ptes - 1 };
	size_t n = 0, nc = 7;

	for (unsigned i = 1; i < pv->high_runs && i < GTTLAB_GM_MAX_RUNS; i++) {
		cand[nc++] = pv->run[i].base / 4096 - 1;
		cand[nc++] = (pv->run[i].base + pv->run[i].size) / 4096;
	}
	for (size_t i = 0; i < nc; i++) {
		uint64_t x = cand[i];
		bool dup = false;
		if (x >= n_ptes || in_slices(pv, x))
			continue;
		for (size_t k = 0; k < n; k++)
			dup |= idx[k] == x;
		if (!dup && n < MAX_PROBES)
			idx[n++] = x;
	}
	return n;
}

/* The hostile writes; their outcome is judged by what they changed, not by their return codes. */
static void hostile(struct check_ctx *c, uint64_t own_pte, uint64_t fence_val)
{
	const struct hw_pvinfo *pv = &c->dev->info.pvinfo;
	uint64_t idx[MAX_PROBES], lo_end = pv->mappable_base + pv->mappable_size;
	uint8_t junk[64];
	size_t n = outside_indexes(c, idx);

	for (size_t i = 0; i < n; i++)
		(void)ck_hostile_pte_write(c, idx[i], own_pte);
	(void)hw_ggtt_invalidate(c->dev);
	for (unsigned f = pv->fence_num; f < c->dev->info.num_fences; f++)
		(void)ck_hostile_fence_write(c, f, fence_val);
	for (size_t b = 0; b < sizeof(junk); b++)
		junk[b] = (uint8_t)(0xa5 ^ b);
	if (pv->mappable_base)
		(void)ck_hostile_aperture_write(c, 0, junk, sizeof(junk));
	if (lo_end < c->dev->info.aperture_size)
		(void)ck_hostile_aperture_write(c, lo_end, junk, sizeof(junk));
}

/* Its own entries, pages, bytes through the aperture and fences, as they were set up. */
static enum check_status own_intact(struct check_ctx *c, const struct hw_page *pg, const uint64_t *pte,
				    uint64_t fence0)
{
	uint8_t buf[4096];
	struct gtt_err err = { 0 };
	uint64_t got;

	for (unsigned k = 0; k < OWN_PAGES; k++) {
		uint64_t index = c->claim_gm / 4096 + k;
		if (ck_pte_read(c, index, &got))
			return CHECK_FAIL;
		if (got != pte[k])
			return ck_fail(c, "PTE index %llu of its own reads 0x%llx after the writes outside, was 0x%llx",
				       (unsigned long long)index, (unsigned long long)got, (unsigned long long)pte[k]);
		/* the last page lies under fence 0 (tiled, swizzled on gen6/7): its pages' bytes are compared instead */
		if (k == FENCED_PAGE)
			gtt_memcpy(buf, pg[k].cpu, sizeof(buf));
		else if (ck_aperture_read(c, index * 4096, buf, sizeof(buf)))
			return CHECK_FAIL;
		for (size_t b = 0; b < sizeof(buf); b++)
			if (buf[b] != guest_tag(c, k, b) || ((uint8_t *)pg[k].cpu)[b] != buf[b])
				return ck_fail(c, "GM 0x%llx byte 0x%zx reads 0x%02x through the aperture (page holds 0x%02x), was 0x%02x before the writes outside",
					       (unsigned long long)(index * 4096), b, buf[b], ((uint8_t *)pg[k].cpu)[b],
					       guest_tag(c, k, b));
	}
	for (unsigned f = 0; f < c->claim_fences; f++) {
		uint64_t want = f ? 0 : fence0;
		if (hw_fence_read(c->dev, f, &got, &err))
			return ck_error(c, "fence read", &err);
		if (got != want)
			return ck_fail(c, "fence %u of its own (FENCE_REG_GEN6_LO/HI at 0x%x) reads 0x%016llx after writes to fences %u and up, was 0x%016llx",
				       f, FENCE_REG_GEN6_LO(f), (unsigned long long)got, c->claim_fences,
				       (unsigned long long)want);
	}
	return CHECK_PASS;
}

/* A fence over the last own page, X-tiled, pitch 512 (one tile row): valid and inside the claim. */
static int small_fence(struct check_ctx *c, uint64_t *val)
{
	struct hw_fence f = { c->claim_gm + FENCED_PAGE * 4096, 4096, 512, HW_TILING_X, true };
	struct gtt_err err = { 0 };
	int rc = hw_fence_encode(c->dev->info.plat, c->dev->info.aperture_size, &f, val, &err);

	if (rc)
		ck_error(c, "fence encode", &err);
	return rc;
}

static enum check_status check_guest_outside(struct check_ctx *c)
{
	struct hw_page *pg;
	uint64_t pte[OWN_PAGES], fence0 = 0;
	uint8_t page[4096];
	enum check_status st;

	if (c->claim_pages < OWN_PAGES + 1)
		return ck_skip(c, "the vGPU's aperture slice has fewer than %u pages", OWN_PAGES + 1);
	if (ck_pages(c, OWN_PAGES, &pg))
		return CHECK_FAIL;
	for (unsigned k = 0; k < OWN_PAGES; k++) {
		guest_fill(c, &pg[k], k);
		if (guest_pte_for(c, &pg[k], &pte[k]))
			return CHECK_FAIL;
	}
	if (ck_map(c, c->claim_gm, pg, OWN_PAGES))
		return CHECK_FAIL;
	if (c->claim_fences && (small_fence(c, &fence0) || ck_fence_write(c, 0, fence0)))
		return CHECK_FAIL;
	if ((st = guest_audit(c, "setting up its own pages")) != CHECK_PASS)
		return st;
	hostile(c, pte[0], fence0 ? fence0 : 0);
	/* bytes through a not-present entry of its own: they may land only on its own scratch page */
	uint64_t np = c->claim_gm / 4096 + OWN_PAGES;
	for (size_t b = 0; b < sizeof(page); b++)
		page[b] = (uint8_t)(0x5a ^ b);
	if (ck_pte_write(c, np, 0) || hw_ggtt_invalidate(c->dev) || ck_aperture_write(c, np * 4096, page, sizeof(page)))
		return CHECK_FAIL;
	guest_churn(c, 32);
	if ((st = own_intact(c, pg, pte, fence0)) != CHECK_PASS)
		return st;
	return guest_audit(c, "writes outside its slices, to fences at or above fence_num and through a not-present entry");
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "guest-outside", "guest", "inside a vGPU: entries outside its slices, fences at or above fence_num, aperture bytes outside and its scratch page change nothing it or anyone sees",
	  REQ_GUEST | REQ_TEST_PAGES, 0, ALL_FENCES, check_guest_outside },
};

const struct check_rows checks_guest_outside = { rows, sizeof(rows) / sizeof(rows[0]) };
