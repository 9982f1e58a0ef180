/* SPDX-License-Identifier: MIT */
#include "hosted/backends.h"
#include "dom0/guest_device.h"
#include "hw/backend_sim.h"
#include "hw/linux/backend_linux.h"
#include "hw/linux/backend_pv_client.h"

const struct hw_backend_factory *const gtt_posix_backends[] = {
	&hw_sim_backend,
	&hw_linux_pci_backend,
	&hw_linux_auto_backend,
	&dom0_guest_device_backend,	/* vgpu:sim[:PLATFORM][,KEY=VALUE...]: a vGPU of our own runtime */
	&hw_pv_client_backend,		/* pv:SOCKET: a vGPU `gttlab dom0 serve` serves, as an ivshmem client */
};

const size_t gtt_num_posix_backends = sizeof(gtt_posix_backends) / sizeof(gtt_posix_backends[0]);
