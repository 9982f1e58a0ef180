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
#include "dom0/state.h"
#include "hw/ggtt.h"

/* The snapshot of PTE i's chunk: orig at [i % DOM0_CHUNK], cur DOM0_CHUNK after (loaded). */
static uint64_t *snap(const struct dom0_runtime *rt, uint64_t i)
{
	return rt->chunk[i / DOM0_CHUNK] + i % DOM0_CHUNK;
}

/*
 * What the GTT holds from PTE i to the end of its chunk: the shadow the switch
 * copied the chunk from (its mirror left behind), else the mirror.
 */
static const uint64_t *holds(const struct dom0_runtime *rt, uint64_t i)
{
	const uint64_t *src = rt->chunk_src[i / DOM0_CHUNK];

	return src ? src + i % DOM0_CHUNK : snap(rt, i) + DOM0_CHUNK;
}

/* The mirror of chunk c level with the GTT again (only whole chunks are left behind). */
static void settle(struct dom0_runtime *rt, uint64_t c)
{
	if (!rt->chunk_src[c])
		return;
	gtt_memcpy(rt->chunk[c] + DOM0_CHUNK, rt->chunk_src[c], DOM0_CHUNK * sizeof(uint64_t));
	rt->chunk_src[c] = NULL;
}

void dom0_phys_settle_entry(struct dom0_runtime *rt, uint64_t index)
{
	if (index < rt->dev->info.n_ptes)
		settle(rt, index / DOM0_CHUNK);
}

void dom0_phys_settle_owner(struct dom0_runtime *rt, int owner)
{
	for (uint64_t c = 0; c < rt->n_chunks; c++)
		if (rt->chunk_src[c] && rt->chunk_owner[c] == owner)
			settle(rt, c);
}

/* Load the chunks of [first, first + n) not loaded yet: their entries as found, read in bulk. */
static int load(struct dom0_runtime *rt, uint64_t first, uint64_t n, struct gtt_err *err)
{
	for (uint64_t c = first / DOM0_CHUNK; n && c <= (first + n - 1) / DOM0_CHUNK; c++) {
		if (rt->chunk[c])
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
		rt->chunk[c] = m;
	}
	return GTT_OK;
}

/* Owner of [first, first + n), and each chunk's summary: its one owner, or 0 when mixed. */
static void set_owner(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner)
{
	uint16_t *o = rt->owner + first, v = (uint16_t)owner;
	uint64_t k = 0, four = v * 0x0001000100010001ull, sixteen[4] = { four, four, four, four };

	for (; k + 16 <= n; k += 16)	/* sixteen owners a copy (inline: no libc call; vector stores) */
		__builtin_memcpy(o + k, sixteen, sizeof(sixteen));
	for (; k < n; k++)
		o[k] = v;
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

bool dom0_chunk_held_by_other(const struct dom0_runtime *rt, uint64_t first, int id)
{
	uint16_t o = rt->chunk_owner[first / DOM0_CHUNK];

	return first % DOM0_CHUNK == 0 && o && o != id && first + DOM0_CHUNK <= rt->dev->info.n_ptes;
}

static bool managed(const struct dom0_runtime *rt, uint64_t first, uint64_t n)
{
	for (int r = 0; r < 2; r++)
		if (first >= rt->managed[r][0] && first <= rt->managed[r][1] && n <= rt->managed[r][1] - first)
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
			rt->chunk_src[c] = ptes + i;
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
		if (rt->chunk_owner[c] && rt->chunk_owner[c] != owner) {
			i = end;	/* the whole chunk is another's */
			continue;
		}
		if ((i += dom0_not_held(rt->owner + i, end - i, (uint16_t)owner)) == end)
			continue;
		/* a run of owned entries within one chunk (owned: written, so loaded): back to its boot values */
		uint64_t run = i;
		while (run < end && rt->owner[run] == owner)
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
	hw_undo_truncate(rt->dev, rt->undo_mark);
}
