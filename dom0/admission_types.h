/* SPDX-License-Identifier: MIT */
/* Admission's types (dom0/admission.h): its policies and its deadline. */
#ifndef DOM0_ADMISSION_TYPES_H
#define DOM0_ADMISSION_TYPES_H

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

#endif
