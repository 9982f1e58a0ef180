/* SPDX-License-Identifier: MIT */
/*
 * CPU accesses through the aperture (BAR2) and GPU-side accesses to any GGTT
 * address. An access whose PTE is not valid faults: reads return zero, writes
 * are lost, and the fault is counted and traced.
 */
#include "hw/sim/sim_internal.h"

static void fault(struct sim_device *sim, uint64_t addr)
{
	sim_trace_record(sim, SIM_TRANSLATION_FAULT, 0, addr, 0);
}

static bool aperture_ok(struct sim_device *sim, uint64_t off, size_t len)
{
	return !sim->gone && sim_mem_decode_enabled(sim) && off <= sim->aperture_size &&
	       len <= sim->aperture_size - off;
}

void sim_aperture_read(struct sim_device *sim, uint64_t off, void *buf, size_t len)
{
	uint8_t *out = buf;

	sim_trace_record(sim, SIM_APERTURE_READ, (unsigned)len, off, 0);
	if (!aperture_ok(sim, off, len)) {
		gtt_memset(buf, 0xff, len);
		return;
	}
	while (len) {
		uint64_t phys;
		bool mapped;
		size_t run = sim_aperture_translate(sim, off, &phys, &mapped);
		if (run > len)
			run = len;
		if (!mapped) {
			fault(sim, off);
			gtt_memset(out, 0, run);
		} else {
			sim_mem_read(sim, phys, out, run);
		}
		out += run;
		off += run;
		len -= run;
	}
}

void sim_aperture_write(struct sim_device *sim, uint64_t off, const void *buf, size_t len)
{
	const uint8_t *in = buf;

	sim_trace_record(sim, SIM_APERTURE_WRITE, (unsigned)len, off, 0);
	if (!aperture_ok(sim, off, len))
		return;
	while (len) {
		uint64_t phys;
		bool mapped;
		size_t run = sim_aperture_translate(sim, off, &phys, &mapped);
		if (run > len)
			run = len;
		if (!mapped)
			fault(sim, off);
		else
			sim_mem_write(sim, phys, in, run);
		in += run;
		off += run;
		len -= run;
	}
}

static int gpu_access(struct sim_device *sim, uint64_t gm, uint8_t *rd, const uint8_t *wr, size_t len)
{
	uint64_t total = sim->n_ptes * 4096;

	if (sim->gone)
		return GTT_ENODEV;
	if (gm > total || len > total - gm)
		return GTT_ERANGE;
	while (len) {
		uint64_t phys;
		size_t run = 4096 - (gm & 0xfff);
		if (run > len)
			run = len;
		if (!sim_translate(sim, gm, &phys)) {
			fault(sim, gm);
			if (rd)
				gtt_memset(rd, 0, run);
		} else if (rd) {
			sim_mem_read(sim, phys, rd, run);
		} else {
			sim_mem_write(sim, phys, wr, run);
		}
		if (rd)
			rd += run;
		else
			wr += run;
		gm += run;
		len -= run;
	}
	return GTT_OK;
}

int sim_gpu_read(struct sim_device *sim, uint64_t gm, void *buf, size_t len)
{
	sim_trace_record(sim, SIM_GPU_READ, (unsigned)len, gm, 0);
	return gpu_access(sim, gm, buf, NULL, len);
}

int sim_gpu_write(struct sim_device *sim, uint64_t gm, const void *buf, size_t len)
{
	sim_trace_record(sim, SIM_GPU_WRITE, (unsigned)len, gm, 0);
	return gpu_access(sim, gm, NULL, buf, len);
}
