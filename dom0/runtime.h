/* SPDX-License-Identifier: MIT */
/* The runtime's start and end (dom0/runtime.c): the layout it derives, the snapshot it restores. */
#ifndef DOM0_RUNTIME_H
#define DOM0_RUNTIME_H

#include "dom0/runtime_types.h"
#include "dom0/types.h"

/* The host's low range when the config leaves it at 0: 64 MiB, a quarter of a smaller aperture. */
uint64_t dom0_default_host_low(uint64_t aperture_size);

/* Start the runtime on an open device; snapshots the physical GTT and fences it will manage. */
int dom0_init(struct hw_device *dev, const struct dom0_config *cfg, struct dom0_runtime **out,
	      struct gtt_err *err);
/*
 * The runtime's end beneath its parts: put the GGTT and fences back
 * byte-identical, read every PTE and fence back against the snapshot, free
 * the runtime. Its vGPUs are gone already (dom0_fini, dom0/ops.h, removes
 * them first). GTT_EIO naming the entries (the first three and how many)
 * that do not read back as found; err may be NULL.
 */
int dom0_runtime_end(struct dom0_runtime *rt, struct gtt_err *err);
/* Replace the hooks given in the config (a hosted service installs its doorbell here). */
void dom0_set_hooks(struct dom0_runtime *rt, const struct dom0_hooks *h);
/* Admission off from now on (a runtime going away admits nothing paused on the way: dom0_fini). */
void dom0_admission_off(struct dom0_runtime *rt);
/* The layout dom0_init would make on a device with these facts (cfg NULL: the defaults); touches nothing. */
int dom0_layout_for(const struct hw_info *in, const struct dom0_config *cfg, struct dom0_layout *out, struct gtt_err *err);

#endif
