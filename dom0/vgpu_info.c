/* SPDX-License-Identifier: MIT */
/*
 * What a vGPU holds and waits on, gathered from the parts that own it (its
 * ranges and slots, fences, pause, pending request): a query above them all,
 * for the vgpu: device and the front-ends; no part of the runtime calls it.
 */
#include "dom0/admission.h"
#include "dom0/pvinfo.h"
#include "dom0/state_types.h"
#include "dom0/sched.h"
#include "dom0/state.h"
#include "dom0/vgpu_info.h"

int dom0_vgpu_info(const struct dom0_runtime *rt, int id, struct dom0_vgpu_info *out)
{
	if (!dom0_vgpu_exists(rt, id))
		return GTT_EINVAL;
	const struct vgpu *v = rt->v[id];
	const struct vgpu_pause pause = dom0_pause_of(v);
	struct dom0_run runs[DOM0_MAX_RUNS];
	unsigned n_runs = dom0_runs_of(v, runs);

	*out = (struct dom0_vgpu_info){
		.low_base = v->low_base, .low_size = v->low_size,
		.high_base = dom0_high_base(rt, v), .high_size = dom0_high_size(rt, v),
		.first_slot = v->first_slot, .slots = v->slots, .fences = v->fences,
		.mem_pages = v->mem_pages, .scratch_phys = v->scratch.phys, .busy = dom0_vgpu_busy(v), .counters = v->c,
		.paused = pause.kind,
		.pause_fence = pause.kind == DOM0_PAUSE_FENCE ? pause.fence : 0,
		.pause_val = pause.kind == DOM0_PAUSE_FENCE ? pause.val : 0,
		.paused_ms = dom0_paused_ms(rt, v),
		.n_runs = n_runs,
	};
	gtt_memcpy(out->runs, runs, sizeof(runs));
	/* the request it waits on: pending on the channel, or an expansion admission paused */
	if (dom0_request_of(v, &out->req_seq, &out->req_code, &out->req_count)) {
		out->req_waiting = true;
	} else if (pause.channel) {
		out->req_waiting = out->req_paused = true;
		out->req_seq = pause.seq;
		out->req_code = GTTLAB_GM_REQ_EXPAND;
		out->req_count = pause.slots;
	}
	return GTT_OK;
}

