/* SPDX-License-Identifier: MIT */
/*
 * vGPU life: create (guest memory, ranges, private shadow GTT, PVINFO page)
 * and destroy (every physical entry and fence it held goes back).
 */
#include "dom0/faults.h"
#include "dom0/fence_pool.h"
#include "dom0/migrate_queue.h"
#include "dom0/phys.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "hw/pte.h"

static void free_tables(struct dom0_runtime *rt, struct vgpu *v)
{
	const struct gtt_env *env = rt->env;

	dom0_phys_settle_owner(rt, v->id);	/* no chunk may stay recorded against the tables freed here */
	env->free(env, v->guest_low);
	env->free(env, v->guest_high);
	env->free(env, v->shadow_low);
	env->free(env, v->shadow_high);
	env->free(env, v->ladder);
	env->free(env, v->mem);
	v->guest_low = v->guest_high = v->shadow_low = v->shadow_high = NULL;
	v->ladder = NULL;
	v->mem = NULL;
}

/* The pages the runtime allocates: the scratch page, and the guest memory unless it was given. */
static int alloc_mem(struct dom0_runtime *rt, struct vgpu *v, struct gtt_err *err)
{
	if (v->mem_given)
		return hw_alloc_test_pages(rt->dev, 1, &v->mem[v->mem_pages], err);
	return hw_alloc_test_pages(rt->dev, (size_t)v->mem_pages + 1, v->mem, err);
}

static void free_mem(struct dom0_runtime *rt, struct vgpu *v)
{
	if (v->mem_given)
		hw_free_test_pages(rt->dev, 1, &v->mem[v->mem_pages]);
	else
		hw_free_test_pages(rt->dev, (size_t)v->mem_pages + 1, v->mem);
}

/* One more id: the table doubles when it is full (ids are indexes; vGPUs do not move). */
static int grow_ids(struct dom0_runtime *rt, struct gtt_err *err)
{
	int cap = rt->n_ids ? rt->n_ids * 2 : 16;

	if (cap > DOM0_MAX_VGPUS)
		cap = DOM0_MAX_VGPUS;
	if (rt->n_ids + 1 > rt->cap_ids) {
		struct vgpu **nv = gtt_calloc(rt->env, (size_t)cap + 1, sizeof(*nv));
		if (!nv)
			return gtt_err_set(err, GTT_ENOMEM, "out of memory for the vGPU table (%d vGPUs)", cap);
		if (rt->v)
			gtt_memcpy(nv, rt->v, ((size_t)rt->n_ids + 1) * sizeof(*nv));
		rt->env->free(rt->env, rt->v);
		rt->v = nv;
		rt->cap_ids = cap;
	}
	rt->n_ids++;
	return GTT_OK;
}

int dom0_alloc_high(struct dom0_runtime *rt, unsigned slots, uint64_t scratch_pte, uint64_t **guest, uint64_t **shadow)
{
	uint64_t n = (uint64_t)slots * rt->lay.slot_size / 4096;

	*guest = gtt_calloc(rt->env, n + 1, sizeof(uint64_t));
	*shadow = gtt_alloc_uninit(rt->env, n + 1, sizeof(uint64_t));	/* filled below */
	if (!*guest || !*shadow) {
		rt->env->free(rt->env, *guest);
		rt->env->free(rt->env, *shadow);
		return GTT_ENOMEM;
	}
	for (uint64_t i = 0; i <= n; i++)
		(*shadow)[i] = scratch_pte;
	return GTT_OK;
}

/*
 * The page a new vGPU's unmapped entries name: its own; under the
 * shared_scratch fault, the first vGPU's (its own stays allocated in mem[],
 * freed with it; tests only, so a destroyed first vGPU is not guarded).
 */
static const struct hw_page *scratch_of(const struct dom0_runtime *rt, const struct vgpu *v)
{
	if (DOM0_FAULT(rt, shared_scratch))
		for (int id = 1; id <= rt->n_ids; id++)
			if (rt->v[id] && rt->v[id] != v)
				return &rt->v[id]->scratch;
	return &v->scratch;
}

/* What PVINFO says of the high range: its size (one slot more under the pvinfo_slot_too_large fault). */
int dom0_vgpu_new(struct dom0_runtime *rt, const struct dom0_vgpu_params *p, struct vgpu **out, struct gtt_err *err)
{
	const struct dom0_layout *l = &rt->lay;
	unsigned mem_pages = p->mem_pages ? p->mem_pages : 256;
	int slot_id = 0;
	int rc;

	if (!p->low_size || p->low_size % 4096 || p->low_size > l->guest_low_size)
		return gtt_err_set(err, GTT_EINVAL, "low size 0x%llx: must be a non-zero multiple of 4 KiB up to the 0x%llx-byte guest low area",
				   (unsigned long long)p->low_size, (unsigned long long)l->guest_low_size);
	if (p->high_slots > l->num_slots)
		return gtt_err_set(err, GTT_EINVAL, "high size %u slots: high graphics memory has %u", p->high_slots, l->num_slots);
	if (p->fences > DOM0_MAX_GUEST_FENCES || p->fences > l->guest_fences)
		return gtt_err_set(err, GTT_EINVAL, "%u fences: a vGPU may have at most %u (%u physical fences are left to guests)",
				   p->fences, DOM0_MAX_GUEST_FENCES < l->guest_fences ? DOM0_MAX_GUEST_FENCES : l->guest_fences,
				   l->guest_fences);
	if (mem_pages > (1u << 20))
		return gtt_err_set(err, GTT_EINVAL, "guest memory of %u pages: at most %u", mem_pages, 1u << 20);
	for (int i = 1; i <= rt->n_ids && !slot_id; i++)
		if (!rt->v[i])
			slot_id = i;
	if (!slot_id && rt->n_ids == DOM0_MAX_VGPUS)
		return gtt_err_set(err, GTT_EBUSY, "already %d vGPUs: no more fit the owner table", DOM0_MAX_VGPUS);
	if (p->place && (p->at_slot >= l->num_slots || p->high_slots > l->num_slots - p->at_slot))
		return gtt_err_set(err, GTT_EINVAL, "slots %u..%llu: high graphics memory has slots 0..%u",
				   p->at_slot, (unsigned long long)p->at_slot + p->high_slots - 1, l->num_slots - 1);

	if (!slot_id && (rc = grow_ids(rt, err)))
		return rc;
	if (!slot_id)
		slot_id = rt->n_ids;
	struct vgpu *v = rt->env->alloc(rt->env, sizeof(*v));
	if (!v)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for a vGPU");
	/* no slots yet: dom0_place_now gives them, now or when admission runs it */
	*v = (struct vgpu){ .id = slot_id, .low_base = l->guest_low_base, .low_size = p->low_size,
			    .fences = p->fences, .mem_pages = mem_pages, .created = ++rt->create_orders };
	uint64_t low_pages = p->low_size / 4096;
	v->mem = gtt_calloc(rt->env, (size_t)mem_pages + 1, sizeof(*v->mem));
	v->guest_low = gtt_calloc(rt->env, low_pages, sizeof(uint64_t));
	v->shadow_low = gtt_calloc(rt->env, low_pages, sizeof(uint64_t));
	v->ladder = gtt_calloc(rt->env, low_pages, sizeof(int32_t));
	if (!v->mem || !v->guest_low || !v->shadow_low || !v->ladder) {
		free_tables(rt, v);
		rt->env->free(rt->env, v);
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for a vGPU");
	}
	/* guest memory and, after it, the vGPU's own scratch page: what one guest writes
	 * through a not-present entry no other guest can read through its own */
	if (p->mem) {
		gtt_memcpy(v->mem, p->mem, (size_t)mem_pages * sizeof(*v->mem));
		v->mem_given = true;
	}
	if ((rc = alloc_mem(rt, v, err))) {
		free_tables(rt, v);
		rt->env->free(rt->env, v);
		return rc;
	}
	v->scratch = v->mem[mem_pages];
	gtt_memset(v->scratch.cpu, 0, 4096);
	v->scratch = *scratch_of(rt, v);
	if ((rc = hw_pte_encode(rt->dev->info.plat, v->scratch.phys, HW_CACHE_NONE, &v->scratch_pte, err)) ||
	    (rc = dom0_alloc_high(rt, v->slots, v->scratch_pte, &v->guest_high, &v->shadow_high))) {
		free_mem(rt, v);
		free_tables(rt, v);
		rt->env->free(rt->env, v);
		return rc == GTT_ENOMEM ? gtt_err_set(err, GTT_ENOMEM, "out of memory for a vGPU") : rc;
	}
	for (uint64_t i = 0; i < low_pages; i++) {
		v->shadow_low[i] = v->scratch_pte;
		v->ladder[i] = -1;
	}
	rt->v[slot_id] = v;
	*out = v;
	return GTT_OK;
}

void dom0_vgpu_remove(struct dom0_runtime *rt, struct vgpu *v)
{
	int id = v->id;

	dom0_pool_release_all(rt, v);
	/* its own ranges only: it holds nothing elsewhere (pool ranges went back with its fences) */
	uint64_t gone = dom0_phys_release(rt, GM_PAGE(v->low_base), GM_PAGE(v->low_size), id);
	struct dom0_run run[DOM0_MAX_RUNS];
	unsigned n = dom0_runs_of(v, run);
	uint64_t pps = rt->lay.slot_size / 4096;
	for (unsigned i = 0; i < n; i++) {
		gone += dom0_phys_release(rt, GM_PAGE(rt->lay.slots_base) + run[i].first * pps, run[i].n * pps, id);
		for (unsigned s = 0; s < run[i].n; s++)
			rt->slot_occ[run[i].first + s]--;
	}
	if (gone)
		dom0_invalidate(rt);
	dom0_gtt_drain(rt, id);
	dom0_fences_unreserve(rt, v);
	dom0_queue_drop(rt, v);
	free_mem(rt, v);
	free_tables(rt, v);
	rt->v[id] = NULL;
	rt->env->free(rt->env, v);
	dom0_undo_settle(rt);
	dom0_freed(rt);		/* its slots and fences */
}

int dom0_guest_page(const struct dom0_runtime *rt, int id, uint64_t gfn, struct hw_page *out)
{
	if (!dom0_vgpu_exists(rt, id) || gfn >= rt->v[id]->mem_pages)
		return GTT_EINVAL;
	*out = rt->v[id]->mem[gfn];
	return GTT_OK;
}

enum dom0_pause dom0_vgpu_paused(const struct dom0_runtime *rt, int id)
{
	return dom0_vgpu_exists(rt, id) ? dom0_pause_of(rt->v[id]).kind : DOM0_PAUSE_NONE;
}

bool dom0_vgpu_migrating(const struct dom0_runtime *rt, int id)
{
	return dom0_vgpu_exists(rt, id) && dom0_vgpu_locked(rt->v[id]);
}

struct vgpu *dom0_guest_vgpu(struct dom0_runtime *rt, int id, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (v && dom0_vgpu_locked(v)) {
		v->c.rejected++;
		gtt_err_set(err, GTT_EBUSY, "vGPU %d is the target of a migration under way: its guest operations are refused until the guest lives there", id);
		return NULL;
	}
	if (v && dom0_pause_of(v).kind == DOM0_PAUSE_CREATE) {
		v->c.rejected++;
		gtt_err_set(err, GTT_EBUSY, "vGPU %d is paused: its create waits for admission, and a guest that has not started writes nothing", id);
		return NULL;
	}
	return v;
}
