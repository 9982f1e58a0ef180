/* SPDX-License-Identifier: MIT */
/* The graphics-memory request channel's answers (policy): serving pending requests. */
#ifndef DOM0_GM_REQUEST_H
#define DOM0_GM_REQUEST_H

#include "dom0/types.h"

/* Answer every pending request, oldest first, by the policy's current class; *answered (if given) counts them. */
int dom0_serve_requests(struct dom0_runtime *rt, unsigned *answered, struct gtt_err *err);

#endif
