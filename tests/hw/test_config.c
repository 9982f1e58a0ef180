/* SPDX-License-Identifier: MIT */
/* PCI config space of the model, BAR sizing, GMCH (GGMS/GMS) decoding, detection. */
#include <criterion/criterion.h>
#include <string.h>

#include "hw/device.h"
#include "regs/pci_config.h"
#include "tests/helpers.h"

Test(config, bar_sizing_reads_back_the_size_mask)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);

	uint32_t lo = sim_cfg_read(s, PCI_CFG_BAR(0), 4);
	cr_expect_eq(lo, 0xf0000004u, "BAR0 0x%08x", lo);
	sim_cfg_write(s, PCI_CFG_BAR(0), 4, 0xffffffffu);
	sim_cfg_write(s, PCI_CFG_BAR(1), 4, 0xffffffffu);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(0), 4), 0xff000004u, "16 MiB, 64-bit");
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(1), 4), 0xffffffffu);
	sim_cfg_write(s, PCI_CFG_BAR(2), 4, 0xffffffffu);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(2), 4), 0xf000000cu, "256 MiB, 64-bit prefetchable");
	sim_cfg_write(s, PCI_CFG_BAR(4), 4, 0xffffffffu);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(4), 4), 0xffffffc1u, "64-byte I/O BAR");
	hw_close(dev);

	dev = t_open("sim:hsw");
	s = t_sim(dev);
	sim_cfg_write(s, PCI_CFG_BAR(0), 4, 0xffffffffu);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(0), 4), 0xffc00004u, "hsw BAR0 is 4 MiB");
	sim_cfg_write(s, PCI_CFG_BAR(2), 4, 0xffffffffu);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(2), 4), 0xe000000cu, "hsw aperture is 512 MiB");
	hw_close(dev);
}

Test(config, detection_restores_bars_and_decoding)
{
	struct hw_device *dev = t_open("sim:kbl");
	struct sim_device *s = t_sim(dev);

	/* hw_open sized both BARs; they must hold their bases again, decoding on */
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(0), 4), 0xf0000004u);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_BAR(2), 4), 0xc000000cu);
	cr_expect(sim_cfg_read(s, PCI_CFG_COMMAND, 2) & PCI_CMD_MEM_SPACE);
	cr_expect_eq(dev->info.aperture_size, 256u << 20);
	cr_expect_eq(dev->info.bar0_size, 16u << 20);
	hw_close(dev);
}

Test(config, memory_decoding_off_reads_all_ones)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	uint8_t b;

	sim_cfg_write(s, PCI_CFG_COMMAND, 2, 0);
	cr_expect_eq(sim_mmio_read32(s, 0x100000), 0xffffffffu);
	sim_aperture_read(s, 0, &b, 1);
	cr_expect_eq(b, 0xff);
	hw_close(dev);
}

Test(config, ggms_and_gms_decoding)
{
	const struct gtt_platform *snb = gtt_platform_by_name("snb"), *bdw = gtt_platform_by_name("bdw"),
				  *skl = gtt_platform_by_name("skl");
	unsigned ggms, gms;

	/* docs/hardware.md §1.3 */
	cr_expect_eq(hw_gsm_size_from_ggms(snb, 1), 1u << 20);
	cr_expect_eq(hw_gsm_size_from_ggms(snb, 2), 2u << 20);
	cr_expect_eq(hw_gsm_size_from_ggms(bdw, 0), 0);
	cr_expect_eq(hw_gsm_size_from_ggms(bdw, 1), 2u << 20);
	cr_expect_eq(hw_gsm_size_from_ggms(bdw, 2), 4u << 20);
	cr_expect_eq(hw_gsm_size_from_ggms(skl, 3), 8u << 20);
	cr_expect_eq(hw_stolen_size_from_gms(snb, 1), 32u << 20);
	cr_expect_eq(hw_stolen_size_from_gms(snb, 0x10), 512u << 20);
	cr_expect_eq(hw_stolen_size_from_gms(bdw, 0x40), 2048ull << 20);
	cr_expect_eq(hw_stolen_size_from_gms(skl, 0xef), 0xefull << 25);
	cr_expect_eq(hw_stolen_size_from_gms(skl, 0xf0), 4u << 20);
	cr_expect_eq(hw_stolen_size_from_gms(skl, 0xf3), 16u << 20);
	/* field positions: SNB GGMS 9:8 GMS 7:3; BDW GGMS 7:6 GMS 15:8 */
	hw_gmch_fields(snb, 0x0208, &ggms, &gms);
	cr_expect(ggms == 2 && gms == 1, "snb 0x0208 -> GGMS %u GMS %u", ggms, gms);
	hw_gmch_fields(skl, 0x01c0, &ggms, &gms);
	cr_expect(ggms == 3 && gms == 1, "skl 0x01c0 -> GGMS %u GMS %u", ggms, gms);
	hw_gmch_fields(skl, 0xf140, &ggms, &gms);
	cr_expect(ggms == 1 && gms == 0xf1);
}

Test(config, info_of_the_default_platforms)
{
	struct hw_device *dev = t_open("sim:hsw");

	cr_expect_eq(dev->info.devid, 0x0412);
	cr_expect_eq(dev->info.ggtt_size, 2ull << 30);
	cr_expect_eq(dev->info.n_ptes, 524288);
	cr_expect_eq(dev->info.pte_size, 4);
	cr_expect_eq(dev->info.gsm_size, 2u << 20);
	cr_expect_eq(dev->info.aperture_size, 512u << 20);
	cr_expect_eq(dev->info.num_fences, 32);
	hw_close(dev);
	dev = t_open("sim");
	cr_expect_eq(dev->info.devid, 0x1912);
	cr_expect_eq(dev->info.ggtt_size, 4ull << 30);
	cr_expect_eq(dev->info.n_ptes, 1048576);
	cr_expect_eq(dev->info.pte_size, 8);
	cr_expect_eq(dev->info.gsm_offset, 8u << 20);
	cr_expect_eq(dev->info.aperture_size, 256u << 20);
	hw_close(dev);
	dev = t_open("sim:snb");
	cr_expect_eq(dev->info.num_fences, 16);
	hw_close(dev);
}

Test(config, device_strings_are_checked)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	const struct hw_backend_factory *b[] = { &hw_sim_backend };
	struct hw_device *sim = t_open("sim");
	const struct gtt_env *env = sim->env;

	cr_expect_eq(hw_open(env, "sim:xyz", b, 1, NULL, &dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "xyz") && strstr(err.msg, "skl"), "%s", err.msg);
	cr_expect_eq(hw_open(env, "gpu0", b, 1, NULL, &dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "gpu0") && strstr(err.msg, "sim[:PLATFORM"), "%s", err.msg);
	/* "sim:" once opened a Skylake: a colon promises an argument */
	cr_expect_eq(hw_open(env, "sim:", b, 1, NULL, &dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "nothing after the colon"), "%s", err.msg);
	hw_close(sim);
}

Test(config, a_gone_device_is_refused)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	struct gtt_err err = { 0 };

	sim_fault_gone(s, true);
	cr_expect_eq(sim_cfg_read(s, PCI_CFG_VENDOR_ID, 2), 0xffff);
	cr_expect_eq(sim_mmio_read32(s, 0x101000), 0xffffffffu);
	cr_expect_eq(hw_detect(dev, &err), GTT_ENODEV);
	cr_expect(strstr(err.msg, "all ones"), "%s", err.msg);
	hw_close(dev);
}
