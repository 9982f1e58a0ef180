/* SPDX-License-Identifier: MIT */
/*
 * The PVINFO page as a guest sees it (mechanism): its read, the trap of its
 * write (requests become pending here), and the answer's status words. The
 * guest's write as a whole is dom0_pvinfo_write (dom0/ops.h).
 */
#ifndef DOM0_PVINFO_H
#define DOM0_PVINFO_H

#include "dom0/pvinfo_types.h"
#include "dom0/runtime_types.h"
#include "dom0/types.h"

/* 32-bit read of the vGPU's PVINFO page at a byte offset (0x000..0xffc). */
int dom0_pvinfo_read(struct dom0_runtime *rt, int id, uint32_t off, uint32_t *val, struct gtt_err *err);
unsigned dom0_requests_pending(const struct dom0_runtime *rt);
/* What the request channel has answered so far. */
const struct dom0_channel_stats *dom0_channel_stats(const struct dom0_runtime *rt);

/* ---- dom0/ only ---- */
struct vgpu;
/* The GVT-g PVINFO page of a new vGPU (docs/hardware.md §6.1, populate_pvinfo_page). */
void dom0_pvinfo_fill(struct dom0_runtime *rt, struct vgpu *v);
/* The words that follow the high range (avail_rs.nonmappable_gmadr, the slots held, the runs), and the epoch moved on. */
void dom0_pvinfo_ranges(struct dom0_runtime *rt, struct vgpu *v);
/* Those words kept, and put back (a migration's rollback: the epoch too). */
#define DOM0_PV_RANGE_WORDS	4
void dom0_pvinfo_ranges_save(const struct vgpu *v, uint32_t out[DOM0_PV_RANGE_WORDS]);
void dom0_pvinfo_ranges_restore(struct vgpu *v, const uint32_t in[DOM0_PV_RANGE_WORDS]);
/* A moved vGPU's page: the guest's writable words, the channel's answer, its sequence state; the epoch moves on. */
void dom0_pvinfo_copy(struct vgpu *dst, const struct vgpu *src);
/* A request src had pending waits on dst, in dst_rt's arrival order (its doorbell rung there). */
void dom0_request_move(struct dom0_runtime *dst_rt, struct vgpu *dst, const struct vgpu *src);
/* Whether v has a request pending, and which (its SEQ, code and count as latched at the notify). */
bool dom0_request_of(const struct vgpu *v, uint32_t *seq, uint32_t *code, uint32_t *count);
/* Set the request channel's status words: `status` answering `seq`. */
void dom0_gm_answer(struct vgpu *v, uint32_t status, uint32_t seq);
/*
 * The guest's write of a PVINFO word (the trap): words a guest may not
 * write are refused; g2v_notify with a request checks it and makes a valid
 * one pending. A withdrawal takes back a pending request here; one of a
 * request paused by admission is reported in *withdraw_paused, for the
 * caller to act on once the write is done.
 */
int dom0_pvinfo_trap(struct dom0_runtime *rt, int id, uint32_t off, uint32_t val, bool *withdraw_paused,
		     struct gtt_err *err);

#endif
