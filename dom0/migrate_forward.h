/* SPDX-License-Identifier: MIT */
/*
 * Forwarding a migration's queue (VOCL §III-D): at the unlock, the guest
 * writes its lock queued run on the vGPU's home, in their order.
 */
#ifndef DOM0_MIGRATE_FORWARD_H
#define DOM0_MIGRATE_FORWARD_H

#include "dom0/migrate_types.h"
#include "dom0/types.h"

/* ---- dom0/ only ---- */
struct dom0_queued;
/* The guest's ranges when its writes were queued (from) and at its home (to), and each side's platform. */
struct dom0_rebase {
	uint64_t low_from, low_to, low_size;
	uint64_t high_from, high_to, high_size;
	const struct gtt_platform *fp, *tp;
	uint64_t tp_aperture;
};
/*
 * Run q[0..n) on vGPU id of home, in order, each address that lay in a
 * range of the guest's moved with it (a queued write names what the guest
 * saw when it wrote: VOCL keeps the handle and re-points it); then free the
 * queue with qenv. m->forwarded and m->forward_refused count them.
 */
void dom0_forward_queue(struct dom0_runtime *home, int id, struct dom0_queued *q, unsigned n, const struct dom0_rebase *b,
			const struct gtt_env *qenv, struct dom0_migration *m);

#endif
