/* SPDX-License-Identifier: MIT */
/*
 * The runtime's life: the layout of graphics memory, the snapshot of the
 * physical GTT it manages (each 512-entry chunk read once, at its first
 * write) and of the fences, and the byte-identical restore at the end, read
 * back in one pass. The mirror and the writes by value are dom0/phys.c's.
 */
#include "dom0/runtime.h"
#include "dom0/phys.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "hw/restore_failures.h"

#define MiB (1ull << 20)

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t dom0_default_host_low(uint64_t aperture_size)
{
	return min64(64 * MiB, aperture_size / 4);
}

/* The layout of a device's graphics memory under a config (its defaults filled in). */
static int compute_layout(const struct hw_info *in, struct dom0_config *c, struct dom0_layout *l, struct gtt_err *err)
{
	uint64_t ap = in->aperture_size;

	/* gScale: 8 MiB reserved at the top, 56 MiB pool below, for a 512 MiB aperture; same share below */
	if (!c->reserved_size)
		c->reserved_size = min64(8 * MiB, ap / 64);
	if (!c->pool_size)
		c->pool_size = min64(56 * MiB, ap * 7 / 64);
	if (!c->host_low_size)
		c->host_low_size = dom0_default_host_low(ap);
	if (!c->slot_size)
		c->slot_size = 64 * MiB;
	if (!c->host_high_size)
		c->host_high_size = c->slot_size;
	if (!c->host_fences)
		c->host_fences = 4;
	uint64_t sizes[] = { c->reserved_size, c->pool_size, c->host_low_size, c->slot_size, c->host_high_size };
	for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (sizes[i] % 4096)
			return gtt_err_set(err, GTT_EINVAL, "size 0x%llx is not a multiple of 4 KiB", (unsigned long long)sizes[i]);
	if (c->host_low_size + c->pool_size + c->reserved_size >= ap)
		return gtt_err_set(err, GTT_EINVAL, "host low %llu + pool %llu + reserved %llu bytes leave nothing of the %llu-byte aperture for guests",
				   (unsigned long long)c->host_low_size, (unsigned long long)c->pool_size,
				   (unsigned long long)c->reserved_size, (unsigned long long)ap);
	if ((unsigned)c->admission > DOM0_ADMIT_RAND)
		return gtt_err_set(err, GTT_EINVAL, "admission policy %u: off, fifo, bf, ru or rand", (unsigned)c->admission);
	if (c->share_limit > DOM0_MAX_VGPUS)
		return gtt_err_set(err, GTT_EINVAL, "share limit %u: at most %d vGPUs in a slot", c->share_limit, DOM0_MAX_VGPUS);
	if (c->slot_runs > DOM0_MAX_RUNS)
		return gtt_err_set(err, GTT_EINVAL, "slot runs %u: a vGPU's slots are in at most %d runs", c->slot_runs, DOM0_MAX_RUNS);
	if (c->host_fences >= in->num_fences)
		return gtt_err_set(err, GTT_EINVAL, "host fences %u: the device has %u", c->host_fences, in->num_fences);
	l->aperture_size = ap;
	l->ggtt_size = in->ggtt_size;
	l->host_low_base = 0;
	l->host_low_size = c->host_low_size;
	l->reserved_size = c->reserved_size;
	l->reserved_base = ap - c->reserved_size;
	l->pool_size = c->pool_size;
	l->pool_base = l->reserved_base - c->pool_size;
	l->guest_low_base = c->host_low_size;
	l->guest_low_size = l->pool_base - l->guest_low_base;
	l->host_high_base = ap;
	l->host_high_size = c->host_high_size;
	l->slots_base = ap + c->host_high_size;
	l->slot_size = c->slot_size;
	if (l->slots_base > l->ggtt_size)
		return gtt_err_set(err, GTT_EINVAL, "host high size 0x%llx does not fit the GGTT above the aperture",
				   (unsigned long long)c->host_high_size);
	uint64_t n = (l->ggtt_size - l->slots_base) / c->slot_size;
	if (!n || n > DOM0_MAX_SLOTS)
		return gtt_err_set(err, GTT_EINVAL, "slot size 0x%llx gives %llu slots in high graphics memory; 1 to %u are supported",
				   (unsigned long long)c->slot_size, (unsigned long long)n, DOM0_MAX_SLOTS);
	if (c->slot_runs >= 2 && n > DOM0_MAX_RUN_SLOTS)
		return gtt_err_set(err, GTT_EINVAL, "slot size 0x%llx gives %llu slots; non-contiguous slots (slot runs %u) support at most %u",
				   (unsigned long long)c->slot_size, (unsigned long long)n, c->slot_runs, DOM0_MAX_RUN_SLOTS);
	l->num_slots = (unsigned)n;
	l->guest_fences = in->num_fences - c->host_fences;
	return GTT_OK;
}

int dom0_layout_for(const struct hw_info *in, const struct dom0_config *cfg, struct dom0_layout *out, struct gtt_err *err)
{
	struct dom0_config c = cfg ? *cfg : (struct dom0_config){ 0 };

	*out = (struct dom0_layout){ 0 };
	return compute_layout(in, &c, out, err);
}

static int make_layout(struct dom0_runtime *rt, struct gtt_err *err)
{
	return compute_layout(&rt->dev->info, &rt->cfg, &rt->lay, err);
}

static void free_rt(struct dom0_runtime *rt)
{
	const struct gtt_env *env = rt->env;

	for (uint64_t c = 0; rt->chunk && c < rt->n_chunks; c++)
		env->free(env, rt->chunk[c]);
	env->free(env, rt->chunk);
	env->free(env, rt->chunk_src);
	env->free(env, rt->chunk_owner);
	env->free(env, rt->owner);
	env->free(env, rt->pool_map);
	env->free(env, rt->slot_occ);
	env->free(env, rt->slot_resv);
	env->free(env, rt->v);
	env->free(env, rt);
}

int dom0_init(struct hw_device *dev, const struct dom0_config *cfg, struct dom0_runtime **out,
	      struct gtt_err *err)
{
	const struct gtt_env *env = dev->env;
	struct dom0_runtime *rt = env->alloc(env, sizeof(*rt));
	int rc;

	if (!rt)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory");
	rt->env = env;
	rt->dev = dev;
	if (cfg)
		rt->cfg = *cfg;
	if ((rc = make_layout(rt, err)))
		goto fail;
	uint64_t n = dev->info.n_ptes;
	rt->n_chunks = (n + DOM0_CHUNK - 1) / DOM0_CHUNK;
	rt->chunk = gtt_calloc(env, (size_t)rt->n_chunks, sizeof(*rt->chunk));
	rt->chunk_src = gtt_calloc(env, (size_t)rt->n_chunks, sizeof(*rt->chunk_src));
	rt->owner = gtt_calloc(env, n, sizeof(*rt->owner));
	rt->chunk_owner = gtt_calloc(env, (size_t)rt->n_chunks, sizeof(*rt->chunk_owner));
	rt->pool_pages = rt->lay.pool_size / 4096;
	rt->pool_map = env->alloc(env, rt->pool_pages + 1);
	rt->slot_occ = gtt_calloc(env, rt->lay.num_slots, sizeof(*rt->slot_occ));
	rt->slot_resv = gtt_calloc(env, rt->lay.num_slots, sizeof(*rt->slot_resv));
	if (!rt->chunk || !rt->chunk_src || !rt->owner || !rt->chunk_owner || !rt->pool_map || !rt->slot_occ ||
	    !rt->slot_resv) {
		rc = gtt_err_set(err, GTT_ENOMEM, "out of memory for the runtime's tables (%llu PTEs)", (unsigned long long)n);
		goto fail;
	}
	/* what it must give back: the PTEs it writes, read at the first write to their chunk, and every fence */
	rt->managed[0][0] = GM_PAGE(rt->lay.guest_low_base);
	rt->managed[0][1] = GM_PAGE(rt->lay.reserved_base);
	rt->managed[1][0] = GM_PAGE(rt->lay.slots_base);
	rt->managed[1][1] = n;
	for (unsigned i = 0; i < dev->info.num_fences; i++)
		if ((rc = hw_fence_read(dev, i, &rt->orig_fence[i], err)))
			goto fail;
	for (unsigned i = 0; i < rt->cfg.host_fences; i++)
		rt->fence_used[i] = true;
	rt->undo_mark = hw_undo_mark(dev);
	*out = rt;
	return GTT_OK;
fail:
	free_rt(rt);
	return rc;
}

/* One pass over what the runtime touched: every PTE read back against the snapshot, then every fence. */
static int verify(struct dom0_runtime *rt, struct gtt_err *err)
{
	struct hw_device *dev = rt->dev;
	struct hw_restore_failures f = { 0 };
	uint64_t buf[DOM0_CHUNK], v;

	for (uint64_t c = 0; c < rt->n_chunks; c++) {
		if (!rt->chunk[c])
			continue;	/* never written: as found */
		uint64_t a = c * DOM0_CHUNK, k = dev->info.n_ptes - a < DOM0_CHUNK ? dev->info.n_ptes - a : DOM0_CHUNK;
		if (hw_ggtt_read_range(dev, a, (size_t)k, buf, NULL))
			break;
		for (uint64_t j = 0; j < k; j++)
			if (buf[j] != rt->chunk[c][j])
				hw_restore_failure(&f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)(a + j),
						 (unsigned long long)buf[j], (unsigned long long)rt->chunk[c][j]);
	}
	for (unsigned i = 0; i < dev->info.num_fences; i++)
		if (!hw_fence_read(dev, i, &v, NULL) && v != rt->orig_fence[i])
			hw_restore_failure(&f, "fence %u reads 0x%llx, not 0x%llx", i, (unsigned long long)v,
					 (unsigned long long)rt->orig_fence[i]);
	return hw_restore_result(&f, err);
}

int dom0_runtime_end(struct dom0_runtime *rt, struct gtt_err *err)
{
	int rc;

	if (!rt)
		return GTT_OK;
	/* anything the mirror says is not as found (the vGPUs gave theirs back as they went) goes back too */
	for (uint64_t c = 0; c < rt->n_chunks; c++)
		if (rt->chunk[c]) {
			uint64_t a = c * DOM0_CHUNK, k = rt->dev->info.n_ptes - a < DOM0_CHUNK ? rt->dev->info.n_ptes - a : DOM0_CHUNK;
			dom0_phys_write(rt, a, (size_t)k, rt->chunk[c], 0, NULL, NULL);
		}
	dom0_invalidate(rt);
	dom0_undo_settle(rt);
	rc = verify(rt, err);
	free_rt(rt);
	return rc;
}
