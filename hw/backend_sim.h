/* SPDX-License-Identifier: MIT */
/* The sim backend: hw/'s operations table over the model in hw/sim/. */
#ifndef HW_BACKEND_SIM_H
#define HW_BACKEND_SIM_H

#include "hw/device_spec.h"
#include "hw/handle.h"
#include "hw/sim/sim.h"

/*
 * Opens "sim" (Skylake) and "sim:PLATFORM" for the platforms with a model
 * (snb, ivb, hsw, bdw, skl, kbl, cfl, icl, tgl, adlp); "sim:PLATFORM,edram"
 * is the same part with eDRAM (HSW_EDRAM_CAP set; Haswell and later);
 * "sim:PLATFORM,vf[,fault=NAME]" the part as an SR-IOV VF (gen12).
 */
extern const struct hw_backend_factory hw_sim_backend;

/*
 * The model's parameters a parsed sim: string asks for (eDRAM, VF, a VF's
 * fault), judged: GTT_EINVAL naming the option and the rule it broke. The
 * sim backend and the EFI application's model as a PCI function share it.
 */
int hw_sim_params_of(const struct hw_device_spec *spec, struct sim_params *out, struct gtt_err *err);

/* The model behind a device (the sim backend, or the EFI backend over the model), NULL for real hardware. */
struct sim_device *hw_sim_model(const struct hw_device *dev);

#endif
