/* SPDX-License-Identifier: MIT */
#ifdef GTTLAB_FAULTS	/* the test build only (checks/session.h): the shipped binaries hold none of it */
#include "checks/test_faults.h"
#include "env/fmt.h"
#include "hw/backend_sim.h"
#include "regs/display.h"
#include "regs/mmio.h"

int test_fault_inject(struct hw_device *dev, const char *name, struct gtt_err *err)
{
	struct sim_device *sim = hw_sim_model(dev);

	if (!sim)
		return gtt_err_set(err, GTT_EINVAL, "test fault '%s': only on the simulated device, never on %s", name,
				   dev->name);
	if (!gtt_strcmp(name, "drop-flush"))
		return sim_fault_drop_writes(sim, GFX_FLSH_CNTL_GEN6, -1);
	if (!gtt_strcmp(name, "freeze-fence"))
		return sim_fault_freeze_after(sim, FENCE_REG_GEN6_LO(0), 2);
	if (!gtt_strcmp(name, "plane")) {
		uint32_t mid = (uint32_t)(dev->info.aperture_size / 2);
		if (dev->info.plat->gen >= 90) {
			sim_mmio_write32(sim, _PLANE_STRIDE_1_A, 1920 * 4 / 64);
			sim_mmio_write32(sim, _PLANE_SIZE_1_A, (1079u << 16) | 1919u);
			sim_mmio_write32(sim, _PLANE_SURF_1_A, mid);
			sim_mmio_write32(sim, _PLANE_CTL_1_A, PLANE_CTL_ENABLE);
		} else {
			sim_mmio_write32(sim, DSPSTRIDE(0), 1920 * 4);
			sim_mmio_write32(sim, PIPESRC(0), (1919u << 16) | 1079u);
			sim_mmio_write32(sim, DSPSURF(0), mid);
			sim_mmio_write32(sim, DSPCNTR(0), DISP_ENABLE);
		}
		return GTT_OK;
	}
	return gtt_err_set(err, GTT_EINVAL, "test fault '%s' is not one of " TEST_FAULT_NAMES, name);
}
#endif
