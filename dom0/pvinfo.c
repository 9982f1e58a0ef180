/* SPDX-License-Identifier: MIT */
/*
 * The PVINFO page as a guest sees it (gBalloon Figure 3, steps 1 and 4):
 * its read, the trap of its write (the words a guest may write, the
 * g2v_notify trap that checks a request and makes a valid one pending), and
 * the status words an answer sets. Words and codes: regs/pvinfo.h. What the
 * answers say is the request channel's policy (dom0/gm_request.c) and
 * admission's; the guest's write as an operation that can wait (a migration
 * lock) or free (a withdrawal) is dom0_pvinfo_write (dom0/ops.c).
 */
#include "dom0/faults.h"
#include "dom0/pvinfo.h"
#include "dom0/runtime_internal.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"

#define PV(v, reg)	((v)->pvinfo[((reg) - VGT_PVINFO_PAGE) / 4])

void dom0_gm_answer(struct vgpu *v, uint32_t status, uint32_t seq)
{
	PV(v, GTTLAB_IF_GM_STATUS) = status;
	PV(v, GTTLAB_IF_GM_ANSWER_SEQ) = seq;
}

/* The words GVT-g lets a guest write (pvinfo_mmio_write, docs/hardware.md §6.1), and the request words. */
static bool guest_writable(uint32_t reg)
{
	return reg == VGT_IF_DISPLAY_READY || reg == VGT_IF_G2V_NOTIFY || reg == VGT_IF_CURSOR_X_HOT ||
	       reg == VGT_IF_CURSOR_Y_HOT || (reg >= VGT_IF_PDP_LO(0) && reg <= VGT_IF_EXECLIST_CTX_DESC_HI) ||
	       (reg >= GTTLAB_IF_GM_FIRST_GUEST && reg <= GTTLAB_IF_GM_LAST_GUEST);
}

/* Whether a request of the guest waits for its answer (pending, or paused by admission), and its SEQ. */
static bool waiting(const struct vgpu *v, uint32_t *seq)
{
	if (v->req_arrival) {
		*seq = v->req_seq;
		return true;
	}
	if (v->pause.kind == DOM0_PAUSE_EXPAND && v->pause.channel) {
		*seq = v->pause.seq;
		return true;
	}
	return false;
}

/*
 * A malformed request or write: answered with `status` at once, counted;
 * nothing else changes. An answer belongs to its request: when the SEQ word
 * still holds the number of a request that waits, or of the last one
 * accepted (answered since), the refusal leaves the status words alone, or
 * the guest would read beside that SEQ a status its request never got.
 */
/* Whether `seq` is the number of the last request accepted: waiting (pending or paused), or answered since. */
static bool seq_taken(const struct vgpu *v, uint32_t seq)
{
	return v->any_seq && v->last_seq == seq;
}

static void refuse(struct dom0_runtime *rt, struct vgpu *v, uint32_t status)
{
	uint32_t seq = PV(v, GTTLAB_IF_GM_SEQ);

	if (!seq_taken(v, seq))
		dom0_gm_answer(v, status, seq);
	v->c.rejected++;
	rt->pol.malformed++;
}

/*
 * GTTLAB_GM_REQ_WITHDRAW: a pending request is answered WITHDRAWN with its
 * own SEQ here; one paused by admission is reported to the caller, who takes
 * it back once the write is done; none waiting: NOTED.
 */
static int withdraw(struct dom0_runtime *rt, struct vgpu *v, bool *withdraw_paused)
{
	uint32_t wseq;

	if (!waiting(v, &wseq)) {
		rt->pol.noted++;
		if (!seq_taken(v, PV(v, GTTLAB_IF_GM_SEQ)))
			dom0_gm_answer(v, GTTLAB_GM_ST_NOTED, PV(v, GTTLAB_IF_GM_SEQ));
		return GTT_OK;
	}
	rt->pol.withdrawn++;
	if (v->req_arrival) {
		v->req_arrival = 0;
		rt->n_pending--;
		dom0_gm_answer(v, GTTLAB_GM_ST_WITHDRAWN, wseq);
		return GTT_OK;
	}
	*withdraw_paused = true;	/* answered WITHDRAWN when taken back; admission may run what waited behind it */
	return GTT_OK;
}

/* g2v_notify with the request value: malformed requests are answered here, valid ones wait. */
static int notify(struct dom0_runtime *rt, struct vgpu *v, bool *withdraw_paused, struct gtt_err *err)
{
	uint32_t code = PV(v, GTTLAB_IF_GM_CODE), q = PV(v, GTTLAB_IF_GM_COUNT);

	rt->pol.requests++;
	if (code == GTTLAB_GM_REQ_WITHDRAW)
		return withdraw(rt, v, withdraw_paused);
	if (v->req_arrival || v->pause.kind) {
		/* one at a time: this one is refused; the pending (or paused) one, latched, is answered later */
		refuse(rt, v, GTTLAB_GM_ST_BUSY);
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: a request (code %u) while its %s is still %s; one at a time",
				   v->id, code, v->req_arrival ? "request" : dom0_pause_name(v->pause.kind),
				   v->req_arrival ? "pending" : "paused");
	}
	if (code != GTTLAB_GM_REQ_EXPAND && code != GTTLAB_GM_REQ_REDUCE && code != GTTLAB_GM_REQ_EVICTIONS) {
		refuse(rt, v, GTTLAB_GM_ST_BAD_CODE);
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: request code %u is unknown (1 expand, 2 reduce, 3 evictions, 4 withdraw)",
				   v->id, code);
	}
	if (code != GTTLAB_GM_REQ_EVICTIONS && (q == 0 || q > rt->lay.num_slots) && !DOM0_FAULT(rt, unchecked_request_count)) {
		refuse(rt, v, GTTLAB_GM_ST_BAD_COUNT);
		return gtt_err_set(err, GTT_EINVAL, "vGPU %d: a request for %u slots: 1 to %u, the slots of high graphics memory",
				   v->id, q, rt->lay.num_slots);
	}
	v->req_code = code;
	v->req_count = q;
	v->req_seq = PV(v, GTTLAB_IF_GM_SEQ);
	v->last_seq = v->req_seq;
	v->any_seq = true;
	v->req_arrival = ++rt->req_arrivals;
	rt->n_pending++;
	dom0_gm_answer(v, GTTLAB_GM_ST_PENDING, PV(v, GTTLAB_IF_GM_SEQ));
	if (rt->cfg.hooks.request)
		rt->cfg.hooks.request(rt->cfg.hooks.ctx, v->id, code, q);
	return GTT_OK;
}

int dom0_pvinfo_trap(struct dom0_runtime *rt, int id, uint32_t off, uint32_t val, bool *withdraw_paused,
		     struct gtt_err *err)
{
	struct vgpu *v = dom0_guest_vgpu(rt, id, err);
	uint32_t reg = VGT_PVINFO_PAGE + off;

	if (!v)
		return dom0_no_guest(rt, id);
	if (off % 4 || off >= VGT_PVINFO_SIZE) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "PVINFO offset 0x%x: must be a multiple of 4 below 0x%x", off, VGT_PVINFO_SIZE);
	}
	if (!guest_writable(reg)) {
		refuse(rt, v, GTTLAB_GM_ST_BAD_WRITE);
		return gtt_err_set(err, GTT_EINVAL,
				   "vGPU %d: a guest write of 0x%x to PVINFO 0x%03x, not a word a guest may write (request words 0x104-0x10c, display_ready, g2v_notify, cursor, pdp, execlist)",
				   id, val, off);
	}
	if (reg != VGT_IF_G2V_NOTIFY) {
		v->pvinfo[off / 4] = val;
		return GTT_OK;
	}
	if (val == GTTLAB_G2V_GM_REQUEST)
		return notify(rt, v, withdraw_paused, err);
	if (val < VGT_G2V_MAX)
		return GTT_OK;	/* GVT-g's own notifications: no PPGTT here, nothing to do */
	v->c.rejected++;
	return gtt_err_set(err, GTT_EINVAL, "vGPU %d: g2v_notify 0x%x is no notification (GVT-g's 2-7, 0x%x for a graphics-memory request)",
			   id, val, GTTLAB_G2V_GM_REQUEST);
}

int dom0_pvinfo_read(struct dom0_runtime *rt, int id, uint32_t off, uint32_t *val, struct gtt_err *err)
{
	struct vgpu *v = dom0_vgpu_get(rt, id, err);

	if (!v)
		return GTT_EINVAL;
	if (off % 4 || off >= VGT_PVINFO_SIZE) {
		v->c.rejected++;
		return gtt_err_set(err, GTT_EINVAL, "PVINFO offset 0x%x: must be a multiple of 4 below 0x%x", off, VGT_PVINFO_SIZE);
	}
	if (DOM0_FAULT(rt, pvinfo_of_owner) && dom0_vgpu_exists(rt, rt->render_owner))
		v = rt->v[rt->render_owner];
	*val = v->pvinfo[off / 4];
	return GTT_OK;
}

void dom0_set_hooks(struct dom0_runtime *rt, const struct dom0_hooks *h)
{
	rt->cfg.hooks = h ? *h : (struct dom0_hooks){ 0 };
}

unsigned dom0_requests_pending(const struct dom0_runtime *rt)
{
	return rt->n_pending;
}

