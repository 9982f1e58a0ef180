/* SPDX-License-Identifier: MIT */
/*
 * The devices of a scenario: the scenario's own (main) and the one a `device`
 * line declares, which the runner starts with the first and puts back at the
 * end; which of them a line runs on (its `on D`, else the device the vGPU it
 * acts on lives on, else main). Beneath every command: they choose a device
 * here and call nothing above.
 */
#include "scenario/scenario_internal.h"

#include <inttypes.h>
#include <string.h>

void scen_use_device(struct scen *s, int k)
{
	s->cur_dev = k;
	s->dev = s->devs[k].dev;
	s->rt = s->devs[k].rt;
	s->info = s->devs[k].info;	/* NULL for a second device when only checking */
}

void scen_use_line_device(struct scen *s, const char *subject)
{
	if (s->on_dev >= 0) {
		scen_use_device(s, s->on_dev);
		return;
	}
	if (!subject) {
		scen_use_device(s, 0);
		return;
	}
	if (s->dry) {
		scen_use_device(s, 0);
		if (s->n_devs > 1)
			s->info = NULL;	/* main or the other: the checks that depend on it wait for the run */
		return;
	}
	/* a vGPU that is not there: main, and scen_vgpu says why the line cannot run */
	struct name *nm = scen_find_name(s, subject);
	scen_use_device(s, nm && nm->alive ? nm->on : 0);
}

int scen_device_index(struct scen *s, const char *n)
{
	for (int k = 0; k < s->n_devs; k++)
		if (!strcmp(s->devs[k].name, n))
			return k;
	return -1;
}

enum scen_rc scen_start_second(struct scen *s)
{
	struct scen_device *d = &s->devs[1];
	struct gtt_err err = { 0 };

	if (s->n_devs < 2 || !d->dev || d->rt)
		return SCEN_RAN;
	if (dom0_init(d->dev, &s->cfg, &d->rt, &err))
		return scen_failed(s, "cannot start the runtime on device %s: %s (every line for it will fail)", d->name,
				   err.msg);
	scen_say(s, "device %s: %s, %u slots of %" PRIu64 " MiB", d->name, d->spec, dom0_layout(d->rt)->num_slots,
		 dom0_layout(d->rt)->slot_size >> 20);
	return SCEN_RAN;
}

void scen_end_second(struct scen *s)
{
	struct scen_device *d = &s->devs[1];
	struct gtt_err err = { 0 };

	if (d->rt && dom0_fini(d->rt, &err)) {
		s->unrestored = true;
		snprintf(s->fini_err.msg, sizeof(s->fini_err.msg), "device %.31s: %.190s", d->name, err.msg);
	}
	d->rt = NULL;
	if (d->dev)
		hw_close(d->dev);
	d->dev = NULL;
}
