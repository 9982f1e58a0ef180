/* SPDX-License-Identifier: MIT */
/*
 * Guest GGTT writes and reads. A guest writes PTEs naming its own page
 * frames; the runtime checks the index against the vGPU's ranges and the frame
 * against its memory, keeps the guest's value, puts the host PTE in the
 * private shadow GTT, and writes the physical GTT only where the vGPU's
 * entries are the ones in it (gScale gtt_set_entry32: the render owner's
 * writes go to both). Low-range writes update the ladder map.
 */
#include "dom0/faults.h"
#include "dom0/fence_pool.h"
#include "dom0/guest_gtt.h"
#include "dom0/migrate_queue.h"
#include "dom0/phys.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "hw/pte.h"

struct where {
	bool low;
	uint64_t off;			/* entry within the range */
};

static bool locate(const struct dom0_runtime *rt, const struct vgpu *v, uint64_t index, struct where *w)
{
	uint64_t lo = GM_PAGE(v->low_base), pps = rt->lay.slot_size / 4096, off = 0;
	struct dom0_run one = { v->first_slot, v->slots };
	const struct dom0_run *run = v->n_runs ? v->run : &one;
	unsigned n = v->n_runs ? v->n_runs : 1;

	if (index >= lo && index < lo + GM_PAGE(v->low_size)) {
		*w = (struct where){ true, index - lo };
		return true;
	}
	/* the high range's runs (one when contiguous), laid end to end in the shadow */
	for (unsigned i = 0; i < n; i++) {
		uint64_t hi = GM_PAGE(rt->lay.slots_base) + run[i].first * pps;
		if (index >= hi && index < hi + run[i].n * pps) {
			*w = (struct where){ false, off + index - hi };
			return true;
		}
		off += run[i].n * pps;
	}
	return false;
}

static int outside(struct dom0_runtime *rt, struct vgpu *v, uint64_t index, struct gtt_err *err)
{
	v->c.rejected++;
	return gtt_err_set(err, GTT_ERANGE,
			   "vGPU %d: PTE index %llu (GM 0x%llx) is outside its ranges (low 0x%llx+0x%llx, high 0x%llx+0x%llx)",
			   v->id, (unsigned long long)index, (unsigned long long)(index << 12),
			   (unsigned long long)v->low_base, (unsigned long long)v->low_size,
			   (unsigned long long)dom0_high_base(rt, v), (unsigned long long)dom0_high_size(rt, v));
}

/*
 * The accept_pte_outside fault: the entry outside the vGPU's ranges goes to
 * the physical GTT with the guest's frame translated, as a mediator that
 * forgot its range check would write it.
 */
static int write_outside(struct dom0_runtime *rt, struct vgpu *v, uint64_t index, uint64_t gpte, struct gtt_err *err)
{
	const struct gtt_platform *p = rt->dev->info.plat;
	uint64_t host = v->scratch_pte;
	struct hw_pte d;
	int rc;

	if (index >= rt->dev->info.n_ptes)
		return outside(rt, v, index, err);
	hw_pte_decode(p, gpte, &d);
	if (d.valid && d.addr >> 12 < v->mem_pages &&
	    (rc = hw_pte_with_addr(p, gpte, v->mem[d.addr >> 12].phys, &host, err)))
		return rc;
	if ((rc = dom0_phys_write(rt, index, 1, &host, dom0_phys_owner(rt, index), NULL, err)))
		return rc;
	dom0_invalidate(rt);
	dom0_undo_settle(rt);
	return GTT_OK;
}

int dom0_guest_pte_write(struct dom0_runtime *rt, int id, uint64_t index, uint64_t gpte, struct gtt_err *err)
{
	if (dom0_queues(rt, id)) {
		struct dom0_queued op = { .kind = DOM0_Q_PTE, .at = index, .val = gpte };
		return dom0_queue_op(rt, rt->v[id], &op, NULL, err);
	}
	const struct gtt_platform *p = rt->dev->info.plat;
	struct vgpu *v = dom0_guest_vgpu(rt, id, err);
	struct where w;
	struct hw_pte d;
	uint64_t host;
	int32_t frame = -1;
	int rc = GTT_OK;

	if (!v)
		return dom0_no_guest(rt, id);
	host = v->scratch_pte;
	if (!locate(rt, v, index, &w))
		return DOM0_FAULT(rt, accept_pte_outside) ? write_outside(rt, v, index, gpte, err) : outside(rt, v, index, err);
	if (p->pte_size == 4 && gpte >> 32) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: PTE value 0x%llx does not fit a 32-bit %s PTE",
				   id, (unsigned long long)gpte, p->name);
	}
	hw_pte_decode(p, gpte, &d);
	if (d.valid) {
		uint64_t gfn = d.addr >> 12;
		if (gfn >= v->mem_pages) {
			/* as GVT: a frame the guest does not own maps its scratch page */
			v->c.rejected++;
			rc = gtt_err_set(err, GTT_EINVAL, "vGPU %d: guest page 0x%llx at PTE index %llu is outside its %u pages of memory; scratch mapped",
					 id, (unsigned long long)gfn, (unsigned long long)index, v->mem_pages);
		} else if ((rc = hw_pte_with_addr(p, gpte, v->mem[gfn].phys, &host, err))) {
			return rc;
		} else {
			frame = (int32_t)gfn;
		}
	}
	/* the switch may have left the mirror of this entry's chunk to be read from this shadow */
	dom0_phys_settle_entry(rt, index);
	if (w.low) {
		v->guest_low[w.off] = gpte;
		v->shadow_low[w.off] = host;
		if (v->ladder[w.off] != frame) {
			v->ladder[w.off] = frame;
			v->c.ladder_mappings++;
		}
	} else {
		/* utilization (the policy's): entries of the high range off scratch */
		v->high_mapped -= v->shadow_high[w.off] != v->scratch_pte;
		v->high_mapped += host != v->scratch_pte;
		v->guest_high[w.off] = gpte;
		v->shadow_high[w.off] = host;
	}
	if (!rc)
		v->c.gtt_modifications++;
	if (dom0_phys_owner(rt, index) == id) {
		int wrc = dom0_phys_write(rt, index, 1, &host, id, NULL, err);
		if (wrc)
			return wrc;
		dom0_invalidate(rt);
	}
	if (w.low) {
		int prc = dom0_pool_update_pte(rt, v, index, host, err);
		if (prc)
			return prc;
	}
	dom0_undo_settle(rt);
	return rc;
}

int dom0_guest_pte_read(struct dom0_runtime *rt, int id, uint64_t index, uint64_t *gpte, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);
	struct where w;
	int rc;

	if (!v)
		return GTT_EINVAL;
	if ((rc = dom0_queue_read_waits(rt, id, err)))
		return rc;
	if (!locate(rt, v, index, &w))
		return outside(rt, v, index, err);
	*gpte = w.low ? v->guest_low[w.off] : v->guest_high[w.off];
	return GTT_OK;
}

int dom0_shadow_pte(const struct dom0_runtime *rt, int id, uint64_t index, uint64_t *pte, struct gtt_err *err)
{
	struct where w;

	if (!dom0_vgpu_exists(rt, id))
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d does not exist", id);
	const struct vgpu *v = rt->v[id];
	if (!locate(rt, v, index, &w))
		return gtt_err_set(err, GTT_ERANGE, "vGPU %d has no shadow entry at index %llu", id, (unsigned long long)index);
	*pte = w.low ? v->shadow_low[w.off] : v->shadow_high[w.off];
	return GTT_OK;
}

int dom0_entries_range(const struct dom0_runtime *rt, int id, uint64_t first, uint64_t n, uint64_t *shadow,
		       uint64_t *guest, struct gtt_err *err)
{
	struct where a, b;

	if (!dom0_vgpu_exists(rt, id))
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d does not exist", id);
	const struct vgpu *v = rt->v[id];
	if (!n)
		return GTT_OK;
	if (!locate(rt, v, first, &a) || !locate(rt, v, first + n - 1, &b) || a.low != b.low || b.off - a.off != n - 1)
		return gtt_err_set(err, GTT_ERANGE, "vGPU %d: PTEs %llu+%llu are not inside one of its ranges", id,
				   (unsigned long long)first, (unsigned long long)n);
	if (shadow)
		gtt_memcpy(shadow, (a.low ? v->shadow_low : v->shadow_high) + a.off, n * sizeof(*shadow));
	if (guest)
		gtt_memcpy(guest, (a.low ? v->guest_low : v->guest_high) + a.off, n * sizeof(*guest));
	return GTT_OK;
}
