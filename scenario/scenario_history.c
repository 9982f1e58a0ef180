/* SPDX-License-Identifier: MIT */
/* The slots of every vGPU over time, noted as the commands change them; the summary prints them (scenario_report.c). */
#include "scenario/scenario_internal.h"

#include <stdio.h>

void scen_history(struct scen *s, const char *name, const char *what, int id, unsigned left, unsigned right)
{
	struct dom0_vgpu_info in = { 0 };

	if (s->dry || s->n_hist == MAX_HIST)
		return;
	if (id)
		dom0_vgpu_info(s->rt, id, &in);
	struct hist *h = &s->hist[s->n_hist++];
	*h = (struct hist){ .line = s->cur_line, .what = what, .first = in.first_slot, .slots = in.slots,
			    .left = left, .right = right };
	snprintf(h->name, sizeof(h->name), "%s", name);
}
