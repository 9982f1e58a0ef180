/* SPDX-License-Identifier: MIT */
/*
 * Load balancing (policy, VOCL §III-A and §III-B): a device's load, where a
 * moving vGPU goes (the least-loaded device, the least-shared slots), and
 * voclRebalance()'s trigger. It calls the migration mechanism; nothing
 * calls it but its caller.
 */
#ifndef DOM0_REBALANCE_H
#define DOM0_REBALANCE_H

#include "dom0/migrate_types.h"
#include "dom0/types.h"

/*
 * A device's load, VOCL's "computational load" (work issued and not
 * completed): its vGPUs that are busy and can run (neither paused nor
 * locked by a migration).
 */
unsigned dom0_load(const struct dom0_runtime *rt);
/* VOCL's select: the least-loaded of rts[0..n) other than rts[except] (-1: none), the first of equals; -1 none. */
int dom0_least_loaded(struct dom0_runtime *const *rts, unsigned n, int except);
/*
 * The run a slot move of vGPU id goes to: of its size, other than its own,
 * every slot with room under the share limit (places paused creates hold
 * counted taken), held by the fewest other vGPUs (the lowest of equals).
 * GTT_EBUSY naming the share limit when no run has room.
 */
int dom0_migrate_target_slot(const struct dom0_runtime *rt, int id, unsigned *to, struct gtt_err *err);

struct dom0_rebalance {
	bool moved;
	int from, to;			/* indexes into rts: the busiest and the least loaded */
	unsigned load_from, load_to;	/* their loads before the move */
	int id, new_id;			/* the vGPU moved, on `from` and then on `to` */
	struct dom0_migration m;
};
/*
 * voclRebalance(): when the busiest of rts[0..n) carries more than
 * `threshold` load above the least loaded, its busy vGPU with the least
 * guest memory (the cheapest to move; the lowest id of equals) moves there
 * (dom0_migrate_device). out->moved says whether one did; a refused move
 * returns the migration's error with nothing moved.
 */
int dom0_rebalance(struct dom0_runtime *const *rts, unsigned n, unsigned threshold, struct dom0_rebalance *out,
		   struct gtt_err *err);

#endif
