/* SPDX-License-Identifier: MIT */
/*
 * Compaction by migration (policy; beyond the papers, after gBalloon §6's
 * future work): room for a paused create made by moving the vGPUs that hold
 * a run of slots to free runs elsewhere.
 */
#ifndef DOM0_COMPACT_H
#define DOM0_COMPACT_H

#include "dom0/migrate_types.h"
#include "dom0/types.h"

/*
 * Make room for vGPU id's paused create on a partitioned layout (share
 * limit 1): the run of its size whose holders can all move to free runs
 * outside it (places other paused creates hold stay theirs) and are fewest
 * (then the fewest slots moved, then the lowest run) is cleared with slot
 * migrations, each holder first-fit from the largest. *moved: the
 * migrations made (0: none could clear a run, or it is not paused for
 * slots). The moves are releases, so admission runs after each; the create
 * runs once it is its turn. GTT_EINVAL without a share limit of 1 or when
 * id is not a paused create; a migration's error stops it there.
 */
int dom0_compact_for(struct dom0_runtime *rt, int id, unsigned *moved, unsigned *slots_moved, struct gtt_err *err);
/*
 * Before vGPU id grows by q: when every way of growing where it is would
 * put it in slots other vGPUs hold, and a run of its size + q slots
 * elsewhere is held by none (nor held for a paused create), it moves to
 * that run's start (a slot migration; the lowest such run), so that the
 * expansion shares nothing. *moved: whether it moved. Any share limit.
 */
int dom0_move_to_grow(struct dom0_runtime *rt, int id, unsigned q, bool *moved, struct dom0_migration *m,
		      struct gtt_err *err);

#endif
