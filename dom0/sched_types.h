/* SPDX-License-Identifier: MIT */
/* The scheduler's state (dom0/sched.h): the quanta it has run, and each vGPU's wish to run. */
#ifndef DOM0_SCHED_TYPES_H
#define DOM0_SCHED_TYPES_H

#include <stdbool.h>
#include <stdint.h>

/* The runtime's scheduler; owned by dom0/sched.c. */
struct dom0_sched {
	/* quanta the scheduler has run (dom0_run_quanta) */
	uint64_t quantum;
};

/* A vGPU as the scheduler sees it; owned by dom0/sched.c. */
struct dom0_vgpu_sched {
	/* it has GPU work (dom0_set_busy) */
	bool busy;
	/* the quantum when it last ran, or became busy (its wait starts there) */
	uint64_t ran_q;
};

#endif
