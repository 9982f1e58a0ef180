/* SPDX-License-Identifier: MIT */
/*
 * Migration in scenarios: `device NAME sim:PLATFORM` declares a second
 * (simulated) device with its own runtime, started with the first and put
 * back at the end (scenario_devices.c); `migrate NAME slot=N` moves a vGPU to
 * other slots, `migrate NAME device=D` to the other device (D: the declared
 * name, or `main` for the scenario's own). A command that acts on a vGPU runs
 * on the device that vGPU lives on, so after a move its commands follow it.
 * Where a vGPU lives is the run's to know: its create says, and only a
 * migration that succeeded changes it.
 */
#include "hosted/backends.h"
#include "scenario/scenario_internal.h"

#include <inttypes.h>
#include <string.h>

enum scen_rc scen_cmd_device(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct scen_device *d = &s->devs[1];

	(void)refuse;
	(void)err;
	/* it starts with the first runtime: a device declared later would never start */
	if (s->past_preamble)
		return scen_bad(s, "device must come before every other command (config and device lines first)");
	if (l->argc != 3 || !scen_valid_name(l->argv[1]) || !strcmp(l->argv[1], "main"))
		return scen_bad(s, "device NAME sim:PLATFORM (a second, simulated device; NAME of [a-z0-9_-], not main)");
	if (s->n_devs > 1)
		return scen_bad(s, "a scenario declares one second device; %s is declared already", d->name);
	if (strncmp(l->argv[2], "sim:", 4) || strlen(l->argv[2]) >= sizeof(d->spec))
		return scen_bad(s, "device %s: '%s' is no simulated device (sim:PLATFORM)", l->argv[1], l->argv[2]);
	snprintf(d->name, sizeof(d->name), "%s", l->argv[1]);
	snprintf(d->spec, sizeof(d->spec), "%s", l->argv[2]);
	s->n_devs = 2;
	if (!s->devs[0].dev || d->dev)
		return SCEN_RAN;	/* only checking, or opened by the pre-pass already */
	/* opened by the pre-pass (a simulated device of the run's own: the scenario's device is not touched) */
	struct gtt_err e = { 0 };
	if (hw_open(s->devs[0].dev->env, d->spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &d->dev, &e))
		return scen_bad(s, "device %s %s: %s", d->name, d->spec, e.msg);
	d->info = &d->dev->info;
	return SCEN_RAN;
}

static void say_move(struct scen *s, const char *n, const struct dom0_migration *m, const char *where)
{
	scen_say(s, "migrate %s to %s: slots %u -> %u, %s%" PRIu64 " source PTEs put back, %" PRIu64 " PTEs mapped again, %" PRIu64
		 " bytes copied, %u fences moved, %.3f ms", n, where, m->from_slot, m->to_slot,
		 m->drained ? "drained, " : "", m->ptes_released, m->ptes_mapped, m->bytes_copied, m->fences_moved,
		 m->ns / 1e6);
}

enum scen_rc scen_cmd_migrate(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "slot", "device", NULL };
	const char *slot = scen_kv(l, 2, "slot"), *dev = scen_kv(l, 2, "device");
	struct dom0_migration m = { 0 };
	uint64_t to = 0;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) || (rc = scen_only_keys(s, l, 2, keys)))
		return rc;
	if (l->argc != 3 || !slot == !dev)
		return scen_bad(s, "migrate NAME slot=N, or migrate NAME device=D");
	if (slot) {
		if ((rc = scen_need_range(s, "slot", slot, 0, 1023, "slot numbers", &to)) || s->dry)
			return rc;
		if (dom0_migrate(s->rt, id, (unsigned)to, &m, err))
			return scen_outcome(s, 1, refuse, err, "migrate");
		say_move(s, l->argv[1], &m, "its slots");
		scen_history(s, l->argv[1], "migrated", id, 0, 0);
		return SCEN_RAN;
	}
	int k = scen_device_index(s, dev);
	if (k < 0)
		return scen_bad(s, "migrate %s device=%s: no such device (main%s%s)", l->argv[1], dev, s->n_devs > 1 ? " or " : "",
				s->n_devs > 1 ? s->devs[1].name : "");
	if (s->dry)
		return SCEN_RAN;
	struct name *nm = scen_find_name(s, l->argv[1]);
	int from = nm->on, nid = 0;
	if (k == from)
		return scen_failed(s, "did not run: migrate %s device=%s: it lives there (migrate NAME slot=N moves it within a device)",
				   nm->name, dev);
	if (!s->devs[k].rt)
		return scen_failed(s, "did not run: migrate %s device=%s: device %s did not start", nm->name, dev, dev);
	if (dom0_migrate_device(s->devs[from].rt, id, s->devs[k].rt, &nid, &m, err))
		return scen_outcome(s, 1, refuse, err, "migrate");
	/* it moved: from now on its lines run there */
	scen_history(s, nm->name, "left for the other device", 0, 0, 0);
	nm->on = k;
	nm->id = nid;
	say_move(s, nm->name, &m, s->devs[k].name);
	scen_use_device(s, k);
	scen_history(s, nm->name, "arrived from the other device", nid, 0, 0);
	scen_use_device(s, from);
	return SCEN_RAN;
}
