/* SPDX-License-Identifier: MIT */
/* The PVINFO page's and the request channel's state (dom0/pvinfo.h, dom0/gm_request.h). */
#ifndef DOM0_PVINFO_TYPES_H
#define DOM0_PVINFO_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "dom0/types.h"

/* A vGPU's PVINFO page and its request channel; owned by dom0/pvinfo.c and dom0/gm_request.c. */
struct dom0_vgpu_pv {
	/* the page's words, as the guest reads them */
	uint32_t pvinfo[VGT_PVINFO_WORDS];
	/* the pending request's arrival number; 0: none pending */
	uint64_t req_arrival;
	/* the pending request, latched at the notify (the guest may rewrite the words) */
	uint32_t req_code, req_count, req_seq;
	/* the SEQ of the last request accepted (pending, then answered): its answer is its own */
	uint32_t last_seq;
	/* a request has been accepted, so last_seq means one */
	bool any_seq;
	/* the eviction count it reported last */
	uint32_t evictions;
};

/* What the request channel answered (dom0_channel_stats); counted where each answer is given. */
struct dom0_channel_stats {
	uint64_t requests;		/* valid requests made pending */
	uint64_t granted;		/* answered GRANTED (at once, or when admission ran them) */
	uint64_t refused_policy;	/* refused: the policy's high class */
	uint64_t refused_room;		/* refused: no room (or a pause past its deadline) */
	uint64_t malformed;		/* refused at the notify: a bad code, count or SEQ */
	uint64_t noted;			/* eviction reports noted without a change */
	uint64_t withdrawn;		/* requests the guest took back (pending or paused) before their answer */
	uint64_t evict_expansions;	/* expansions a rising eviction count asked for */
};

/* The runtime's requests; owned by dom0/pvinfo.c. */
struct dom0_requests {
	/* requests made pending so far: each pending request's arrival number */
	uint64_t arrivals;
};

#endif
