/* SPDX-License-Identifier: MIT */
/*
 * An EFI_PCI_IO_PROTOCOL instance backed by the simulated device. When no
 * Intel GPU is present (QEMU), the application installs one on a new handle,
 * and the efi backend finds it through LocateHandleBuffer like a real GPU, so
 * the same backend code runs in CI as on hardware.
 */
#ifndef EFI_PCIIO_SIM_H
#define EFI_PCIIO_SIM_H

#include <efi.h>

#include "hw/sim/sim.h"

/* The location the instance reports: segment 0xffff keeps it apart from any real 0000:00:02.0. */
#define PCIIO_SIM_SEGMENT 0xffff

/* The second instance, a migration's target device (checks/checks_migration.c). */
#define PCIIO_SIM_PEER_SEGMENT 0xfffe

/* Create the model (params may be NULL: sim_create's) and install the protocol on a new handle. */
int pciio_sim_install(const struct gtt_env *env, const struct gtt_platform *plat, const struct sim_params *params,
		      EFI_HANDLE *handle, struct gtt_err *err);
/* The same, reporting PCI segment `segment` (SSSS:00:02.0). */
int pciio_sim_install_at(const struct gtt_env *env, const struct gtt_platform *plat, const struct sim_params *params,
			 unsigned segment, EFI_HANDLE *handle, struct gtt_err *err);
/* The model behind an EFI_PCI_IO_PROTOCOL, if it is one of ours; NULL otherwise. */
struct sim_device *pciio_sim_model(EFI_PCI_IO_PROTOCOL *p);

#endif
