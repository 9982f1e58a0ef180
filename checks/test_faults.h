/* SPDX-License-Identifier: MIT */
/*
 * Faults a test injects into the simulated device to prove that a front-end
 * reports what it must: a lost GGTT invalidate (checks fail), a device that
 * stops taking writes (the restore cannot read back: abort), and a live
 * display plane (the checks keep clear of it). For tests
 * only, refused on anything but the model, and compiled only into the test
 * build (-DGTTLAB_FAULTS: build/faults/gttlab, build/faults/igt/,
 * build/faults/efi/gttlab.efi). Freestanding: there the EFI application
 * (--fault), `gttlab check` and the IGT binaries (GTTLAB_TEST_FAULT) share it.
 */
#ifndef CHECKS_TEST_FAULTS_H
#define CHECKS_TEST_FAULTS_H

#include "hw/device.h"

/* The names test_fault_inject knows, for messages. */
#define TEST_FAULT_NAMES "drop-flush, freeze-fence, plane"

/*
 * drop-flush:   every GFX_FLSH_CNTL_GEN6 write is lost;
 * freeze-fence: fence 0's LO register takes two more writes (a check's), then
 *               none (so its restore does not read back);
 * plane:        pipe A's primary plane is enabled, scanning out a linear
 *               1920x1080 surface (stride 7680) from the middle of the
 *               aperture, where claims go first (so every front-end can be
 *               shown to keep clear of it).
 * GTT_EINVAL for another name or a device that is not the model.
 */
int test_fault_inject(struct hw_device *dev, const char *name, struct gtt_err *err);

#endif
