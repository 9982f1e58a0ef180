/* SPDX-License-Identifier: MIT */
/* Migration's types (dom0/migrate.h): its steps, its lock's queue, its hooks and its report. */
#ifndef DOM0_MIGRATE_TYPES_H
#define DOM0_MIGRATE_TYPES_H

#include <stddef.h>

#include "dom0/types.h"

/* A migration's steps (VOCL), in order; dom0/migrate.c says what each does here. */
enum dom0_migrate_step {
	DOM0_MIGRATE_LOCK, DOM0_MIGRATE_DRAIN, DOM0_MIGRATE_SELECT, DOM0_MIGRATE_TRANSFER, DOM0_MIGRATE_MAP,
	DOM0_MIGRATE_RELEASE, DOM0_MIGRATE_UNLOCK,
};
#define DOM0_MIGRATE_STEPS	7
/* Guest writes a migration's lock queues (VOCL's internal queue), and the aperture bytes they carry; past either, GTT_EBUSY. */
#define DOM0_MIGRATE_QUEUE		1024
#define DOM0_MIGRATE_QUEUE_BYTES	(1u << 20)

/* A guest write queued while a migration locks its vGPU (dom0/migrate_queue.c). */
enum dom0_queued_kind { DOM0_Q_PTE = 1, DOM0_Q_FENCE, DOM0_Q_PVINFO, DOM0_Q_APERTURE };
struct dom0_queued {
	enum dom0_queued_kind kind;
	uint32_t a;			/* fence id, PVINFO offset, aperture length */
	uint64_t at, val;		/* GGTT index, aperture address; the value written */
	uint8_t *bytes;			/* an aperture write's data */
};

/* A vGPU's migration lock; owned by dom0/migrate.c and its queue (migrate_queue.c, migrate_forward.c). */
struct dom0_vgpu_lock {
	/* locked by a migration: guest writes queued, reads wait behind them */
	bool migrating;
	/* the target of a device move, locked while a hook runs: guest operations refused */
	bool move_target;
	/* the queue of the lock (DOM0_MIGRATE_QUEUE entries), NULL none yet */
	struct dom0_queued *q;
	/* entries queued */
	unsigned q_n;
	/* aperture bytes the entries carry (at most DOM0_MIGRATE_QUEUE_BYTES) */
	size_t q_bytes;
};

/*
 * Called after each step of a migration, on the source runtime, for tests
 * and checks: a non-zero return is a failure at that step, which rolls the
 * migration back (before RELEASE; after it the return is ignored).
 */
struct dom0_migrate_hooks {
	int (*after_step)(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s);
	void *ctx;
};

/* What a migration did. */
struct dom0_migration {
	unsigned from_slot, to_slot;
	bool drained;			/* it was the render owner and was switched away */
	uint64_t ptes_released;		/* physical entries of the source put back (slot to slot) */
	uint64_t ptes_mapped;		/* guest PTEs written again on the target (device to device) */
	uint64_t bytes_copied;		/* guest memory copied into the target's pages */
	unsigned fences_moved;
	unsigned forwarded;		/* guest writes queued while it was locked, forwarded at the unlock */
	unsigned forward_refused;	/* of those, refused where they went (counted in its `rejected` too) */
	uint64_t ns;
	/* each step's time, from the end of the step before (VOCL's Figure 8 breakdown); test hooks' time excluded */
	uint64_t step_ns[DOM0_MIGRATE_STEPS];
	uint64_t mark_ns;		/* the migration's own: when its last step ended */
};

#endif
