/* SPDX-License-Identifier: MIT */
/*
 * "pv:SOCKET[,wait=poll|pause|sleep][,timeout=MS]": a vGPU that `gttlab dom0 serve` serves,
 * reached as QEMU's ivshmem-doorbell reaches it: this process connects to
 * the guest slot's socket as an ivshmem client (the version, its ID, the
 * shared memory, the host's eventfd, its own), maps the shared memory and
 * speaks the transport (hw/backend_pv.h) over it; wait=sleep blocks on this
 * client's vector (its eventfd, which the host rings with every answer);
 * timeout= is how long a still heartbeat means a lost host (10 s). The same bytes a guest's
 * gttlab.efi moves through the device's BARs, without a VM: for tests and
 * for benchmarks against the in-process vgpu: device.
 */
#ifndef HW_LINUX_BACKEND_PV_CLIENT_H
#define HW_LINUX_BACKEND_PV_CLIENT_H

#include "hw/backend.h"

extern const struct hw_backend_factory hw_pv_client_backend;

#endif
