/* SPDX-License-Identifier: MIT */
/* Admission's types (dom0/admission.h): its policies and its deadline. */
#ifndef DOM0_ADMISSION_TYPES_H
#define DOM0_ADMISSION_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "dom0/types.h"

/*
 * Admission (ConVGPU §III-C): with a policy, a create, an expansion or a
 * guest fence that does not fit is paused instead of refused, and every
 * release (destroy, reduce, a fence given back, a migration) lets the policy
 * choose a paused request: FIFO the oldest created, BF the one whose need is closest
 * to the free memory without exceeding it (else the least short), RU the
 * most recently paused, RAND one at random from the config's seed. A
 * chosen create holds the places that free in its best run of slots until
 * the run is whole, then runs; what it cannot use goes to the next choice
 * (dom0/admission.c). While any request is paused, new ones queue behind
 * it. A paused vGPU is never switched in.
 */
enum dom0_admission { DOM0_ADMIT_OFF, DOM0_ADMIT_FIFO, DOM0_ADMIT_BF, DOM0_ADMIT_RU, DOM0_ADMIT_RAND };

/*
 * How long a paused expansion or guest fence write may hold admission's queue
 * (nothing else runs before it) without fitting, in the runtime's clock: then
 * it is refused with its own answer and the queue moves on
 * (config.admit_deadline_ms; dom0/admission.c).
 */
#define DOM0_ADMIT_DEADLINE_MS	2000

/* What of a vGPU waits for admission. */
enum dom0_pause { DOM0_PAUSE_NONE, DOM0_PAUSE_CREATE, DOM0_PAUSE_EXPAND, DOM0_PAUSE_FENCE };

/* What of a vGPU waits for admission: its kind (DOM0_PAUSE_NONE: nothing), and what it asked. */
struct vgpu_pause {
	enum dom0_pause kind;
	unsigned slots;		/* create: its high slots; expand: Q */
	unsigned fence;		/* fence: which, and the value the guest wrote */
	uint64_t val;
	bool channel;		/* an expansion asked over PVINFO: answered when it runs */
	uint32_t seq;
	uint64_t since_ms, order;
};

/* A vGPU as admission sees it; owned by dom0/admission.c (dom0/state.h reads the pause for the parts beneath). */
struct dom0_vgpu_admission {
	/* its paused request, if any */
	struct vgpu_pause pause;
	/* the admission round that last took it */
	unsigned admit_round;
	/* time paused, pauses that ended */
	uint64_t paused_ms;
};

/* The runtime's admission; owned by dom0/admission.c (dom0/state.h reads n_paused and admitting). */
struct dom0_admission_state {
	/* requests paused now */
	unsigned n_paused;
	/* pauses so far: each pause's order */
	uint64_t pause_orders;
	/* the request the policy chose, keeping what frees; 0 none */
	int admit_head;
	/* inside admission's run of a paused request (faults.admit_short) */
	bool admitting;
	/* inside admission (dom0_op_done): what its runs free is its own loop's to take */
	bool in_admit;
	/* DOM0_ADMIT_RAND's generator */
	uint64_t rand_state;
	/* admission rounds so far */
	unsigned admit_rounds;
};

#endif
