/* SPDX-License-Identifier: MIT */
/* What the runtime holds: lookups and queries every part and every caller uses; nothing here changes it. */
#include "dom0/faults.h"
#include "dom0/phys.h"
#include "dom0/state.h"
#include "dom0/state_types.h"

const struct dom0_layout *dom0_layout(const struct dom0_runtime *rt)
{
	const struct dom0_layout *l = &rt->lay;

	return l;
}
const struct dom0_counters *dom0_counters(const struct dom0_runtime *rt) { return &rt->c; }
struct hw_device *dom0_device(const struct dom0_runtime *rt) { return rt->dev; }
int dom0_render_owner(const struct dom0_runtime *rt) { return dom0_gtt_owner(rt); }
uint64_t dom0_sim_time_ms(const struct dom0_runtime *rt) { return rt->sim_ms; }
void dom0_clock_advance(struct dom0_runtime *rt, uint64_t ms) { rt->sim_ms += ms; }

int dom0_physical_owner(const struct dom0_runtime *rt, uint64_t index)
{
	return index < rt->dev->info.n_ptes ? dom0_phys_owner(rt, index) : 0;
}

struct vgpu *dom0_vgpu_get(struct dom0_runtime *rt, int id, struct gtt_err *err)
{
	if (!dom0_vgpu_exists(rt, id)) {
		gtt_err_set(err, GTT_EINVAL, "vGPU %d does not exist", id);
		return NULL;
	}
	return rt->v[id];
}

bool dom0_vgpu_exists(const struct dom0_runtime *rt, int id)
{
	return id >= 1 && id <= rt->n_ids && rt->v[id];
}

uint64_t dom0_high_base(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return rt->lay.slots_base + (uint64_t)v->first_slot * rt->lay.slot_size;
}

uint64_t dom0_high_size(const struct dom0_runtime *rt, const struct vgpu *v)
{
	return (uint64_t)(v->n_runs ? v->run[0].n : v->slots) * rt->lay.slot_size;
}

unsigned dom0_runs_of(const struct vgpu *v, struct dom0_run out[DOM0_MAX_RUNS])
{
	if (v->n_runs) {
		for (unsigned i = 0; i < v->n_runs; i++)
			out[i] = v->run[i];
		return v->n_runs;
	}
	out[0] = (struct dom0_run){ v->first_slot, v->slots };
	return v->slots ? 1 : 0;
}

static const char *const admission_names[] = { "off", "fifo", "bf", "ru", "rand" };
static const char *const pause_names[] = { "none", "create", "expand", "fence" };

const char *dom0_admission_name(enum dom0_admission a)
{
	return (unsigned)a < sizeof(admission_names) / sizeof(admission_names[0]) ? admission_names[a] : "?";
}

const char *dom0_pause_name(enum dom0_pause p)
{
	return (unsigned)p < sizeof(pause_names) / sizeof(pause_names[0]) ? pause_names[p] : "?";
}

bool dom0_admission_on(const struct dom0_runtime *rt)
{
	return rt->cfg.admission != DOM0_ADMIT_OFF;
}

bool dom0_slot_room(const struct dom0_runtime *rt, unsigned s, int self)
{
	unsigned lim = rt->cfg.share_limit, held = rt->slot_occ[s];

	if (!lim)
		return true;
	if (rt->slot_resv[s] && rt->slot_resv[s] != self && !DOM0_FAULT(rt, admit_ignore_held))
		held++;
	return held < lim;
}

bool dom0_high_holds(const struct dom0_runtime *rt, const struct dom0_vgpu_info *in, uint64_t gm, uint64_t len)
{
	for (unsigned i = 0; i < in->n_runs; i++) {
		uint64_t b = rt->lay.slots_base + (uint64_t)in->runs[i].first * rt->lay.slot_size;
		uint64_t n = (uint64_t)in->runs[i].n * rt->lay.slot_size;
		if (gm >= b && len <= n && gm - b <= n - len)
			return true;
	}
	return false;
}

void dom0_freed(struct dom0_runtime *rt)
{
	rt->freed = true;
}

bool dom0_freed_take(struct dom0_runtime *rt)
{
	bool was = rt->freed;

	rt->freed = false;
	return was;
}

void dom0_freed_keep(struct dom0_runtime *rt, bool was)
{
	rt->freed = was;
}

struct vgpu_pause dom0_pause_of(const struct vgpu *v)
{
	return v->adm.pause;
}

unsigned dom0_paused_count(const struct dom0_runtime *rt)
{
	return rt->adm.n_paused;
}

bool dom0_admitting(const struct dom0_runtime *rt)
{
	return rt->adm.admitting;
}
