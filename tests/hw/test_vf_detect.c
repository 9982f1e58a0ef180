/* SPDX-License-Identifier: MIT */
/*
 * A device as an SR-IOV VF on the model's register file (hw/detect_vf.h,
 * hw/vf_mbox.h): VF_CAP_REG judged as docs/hardware.md §10.1 says, and the
 * mailbox's writes: the scratch flags put back by the undo log, the doorbell
 * never (putting it back would ring GuC again). The model as a PF (no ,vf)
 * has no GuC behind the VF's mailbox, so a bootstrap on it must end in its
 * "no reply" error, in bounded time; the model as a VF is
 * tests/hw/test_vf_model.c's.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/detect_vf.h"
#include "hw/backend_sim.h"
#include "hw/device.h"
#include "hw/raw_access.h"
#include "hw/undo.h"
#include "hw/vf_bootstrap.h"
#include "hw/vf_mbox.h"
#include "regs/sriov.h"

static struct hw_device *open_sim(const char *spec)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &dev,
			     &err), 0, "%s: %s", spec, err.msg);
	return dev;
}

Test(vf_detect, vf_cap_reg_bit_0_and_nothing_else)
{
	struct hw_device *dev = open_sim("sim:tgl");
	struct gtt_err err = { 0 };
	bool vf = true;

	cr_assert_eq(hw_detect_vf(dev, &vf, &err), 0, "%s", err.msg);
	cr_expect(!vf, "the model's TGL is a physical function");
	/* VF_CAP_REG is a read-only capability of the model: its value is set as a stuck register */
	sim_fault_stick(hw_sim_model(dev), VF_CAP_REG, 1);
	cr_assert_eq(hw_detect_vf(dev, &vf, &err), 0, "%s", err.msg);
	cr_expect(vf);
	static const uint32_t bad[] = { 0xffffffff, 0x3, 0x80000001 };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char want[64];
		vf = false;
		sim_fault_stick(hw_sim_model(dev), VF_CAP_REG, bad[i]);
		cr_expect_eq(hw_detect_vf(dev, &vf, &err), GTT_EIO, "0x%08x", bad[i]);
		snprintf(want, sizeof(want), "reads 0x%08x: bits beyond bit 0", bad[i]);
		cr_expect(strstr(err.msg, want), "%s", err.msg);
		cr_expect(!vf, "untouched");
	}
	sim_fault_clear(hw_sim_model(dev));
	hw_close(dev);

	dev = open_sim("sim:skl");
	vf = true;
	sim_fault_stick(hw_sim_model(dev), VF_CAP_REG, 1);	/* a gen9 part has no such register: not even read */
	cr_assert_eq(hw_detect_vf(dev, &vf, &err), 0, "%s", err.msg);
	cr_expect(!vf);
	hw_close(dev);
}

Test(vf_mbox, flags_are_put_back_the_doorbell_never, .timeout = 60)
{
	struct hw_device *dev = open_sim("sim:tgl");
	struct gtt_err err = { 0 };
	struct hw_guc_mbox mb;
	struct hw_vf_boot b;

	for (unsigned i = 0; i < 4; i++)
		hw_raw_mmio_put(dev, VF_SW_FLAG(i), 4, 0x11 + i);
	hw_raw_mmio_put(dev, GUC_HOST_INTERRUPT, 4, 0x5);
	hw_vf_mbox(dev, false, &mb);
	/* no GuC behind the model's registers: every VF_RESET goes unanswered, and the bootstrap ends */
	cr_assert_eq(hw_vf_bootstrap(&mb, false, WOPCM_SIZE_DEFAULT, &b, &err), GTT_EIO);
	cr_expect(strstr(err.msg, "VF_RESET: no reply to 10 tries of 50 ms"), "%s", err.msg);
	cr_expect_eq(hw_raw_mmio_get(dev, VF_SW_FLAG(0), 4), 0x5507, "the request in flag 0");
	cr_expect_eq(hw_raw_mmio_get(dev, GUC_HOST_INTERRUPT, 4), 0, "the doorbell rung with 0");
	cr_assert_eq(hw_undo_restore(dev, &err), 0, "%s", err.msg);
	cr_expect_eq(hw_raw_mmio_get(dev, VF_SW_FLAG(0), 4), 0x11, "flag 0 put back");
	cr_expect_eq(hw_raw_mmio_get(dev, VF_SW_FLAG(1), 4), 0x12, "flag 1 as found (never written)");
	cr_expect_eq(hw_raw_mmio_get(dev, GUC_HOST_INTERRUPT, 4), 0, "the doorbell not put back: 0 rings, 0x5 would too");
	hw_close(dev);

	dev = open_sim("sim:tgl");
	hw_vf_mbox(dev, true, &mb);
	cr_expect(mb.flag0 == MED_VF_SW_FLAG(0) && mb.doorbell == MED_GUC_HOST_INTERRUPT, "the media GT's mailbox");
	hw_close(dev);
}
