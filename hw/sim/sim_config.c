/* SPDX-License-Identifier: MIT */
/*
 * PCI configuration space of the model: identity, command, BARs that size
 * the way PCI BARs do (write all ones, read back the size mask), GMCH control
 * (read-only: firmware locks it) and BDSM (locked too).
 */
#include "hw/sim/sim_internal.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v & 0xffff);
	put16(p + 2, v >> 16);
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

void sim_config_init(struct sim_device *sim, uint16_t devid)
{
	uint8_t *c = sim->cfg;

	put16(c + PCI_CFG_VENDOR_ID, PCI_VENDOR_ID_INTEL);
	put16(c + PCI_CFG_DEVICE_ID, devid);
	put16(c + PCI_CFG_COMMAND, PCI_CMD_IO_SPACE | PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER);
	c[PCI_CFG_REVISION] = 0x06;
	put16(c + PCI_CFG_CLASS_DEVICE, PCI_CLASS_DISPLAY_VGA);
	put32(c + PCI_CFG_BAR(0), (uint32_t)SIM_BAR0_BASE | PCI_BAR_MEM_TYPE_64);
	put32(c + PCI_CFG_BAR(1), (uint32_t)(SIM_BAR0_BASE >> 32));
	put32(c + PCI_CFG_BAR(2), (uint32_t)SIM_BAR2_BASE | PCI_BAR_MEM_TYPE_64 | PCI_BAR_MEM_PREFETCH);
	put32(c + PCI_CFG_BAR(3), (uint32_t)(SIM_BAR2_BASE >> 32));
	put32(c + PCI_CFG_BAR(4), SIM_BAR4_BASE | PCI_BAR_IO);
	put16(c + PCI_CFG_SUBSYS_VENDOR, PCI_VENDOR_ID_INTEL);
	put16(c + PCI_CFG_SUBSYS_ID, 0x2212);
	/*
	 * Stolen memory's base: gen11 moved BDSM to a 64-bit pair at 0xc0/0xc4
	 * and left 0x5c reading zero; earlier parts have it at 0x5c. Bits 19:0
	 * hold the lock bit, set by firmware.
	 */
	if (sim->plat->bdsm == BDSM_64) {
		put32(c + INTEL_GEN11_BSM_DW0, (uint32_t)SIM_STOLEN_BASE | 1);
		put32(c + INTEL_GEN11_BSM_DW1, (uint32_t)(SIM_STOLEN_BASE >> 32));
	} else {
		put32(c + INTEL_BSM, (uint32_t)SIM_STOLEN_BASE | 1);
	}
}

void sim_config_vf(struct sim_device *sim)
{
	uint8_t *c = sim->cfg;

	gtt_memset(c + PCI_CFG_BAR(2), 0, 8);
	gtt_memset(c + INTEL_BSM, 0, 4);
	if (sim->plat->bdsm == BDSM_64)
		gtt_memset(c + INTEL_GEN11_BSM_DW0, 0, 8);
}

bool sim_mem_decode_enabled(const struct sim_device *sim)
{
	return sim->cfg[PCI_CFG_COMMAND] & PCI_CMD_MEM_SPACE;
}

/* Mask of the bits software may write in a BAR dword, given the sizes. */
static uint32_t bar_dword_mask(const struct sim_device *sim, unsigned dw)
{
	switch (dw) {
	case 0: case 2: {
		uint64_t size = sim->bar_size[dw];
		return (uint32_t)~(size - 1) & PCI_BAR_MEM_MASK;
	}
	case 1: case 3:
		/* upper half of a 64-bit BAR below 4 GiB: all address bits */
		return 0xffffffffu;
	case 4:
		return ~(SIM_BAR4_SIZE - 1) & PCI_BAR_IO_MASK;
	}
	return 0;	/* BAR5: not implemented, reads as zero */
}

static void cfg_write32(struct sim_device *sim, unsigned off, uint32_t val, uint32_t bytes_mask)
{
	uint32_t old = get32(sim->cfg + off), wmask = 0;

	if (off >= PCI_CFG_BAR(0) && off <= PCI_CFG_BAR(5)) {
		unsigned dw = (off - PCI_CFG_BAR(0)) / 4;
		uint32_t m = bar_dword_mask(sim, dw);
		/* low flag bits are hard-wired */
		wmask = m;
	} else if (off == PCI_CFG_COMMAND) {
		wmask = PCI_CMD_IO_SPACE | PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER;
	} else if (off == PCI_CFG_INTERRUPT_LINE) {
		wmask = 0xff;
	}
	wmask &= bytes_mask;
	put32(sim->cfg + off, (old & ~wmask) | (val & wmask));
}

uint32_t sim_cfg_read(struct sim_device *sim, unsigned off, unsigned width)
{
	uint32_t v;

	if (sim->gone) {
		v = width == 4 ? 0xffffffffu : (1u << (8 * width)) - 1;
	} else if (off >= PCI_CFG_SIZE || width > PCI_CFG_SIZE - off || (width != 1 && width != 2 && width != 4) ||
		   off % width) {
		v = 0;
	} else {
		uint32_t dw = get32(sim->cfg + (off & ~3u));
		v = dw >> (8 * (off & 3));
		if (width < 4)
			v &= (1u << (8 * width)) - 1;
	}
	sim_trace_record(sim, SIM_CFG_READ, width, off, v);
	return v;
}

void sim_cfg_write(struct sim_device *sim, unsigned off, unsigned width, uint32_t val)
{
	sim_trace_record(sim, SIM_CFG_WRITE, width, off, val);
	/* off + width would wrap for an offset near 2^32 (a journal's record, a fuzzer's) */
	if (sim->gone || off >= PCI_CFG_SIZE || width > PCI_CFG_SIZE - off || (width != 1 && width != 2 && width != 4) ||
	    off % width)
		return;
	unsigned shift = 8 * (off & 3);
	uint32_t bytes = (width == 4 ? 0xffffffffu : (1u << (8 * width)) - 1) << shift;
	cfg_write32(sim, off & ~3u, val << shift, bytes);
}
