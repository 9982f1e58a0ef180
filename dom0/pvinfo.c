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
#include "dom0/state_types.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"

#define PV(v, reg)	((v)->pv.pvinfo[((reg) - VGT_PVINFO_PAGE) / 4])

static uint64_t advertised_high(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return dom0_high_size(rt, v) + (DOM0_FAULT(rt, pvinfo_slot_too_large) ? rt->lay.slot_size : 0);
}

/* The GVT-g PVINFO page (docs/hardware.md §6.1, populate_pvinfo_page). */
void dom0_pvinfo_fill(struct dom0_runtime *rt, struct vgpu *v)
{
#define W(reg) v->pv.pvinfo[((reg) - VGT_PVINFO_PAGE) / 4]
	W(VGT_IF_MAGIC) = (uint32_t)VGT_MAGIC;
	W(VGT_IF_MAGIC + 4) = (uint32_t)(VGT_MAGIC >> 32);
	W(VGT_IF_VERSION) = VGT_VERSION_MAJOR | VGT_VERSION_MINOR << 16;
	W(VGT_IF_VGT_ID) = (uint32_t)v->id;
	W(VGT_IF_VGT_CAPS) = VGT_CAPS_FULL_PPGTT | VGT_CAPS_HWSP_EMULATION | VGT_CAPS_HUGE_GTT;
	W(VGT_IF_MAPPABLE_BASE) = (uint32_t)v->low_base;
	W(VGT_IF_MAPPABLE_SIZE) = (uint32_t)v->low_size;
	W(VGT_IF_FENCE_NUM) = v->fences;
	W(VGT_IF_DISPLAY_READY) = VGT_DRV_DISPLAY_NOT_READY;
	W(VGT_IF_CURSOR_X_HOT) = 0xffffffffu;
	W(VGT_IF_CURSOR_Y_HOT) = 0xffffffffu;
	W(GTTLAB_IF_GM_MAGIC) = GTTLAB_GM_MAGIC;
	W(GTTLAB_IF_GM_SLOT_SIZE) = (uint32_t)rt->lay.slot_size;
	W(VGT_IF_NONMAPPABLE_SIZE) = (uint32_t)advertised_high(rt, v);
	dom0_pvinfo_ranges(rt, v);
	W(GTTLAB_IF_GM_EPOCH) = 0;
#undef W
}

/* The words that follow the high range: avail_rs.nonmappable_gmadr, the slots held, the epoch. */
void dom0_pvinfo_ranges(struct dom0_runtime *rt, struct vgpu *v)
{
#define W(reg) v->pv.pvinfo[((reg) - VGT_PVINFO_PAGE) / 4]
	W(VGT_IF_NONMAPPABLE_BASE) = (uint32_t)dom0_high_base(rt, v);
	if (!DOM0_FAULT(rt, stale_pvinfo_answer))
		W(VGT_IF_NONMAPPABLE_SIZE) = (uint32_t)advertised_high(rt, v);
	W(GTTLAB_IF_GM_SLOTS) = v->slots;
	/* the extension's run words: run 0 is avail_rs above, runs 1.. here, the rest zero */
	struct dom0_run run[DOM0_MAX_RUNS];
	unsigned n = dom0_runs_of(v, run);
	W(GTTLAB_IF_GM_RUNS) = n ? n : 1;
	for (unsigned i = 1; i < GTTLAB_GM_MAX_RUNS; i++) {
		W(GTTLAB_IF_GM_RUN_BASE(i)) = i < n ? (uint32_t)(rt->lay.slots_base + (uint64_t)run[i].first * rt->lay.slot_size) : 0;
		W(GTTLAB_IF_GM_RUN_SIZE(i)) = i < n ? (uint32_t)((uint64_t)run[i].n * rt->lay.slot_size) : 0;
	}
	W(GTTLAB_IF_GM_EPOCH)++;
#undef W
}

/* PVINFO's words that follow the high range (dom0_pvinfo_ranges), kept for a rollback. */
static const uint32_t range_words[DOM0_PV_RANGE_WORDS] = { VGT_IF_NONMAPPABLE_BASE, VGT_IF_NONMAPPABLE_SIZE,
							   GTTLAB_IF_GM_SLOTS, GTTLAB_IF_GM_EPOCH };

void dom0_pvinfo_ranges_save(const struct vgpu *v, uint32_t out[DOM0_PV_RANGE_WORDS])
{
	for (unsigned i = 0; i < DOM0_PV_RANGE_WORDS; i++)
		out[i] = PV(v, range_words[i]);
}

void dom0_pvinfo_ranges_restore(struct vgpu *v, const uint32_t in[DOM0_PV_RANGE_WORDS])
{
	for (unsigned i = 0; i < DOM0_PV_RANGE_WORDS; i++)
		PV(v, range_words[i]) = in[i];
}

void dom0_pvinfo_copy(struct vgpu *dst, const struct vgpu *src)
{
	static const uint32_t words[] = { VGT_IF_DISPLAY_READY, VGT_IF_CURSOR_X_HOT, VGT_IF_CURSOR_Y_HOT,
					  GTTLAB_IF_GM_CODE, GTTLAB_IF_GM_COUNT, GTTLAB_IF_GM_SEQ, GTTLAB_IF_GM_STATUS,
					  GTTLAB_IF_GM_ANSWER_SEQ };

	for (unsigned i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		PV(dst, words[i]) = PV(src, words[i]);
	for (uint32_t reg = VGT_IF_PDP_LO(0); reg <= VGT_IF_EXECLIST_CTX_DESC_HI; reg += 4)
		PV(dst, reg) = PV(src, reg);
	/* the ranges may differ on the target: EPOCH goes on from the source's and moves, so the guest looks again */
	PV(dst, GTTLAB_IF_GM_EPOCH) = PV(src, GTTLAB_IF_GM_EPOCH) + 1;
	dst->pv.evictions = src->pv.evictions;
	dst->pv.last_seq = src->pv.last_seq;
	dst->pv.any_seq = src->pv.any_seq;
}

void dom0_request_move(struct dom0_runtime *dst_rt, struct vgpu *dst, const struct vgpu *src)
{
	if (!src->pv.req_arrival)
		return;
	dst->pv.req_code = src->pv.req_code;
	dst->pv.req_count = src->pv.req_count;
	dst->pv.req_seq = src->pv.req_seq;
	dst->pv.req_arrival = ++dst_rt->pv_requests.arrivals;
	if (dst_rt->cfg.hooks.request)
		dst_rt->cfg.hooks.request(dst_rt->cfg.hooks.ctx, dst->id, dst->pv.req_code, dst->pv.req_count);
}

bool dom0_request_of(const struct vgpu *v, uint32_t *seq, uint32_t *code, uint32_t *count)
{
	if (!v->pv.req_arrival)
		return false;
	*seq = v->pv.req_seq;
	*code = v->pv.req_code;
	*count = v->pv.req_count;
	return true;
}

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
	if (v->pv.req_arrival) {
		*seq = v->pv.req_seq;
		return true;
	}
	if (dom0_pause_of(v).kind == DOM0_PAUSE_EXPAND && dom0_pause_of(v).channel) {
		*seq = dom0_pause_of(v).seq;
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
	return v->pv.any_seq && v->pv.last_seq == seq;
}

static void refuse(struct dom0_runtime *rt, struct vgpu *v, uint32_t status)
{
	uint32_t seq = PV(v, GTTLAB_IF_GM_SEQ);

	if (!seq_taken(v, seq))
		dom0_gm_answer(v, status, seq);
	v->c.rejected++;
	rt->chan.malformed++;
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
		rt->chan.noted++;
		if (!seq_taken(v, PV(v, GTTLAB_IF_GM_SEQ)))
			dom0_gm_answer(v, GTTLAB_GM_ST_NOTED, PV(v, GTTLAB_IF_GM_SEQ));
		return GTT_OK;
	}
	rt->chan.withdrawn++;
	if (v->pv.req_arrival) {
		v->pv.req_arrival = 0;
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

	rt->chan.requests++;
	if (code == GTTLAB_GM_REQ_WITHDRAW)
		return withdraw(rt, v, withdraw_paused);
	if (v->pv.req_arrival || dom0_pause_of(v).kind) {
		/* one at a time: this one is refused; the pending (or paused) one, latched, is answered later */
		refuse(rt, v, GTTLAB_GM_ST_BUSY);
		return gtt_err_set(err, GTT_EBUSY, "vGPU %d: a request (code %u) while its %s is still %s; one at a time",
				   v->id, code, v->pv.req_arrival ? "request" : dom0_pause_name(dom0_pause_of(v).kind),
				   v->pv.req_arrival ? "pending" : "paused");
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
	v->pv.req_code = code;
	v->pv.req_count = q;
	v->pv.req_seq = PV(v, GTTLAB_IF_GM_SEQ);
	v->pv.last_seq = v->pv.req_seq;
	v->pv.any_seq = true;
	v->pv.req_arrival = ++rt->pv_requests.arrivals;
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
		v->pv.pvinfo[off / 4] = val;
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
	if (DOM0_FAULT(rt, pvinfo_of_owner) && dom0_vgpu_exists(rt, dom0_render_owner(rt)))
		v = rt->v[dom0_render_owner(rt)];
	*val = v->pv.pvinfo[off / 4];
	return GTT_OK;
}

unsigned dom0_requests_pending(const struct dom0_runtime *rt)
{
	unsigned n = 0;

	for (int id = 1; id <= rt->n_ids; id++)
		n += rt->v[id] && rt->v[id]->pv.req_arrival;
	return n;
}


const struct dom0_channel_stats *dom0_channel_stats(const struct dom0_runtime *rt)
{
	return &rt->chan;
}
