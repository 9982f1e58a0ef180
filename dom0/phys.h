/* SPDX-License-Identifier: MIT */
/*
 * The physical GTT as the runtime writes it (dom0/phys.c), beneath every
 * part: a mirror of what the GTT holds and who owns each entry, written by
 * value, released to the boot values, invalidated. dom0/ only.
 */
#ifndef DOM0_PHYS_H
#define DOM0_PHYS_H

#include "dom0/state_types.h"

/*
 * Make physical PTEs [first, first + n) hold `ptes`, owned by `owner`: only the
 * entries whose value differs from what the GTT holds (the mirror `cur`, or
 * the shadow the switch left it recorded against) are written, in runs,
 * without the undo log. *written (if given) grows by how many.
 */
int dom0_phys_write(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *ptes, int owner,
		    uint64_t *written, struct gtt_err *err);
/*
 * The switch's write: the same, where `shadow` is the owner's shadow GTT at
 * the entries' own place. Whole chunks leave the mirror behind: it records
 * that the GTT holds the chunk from `shadow` (compared against, not copied,
 * at the next switch). So the owner's shadow must not change or go while any
 * chunk is recorded so: dom0_phys_settle_entry before an entry of it changes,
 * dom0_phys_settle_owner before the table is freed or its place moves.
 */
int dom0_phys_copy_in(struct dom0_runtime *rt, uint64_t first, size_t n, const uint64_t *shadow, int owner,
		      uint64_t *written, struct gtt_err *err);
/* The mirror of the chunk of PTE `index` brought level, if the GTT holds it from a shadow. */
void dom0_phys_settle_entry(struct dom0_runtime *rt, uint64_t index);
/* The same for every chunk vGPU `owner` holds from its shadow. */
void dom0_phys_settle_owner(struct dom0_runtime *rt, int owner);
/* Whether vGPU `id` holds every entry of the chunk starting at `first` (a chunk boundary). */
bool dom0_chunk_held(const struct dom0_runtime *rt, uint64_t first, int id);
/* Whether one other owner (not `id`, not none) holds every entry of the chunk starting at `first`. */
bool dom0_chunk_held_by_other(const struct dom0_runtime *rt, uint64_t first, int id);
/*
 * How many owners from o[0] are not id, up to n: four owners a load, a lane
 * equal to id found as a zero lane of their XOR.
 */
uint64_t dom0_not_held(const uint16_t *o, uint64_t n, uint16_t id);
/* Put physical PTEs back to their boot values where `owner` holds them (writing only those that differ); returns how many it held. */
uint64_t dom0_phys_release(struct dom0_runtime *rt, uint64_t first, uint64_t n, int owner);
void dom0_invalidate(struct dom0_runtime *rt);
/* The mirror's tables for the runtime's layout (nothing read from the device until a chunk's first write). */
int dom0_phys_init(struct dom0_runtime *rt, struct gtt_err *err);
void dom0_phys_free(struct dom0_runtime *rt);
/* Every chunk written back to its entries as found (what the vGPUs left behind). */
void dom0_phys_put_back(struct dom0_runtime *rt);
/* Every chunk written read back against its entries as found: each difference a failure in `f`. */
struct hw_restore_failures;
void dom0_phys_verify(struct dom0_runtime *rt, struct hw_restore_failures *f);
/* The render owner: the vGPU switched in, whose shadow the GTT holds (0: none). */
static inline int dom0_gtt_owner(const struct dom0_runtime *rt)
{
	return rt->mirror.render_owner;
}
/* vGPU id is switched in (dom0_switch; a migration's rollback that found its entries never left). */
static inline void dom0_gtt_switched_to(struct dom0_runtime *rt, int id)
{
	rt->mirror.render_owner = id;
}
/* vGPU id stops being the render owner, if it is one (a drain, a removal): whether it was. */
static inline bool dom0_gtt_drain(struct dom0_runtime *rt, int id)
{
	if (rt->mirror.render_owner != id)
		return false;
	rt->mirror.render_owner = 0;
	return true;
}
/* The vGPU whose entry physical PTE `index` holds (0: none); index within the GGTT. */
static inline int dom0_phys_owner(const struct dom0_runtime *rt, uint64_t index)
{
	return rt->mirror.owner[index];
}
/* How many of PTEs [first, first + n) from `first` on are not vGPU id's (dom0_not_held over the owners). */
static inline uint64_t dom0_phys_not_held(const struct dom0_runtime *rt, uint64_t first, uint64_t n, int id)
{
	return dom0_not_held(rt->mirror.owner + first, n, (uint16_t)id);
}
/* Forget hw's undo entries made since init (the runtime restores from its own snapshot). */
void dom0_undo_settle(struct dom0_runtime *rt);
#endif
