/* SPDX-License-Identifier: MIT */
/* The ladder map (mechanism): a guest's CPU access through its aperture. */
#ifndef DOM0_LADDER_H
#define DOM0_LADDER_H

#include "dom0/types.h"

/* Guest CPU access through its aperture, served by the ladder map (or the fence pool when fenced). */
int dom0_guest_aperture_read(struct dom0_runtime *rt, int id, uint64_t gm, void *buf, size_t len, struct gtt_err *err);
int dom0_guest_aperture_write(struct dom0_runtime *rt, int id, uint64_t gm, const void *buf, size_t len, struct gtt_err *err);

#endif
