/* SPDX-License-Identifier: MIT */
/*
 * The runtime's life: the layout of graphics memory, the snapshot of the
 * physical GTT it manages (each 512-entry chunk read once, at its first
 * write) and of the fences, and the byte-identical restore at the end, read
 * back in one pass. The mirror and the writes by value are dom0/phys.c's.
 */
#include "dom0/runtime.h"
#include "dom0/admission.h"
#include "dom0/fence_pool.h"
#include "dom0/phys.h"
#include "dom0/slots.h"
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

	dom0_phys_free(rt);
	dom0_fence_pool_free(rt);
	dom0_slots_free(rt);
	dom0_admission_free(rt);
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
	if ((rc = dom0_phys_init(rt, err)))
		goto fail;
	if ((rc = dom0_slots_init(rt, err)) || (rc = dom0_admission_init(rt, err)))
		goto fail;
	/* what it must give back: the PTEs (phys.c) and every fence (fence_pool.c) */
	if ((rc = dom0_fence_pool_init(rt, err)))
		goto fail;
	*out = rt;
	return GTT_OK;
fail:
	free_rt(rt);
	return rc;
}

/* One pass over what the runtime touched: every PTE read back against the snapshot, then every fence. */
static int verify(struct dom0_runtime *rt, struct gtt_err *err)
{
	struct hw_restore_failures f = { 0 };

	dom0_phys_verify(rt, &f);
	dom0_fence_pool_verify(rt, &f);
	return hw_restore_result(&f, err);
}

int dom0_runtime_end(struct dom0_runtime *rt, struct gtt_err *err)
{
	int rc;

	if (!rt)
		return GTT_OK;
	/* anything the mirror says is not as found (the vGPUs gave theirs back as they went) goes back too */
	dom0_phys_put_back(rt);
	dom0_invalidate(rt);
	dom0_undo_settle(rt);
	rc = verify(rt, err);
	free_rt(rt);
	return rc;
}

void dom0_set_hooks(struct dom0_runtime *rt, const struct dom0_hooks *h)
{
	rt->cfg.hooks = h ? *h : (struct dom0_hooks){ 0 };
}

void dom0_admission_off(struct dom0_runtime *rt)
{
	rt->cfg.admission = DOM0_ADMIT_OFF;
}
