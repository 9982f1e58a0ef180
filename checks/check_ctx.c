/* SPDX-License-Identifier: MIT */
/* The helpers through which checks touch the device: claim enforcement and reasons. */
#include "checks/check.h"
#include "env/fmt.h"
#include "hw/aperture.h"
#include "hw/backend_sim.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/fence_reg.h"
#include "regs/mmio.h"

#include <stdarg.h>

static enum check_status set(struct check_ctx *c, enum check_status st, const char *fmt, va_list ap)
{
	/* keep the first reason: it is the cause, later ones are consequences */
	if (!c->reason[0])
		gtt_vsnprintf(c->reason, sizeof(c->reason), fmt, ap);
	return st;
}

enum check_status ck_fail(struct check_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(c, CHECK_FAIL, fmt, ap);
	va_end(ap);
	return CHECK_FAIL;
}

enum check_status ck_skip(struct check_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	set(c, CHECK_SKIP, fmt, ap);
	va_end(ap);
	return CHECK_SKIP;
}

void ck_unrestored(struct check_ctx *c, const char *what, const struct gtt_err *err)
{
	if (!c->unrestored[0])
		gtt_snprintf(c->unrestored, sizeof(c->unrestored), "%s: %s", what, err->msg);
}

enum check_status ck_error(struct check_ctx *c, const char *what, const struct gtt_err *err)
{
	return ck_fail(c, "%s: %s", what, err->msg[0] ? err->msg : gtt_strerror(err->code));
}

static int outside(struct check_ctx *c, const char *what, uint64_t v)
{
	ck_fail(c, "check touched %s 0x%llx outside its claim (GGTT 0x%llx+0x%llx, fences %u..%u)", what,
		(unsigned long long)v, (unsigned long long)c->claim_gm, (unsigned long long)(c->claim_pages * 4096),
		c->claim_fence_first, c->claim_fence_first + c->claim_fences - 1);
	return GTT_EPERM;
}

static bool in_window(uint64_t first, uint64_t pages, uint64_t gm, uint64_t len)
{
	return gm >= first && len <= pages * 4096 && gm - first <= pages * 4096 - len;
}

static bool in_claim(const struct check_ctx *c, uint64_t gm, uint64_t len)
{
	for (unsigned i = 0; i < c->claim_runs; i++)
		if (in_window(c->claim_run[i].gm, c->claim_run[i].pages, gm, len))
			return true;
	return in_window(c->claim_gm, c->claim_pages, gm, len) ||
	       in_window(c->claim_high_gm, c->claim_high_pages, gm, len);
}

void ck_claim_high(struct check_ctx *c, const struct hw_pvinfo *pv)
{
	c->claim_high_gm = pv->nonmappable_base;
	c->claim_high_pages = pv->nonmappable_size / 4096;
	c->claim_runs = 0;
	for (unsigned i = 1; i < pv->high_runs && i < GTTLAB_GM_MAX_RUNS; i++)
		c->claim_run[c->claim_runs++] = (struct ck_run){ pv->run[i].base, pv->run[i].size / 4096 };
}

int ck_pte_write(struct check_ctx *c, uint64_t index, uint64_t pte)
{
	struct gtt_err err = { 0 };

	if (!in_claim(c, index * 4096, 4096))
		return outside(c, "PTE index", index);
	int rc = hw_ggtt_write_pte(c->dev, index, pte, &err);
	if (rc)
		ck_error(c, "PTE write", &err);
	return rc;
}

int ck_pte_read(struct check_ctx *c, uint64_t index, uint64_t *pte)
{
	struct gtt_err err = { 0 };
	int rc = hw_ggtt_read_pte(c->dev, index, pte, &err);

	if (rc)
		ck_error(c, "PTE read", &err);
	return rc;
}

int ck_fence_write(struct check_ctx *c, unsigned fence, uint64_t val)
{
	struct gtt_err err = { 0 };

	if (fence < c->claim_fence_first || fence >= c->claim_fence_first + c->claim_fences)
		return outside(c, "fence", fence);
	if ((val & I965_FENCE_REG_VALID) && !in_claim(c, val & FENCE_ADDR_MASK,
						      ((val >> 32) & FENCE_ADDR_MASK) + 4096 - (val & FENCE_ADDR_MASK)))
		return outside(c, "fenced range at", val & FENCE_ADDR_MASK);
	int rc = hw_fence_write(c->dev, fence, val, &err);
	if (rc)
		ck_error(c, "fence write", &err);
	return rc;
}

int ck_aperture_read(struct check_ctx *c, uint64_t gm, void *buf, size_t len)
{
	struct gtt_err err = { 0 };
	int rc = hw_aperture_read(c->dev, gm, buf, len, &err);

	if (rc)
		ck_error(c, "aperture read", &err);
	return rc;
}

int ck_aperture_write(struct check_ctx *c, uint64_t gm, const void *buf, size_t len)
{
	struct gtt_err err = { 0 };

	if (!in_claim(c, gm, len))
		return outside(c, "aperture address", gm);
	int rc = hw_aperture_write(c->dev, gm, buf, len, &err);
	if (rc)
		ck_error(c, "aperture write", &err);
	return rc;
}

int ck_open_peer(struct check_ctx *c, struct hw_device **out)
{
	static const struct hw_backend_factory *const sim_only[] = { &hw_sim_backend };
	const struct gtt_platform *p = c->dev->info.plat;
	struct gtt_err err = { 0 };
	char spec[32];
	int rc;

	if (c->open_peer) {
		rc = c->open_peer(c->peer_ctx, p, out, &err);
	} else {
		gtt_snprintf(spec, sizeof(spec), "sim:%s", p->name);
		rc = hw_open(c->dev->env, spec, sim_only, 1, NULL, out, &err);
	}
	if (rc)
		ck_error(c, "opening a second device", &err);
	return rc;
}

int ck_pages(struct check_ctx *c, size_t n, struct hw_page **pages)
{
	struct gtt_err err = { 0 };
	const struct gtt_env *env = c->dev->env;

	if (c->n_allocs == 4)
		return ck_fail(c, "a check may make four test-page allocations"), GTT_ENOMEM;
	*pages = gtt_calloc(env, n, sizeof(**pages));
	if (!*pages)
		return ck_fail(c, "out of memory for %zu test pages", n), GTT_ENOMEM;
	int rc = hw_alloc_test_pages(c->dev, n, *pages, &err);
	if (rc) {
		env->free(env, *pages);
		ck_error(c, "test pages", &err);
		return rc;
	}
	c->allocs[c->n_allocs].pages = *pages;
	c->allocs[c->n_allocs].n = n;
	c->n_allocs++;
	return GTT_OK;
}

int ck_map(struct check_ctx *c, uint64_t gm, const struct hw_page *pages, size_t n)
{
	struct gtt_err err = { 0 };

	for (size_t i = 0; i < n; i++) {
		uint64_t pte;
		int rc = hw_pte_encode_for(&c->dev->info, pages[i].phys, HW_CACHE_NONE, &pte, &err);
		if (rc)
			return ck_error(c, "PTE encode", &err), rc;
		if ((rc = ck_pte_write(c, gm / 4096 + i, pte)))
			return rc;
	}
	hw_ggtt_invalidate(c->dev);
	return GTT_OK;
}

uint64_t ck_rand(struct check_ctx *c)
{
	if (!c->seed)		/* xorshift's one fixed point */
		c->seed = 0x9e3779b97f4a7c15ull;
	c->seed ^= c->seed >> 12;
	c->seed ^= c->seed << 25;
	c->seed ^= c->seed >> 27;
	return c->seed * 0x2545f4914f6cdd1dull;
}

/* Where linear byte `lin` of a surface lives in its pages (tile-major walk inverted). */
size_t ck_tiled_offset(size_t lin, uint32_t pitch, bool y, int swz)
{
	size_t row = lin / pitch, col = lin % pitch, t;
	size_t tw = y ? Y_TILE_WIDTH : X_TILE_WIDTH, th = y ? Y_TILE_HEIGHT : X_TILE_HEIGHT;
	size_t tile = (row / th) * (pitch / tw) + col / tw, r = row % th, cc = col % tw;

	/* inside a 4 KiB tile: X rows of 512 bytes; Y columns of 16 bytes x 32 rows */
	t = y ? (cc / Y_TILE_OWORD) * (Y_TILE_OWORD * Y_TILE_HEIGHT) + r * Y_TILE_OWORD + cc % Y_TILE_OWORD
	      : r * X_TILE_WIDTH + cc;
	size_t off = tile * TILE_SIZE + t;
	size_t bit = 0;
	if (swz == I915_BIT_6_SWIZZLE_9)
		bit = (off >> 9) & 1;
	else if (swz == I915_BIT_6_SWIZZLE_9_10)
		bit = ((off >> 9) ^ (off >> 10)) & 1;
	return off ^ (bit << 6);
}

int ck_swizzle_mode(struct check_ctx *c, int tiling)
{
	const struct gtt_platform *p = c->dev->info.plat;

	/* i915 detect_bit_6_swizzle: none on gen8+; gen6/7 by the DIMM configuration */
	if (p->gen >= 80 || !(hw_mmio_read32(c->dev, TILECTL) & TILECTL_SWZCTL))
		return I915_BIT_6_SWIZZLE_NONE;
	uint32_t mask = MAD_DIMM_A_SIZE_MASK | MAD_DIMM_B_SIZE_MASK;
	uint32_t c0 = hw_mmio_read32(c->dev, MAD_DIMM_C0) & mask, c1 = hw_mmio_read32(c->dev, MAD_DIMM_C1) & mask;
	if (c0 != c1)
		return I915_BIT_6_SWIZZLE_NONE;
	return tiling == 1 ? I915_BIT_6_SWIZZLE_9_10 : I915_BIT_6_SWIZZLE_9;
}

static int not_guest(struct check_ctx *c, const char *what)
{
	ck_fail(c, "%s: a deliberate write outside the claim is for guest checks on a vGPU or VF checks on a VF only", what);
	return GTT_EPERM;
}

int ck_hostile_pte_write(struct check_ctx *c, uint64_t index, uint64_t pte)
{
	struct gtt_err err = { 0 };

	bool vf = (c->check->requires & REQ_VF) && c->dev->info.vf.active;
	if (!vf && (!(c->check->requires & REQ_GUEST) || !c->dev->info.pvinfo.active))
		return not_guest(c, "hostile PTE write");
	return hw_ggtt_write_pte(c->dev, index, pte, &err);
}

int ck_hostile_fence_write(struct check_ctx *c, unsigned fence, uint64_t val)
{
	struct gtt_err err = { 0 };

	if (!(c->check->requires & REQ_GUEST) || !c->dev->info.pvinfo.active)
		return not_guest(c, "hostile fence write");
	return hw_fence_write(c->dev, fence, val, &err);
}

int ck_hostile_aperture_write(struct check_ctx *c, uint64_t gm, const void *buf, size_t len)
{
	struct gtt_err err = { 0 };

	if (!(c->check->requires & REQ_GUEST) || !c->dev->info.pvinfo.active)
		return not_guest(c, "hostile aperture write");
	return hw_aperture_write(c->dev, gm, buf, len, &err);
}
