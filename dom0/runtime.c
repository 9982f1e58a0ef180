/* SPDX-License-Identifier: MIT */
/*
 * The runtime's life: the layout of graphics memory, the snapshot of the
 * physical GTT it manages (each 512-entry chunk read once, at its first
 * write) and of the fences, the mirror of what it wrote there, physical writes with ownership that
 * write only the entries whose value differs, and the byte-identical
 * restore at the end, read back in one pass.
 */
#include "dom0/runtime_internal.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "hw/restore_faults.h"

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
	if (!n || n > 1024)
		return gtt_err_set(err, GTT_EINVAL, "slot size 0x%llx gives %llu slots in high graphics memory; 1 to 1024 are supported",
				   (unsigned long long)c->slot_size, (unsigned long long)n);
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
	env->free(env, rt->chunk_owner);
	env->free(env, rt->owner);
	env->free(env, rt->pool_map);
	env->free(env, rt->slot_occ);
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
	rt->owner = gtt_calloc(env, n, sizeof(*rt->owner));
	rt->chunk_owner = gtt_calloc(env, (size_t)rt->n_chunks, sizeof(*rt->chunk_owner));
	rt->pool_pages = rt->lay.pool_size / 4096;
	rt->pool_map = env->alloc(env, rt->pool_pages + 1);
	rt->slot_occ = gtt_calloc(env, rt->lay.num_slots, sizeof(*rt->slot_occ));
	if (!rt->chunk || !rt->owner || !rt->chunk_owner || !rt->pool_map || !rt->slot_occ) {
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

/* The snapshot of PTE i's chunk: orig at [i % DOM0_CHUNK], cur DOM0_CHUNK after (loaded). */
static uint64_t *snap(const struct dom0_runtime *rt, uint64_t i)
{
	return rt->chunk[i / DOM0_CHUNK] + i % DOM0_CHUNK;
}

/* Load the chunks of [first, first + n) not loaded yet: their entries as found, read in bulk. */
static int load(struct dom0_runtime *rt, uint64_t first, uint64_t n, struct gtt_err *err)
{
	for (uint64_t c = first / DOM0_CHUNK; n && c <= (first + n - 1) / DOM0_CHUNK; c++) {
		if (rt->chunk[c])
			continue;
		uint64_t a = c * DOM0_CHUNK, k = rt->dev->info.n_ptes - a < DOM0_CHUNK ? rt->dev->info.n_ptes - a : DOM0_CHUNK;
		uint64_t *m = gtt_calloc(rt->env, 2 * DOM0_CHUNK, sizeof(uint64_t));
		int rc;
		if (!m)
			return gtt_err_set(err, GTT_ENOMEM, "out of memory for the runtime's snapshot");
		if ((rc = hw_ggtt_read_range(rt->dev, a, (size_t)k, m, err))) {
			rt->env->free(rt->env, m);
			return rc;
		}
		gtt_memcpy(m + DOM0_CHUNK, m, (size_t)k * sizeof(*m));
		rt->chunk[c] = m;
	}
	return GTT_OK;
}

/* One pass over what the runtime touched: every PTE read back against the snapshot, then every fence. */
static int verify(struct dom0_runtime *rt, struct gtt_err *err)
{
	struct hw_device *dev = rt->dev;
	struct hw_restore_faults f = { 0 };
	uint64_t buf[DOM0_CHUNK], v;

	for (uint64_t c = 0; c < rt->n_chunks; c++) {
		if (!rt->chunk[c])
			continue;	/* never written: as found */
		uint64_t a = c * DOM0_CHUNK, k = dev->info.n_ptes - a < DOM0_CHUNK ? dev->info.n_ptes - a : DOM0_CHUNK;
		if (hw_ggtt_read_range(dev, a, (size_t)k, buf, NULL))
			break;
		for (uint64_t j = 0; j < k; j++)
			if (buf[j] != rt->chunk[c][j])
				hw_restore_fault(&f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)(a + j),
						 (unsigned long long)buf[j], (unsigned long long)rt->chunk[c][j]);
	}
	for (unsigned i = 0; i < dev->info.num_fences; i++)
		if (!hw_fence_read(dev, i, &v, NULL) && v != rt->orig_fence[i])
			hw_restore_fault(&f, "fence %u reads 0x%llx, not 0x%llx", i, (unsigned long long)v,
					 (unsigned long long)rt->orig_fence[i]);
	return hw_restore_result(&f, err);
}

int dom0_fini(struct dom0_runtime *rt, struct gtt_err *err)
{
	int rc;

	if (!rt)
		return GTT_OK;
	rt->cfg.admission = DOM0_ADMIT_OFF;	/* going away: nothing paused is admitted on the way */
	for (int id = 1; id <= rt->n_ids; id++)
		if (rt->v[id])
			dom0_vgpu_destroy(rt, id, NULL);
	/* anything the mirror says is not as found (there should be nothing) goes back too */
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

const struct dom0_layout *dom0_layout(const struct dom0_runtime *rt) { return &rt->lay; }
const struct dom0_counters *dom0_counters(const struct dom0_runtime *rt) { return &rt->c; }
struct hw_device *dom0_device(const struct dom0_runtime *rt) { return rt->dev; }
int dom0_render_owner(const struct dom0_runtime *rt) { return rt->render_owner; }
uint64_t dom0_sim_time_ms(const struct dom0_runtime *rt) { return rt->sim_ms; }

int dom0_physical_owner(const struct dom0_runtime *rt, uint64_t index)
{
	return index < rt->dev->info.n_ptes ? rt->owner[index] : 0;
}

struct vgpu *dom0_vgpu_get(struct dom0_runtime *rt, int id, struct gtt_err *err)
{
	if (!dom0_vgpu_exists(rt, id)) {
		gtt_err_set(err, GTT_EINVAL, "vGPU %d does not exist", id);
		return NULL;
	}
	return rt->v[id];
}

bool dom0_vgpu_exists(const struct dom0_runtime *rt, int id)
{
	return id >= 1 && id <= rt->n_ids && rt->v[id];
}

uint64_t dom0_high_base(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return rt->lay.slots_base + (uint64_t)v->first_slot * rt->lay.slot_size;
}

uint64_t dom0_high_size(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return (uint64_t)v->slots * rt->lay.slot_size;
}

/* Owner of [first, first + n), and each chunk's summary: its one owner, or 0 when mixed. */
static void set_owner(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner)
{
	for (uint64_t k = 0; k < n; k++)
		rt->owner[first + k] = (uint16_t)owner;
	for (uint64_t c = first / DOM0_CHUNK; n && c <= (first + n - 1) / DOM0_CHUNK; c++) {
		uint64_t a = c * DOM0_CHUNK, e = a + DOM0_CHUNK < rt->dev->info.n_ptes ? a + DOM0_CHUNK : rt->dev->info.n_ptes;
		if (first <= a && first + n >= e) {
			rt->chunk_owner[c] = (uint16_t)owner;
		} else if (rt->chunk_owner[c] != owner) {
			uint64_t j = a;
			while (j < e && rt->owner[j] == owner)
				j++;
			rt->chunk_owner[c] = j == e ? (uint16_t)owner : 0;
		}
	}
}

bool dom0_chunk_held(const struct dom0_runtime *rt, uint64_t first, int id)
{
	return first % DOM0_CHUNK == 0 && rt->chunk_owner[first / DOM0_CHUNK] == id && first + DOM0_CHUNK <= rt->dev->info.n_ptes;
}

static bool managed(const struct dom0_runtime *rt, uint64_t first, uint64_t n)
{
	for (int r = 0; r < 2; r++)
		if (first >= rt->managed[r][0] && first <= rt->managed[r][1] && n <= rt->managed[r][1] - first)
			return true;
	return false;
}

int dom0_phys_write(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *ptes, int owner,
		    uint64_t *written, struct gtt_err *err)
{
	size_t i = 0;
	int rc;

	if (!managed(rt, first, n))
		return gtt_err_set(err, GTT_ERANGE, "PTEs %llu+%zu are outside the ranges the runtime manages",
				   (unsigned long long)first, n);
	if ((rc = load(rt, first, n, err)))
		return rc;
	while (i < n) {
		/* within one chunk at a time: its mirror is one array */
		uint64_t *cur = snap(rt, first + i) + DOM0_CHUNK;
		size_t end = i + (DOM0_CHUNK - (first + i) % DOM0_CHUNK);
		if (end > n)
			end = n;
		if (cur[0] == ptes[i]) {
			i++;
			continue;
		}
		size_t run = i;
		while (run < end && cur[run - i] != ptes[run])
			run++;
		if ((rc = hw_ggtt_write_range_unlogged(rt->dev, first + i, run - i, ptes + i, err)))
			break;
		gtt_memcpy(cur, ptes + i, (run - i) * sizeof(*ptes));
		if (written)
			*written += run - i;
		i = run;
	}
	/* what was written (all of it, or up to a failure) is the owner's */
	set_owner(rt, first, rc ? i : n, owner);
	return rc;
}

uint64_t dom0_phys_release(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner)
{
	uint64_t done = 0, orig[DOM0_CHUNK];

	if (!owner)	/* 0 marks entries that are already as found */
		return 0;
	for (uint64_t i = first; i < first + n;) {
		if (rt->owner[i] != owner) {
			i++;
			continue;
		}
		/* a run of owned entries within one chunk (owned: written, so loaded) */
		uint64_t run = i, end = (i / DOM0_CHUNK + 1) * DOM0_CHUNK;
		while (run < first + n && run < end && rt->owner[run] == owner) {
			orig[run - i] = snap(rt, run)[0];
			run++;
		}
		dom0_phys_write(rt, i, (size_t)(run - i), orig, 0, NULL, NULL);
		done += run - i;
		i = run;
	}
	return done;
}

void dom0_invalidate(struct dom0_runtime *rt)
{
	hw_ggtt_invalidate(rt->dev);
	rt->c.invalidates++;
}

void dom0_undo_settle(struct dom0_runtime *rt)
{
	hw_undo_truncate(rt->dev, rt->undo_mark);
}
