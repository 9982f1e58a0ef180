/* SPDX-License-Identifier: MIT */
/*
 * The Dom0 runtime for code outside dom0/ (the harness, front-ends, tests,
 * benchmarks): every part's header. Files of dom0/ include the parts they
 * call, never this one, so their includes show the arrows between them.
 */
#ifndef DOM0_DOM0_H
#define DOM0_DOM0_H

#include "dom0/runtime.h"
#include "dom0/state.h"
#include "dom0/vgpu.h"
#include "dom0/vgpu_info.h"
#include "dom0/guest_gtt.h"
#include "dom0/fence_pool.h"
#include "dom0/ladder.h"
#include "dom0/switch.h"
#include "dom0/slots.h"
#include "dom0/pvinfo.h"
#include "dom0/admission.h"
#include "dom0/ops.h"
#include "dom0/gm_request.h"
#include "dom0/policy.h"
#include "dom0/sched.h"
#include "dom0/migrate.h"
#include "dom0/rebalance.h"
#include "dom0/compact.h"
#include "dom0/guest_device.h"

#endif
