/* SPDX-License-Identifier: MIT */
#include "harness/test_faults.h"
#include "env/fmt.h"
#include "hw/backend_sim.h"
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
	return gtt_err_set(err, GTT_EINVAL, "test fault '%s' is not one of " TEST_FAULT_NAMES, name);
}
