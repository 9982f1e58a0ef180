/* SPDX-License-Identifier: MIT */
/*
 * What a scenario run prints at its end: the summary of the switches, of each
 * vGPU and of the fence pool, and the slots of every vGPU over time, as the
 * commands noted them (scenario_history.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "hosted/json.h"
#include "hosted/picture.h"
#include "scenario/scenario_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One row per live vGPU: slots, switches, quanta, GTT modifications against ladder mappings, refusals. */
static void summary_vgpus(struct scen *s)
{
	fprintf(s->out, "  %-10s %6s %8s %7s %9s %8s %7s %8s\n", "vGPU", "slots", "switched", "quanta", "GTT mods", "ladder",
		"ladder%", "rejected");
	for (int i = 0; i < s->n_names; i++) {
		struct dom0_vgpu_info in;
		if (!s->names[i].alive || s->names[i].on != s->cur_dev || dom0_vgpu_info(s->rt, s->names[i].id, &in))
			continue;
		char sl[24];
		scen_slots_text(&in, sl, sizeof(sl));
		const struct dom0_vgpu_counters *k = &in.counters;
		double pct = k->gtt_modifications ? 100.0 * (double)k->ladder_mappings / (double)k->gtt_modifications : 0;
		fprintf(s->out, "  %-10s %6s %8" PRIu64 " %7" PRIu64 " %9" PRIu64 " %8" PRIu64 " %6.1f%% %8" PRIu64 "\n",
			s->names[i].name, sl, k->switches_in, k->quanta, k->gtt_modifications, k->ladder_mappings, pct,
			k->rejected);
	}
}

/* The history scen_history kept, one line per change. */
static void summary_history(struct scen *s, const struct dom0_layout *l)
{
	if (!s->n_hist)
		return;
	fprintf(s->out, "  slots over time (%u slots of %" PRIu64 " MiB):\n", l->num_slots, l->slot_size >> 20);
	for (int i = 0; i < s->n_hist; i++) {
		struct hist *h = &s->hist[i];
		char sl[24] = "none";
		if (h->slots)
			snprintf(sl, sizeof(sl), "slots %u-%u", h->first, h->first + h->slots - 1);
		if (!strcmp(h->what, "destroyed"))
			fprintf(s->out, "    line %4d: %s destroyed\n", h->line, h->name);
		else if (!strcmp(h->what, "created"))
			fprintf(s->out, "    line %4d: %s created with %s\n", h->line, h->name, sl);
		else if (!strcmp(h->what, "left for the other device"))
			fprintf(s->out, "    line %4d: %s left for the other device\n", h->line, h->name);
		else if (!strcmp(h->what, "migrated") || !strcmp(h->what, "arrived from the other device"))
			fprintf(s->out, "    line %4d: %s %s, holding %s\n", h->line, h->name, h->what, sl);
		else if (!strcmp(h->what, "paused") || !strcmp(h->what, "admitted") || !strcmp(h->what, "withdrew"))
			fprintf(s->out, "    line %4d: %s %s, holding %s\n", h->line, h->name, h->what, sl);
		else
			fprintf(s->out, "    line %4d: %s %s to %s (%u left, %u right)\n", h->line, h->name, h->what, sl,
				h->left, h->right);
	}
}

void scen_summary(struct scen *s)
{
	const struct dom0_counters *c = dom0_counters(s->rt);
	const struct dom0_layout *l = dom0_layout(s->rt);

	fprintf(s->out, "\nsummary of %s\n", s->path);
	fprintf(s->out, "  commands %d, expects passed %d, failures %d\n", s->commands, s->expects_passed, s->failures);
	fprintf(s->out, "  switches %" PRIu64 ": PTEs written %" PRIu64 ", skipped %" PRIu64 ", GGTT invalidates %" PRIu64 "\n",
		c->switches, c->ptes_written, c->ptes_skipped, c->invalidates);
	if (c->switches)
		fprintf(s->out, "  per switch: %.1f PTEs written, %.1f skipped on average\n",
			(double)c->ptes_written / (double)c->switches, (double)c->ptes_skipped / (double)c->switches);
	fprintf(s->out, "  simulated time %" PRIu64 " ms (%u ms quanta)\n", dom0_sim_time_ms(s->rt), DOM0_QUANTUM_MS);
	summary_vgpus(s);
	if (s->n_devs > 1 && s->devs[1].rt) {
		const struct dom0_counters *k = dom0_counters(s->devs[1].rt);
		fprintf(s->out, "  device %s (%s): switches %" PRIu64 ", PTEs written %" PRIu64 ", migrations %" PRIu64 "\n",
			s->devs[1].name, s->devs[1].spec, k->switches, k->ptes_written, k->migrations);
		scen_use_device(s, 1);
		summary_vgpus(s);
		scen_use_device(s, 0);
	}
	summary_history(s, l);
	fprintf(s->out, "  shared slots now %u\n", dom0_shared_slots(s->rt));
	fprintf(s->out, "  fence pool: %" PRIu64 " allocations, %" PRIu64 " frees, %" PRIu64 " pages in use, peak %" PRIu64 " of %" PRIu64 "\n",
		c->pool_allocs, c->pool_frees, c->pool_pages_used, c->pool_pages_peak, l->pool_size / 4096);
	fprintf(s->out, "  resizes: %" PRIu64 " expansions, %" PRIu64 " reductions; migrations %" PRIu64 "\n", c->expansions,
		c->reductions, c->migrations);
	scen_policy_summary(s);
	scen_admission_summary(s);
}

static void json_vgpus(struct scen *s, struct json *j)
{
	json_array_begin(j, "vgpus");
	for (int i = 0; i < s->n_names; i++) {
		struct dom0_vgpu_info in;
		const struct name *nm = &s->names[i];
		if (!nm->alive || nm->on != s->cur_dev || dom0_vgpu_info(s->rt, nm->id, &in))
			continue;
		char sl[24];
		scen_slots_text(&in, sl, sizeof(sl));
		json_object_begin(j, NULL);
		json_str(j, "name", nm->name);
		json_str(j, "device", s->devs[nm->on].name);
		json_u64(j, "id", (uint64_t)nm->id);
		json_str(j, "slots", sl);
		json_hex(j, "high_base", in.high_base, 0);
		json_u64(j, "switches_in", in.counters.switches_in);
		json_u64(j, "quanta", in.counters.quanta);
		json_u64(j, "gtt_modifications", in.counters.gtt_modifications);
		json_u64(j, "ladder_mappings", in.counters.ladder_mappings);
		json_u64(j, "fence_writes", in.counters.fence_writes);
		json_u64(j, "rejected", in.counters.rejected);
		json_str(j, "paused", dom0_pause_name(in.paused));
		json_u64(j, "paused_ms", in.paused_ms);
		json_object_end(j);
	}
	json_array_end(j);
}

static void json_counters(struct json *j, const char *key, const struct dom0_runtime *rt)
{
	const struct dom0_counters *c = dom0_counters(rt);

	json_object_begin(j, key);
	json_u64(j, "switches", c->switches);
	json_u64(j, "ptes_written", c->ptes_written);
	json_u64(j, "ptes_skipped", c->ptes_skipped);
	json_u64(j, "invalidates", c->invalidates);
	json_u64(j, "pool_allocs", c->pool_allocs);
	json_u64(j, "pool_frees", c->pool_frees);
	json_u64(j, "pool_pages_used", c->pool_pages_used);
	json_u64(j, "pool_pages_peak", c->pool_pages_peak);
	json_u64(j, "expansions", c->expansions);
	json_u64(j, "reductions", c->reductions);
	json_u64(j, "shared_slots", dom0_shared_slots(rt));
	json_u64(j, "paused", c->paused);
	json_u64(j, "admitted", c->admitted);
	json_u64(j, "paused_ms", c->paused_ms);
	json_u64(j, "migrations", c->migrations);
	json_u64(j, "sim_ms", dom0_sim_time_ms(rt));
	json_object_end(j);
}

void scen_summary_json(struct scen *s)
{
	FILE *f = open_memstream(&s->json_body, &s->json_len);
	const struct dom0_layout *l = dom0_layout(s->rt);
	struct json j;

	if (!f)
		return;
	json_init(&j, f);
	json_object_begin(&j, NULL);
	json_str(&j, "scenario", s->path);
	json_str(&j, "device", s->dev->name);
	json_u64(&j, "commands", (uint64_t)s->commands);
	json_u64(&j, "expects_passed", (uint64_t)s->expects_passed);
	json_u64(&j, "failures", (uint64_t)s->failures);
	json_array_begin(&j, "failed");
	for (int i = 0; i < s->n_fail; i++) {
		json_object_begin(&j, NULL);
		json_u64(&j, "line", (uint64_t)s->fail[i].line);
		json_str(&j, "message", s->fail[i].msg);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_begin(&j, "layout");
	json_u64(&j, "slots", l->num_slots);
	json_u64(&j, "slot_size", l->slot_size);
	json_hex(&j, "slots_base", l->slots_base, 0);
	json_object_end(&j);
	json_counters(&j, "counters", s->rt);
	json_vgpus(s, &j);
	if (s->n_devs > 1 && s->devs[1].rt) {
		json_object_begin(&j, "second_device");
		json_str(&j, "name", s->devs[1].name);
		json_str(&j, "spec", s->devs[1].spec);
		json_counters(&j, "counters", s->devs[1].rt);
		scen_use_device(s, 1);
		json_vgpus(s, &j);
		scen_use_device(s, 0);
		json_object_end(&j);
	}
	json_array_begin(&j, "history");
	for (int i = 0; i < s->n_hist; i++) {
		const struct hist *h = &s->hist[i];
		char sl[24] = "none";
		if (h->slots)
			snprintf(sl, sizeof(sl), "%u-%u", h->first, h->first + h->slots - 1);
		json_object_begin(&j, NULL);
		json_u64(&j, "line", (uint64_t)h->line);
		json_str(&j, "vgpu", h->name);
		json_str(&j, "what", h->what);
		json_str(&j, "slots", sl);
		json_u64(&j, "left", h->left);
		json_u64(&j, "right", h->right);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_object_end(&j);
	fclose(f);
	/* the writer ends the document with a newline: the body is embedded, so drop it */
	while (s->json_len && (s->json_body[s->json_len - 1] == '\n'))
		s->json_len--;
}

/* --svg: the history as holdings (who held which slots from which line to which), its changes as events. */
void scen_picture(struct scen *s)
{
	static struct picture_map m;
	static struct picture_slots p;
	struct picture_hold *hold = calloc((size_t)s->n_hist + 1, sizeof(*hold));
	struct picture_event *ev = calloc((size_t)s->n_hist + 1, sizeof(*ev));
	struct picture_switch *sw = calloc(s->n_sw + 1, sizeof(*sw));
	int *open = calloc((size_t)s->n_names + 1, sizeof(*open));	/* per name: its open holding + 1, 0 none */
	const char *names[64] = { 0 };
	size_t nh = 0, ne = 0;
	struct gtt_err err = { 0 };

	if (!hold || !ev || !sw || !open)
		goto out;
	memset(&m, 0, sizeof(m));
	memset(&p, 0, sizeof(p));
	for (int i = 0; i < s->n_hist; i++) {
		const struct hist *h = &s->hist[i];
		int k = 0;
		while (k < s->n_names && strcmp(s->names[k].name, h->name))
			k++;
		if (k == s->n_names)
			continue;
		if (open[k]) {
			hold[open[k] - 1].to = h->line;
			open[k] = 0;
		}
		bool gone = !strcmp(h->what, "destroyed") || !strcmp(h->what, "left for the other device");
		if (!gone && h->slots) {
			struct picture_hold *hd = &hold[nh++];
			snprintf(hd->name, sizeof(hd->name), "%s", h->name);
			hd->vgpu = k + 1;
			hd->from = h->line;
			hd->first = h->first;
			hd->slots = h->slots;
			open[k] = (int)nh;
		}
		if (strcmp(h->what, "created")) {
			struct picture_event *e = &ev[ne++];
			snprintf(e->name, sizeof(e->name), "%s", h->name);
			snprintf(e->what, sizeof(e->what), "%s", h->what);
			e->line = h->line;
		}
	}
	p.last_line = s->cur_line;
	for (size_t i = 0; i < nh; i++)
		if (!hold[i].to)
			hold[i].to = p.last_line + 1;
	for (size_t i = 0; i < s->n_sw; i++)
		sw[i] = (struct picture_switch){ s->sw[i].line, s->sw[i].ptes_written };
	const struct dom0_layout *l = dom0_layout(s->rt);
	snprintf(p.title, sizeof(p.title), "%s on %s: %u slots of %llu MiB, %d lines", s->path, s->dev->name, l->num_slots,
		 (unsigned long long)(l->slot_size >> 20), p.last_line);
	p.num_slots = l->num_slots;
	p.hold = hold;
	p.n_hold = nh;
	p.event = ev;
	p.n_event = ne;
	p.sw = sw;
	p.n_sw = s->n_sw;
	/* the map at the end: whose entries the GTT holds where (colours by vGPU id, named) */
	for (int k = 0; k < s->n_names; k++)
		if (s->names[k].alive && s->names[k].on == 0 && s->names[k].id > 0 && s->names[k].id < 64)
			names[s->names[k].id] = s->names[k].name;
	snprintf(m.title, sizeof(m.title), "the GGTT at the end of %s", s->path);
	if (picture_map_from_device(s->dev, s->rt, l, names, &m, &err))
		fprintf(s->errors, "%s: --svg: the GGTT map: %s\n", s->path, err.msg);
	/* the map colours by vGPU id, the bands by name index: the same vGPU, the same colour */
	for (size_t i = 0; i < nh; i++) {
		struct name *nm = scen_find_name(s, hold[i].name);
		if (nm && nm->alive && nm->on == 0)
			hold[i].vgpu = nm->id;
	}
	picture_slots_svg(s->svg, &p, &m);
out:
	free(hold);
	free(ev);
	free(sw);
	free(open);
}
