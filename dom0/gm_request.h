/* SPDX-License-Identifier: MIT */
/* The graphics-memory request channel's answers (policy): the guest's PVINFO writes, and serving pending requests. */
#ifndef DOM0_GM_REQUEST_H
#define DOM0_GM_REQUEST_H

#include "dom0/types.h"

/*
 * The graphics-memory request channel (regs/pvinfo.h, docs/dom0.md): a guest
 * writes a PVINFO word. The request words and GVT-g's guest-writable fields
 * (display_ready, g2v_notify, cursor hot spots, pdp, execlist descriptor)
 * are accepted; any other word is refused (status BAD_WRITE, nothing else
 * changes). GTTLAB_G2V_GM_REQUEST to g2v_notify checks the request: a
 * malformed one (unknown code, Q = 0, Q beyond the slots of high memory) is
 * answered at once with its status and GTT_EINVAL; a valid one becomes
 * pending (status PENDING, the request hook called) until
 * dom0_serve_requests answers it.
 */
int dom0_pvinfo_write(struct dom0_runtime *rt, int id, uint32_t off, uint32_t val, struct gtt_err *err);
/* Answer every pending request, oldest first, by the policy's current class; *answered (if given) counts them. */
int dom0_serve_requests(struct dom0_runtime *rt, unsigned *answered, struct gtt_err *err);

#endif
