/* SPDX-License-Identifier: MIT */
/*
 * VOCL §III-D: the calls the source proxy queued during the migration are
 * sent to the destination and issued there. Here the queued guest writes
 * run through the same traps as any guest write, on the vGPU's home after
 * the move (the target of a device move, the same vGPU after a slot move or
 * a rollback), so a write the home refuses is refused as it would be there
 * (counted in the vGPU's `rejected` and in `forward_refused`).
 */
#include "dom0/fence_pool.h"
#include "dom0/gm_request.h"
#include "dom0/guest_gtt.h"
#include "dom0/ladder.h"
#include "dom0/migrate_forward.h"
#include "dom0/migrate_queue.h"
#include "dom0/ops.h"
#include "dom0/state_types.h"
#include "dom0/state.h"
#include "hw/fence.h"

static uint64_t rebase_gm(const struct dom0_rebase *b, uint64_t gm)
{
	if (gm >= b->low_from && gm - b->low_from < b->low_size)
		return gm - b->low_from + b->low_to;
	if (gm >= b->high_from && gm - b->high_from < b->high_size)
		return gm - b->high_from + b->high_to;
	return gm;
}

/* A fence value: its start moved with the range it lies in, in the home's encoding; as written if it does not decode. */
static uint64_t rebase_fence(const struct dom0_rebase *b, uint64_t val)
{
	struct hw_fence d;
	uint64_t out;

	if (b->fp == b->tp && b->low_from == b->low_to && b->high_from == b->high_to)
		return val;
	hw_fence_decode(b->fp, val, &d);
	if (!d.valid)
		return val;
	d.start = rebase_gm(b, d.start);
	return hw_fence_encode(b->tp, b->tp_aperture, &d, &out, NULL) ? val : out;
}

void dom0_forward_queue(struct dom0_runtime *home, int id, struct dom0_queued *q, unsigned n, const struct dom0_rebase *b,
			const struct gtt_env *qenv, struct dom0_migration *m)
{
	for (unsigned i = 0; i < n; i++) {
		const struct dom0_queued *e = &q[i];
		int rc = GTT_EINVAL;
		switch (e->kind) {
		case DOM0_Q_PTE:
			rc = dom0_guest_pte_write(home, id, GM_PAGE(rebase_gm(b, e->at << 12)), e->val, NULL);
			break;
		case DOM0_Q_FENCE:
			rc = dom0_guest_fence_write(home, id, e->a, rebase_fence(b, e->val), NULL);
			break;
		case DOM0_Q_PVINFO:
			rc = dom0_pvinfo_write(home, id, e->a, (uint32_t)e->val, NULL);
			break;
		case DOM0_Q_APERTURE:
			rc = dom0_guest_aperture_write(home, id, rebase_gm(b, e->at), e->bytes, e->a, NULL);
			break;
		}
		m->forwarded++;
		if (rc) {
			m->forward_refused++;
			if (dom0_vgpu_exists(home, id))
				home->v[id]->c.forward_refused++;
		}
	}
	dom0_queue_free(qenv, q, n);
}
