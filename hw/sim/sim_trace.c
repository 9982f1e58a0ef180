/* SPDX-License-Identifier: MIT */
/* The model's access trace: running totals per kind and a ring of recent accesses. */
#include "hw/sim/sim_internal.h"

static const char *const names[SIM_ACCESS_KINDS] = {
	[SIM_CFG_READ] = "cfg-read", [SIM_CFG_WRITE] = "cfg-write",
	[SIM_MMIO_READ] = "mmio-read", [SIM_MMIO_WRITE] = "mmio-write",
	[SIM_APERTURE_READ] = "aperture-read", [SIM_APERTURE_WRITE] = "aperture-write",
	[SIM_GPU_READ] = "gpu-read", [SIM_GPU_WRITE] = "gpu-write",
	[SIM_GGTT_FLUSH] = "ggtt-flush", [SIM_TRANSLATION_FAULT] = "translation-fault",
};

const char *sim_access_name(enum sim_access kind)
{
	return kind < SIM_ACCESS_KINDS ? names[kind] : "?";
}

void sim_trace_record(struct sim_device *sim, enum sim_access kind, unsigned width,
		      uint64_t addr, uint64_t value)
{
	sim->counts[kind]++;
	sim->seq++;
	if (!sim->trace_cap)
		return;
	struct sim_trace_entry *e = &sim->trace[(sim->trace_head + sim->trace_len) % sim->trace_cap];
	*e = (struct sim_trace_entry){ sim->seq, kind, width, addr, value };
	if (sim->trace_len < sim->trace_cap)
		sim->trace_len++;
	else
		sim->trace_head = (sim->trace_head + 1) % sim->trace_cap;
}

int sim_trace_start(struct sim_device *sim, size_t capacity)
{
	sim_trace_stop(sim);
	if (!capacity)
		return GTT_EINVAL;
	sim->trace = gtt_calloc(sim->env, capacity, sizeof(*sim->trace));
	if (!sim->trace)
		return GTT_ENOMEM;
	sim->trace_cap = capacity;
	return GTT_OK;
}

void sim_trace_stop(struct sim_device *sim)
{
	sim->env->free(sim->env, sim->trace);
	sim->trace = NULL;
	sim->trace_cap = sim->trace_head = sim->trace_len = 0;
}

size_t sim_trace_len(const struct sim_device *sim)
{
	return sim->trace_len;
}

bool sim_trace_get(const struct sim_device *sim, size_t i, struct sim_trace_entry *e)
{
	if (i >= sim->trace_len)
		return false;
	*e = sim->trace[(sim->trace_head + i) % sim->trace_cap];
	return true;
}

uint64_t sim_access_count(const struct sim_device *sim, enum sim_access kind)
{
	return kind < SIM_ACCESS_KINDS ? sim->counts[kind] : 0;
}
