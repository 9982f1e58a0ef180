/* SPDX-License-Identifier: MIT */
/* The model's fault injection and access trace. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "hw/ggtt.h"
#include "regs/mmio.h"
#include "tests/helpers.h"

Test(sim_faults, drop_a_write)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);

	cr_assert_eq(sim_fault_drop_writes(s, FENCE_REG_GEN6_HI(2), 1), 0);
	sim_mmio_write32(s, FENCE_REG_GEN6_HI(2), 0x1234000);
	cr_expect_eq(sim_mmio_read32(s, FENCE_REG_GEN6_HI(2)), 0, "the first write was to be dropped");
	sim_mmio_write32(s, FENCE_REG_GEN6_HI(2), 0x1234000);
	cr_expect_eq(sim_mmio_read32(s, FENCE_REG_GEN6_HI(2)), 0x1234000, "only one write was to be dropped");
	hw_close(dev);
}

Test(sim_faults, stuck_register)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	uint64_t v;

	cr_assert_eq(sim_fault_stick(s, hw_ggtt_pte_offset(dev, 9), 0xdead0001), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, 9, 0x5001, NULL), 0);
	hw_ggtt_read_pte(dev, 9, &v, NULL);
	cr_expect_eq((uint32_t)v, 0xdead0001, "a stuck register must read its stuck value");
	sim_fault_clear(s);
	hw_ggtt_read_pte(dev, 9, &v, NULL);
	cr_expect_eq(v, 0xdead0001, "the register keeps its stuck value; the write made while stuck is lost");
	/* and the hardware uses it: after a flush the translation follows the stuck PTE */
	hw_ggtt_invalidate(dev);
	uint8_t b;
	sim_mem_write(s, 0xdead0000ull + 8, "\x77", 1);
	sim_aperture_read(s, 9 * 4096 + 8, &b, 1);
	cr_expect_eq(b, 0x77, "the stuck PTE is what the TLB translates with");
	hw_close(dev);
}

Test(sim_faults, trace_records_in_order)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	struct sim_trace_entry e;

	cr_assert_eq(sim_trace_start(s, 4), 0);
	for (uint32_t i = 0; i < 6; i++)
		sim_mmio_write32(s, 0x78000 + 4 * i, i);
	cr_expect_eq(sim_trace_len(s), 4, "the ring holds its capacity");
	cr_assert(sim_trace_get(s, 0, &e));
	cr_expect(e.kind == SIM_MMIO_WRITE && e.addr == 0x78008 && e.value == 2, "oldest held is the third write");
	cr_assert(sim_trace_get(s, 3, &e));
	cr_expect_eq(e.addr, 0x78014);
	cr_expect_str_eq(sim_access_name(e.kind), "mmio-write");
	hw_close(dev);
}

Test(sim_faults, translation_fault_on_invalid_pte)
{
	struct hw_device *dev = t_open("sim:hsw");
	struct sim_device *s = t_sim(dev);
	uint8_t b = 0x55;

	cr_assert_eq(hw_ggtt_write_pte(dev, 3, 0, NULL), 0);
	hw_ggtt_invalidate(dev);
	uint64_t before = sim_access_count(s, SIM_TRANSLATION_FAULT);
	sim_aperture_read(s, 3 * 4096, &b, 1);
	cr_expect_eq(b, 0);
	cr_expect_eq(sim_access_count(s, SIM_TRANSLATION_FAULT), before + 1);
	hw_close(dev);
}

Test(sim_faults, snapshot_round_trip)
{
	struct hw_device *dev = t_open("sim:hsw");
	struct sim_device *s = t_sim(dev);
	size_t n = sim_snapshot_size(s);
	uint8_t *buf = malloc(n);

	cr_assert_eq(n, 2u << 20);
	sim_mmio_write32(s, FENCE_REG_GEN6_LO(4), 0x00200001);
	sim_snapshot_save(s, buf);
	cr_expect_eq(buf[FENCE_REG_GEN6_LO(4)], 0x01, "little-endian bytes at their offsets");
	cr_expect_eq(buf[FENCE_REG_GEN6_LO(4) + 2], 0x20);
	cr_expect_eq(buf[TILECTL], TILECTL_SWZCTL);
	sim_mmio_write32(s, FENCE_REG_GEN6_LO(4), 0);
	cr_assert_eq(sim_snapshot_load(s, buf, n, NULL), 0);
	cr_expect_eq(sim_mmio_read32(s, FENCE_REG_GEN6_LO(4)), 0x00200001);
	cr_expect_eq(sim_snapshot_load(s, buf, 100, NULL), GTT_EINVAL);
	free(buf);
	hw_close(dev);
}

/* A fault in one tile of a fenced row must not take the row's other tiles with it. */
Test(sim_faults, fault_inside_a_fence_stays_in_its_tile)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	uint64_t base = sim_alloc_pages(s, 8), gm = 0x400000;
	uint8_t row[4096];

	for (unsigned p = 0; p < 8; p++) {
		uint8_t fill[4096];
		for (unsigned b = 0; b < 4096; b++)
			fill[b] = (uint8_t)(0x10 + p);
		sim_mem_write(s, base + p * 4096, fill, 4096);
		uint64_t pte = (base + p * 4096) | 1;
		sim_mmio_write64(s, dev->info.gsm_offset + (uint32_t)((gm / 4096 + p) * 8), p ? pte : 0);	/* tile 0 invalid */
	}
	sim_mmio_write32(s, 0x101008, 1);
	/* X fence, pitch 4096: row 0 is 512 bytes of each of the 8 tiles */
	sim_mmio_write32(s, 0x100004, (uint32_t)(gm + 7 * 4096) | (4096 / 128 - 1));
	sim_mmio_write32(s, 0x100000, (uint32_t)gm | 1);
	sim_aperture_read(s, gm, row, sizeof(row));
	cr_expect_eq(row[0], 0, "tile 0 faults");
	for (unsigned t = 1; t < 8; t++)
		cr_expect_eq(row[t * 512], 0x10 + t, "byte %u of row 0 (tile %u) reads 0x%02x", t * 512, t, row[t * 512]);
	hw_close(dev);
}
