/* SPDX-License-Identifier: MIT */
/*
 * The guest suite: gttlab inside a vGPU, checking the mediator that serves it
 * from the only view a guest has — its PVINFO page, its own slices of the
 * GGTT, fences below fence_num, the aperture and the GPU side. The contract
 * is GVT-g's (docs/hardware.md §6): PVINFO well formed and stable; what the
 * guest writes in its slices reads back and reaches its pages on every path,
 * whoever else the host switches in between; fences below fence_num detile
 * (the fence pool, seen from inside); and what it writes anywhere else
 * changes nothing it or anyone can see. Where the device offers the host's
 * side (vgpu:, host_audit), "anyone" includes its peers. The resize check
 * lives in checks_guest_resize.c.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_guest_common.h"
#include "env/fmt.h"
#include "hw/aperture.h"
#include "hw/detect_pvinfo.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "regs/fence_reg.h"
#include "regs/pvinfo.h"

#define EDGE 8			/* entries checked at each end of a slice */
#define DATA_PAGES 4		/* pages per slice the data check maps */
#define ROUNDS 4		/* passes over the same entries, peers switched in between */

/* Which word of two PVINFO views differs, by its i915_pvinfo.h name; NULL when none does. */
static const char *pvinfo_diff(const struct hw_pvinfo *a, const struct hw_pvinfo *b, uint64_t *va, uint64_t *vb)
{
#define SAME(f, name) do { if (a->f != b->f) { *va = a->f; *vb = b->f; return name; } } while (0)
	SAME(version_major, "version_major");
	SAME(version_minor, "version_minor");
	SAME(vgt_id, "vgt_id");
	SAME(caps, "vgt_caps");
	SAME(mappable_base, "avail_rs.mappable_gmadr.base");
	SAME(mappable_size, "avail_rs.mappable_gmadr.size");
	SAME(nonmappable_base, "avail_rs.nonmappable_gmadr.base");
	SAME(nonmappable_size, "avail_rs.nonmappable_gmadr.size");
	SAME(fence_num, "avail_rs.fence_num");
	SAME(high_runs, "GM_RUNS");
	for (unsigned i = 1; i < a->high_runs && i < GTTLAB_GM_MAX_RUNS; i++) {
		SAME(run[i].base, "GM_RUN_BASE");
		SAME(run[i].size, "GM_RUN_SIZE");
	}
#undef SAME
	return NULL;
}

static enum check_status check_guest_pvinfo(struct check_ctx *c)
{
	const struct hw_info *in = &c->dev->info;
	const struct hw_pvinfo *pv = &in->pvinfo;
	uint64_t magic = hw_mmio_read64(c->dev, VGT_IF_MAGIC), va, vb;
	struct gtt_err err = { 0 };

	if (magic != VGT_MAGIC)
		return ck_fail(c, "PVINFO magic at 0x%x reads 0x%016llx, not VGT_MAGIC 0x%016llx", VGT_IF_MAGIC,
			       (unsigned long long)magic, (unsigned long long)VGT_MAGIC);
	if (pv->version_major != VGT_VERSION_MAJOR)
		return ck_fail(c, "PVINFO version_major at 0x%x is %u, i915_pvinfo.h's is %u", VGT_IF_VERSION,
			       pv->version_major, VGT_VERSION_MAJOR);
	/* intel_vgt_balloon's rules: the slices lie in the aperture and above it, inside the GGTT */
	if (pv->mappable_size && pv->mappable_base + pv->mappable_size > in->aperture_size)
		return ck_fail(c, "avail_rs.mappable_gmadr 0x%llx+0x%llx ends beyond the 0x%llx-byte aperture",
			       (unsigned long long)pv->mappable_base, (unsigned long long)pv->mappable_size,
			       (unsigned long long)in->aperture_size);
	if (pv->nonmappable_size && (pv->nonmappable_base < in->aperture_size ||
				     pv->nonmappable_base + pv->nonmappable_size > in->ggtt_size))
		return ck_fail(c, "avail_rs.nonmappable_gmadr 0x%llx+0x%llx is not between the aperture's end 0x%llx and the GGTT's 0x%llx",
			       (unsigned long long)pv->nonmappable_base, (unsigned long long)pv->nonmappable_size,
			       (unsigned long long)in->aperture_size, (unsigned long long)in->ggtt_size);
	if (pv->fence_num > in->num_fences)
		return ck_fail(c, "avail_rs.fence_num %u: the %s has %u fence registers", pv->fence_num, in->plat->name,
			       in->num_fences);
	/* no request of its own and no host policy in between: every read gives the same page */
	for (unsigned round = 0; round < 64; round++) {
		struct hw_pvinfo now;
		if (hw_detect_pvinfo(c->dev, &now, &err))
			return ck_error(c, "PVINFO re-read", &err);
		const char *w = pvinfo_diff(pv, &now, &va, &vb);
		if (w)
			return ck_fail(c, "PVINFO %s read 0x%llx at open and 0x%llx on read %u, with no request of this vGPU's in between",
				       w, (unsigned long long)va, (unsigned long long)vb, round + 1);
	}
	return CHECK_PASS;
}

/* The first and last EDGE entries of a slice (all of it when smaller). */
static size_t edge_indexes(const struct guest_slice *s, uint64_t *idx)
{
	size_t n = 0;

	for (uint64_t i = 0; i < s->pages && i < EDGE; i++)
		idx[n++] = s->first + i;
	for (uint64_t i = s->pages > 2 * EDGE ? s->pages - EDGE : EDGE; i < s->pages; i++)
		idx[n++] = s->first + i;
	return n;
}

static enum check_status check_guest_pte_ranges(struct check_ctx *c)
{
	struct guest_slice sl[GUEST_MAX_SLICES];
	uint64_t idx[GUEST_MAX_SLICES][2 * EDGE], want[GUEST_MAX_SLICES][2 * EDGE], got;
	size_t n[GUEST_MAX_SLICES] = { 0 };
	unsigned ns = guest_slices(c, sl);
	struct hw_page *pg;

	if (ck_pages(c, EDGE, &pg))
		return CHECK_FAIL;
	for (unsigned s = 0; s < ns; s++) {
		n[s] = edge_indexes(&sl[s], idx[s]);
		for (size_t k = 0; k < n[s]; k++)
			if (guest_pte_for(c, &pg[k % EDGE], &want[s][k]) || ck_pte_write(c, idx[s][k], want[s][k]))
				return CHECK_FAIL;
	}
	if (hw_ggtt_invalidate(c->dev))
		return ck_fail(c, "GGTT invalidate (GFX_FLSH_CNTL_GEN6) refused");
	for (unsigned round = 0; round < ROUNDS; round++) {
		for (unsigned s = 0; s < ns; s++)
			for (size_t k = 0; k < n[s]; k++) {
				if (ck_pte_read(c, idx[s][k], &got))
					return CHECK_FAIL;
				if (got != want[s][k])
					return ck_fail(c, "PTE index %llu (GM 0x%llx, %s slice 0x%llx+0x%llx) read back 0x%llx on pass %u, written 0x%llx",
						       (unsigned long long)idx[s][k], (unsigned long long)(idx[s][k] * 4096), sl[s].name,
						       (unsigned long long)(sl[s].first * 4096), (unsigned long long)(sl[s].pages * 4096),
						       (unsigned long long)got, round + 1, (unsigned long long)want[s][k]);
			}
		guest_churn(c, 32);
	}
	return CHECK_PASS;
}

/* One page's bytes against what it should hold, through one path; CHECK_PASS or the failure named. */
static enum check_status page_agrees(struct check_ctx *c, const char *path, uint64_t gm, const uint8_t *buf,
				    uint64_t page_tag, unsigned round)
{
	for (size_t b = 0; b < 4096; b++)
		if (buf[b] != guest_tag(c, page_tag, b))
			return ck_fail(c, "GM 0x%llx byte 0x%zx through %s reads 0x%02x, the page behind PTE index %llu holds 0x%02x (pass %u)",
				       (unsigned long long)gm, b, path, buf[b], (unsigned long long)(gm / 4096),
				       guest_tag(c, page_tag, b), round + 1);
	return CHECK_PASS;
}

/* Every mapped page through the aperture (mappable slice) and the GPU side (both), against its tag. */
static enum check_status data_pass(struct check_ctx *c, const struct guest_slice *sl, unsigned ns,
				   const struct hw_page *pg, const uint64_t *tags, unsigned round)
{
	uint8_t buf[4096];
	struct gtt_err err = { 0 };
	enum check_status st = CHECK_PASS;

	for (unsigned s = 0; s < ns && st == CHECK_PASS; s++)
		for (unsigned k = 0; k < DATA_PAGES && st == CHECK_PASS; k++) {
			uint64_t gm = (sl[s].first + k) * 4096, t = tags[s * DATA_PAGES + k];
			if (s == 0) {
				if (ck_aperture_read(c, gm, buf, sizeof(buf)))
					return CHECK_FAIL;
				st = page_agrees(c, "the aperture", gm, buf, t, round);
			}
			if (st == CHECK_PASS && c->dev->ops->gpu_read) {
				if (hw_gpu_read(c->dev, gm, buf, sizeof(buf), &err))
					return ck_error(c, "GPU-side read", &err);
				st = page_agrees(c, "the GPU side", gm, buf, t, round);
			}
			if (st == CHECK_PASS)
				st = page_agrees(c, "the page's CPU mapping", gm, pg[s * DATA_PAGES + k].cpu, t, round);
		}
	return st;
}

static enum check_status check_guest_data_paths(struct check_ctx *c)
{
	struct guest_slice sl[GUEST_MAX_SLICES];
	unsigned ns = guest_slices(c, sl);
	uint64_t tags[GUEST_MAX_SLICES * DATA_PAGES];
	struct hw_page *pg;
	struct gtt_err err = { 0 };

	if (!ns || sl[0].pages < DATA_PAGES)
		return ck_skip(c, "the vGPU's aperture slice has fewer than %u pages", DATA_PAGES);
	/* the slices that hold DATA_PAGES, in order (a run smaller than that ends the list) */
	for (unsigned s = 1; s < ns; s++)
		if (sl[s].pages < DATA_PAGES)
			ns = s;
	if (ck_pages(c, (size_t)ns * DATA_PAGES, &pg))
		return CHECK_FAIL;
	for (unsigned i = 0; i < ns * DATA_PAGES; i++) {
		tags[i] = i;
		guest_fill(c, &pg[i], i);
	}
	for (unsigned s = 0; s < ns; s++)
		if (ck_map(c, sl[s].first * 4096, &pg[s * DATA_PAGES], DATA_PAGES))
			return CHECK_FAIL;
	for (unsigned round = 0; round < ROUNDS; round++) {
		enum check_status st = data_pass(c, sl, ns, pg, tags, round);
		if (st != CHECK_PASS)
			return st;
		if (round == 1) {
			/* new bytes from the CPU side through the aperture, and from the GPU side */
			uint8_t buf[4096];
			tags[0] = 100;
			for (size_t b = 0; b < sizeof(buf); b++)
				buf[b] = guest_tag(c, tags[0], b);
			if (ck_aperture_write(c, sl[0].first * 4096, buf, sizeof(buf)))
				return CHECK_FAIL;
			if (ns > 1 && c->dev->ops->gpu_write) {
				tags[DATA_PAGES] = 101;
				for (size_t b = 0; b < sizeof(buf); b++)
					buf[b] = guest_tag(c, tags[DATA_PAGES], b);
				if (hw_gpu_write(c->dev, sl[1].first * 4096, buf, sizeof(buf), &err))
					return ck_error(c, "GPU-side write", &err);
			}
		}
		guest_churn(c, 32);
	}
	return CHECK_PASS;
}

static enum check_status check_guest_fences(struct check_ctx *c)
{
	struct hw_page *pg;

	if (!c->claim_fences)
		return ck_skip(c, "PVINFO gives this vGPU no fences (avail_rs.fence_num is 0)");
	if (c->claim_pages < CHECK_SURF_PAGES)
		return ck_skip(c, "the vGPU's aperture slice has fewer than the %u pages of a surface", CHECK_SURF_PAGES);
	if (ck_pages(c, CHECK_SURF_PAGES, &pg) || ck_map(c, c->claim_gm, pg, CHECK_SURF_PAGES))
		return CHECK_FAIL;
	/* each fence alone over the same surface: odd ones Y (pitch 512), even ones X (pitch 2048) */
	for (unsigned f = 0; f < c->claim_fences; f++) {
		enum check_status st = check_fence_surface(c, f, c->claim_gm, pg, f & 1, f & 1 ? 512 : 2048);
		if (st != CHECK_PASS)
			return st;
		if (ck_fence_write(c, f, 0))
			return CHECK_FAIL;
		guest_churn(c, 16);
	}
	return CHECK_PASS;
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "guest-pvinfo", "guest", "inside a vGPU: PVINFO's magic, version 1.x, slices inside the aperture and the GGTT, fence_num, the same on every read while peers switch",
	  REQ_GUEST, 0, 0, check_guest_pvinfo },
	{ "guest-pte-ranges", "guest", "inside a vGPU: entries at both ends of its slices read back as written across peers' context switches (the shadow survives)",
	  REQ_GUEST | REQ_TEST_PAGES, 0, 0, check_guest_pte_ranges },
	{ "guest-data-paths", "guest", "inside a vGPU: bytes through the aperture, the GPU side and its pages agree in both slices while peers take turns",
	  REQ_GUEST | REQ_TEST_PAGES, 0, 0, check_guest_data_paths },
	{ "guest-fences", "guest", "inside a vGPU: a tiled surface reads and writes linearly through each fence below fence_num (the fence pool, seen from inside)",
	  REQ_GUEST | REQ_TEST_PAGES, 0, ALL_FENCES, check_guest_fences },
};

const struct check_rows checks_guest = { rows, sizeof(rows) / sizeof(rows[0]) };
