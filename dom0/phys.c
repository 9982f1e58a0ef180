/* SPDX-License-Identifier: MIT */
/*
 * The physical GTT as the runtime writes it: the mirror of what it holds
 * (`cur`, loaded per chunk from the snapshot at its first write; or, for a
 * chunk the switch copied whole, the shadow it copied it from), who owns
 * each entry, writes that touch only the entries whose value differs,
 * releases to the boot values, invalidation, and settling hw's undo log
 * (the runtime restores from its own snapshot).
 */
#include "dom0/phys.h"
#include "hw/ggtt.h"
#include "hw/restore_failures.h"

/* The snapshot of PTE i's chunk: orig at [i % DOM0_CHUNK], cur DOM0_CHUNK after (loaded). */
static uint64_t *snap(const struct dom0_runtime *rt, uint64_t i)
{
	return rt->mirror.chunk[i / DOM0_CHUNK] + i % DOM0_CHUNK;
}

/*
 * What the GTT holds from PTE i to the end of its chunk: the shadow the switch
 * copied the chunk from (its mirror left behind), else the mirror.
 */
static const uint64_t *holds(const struct dom0_runtime *rt, uint64_t i)
{
	const uint64_t *src = rt->mirror.chunk_src[i / DOM0_CHUNK];

	return src ? src + i % DOM0_CHUNK : snap(rt, i) + DOM0_CHUNK;
}

/* The mirror of chunk c level with the GTT again (only whole chunks are left behind). */
static void settle(struct dom0_runtime *rt, uint64_t c)
{
	if (!rt->mirror.chunk_src[c])
		return;
	gtt_memcpy(rt->mirror.chunk[c] + DOM0_CHUNK, rt->mirror.chunk_src[c], DOM0_CHUNK * sizeof(uint64_t));
	rt->mirror.chunk_src[c] = NULL;
}

void dom0_phys_settle_entry(struct dom0_runtime *rt, uint64_t index)
{
	if (index < rt->dev->info.n_ptes)
		settle(rt, index / DOM0_CHUNK);
}

void dom0_phys_settle_owner(struct dom0_runtime *rt, int owner)
{
	for (uint64_t c = 0; c < rt->mirror.n_chunks; c++)
		if (rt->mirror.chunk_src[c] && rt->mirror.chunk_owner[c] == owner)
			settle(rt, c);
}

/* Load the chunks of [first, first + n) not loaded yet: their entries as found, read in bulk. */
static int load(struct dom0_runtime *rt, uint64_t first, uint64_t n, struct gtt_err *err)
{
	for (uint64_t c = first / DOM0_CHUNK; n && c <= (first + n - 1) / DOM0_CHUNK; c++) {
		if (rt->mirror.chunk[c])
			continue;
		uint64_t a = c * DOM0_CHUNK, k = rt->dev->info.n_ptes - a < DOM0_CHUNK ? rt->dev->info.n_ptes - a : DOM0_CHUNK;
		uint64_t *m = gtt_alloc_uninit(rt->env, 2 * DOM0_CHUNK, sizeof(uint64_t));	/* k entries of each half filled */
		int rc;
		if (!m)
			return gtt_err_set(err, GTT_ENOMEM, "out of memory for the runtime's snapshot");
		if ((rc = hw_ggtt_read_range(rt->dev, a, (size_t)k, m, err))) {
			rt->env->free(rt->env, m);
			return rc;
		}
		gtt_memcpy(m + DOM0_CHUNK, m, (size_t)k * sizeof(*m));
		rt->mirror.chunk[c] = m;
	}
	return GTT_OK;
}

/* Owner of [first, first + n), and each chunk's summary: its one owner, or 0 when mixed. */
static void set_owner(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner)
{
	uint16_t *o = rt->mirror.owner + first, v = (uint16_t)owner;
	uint64_t k = 0, four = v * 0x0001000100010001ull, sixteen[4] = { four, four, four, four };

	for (; k + 16 <= n; k += 16)	/* sixteen owners a copy (inline: no libc call; vector stores) */
		__builtin_memcpy(o + k, sixteen, sizeof(sixteen));
	for (; k < n; k++)
		o[k] = v;
	for (uint64_t c = first / DOM0_CHUNK; n && c <= (first + n - 1) / DOM0_CHUNK; c++) {
		uint64_t a = c * DOM0_CHUNK, e = a + DOM0_CHUNK < rt->dev->info.n_ptes ? a + DOM0_CHUNK : rt->dev->info.n_ptes;
		if (first <= a && first + n >= e) {
			rt->mirror.chunk_owner[c] = (uint16_t)owner;
		} else if (rt->mirror.chunk_owner[c] != owner) {
			uint64_t j = a;
			while (j < e && rt->mirror.owner[j] == owner)
				j++;
			rt->mirror.chunk_owner[c] = j == e ? (uint16_t)owner : 0;
		}
	}
}

bool dom0_chunk_held(const struct dom0_runtime *rt, uint64_t first, int id)
{
	return first % DOM0_CHUNK == 0 && rt->mirror.chunk_owner[first / DOM0_CHUNK] == id && first + DOM0_CHUNK <= rt->dev->info.n_ptes;
}

bool dom0_chunk_held_by_other(const struct dom0_runtime *rt, uint64_t first, int id)
{
	uint16_t o = rt->mirror.chunk_owner[first / DOM0_CHUNK];

	return first % DOM0_CHUNK == 0 && o && o != id && first + DOM0_CHUNK <= rt->dev->info.n_ptes;
}

static bool managed(const struct dom0_runtime *rt, uint64_t first, uint64_t n)
{
	for (int r = 0; r < 2; r++)
		if (first >= rt->mirror.managed[r][0] && first <= rt->mirror.managed[r][1] && n <= rt->mirror.managed[r][1] - first)
			return true;
	return false;
}

/*
 * dom0_phys_write and dom0_phys_copy_in: lazy, the whole chunks of `ptes` are
 * compared against what the GTT holds and recorded as held from `ptes`
 * (chunk_src), their mirror left as it was; every other piece brings its
 * chunk's mirror level first and then along.
 */
static int write_chunks(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *ptes, int owner, bool lazy,
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
		/* within one chunk at a time: its mirror is one array, and hw writes what differs from it */
		uint64_t c = (first + i) / DOM0_CHUNK;
		size_t end = i + (DOM0_CHUNK - (first + i) % DOM0_CHUNK);
		if (end > n)
			end = n;
		if (lazy && end - i == DOM0_CHUNK && (c + 1) * DOM0_CHUNK <= rt->dev->info.n_ptes) {
			if ((rc = hw_ggtt_write_differing(rt->dev, first + i, DOM0_CHUNK, ptes + i, holds(rt, first + i),
							  written, err)))
				break;
			rt->mirror.chunk_src[c] = ptes + i;
		} else {
			settle(rt, c);
			if ((rc = hw_ggtt_write_changed(rt->dev, first + i, end - i, ptes + i, snap(rt, first + i) + DOM0_CHUNK,
							written, err)))
				break;
		}
		i = end;
	}
	/* what was written (all of it, or up to a failure) is the owner's */
	set_owner(rt, first, rc ? i : n, owner);
	return rc;
}

int dom0_phys_write(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *ptes, int owner,
		    uint64_t *written, struct gtt_err *err)
{
	return write_chunks(rt, first, n, ptes, owner, false, written, err);
}

int dom0_phys_copy_in(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *shadow, int owner,
		      uint64_t *written, struct gtt_err *err)
{
	return write_chunks(rt, first, n, shadow, owner, true, written, err);
}

uint64_t dom0_not_held(const uint16_t *o, uint64_t n, uint16_t id)
{
	const uint64_t ones = 0x0001000100010001ull, highs = 0x8000800080008000ull, four = id * ones;
	uint64_t k = 0;

	for (; k + 4 <= n; k += 4) {
		uint64_t x;
		__builtin_memcpy(&x, o + k, sizeof(x));
		x ^= four;
		if ((x - ones) & ~x & highs)
			break;
	}
	while (k < n && o[k] != id)
		k++;
	return k;
}

uint64_t dom0_phys_release(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner)
{
	uint64_t done = 0;

	if (!owner)	/* 0 marks entries that are already as found */
		return 0;
	for (uint64_t i = first; i < first + n;) {
		uint64_t c = i / DOM0_CHUNK, end = (c + 1) * DOM0_CHUNK;
		if (end > first + n)
			end = first + n;
		if (rt->mirror.chunk_owner[c] && rt->mirror.chunk_owner[c] != owner) {
			i = end;	/* the whole chunk is another's */
			continue;
		}
		if ((i += dom0_not_held(rt->mirror.owner + i, end - i, (uint16_t)owner)) == end)
			continue;
		/* a run of owned entries within one chunk (owned: written, so loaded): back to its boot values */
		uint64_t run = i;
		while (run < end && rt->mirror.owner[run] == owner)
			run++;
		dom0_phys_write(rt, i, (size_t)(run - i), snap(rt, i), 0, NULL, NULL);
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
	hw_undo_truncate(rt->dev, rt->mirror.undo_mark);
}

int dom0_phys_init(struct dom0_runtime *rt, struct gtt_err *err)
{
	const struct gtt_env *env = rt->env;
	struct dom0_phys *p = &rt->mirror;
	uint64_t n = rt->dev->info.n_ptes;

	p->n_chunks = (n + DOM0_CHUNK - 1) / DOM0_CHUNK;
	p->chunk = gtt_calloc(env, (size_t)p->n_chunks, sizeof(*p->chunk));
	p->chunk_src = gtt_calloc(env, (size_t)p->n_chunks, sizeof(*p->chunk_src));
	p->owner = gtt_calloc(env, n, sizeof(*p->owner));
	p->chunk_owner = gtt_calloc(env, (size_t)p->n_chunks, sizeof(*p->chunk_owner));
	if (!p->chunk || !p->chunk_src || !p->owner || !p->chunk_owner)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the physical GTT's mirror (%llu PTEs)", (unsigned long long)n);
	/* what it must give back: the PTEs it writes, read at the first write to their chunk */
	p->managed[0][0] = GM_PAGE(rt->lay.guest_low_base);
	p->managed[0][1] = GM_PAGE(rt->lay.reserved_base);
	p->managed[1][0] = GM_PAGE(rt->lay.slots_base);
	p->managed[1][1] = n;
	p->undo_mark = hw_undo_mark(rt->dev);
	return GTT_OK;
}

void dom0_phys_free(struct dom0_runtime *rt)
{
	const struct gtt_env *env = rt->env;
	struct dom0_phys *p = &rt->mirror;

	for (uint64_t c = 0; p->chunk && c < p->n_chunks; c++)
		env->free(env, p->chunk[c]);
	env->free(env, p->chunk);
	env->free(env, p->chunk_src);
	env->free(env, p->chunk_owner);
	env->free(env, p->owner);
	*p = (struct dom0_phys){ 0 };
}

/* PTEs in chunk c (the last one may be short). */
static uint64_t chunk_len(const struct dom0_runtime *rt, uint64_t c)
{
	uint64_t a = c * DOM0_CHUNK, n = rt->dev->info.n_ptes;

	return n - a < DOM0_CHUNK ? n - a : DOM0_CHUNK;
}

void dom0_phys_put_back(struct dom0_runtime *rt)
{
	for (uint64_t c = 0; c < rt->mirror.n_chunks; c++)
		if (rt->mirror.chunk[c])
			dom0_phys_write(rt, c * DOM0_CHUNK, (size_t)chunk_len(rt, c), rt->mirror.chunk[c], 0, NULL, NULL);
}

void dom0_phys_verify(struct dom0_runtime *rt, struct hw_restore_failures *f)
{
	uint64_t buf[DOM0_CHUNK];

	for (uint64_t c = 0; c < rt->mirror.n_chunks; c++) {
		if (!rt->mirror.chunk[c])
			continue;	/* never written: as found */
		uint64_t a = c * DOM0_CHUNK, k = chunk_len(rt, c);
		if (hw_ggtt_read_range(rt->dev, a, (size_t)k, buf, NULL)) {
			hw_restore_failure(f, "PTEs %llu+%llu could not be read back", (unsigned long long)a, (unsigned long long)k);
			break;
		}
		for (uint64_t j = 0; j < k; j++)
			if (buf[j] != rt->mirror.chunk[c][j])
				hw_restore_failure(f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)(a + j),
						   (unsigned long long)buf[j], (unsigned long long)rt->mirror.chunk[c][j]);
	}
}
