/* SPDX-License-Identifier: MIT */
/*
 * The fence memory space pool (gScale §4.2, handlers.c fence_mmio_write): a
 * guest fence cannot point into the shared low graphics memory, so its range
 * is re-homed into a reserved part of the aperture. The pool's PTEs copy the
 * guest's entries, a physical fence detiles the pool range with the guest's
 * pitch and tiling, and the guest's CPU view of the fenced range goes through
 * the pool. Allocation is first fit over 4 KiB pages.
 */
#include "dom0/faults.h"
#include "dom0/fence_pool.h"
#include "dom0/migrate_queue.h"
#include "dom0/phys.h"
#include "dom0/state.h"
#include "hw/fence.h"
#include "hw/restore_failures.h"
#include "regs/fence_reg.h"

static long first_fit(const struct dom0_runtime *rt, uint64_t n, uint64_t *largest)
{
	uint64_t run = 0;

	*largest = 0;
	for (uint64_t i = 0; i < rt->fence_pool.pool_pages; i++) {
		run = rt->fence_pool.pool_map[i] ? 0 : run + 1;
		if (run > *largest)
			*largest = run;
		if (run == n)
			return (long)(i + 1 - n);
	}
	return -1;
}

static void mark(struct dom0_runtime *rt, uint64_t gm, uint64_t pages, uint8_t used)
{
	uint64_t first = (gm - rt->lay.pool_base) / 4096;

	for (uint64_t i = 0; i < pages; i++)
		rt->fence_pool.pool_map[first + i] = used;
}

static void release(struct dom0_runtime *rt, struct vgpu *v, struct pool_fence *pf, bool restore_fence)
{
	dom0_phys_release(rt, GM_PAGE(pf->pool_gm), pf->pages, v->id);
	mark(rt, pf->pool_gm, pf->pages, 0);
	rt->c.pool_frees++;
	rt->c.pool_pages_used -= pf->pages;
	if (restore_fence) {
		hw_fence_write(rt->dev, pf->phys, rt->fence_pool.orig_fence[pf->phys], NULL);
		rt->fence_pool.fence_used[pf->phys] = false;
	}
	pf->active = false;
	dom0_invalidate(rt);
	dom0_freed(rt);		/* pages (and maybe a fence register) for admission, once the operation is done */
}

void dom0_pool_release_all(struct dom0_runtime *rt, struct vgpu *v)
{
	for (unsigned i = 0; i < DOM0_MAX_GUEST_FENCES; i++)
		if (v->fence_state.pf[i].active)
			release(rt, v, &v->fence_state.pf[i], true);
}

struct pool_fence *dom0_pool_fence_at(struct vgpu *v, uint64_t gm)
{
	for (unsigned i = 0; i < v->fences; i++) {
		struct pool_fence *pf = &v->fence_state.pf[i];
		if (pf->active && gm >= pf->guest_gm && gm < pf->guest_gm + pf->pages * 4096)
			return pf;
	}
	return NULL;
}

int dom0_pool_update_pte(struct dom0_runtime *rt, struct vgpu *v, uint64_t index, uint64_t pte,
			 struct gtt_err *err)
{
	struct pool_fence *pf = dom0_pool_fence_at(v, index << 12);

	if (!pf)
		return GTT_OK;
	uint64_t at = GM_PAGE(pf->pool_gm) + (index - GM_PAGE(pf->guest_gm));
	int rc = dom0_phys_write(rt, at, 1, &pte, v->id, NULL, err);
	if (!rc)
		dom0_invalidate(rt);
	return rc;
}

/* A physical fence for v's fence `fence`: its own, or a free one; I915_MAX_NUM_FENCES none. */
static unsigned phys_fence(const struct dom0_runtime *rt, const struct pool_fence *pf)
{
	unsigned phys = pf->active ? pf->phys : I915_MAX_NUM_FENCES;

	for (unsigned i = rt->cfg.host_fences; phys == I915_MAX_NUM_FENCES && i < rt->dev->info.num_fences; i++)
		if (!rt->fence_pool.fence_used[i])
			phys = i;
	return phys;
}

bool dom0_pool_fits(const struct dom0_runtime *rt, const struct vgpu *v, unsigned fence, uint64_t pages)
{
	if (fence >= v->fences)	/* its callers refuse such an id first (v->fences <= DOM0_MAX_GUEST_FENCES) */
		return false;
	const struct pool_fence *pf = &v->fence_state.pf[fence];
	uint64_t run = 0, first = pf->active ? (pf->pool_gm - rt->lay.pool_base) / 4096 : 0;

	if (phys_fence(rt, pf) == I915_MAX_NUM_FENCES)
		return false;
	/* first fit, the fence's own pages counted free */
	for (uint64_t i = 0; i < rt->fence_pool.pool_pages; i++) {
		bool own = pf->active && i >= first && i < first + pf->pages;
		run = rt->fence_pool.pool_map[i] && !own ? 0 : run + 1;
		if (run == pages)
			return true;
	}
	return false;
}

int dom0_fence_check(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, uint64_t *pages,
		     struct gtt_err *err)
{
	const struct gtt_platform *p = rt->dev->info.plat;
	struct hw_fence f;
	int id = v->id, rc;

	*pages = 0;
	hw_fence_decode(p, val, &f);
	if (!f.valid)
		return GTT_OK;
	if ((rc = hw_fence_validate(p, rt->lay.aperture_size, &f, err))) {
		v->c.rejected++;
		return rc;
	}
	/*
	 * The hardware detiles whole tile rows: in a fence that ends inside one, the
	 * linear addresses of that last row reach tiled addresses past the fence's end,
	 * pages of the pool that belong to others. i915 always rounds the size up
	 * (i915_gem_fence_size); a guest that does not is refused.
	 */
	uint64_t row = (uint64_t)f.stride * (f.tiling == HW_TILING_Y ? Y_TILE_HEIGHT : X_TILE_HEIGHT);
	if (f.size % row) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: fence %u size 0x%llx is not a whole number of %s-tile rows (stride %u x %u rows = 0x%llx bytes)",
				   id, fence, (unsigned long long)f.size, hw_tiling_name(f.tiling), f.stride,
				   f.tiling == HW_TILING_Y ? Y_TILE_HEIGHT : X_TILE_HEIGHT, (unsigned long long)row);
	}
	if (f.start < v->low_base || f.start + f.size > v->low_base + v->low_size) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_ERANGE, "vGPU %d: fence %u range 0x%llx+0x%llx is outside its low range 0x%llx+0x%llx",
				   id, fence, (unsigned long long)f.start, (unsigned long long)f.size,
				   (unsigned long long)v->low_base, (unsigned long long)v->low_size);
	}
	*pages = f.size / 4096;
	return GTT_OK;
}

void dom0_fence_off(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val)
{
	if (fence >= v->fences)	/* refused by its callers */
		return;
	struct pool_fence *pf = &v->fence_state.pf[fence];

	if (pf->active)
		release(rt, v, pf, true);
	v->fence_state.gfence[fence] = val;
	v->c.fence_writes++;
	dom0_undo_settle(rt);
}

int dom0_fence_now(struct dom0_runtime *rt, struct vgpu *v, unsigned fence, uint64_t val, struct gtt_err *err)
{
	const struct gtt_platform *p = rt->dev->info.plat;
	struct hw_fence f;
	int id = v->id, rc;

	if (fence >= v->fences)	/* its callers refuse such an id first; the tables are DOM0_MAX_GUEST_FENCES long */
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: fence id %u is beyond its %u fences", id, fence, v->fences);
	struct pool_fence *pf = &v->fence_state.pf[fence];

	hw_fence_decode(p, val, &f);
	/* find room first, counting the fence's own pool pages as free; change nothing on failure */
	uint64_t n = f.size / 4096, largest;
	if (pf->active)
		mark(rt, pf->pool_gm, pf->pages, 0);
	long at = first_fit(rt, n, &largest);
	unsigned phys = phys_fence(rt, pf);
	struct pool_fence nf = { true, phys, rt->lay.pool_base + (uint64_t)(at < 0 ? 0 : at) * 4096, n, f.start };
	struct hw_fence pool = f;
	uint64_t pval = 0;
	pool.start = nf.pool_gm;
	if (DOM0_FAULT(rt, corrupt_pool_pitch))
		pool.stride += pool.tiling == HW_TILING_X ? 512 : 128;
	/* everything that can fail is done before anything changes */
	if (at >= 0 && phys != I915_MAX_NUM_FENCES && (rc = hw_fence_encode(p, rt->lay.aperture_size, &pool, &pval, err))) {
		if (pf->active)
			mark(rt, pf->pool_gm, pf->pages, 1);
		return rc;
	}
	if (at < 0 || phys == I915_MAX_NUM_FENCES) {
		if (pf->active)
			mark(rt, pf->pool_gm, pf->pages, 1);
		if (at < 0)
			return gtt_err_set(err, GTT_ENOMEM, "fence pool exhausted: vGPU %d fence %u needs %llu pages, the largest free run is %llu of %llu",
					   id, fence, (unsigned long long)n, (unsigned long long)largest,
					   (unsigned long long)rt->fence_pool.pool_pages);
		return gtt_err_set(err, GTT_EBUSY, "no free physical fence for vGPU %d fence %u: all %u guest fences are in use",
				   id, fence, rt->lay.guest_fences);
	}
	if (pf->active) {
		mark(rt, pf->pool_gm, pf->pages, 1);
		release(rt, v, pf, false);
	}

	mark(rt, nf.pool_gm, n, 1);
	rt->fence_pool.fence_used[phys] = true;
	uint64_t off = GM_PAGE(f.start - v->low_base);
	if ((rc = dom0_phys_write(rt, GM_PAGE(nf.pool_gm), (size_t)n, v->shadow_low + off, id, NULL, err)))
		return rc;
	dom0_invalidate(rt);
	if ((rc = hw_fence_write(rt->dev, phys, pval, err))) {
		/* out of undo-log memory: give the range and the fence back rather than leak them */
		*pf = nf;
		release(rt, v, pf, true);
		rt->c.pool_frees--;
		rt->c.pool_pages_used += n;
		return rc;
	}
	*pf = nf;
	v->fence_state.gfence[fence] = val;
	v->c.fence_writes++;
	rt->c.pool_allocs++;
	rt->c.pool_pages_used += n;
	if (rt->c.pool_pages_used > rt->c.pool_pages_peak)
		rt->c.pool_pages_peak = rt->c.pool_pages_used;
	dom0_undo_settle(rt);
	return GTT_OK;	/* a range that moved freed its old pages: release() said so */
}

int dom0_guest_fence_read(struct dom0_runtime *rt, int id, unsigned fence, uint64_t *val, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);
	int rc;

	if (!v)
		return GTT_EINVAL;
	if ((rc = dom0_queue_read_waits(rt, id, err)))
		return rc;
	if (fence >= v->fences) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: fence id %u is beyond its %u fences", id, fence, v->fences);
	}
	*val = v->fence_state.gfence[fence];
	return GTT_OK;
}

int dom0_fence_pool_init(struct dom0_runtime *rt, struct gtt_err *err)
{
	struct dom0_fence_pool *fp = &rt->fence_pool;
	int rc;

	fp->pool_pages = rt->lay.pool_size / 4096;
	fp->pool_map = gtt_calloc(rt->env, (size_t)fp->pool_pages + 1, 1);
	if (!fp->pool_map)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the fence pool's map (%llu pages)",
				   (unsigned long long)fp->pool_pages);
	for (unsigned i = 0; i < rt->dev->info.num_fences; i++)
		if ((rc = hw_fence_read(rt->dev, i, &fp->orig_fence[i], err)))
			return rc;
	for (unsigned i = 0; i < rt->cfg.host_fences; i++)
		fp->fence_used[i] = true;
	return GTT_OK;
}

void dom0_fence_pool_free(struct dom0_runtime *rt)
{
	rt->env->free(rt->env, rt->fence_pool.pool_map);
	rt->fence_pool.pool_map = NULL;
}

void dom0_fence_pool_verify(struct dom0_runtime *rt, struct hw_restore_failures *f)
{
	uint64_t v;

	for (unsigned i = 0; i < rt->dev->info.num_fences; i++) {
		if (hw_fence_read(rt->dev, i, &v, NULL))
			hw_restore_failure(f, "fence %u could not be read back", i);
		else if (v != rt->fence_pool.orig_fence[i])
			hw_restore_failure(f, "fence %u reads 0x%llx, not 0x%llx", i, (unsigned long long)v,
					   (unsigned long long)rt->fence_pool.orig_fence[i]);
	}
}

uint64_t dom0_fence_as_found(const struct dom0_runtime *rt, unsigned fence)
{
	return fence < I915_MAX_NUM_FENCES ? rt->fence_pool.orig_fence[fence] : 0;
}

uint64_t dom0_pool_free_pages(const struct dom0_runtime *rt)
{
	uint64_t used = 0;

	for (uint64_t i = 0; i < rt->fence_pool.pool_pages; i++)
		used += rt->fence_pool.pool_map[i] != 0;
	return rt->fence_pool.pool_pages - used;
}

uint64_t dom0_pool_pages(const struct dom0_runtime *rt)
{
	return rt->fence_pool.pool_pages;
}

uint64_t dom0_pool_pages_held(const struct vgpu *v, unsigned except)
{
	uint64_t n = 0;

	for (unsigned f = 0; f < v->fences; f++)
		if (f != except && v->fence_state.pf[f].active)
			n += v->fence_state.pf[f].pages;
	return n;
}

uint64_t dom0_guest_fence_value(const struct vgpu *v, unsigned fence)
{
	return fence < DOM0_MAX_GUEST_FENCES ? v->fence_state.gfence[fence] : 0;
}

const struct pool_fence *dom0_pool_fence(const struct vgpu *v, unsigned fence)
{
	return fence < DOM0_MAX_GUEST_FENCES ? &v->fence_state.pf[fence] : NULL;
}

unsigned dom0_fences_reserved(const struct dom0_runtime *rt)
{
	return rt->fence_pool.reserved;
}

void dom0_fences_reserve(struct dom0_runtime *rt, struct vgpu *v)
{
	if (v->fence_state.reserved)
		return;
	rt->fence_pool.reserved += v->fences;
	v->fence_state.reserved = true;
}

void dom0_fences_unreserve(struct dom0_runtime *rt, struct vgpu *v)
{
	if (!v->fence_state.reserved)
		return;
	rt->fence_pool.reserved -= v->fences;
	v->fence_state.reserved = false;
}
