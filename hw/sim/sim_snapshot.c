/* SPDX-License-Identifier: MIT */
/*
 * BAR0's 2 MiB register space as an intel_reg MMIO snapshot: the raw bytes at
 * their offsets, little-endian, which is what `intel_reg snapshot` writes on a
 * real machine and what `intel_reg --mmio=FILE` reads.
 */
#include "hw/sim/sim_internal.h"
#include "regs/mmio.h"

size_t sim_snapshot_size(const struct sim_device *sim)
{
	(void)sim;
	return GTT_MMIO_SIZE;
}

void sim_snapshot_save(const struct sim_device *sim, void *buf)
{
	uint8_t *out = buf;

	for (size_t i = 0; i < GTT_MMIO_SIZE / 4; i++) {
		uint32_t v = sim->regs[i];
		out[4 * i] = (uint8_t)v;
		out[4 * i + 1] = (uint8_t)(v >> 8);
		out[4 * i + 2] = (uint8_t)(v >> 16);
		out[4 * i + 3] = (uint8_t)(v >> 24);
	}
}

int sim_snapshot_load(struct sim_device *sim, const void *buf, size_t len, struct gtt_err *err)
{
	const uint8_t *in = buf;

	if (len != GTT_MMIO_SIZE)
		return gtt_err_set(err, GTT_EINVAL, "snapshot is %zu bytes; an MMIO snapshot is exactly %u bytes (BAR0's register space)",
				   len, GTT_MMIO_SIZE);
	for (size_t i = 0; i < GTT_MMIO_SIZE / 4; i++)
		sim->regs[i] = in[4 * i] | in[4 * i + 1] << 8 | in[4 * i + 2] << 16 |
			       (uint32_t)in[4 * i + 3] << 24;
	/* the flush register is self-clearing; a snapshot cannot leave it set */
	sim->regs[GFX_FLSH_CNTL_GEN6 / 4] = 0;
	return GTT_OK;
}
