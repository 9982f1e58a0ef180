/* SPDX-License-Identifier: MIT */
/*
 * "pv" and "pv:N": the vGPU `gttlab dom0 serve` serves this guest, reached
 * through QEMU's ivshmem-doorbell device (PCI 1af4:1110), the first one or
 * the N-th (from 0) found: its BAR2 (the shared memory) mapped as the PCI
 * I/O protocol reports it (identity-mapped), IVPosition and Doorbell in
 * BAR0 through Mem.Read/Write, the transport over it (hw/backend_pv.h).
 * A guest waits for answers by polling, or with "pv:N,wait=pause" by
 * polling with a 10 us stall between looks (the options follow the number:
 * "pv,wait=pause" names no scheme hw_open knows).
 */
#ifndef EFI_BACKEND_PV_EFI_H
#define EFI_BACKEND_PV_EFI_H

#include "hw/backend.h"

extern const struct hw_backend_factory hw_efi_pv_backend;

#endif
