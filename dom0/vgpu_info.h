/* SPDX-License-Identifier: MIT */
/* What a vGPU holds and waits on, gathered from the parts that own it (dom0/vgpu_info.c). */
#ifndef DOM0_VGPU_INFO_H
#define DOM0_VGPU_INFO_H

#include "dom0/vgpu_types.h"
#include "dom0/types.h"

int dom0_vgpu_info(const struct dom0_runtime *rt, int id, struct dom0_vgpu_info *out);

#endif
