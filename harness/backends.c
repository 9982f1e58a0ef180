/* SPDX-License-Identifier: MIT */
#include "harness/backends.h"
#include "dom0/guest_device.h"
#include "hw/backend_sim.h"
#include "hw/linux/backend_linux.h"

const struct hw_backend_factory *const gtt_posix_backends[] = {
	&hw_sim_backend,
	&hw_linux_pci_backend,
	&hw_linux_auto_backend,
	&dom0_guest_device_backend,	/* vgpu:sim[:PLATFORM][,KEY=VALUE...]: a vGPU of our own runtime */
};

const size_t gtt_num_posix_backends = sizeof(gtt_posix_backends) / sizeof(gtt_posix_backends[0]);
