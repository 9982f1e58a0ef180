/* SPDX-License-Identifier: MIT */
/* The switch's type (dom0/switch.h): what one switch did. */
#ifndef DOM0_SWITCH_TYPES_H
#define DOM0_SWITCH_TYPES_H

#include "dom0/types.h"

struct dom0_switch_stats {
	int from, to;			/* vGPU ids; 0 = none */
	uint64_t ptes_written, ptes_skipped, ns;
};

#endif
