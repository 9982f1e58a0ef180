/* SPDX-License-Identifier: MIT */
/*
 * Guest CPU access through its aperture (gScale §4.2). The hypervisor maps
 * each guest aperture page straight to the host page its PTE names (the
 * ladder map), so the guest reaches its own data whoever owns the GTT; a
 * fenced range goes through the real aperture at its fence-pool range, where
 * a physical fence detiles it.
 */
#include "dom0/faults.h"
#include "dom0/fence_pool.h"
#include "dom0/ladder.h"
#include "dom0/migrate_queue.h"
#include "dom0/phys.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "hw/aperture.h"

static int access(struct dom0_runtime *rt, int id, uint64_t gm, uint8_t *rd, const uint8_t *wr, size_t len,
		  struct gtt_err *err)
{
	struct vgpu *v = wr ? dom0_guest_vgpu(rt, id, err) : dom0_vgpu_get(rt, id, err);
	int rc = GTT_OK;

	if (!v)
		return dom0_no_guest(rt, id);
	if (gm < v->low_base || gm > v->low_base + v->low_size || len > v->low_base + v->low_size - gm) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_ERANGE, "vGPU %d: aperture access 0x%llx+0x%zx is outside its low range 0x%llx+0x%llx",
				   id, (unsigned long long)gm, len, (unsigned long long)v->low_base,
				   (unsigned long long)v->low_size);
	}
	while (len && !rc) {
		struct pool_fence *pf = dom0_pool_fence_at(v, gm);
		size_t run;
		if (DOM0_FAULT(rt, no_ladder) && !pf) {
			run = len;
			rc = rd ? hw_aperture_read(rt->dev, gm, rd, run, err) : hw_aperture_write(rt->dev, gm, wr, run, err);
		} else if (pf) {
			uint64_t end = pf->guest_gm + pf->pages * 4096;
			run = end - gm < len ? (size_t)(end - gm) : len;
			uint64_t at = pf->pool_gm + (gm - pf->guest_gm);
			rc = rd ? hw_aperture_read(rt->dev, at, rd, run, err) : hw_aperture_write(rt->dev, at, wr, run, err);
		} else {
			run = 4096 - (gm & 0xfff);
			if (run > len)
				run = len;
			int32_t frame = v->ladder[GM_PAGE(gm - v->low_base)];
			uint8_t *page = frame >= 0 ? v->mem[frame].cpu : v->scratch.cpu;
			if (rd)
				gtt_memcpy(rd, page + (gm & 0xfff), run);
			else
				gtt_memcpy(page + (gm & 0xfff), wr, run);
		}
		if (rd)
			rd += run;
		else
			wr += run;
		gm += run;
		len -= run;
	}
	dom0_undo_settle(rt);
	return rc;
}

int dom0_guest_aperture_read(struct dom0_runtime *rt, int id, uint64_t gm, void *buf, size_t len, struct gtt_err *err)
{
	int rc = dom0_queue_read_waits(rt, id, err);

	return rc ? rc : access(rt, id, gm, buf, NULL, len, err);
}

int dom0_guest_aperture_write(struct dom0_runtime *rt, int id, uint64_t gm, const void *buf, size_t len,
			      struct gtt_err *err)
{
	if (dom0_queues(rt, id)) {
		struct dom0_queued op = { .kind = DOM0_Q_APERTURE, .at = gm, .a = (uint32_t)len };
		if (len > DOM0_MIGRATE_QUEUE_BYTES)
			return gtt_err_set(err, GTT_EINVAL, "vGPU %d: an aperture write of %zu bytes while it migrates: at most %u are queued",
					   id, len, DOM0_MIGRATE_QUEUE_BYTES);
		return dom0_queue_op(rt, rt->v[id], &op, buf, err);
	}
	return access(rt, id, gm, NULL, buf, len, err);
}
