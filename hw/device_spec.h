/* SPDX-License-Identifier: MIT */
/*
 * The device grammar: a device string parsed once, into what every
 * front-end (the CLI, the IGT binaries, gttlab.efi) and every backend
 * reads. Freestanding.
 *
 *   sim[:PLATFORM[,edram]]                      the model (a platform with one: gttlab info --platforms)
 *   sim:PLATFORM,vf[,fault=NAME]                the model as an SR-IOV VF (gen12; faults: docs/model.md)
 *   vgpu:sim[:PLATFORM][,edram][,KEY=VALUE...]  a vGPU of the Dom0 runtime on that model (keys: docs/guest.md)
 *   pv[:TARGET[,KEY=VALUE...]]                  a vGPU `gttlab dom0 serve` serves (TARGET: hosted the socket,
 *                                               in gttlab.efi the ivshmem device's index)
 *   pci:ADDRESS, efi:ADDRESS                    a PCI function (hosted; gttlab.efi)
 *   auto                                        the first Intel display device
 *   SCHEME:ARG                                  another backend's own (ARG is its target)
 *
 * The grammar checks the form, the model's platform and its flags, and that
 * options are KEY=VALUE, each key once; the backend a scheme names judges
 * its target and which keys and values it takes.
 */
#ifndef HW_DEVICE_SPEC_H
#define HW_DEVICE_SPEC_H

#include <stdbool.h>

#include "env/env.h"
#include "env/err.h"
#include "regs/platform.h"

/* The model's platform when a string names none (sim, vgpu:sim), and a codec's without a device. */
#define HW_SIM_DEFAULT_PLATFORM "skl"
/* The device the hosted front-ends open when none is given. */
#define HW_DEVICE_DEFAULT "sim:" HW_SIM_DEFAULT_PLATFORM

#define HW_SPEC_MAX 128		/* a device string's length, the NUL included */
#define HW_SPEC_MAX_OPTS 12	/* KEY=VALUE options in one string */

/* One KEY=VALUE option. */
struct hw_spec_opt {
	char key[16];
	char value[40];
};

/* A device string, parsed. */
struct hw_device_spec {
	char text[HW_SPEC_MAX];		/* the string as given: the device's name in every report */
	char scheme[16];		/* before the first ':': sim, vgpu, pv, pci, efi, auto or another backend's */
	char target[HW_SPEC_MAX];	/* pci:/efi: the address; pv: the socket or index ("" none); SCHEME:ARG ARG; else "" */
	const struct gtt_platform *plat;	/* sim: and vgpu:'s host: the model's platform, named or the default; else NULL */
	bool edram;			/* sim: and vgpu:'s host: the model has eDRAM (,edram) */
	bool vf;			/* sim: the model is an SR-IOV VF (,vf) */
	char host[48];			/* vgpu: its host's own string, sim:PLATFORM[,edram]; else "" */
	unsigned n_opts;		/* sim:, vgpu:, pv: how many options */
	struct hw_spec_opt opts[HW_SPEC_MAX_OPTS];	/* sim:, vgpu:, pv: the KEY=VALUE options, in the order given */
};

/* S into SPEC; GTT_EINVAL naming the part of S and the rule it broke. */
int hw_device_spec_parse(const char *s, struct hw_device_spec *spec, struct gtt_err *err);
/* SPEC for the model PLAT (NULL: the default), with eDRAM or not: what sim:PLATFORM[,edram] parses to. */
void hw_device_spec_model(struct hw_device_spec *spec, const struct gtt_platform *plat, bool edram);
/* Whether SPEC is the model itself (sim:) or a vGPU on it (vgpu:). */
bool hw_device_spec_is_model(const struct hw_device_spec *spec);
/* The value of option KEY, or NULL when it was not given. */
const char *hw_spec_opt(const struct hw_device_spec *spec, const char *key);
/* GTT_EINVAL naming the first option whose key is not among KEYS (NULL-terminated; USAGE says the rule). */
int hw_spec_opts_only(const struct hw_device_spec *spec, const char *const *keys, const char *usage, struct gtt_err *err);

#endif
