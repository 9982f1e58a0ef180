/* SPDX-License-Identifier: MIT */
/*
 * The scenario runner. A file is read whole and run twice through the same
 * code: first dry (every argument parsed, every name resolved, nothing
 * touched), then for real. A malformed file therefore never reaches the
 * device, and a file that runs leaves it as found (dom0_fini restores it).
 *
 * This file holds the two passes and the entry points; the commands are in
 * scenario_exec.c and scenario_expect.c (scenario_internal.h lists the rest).
 */
#include "harness/scenario_internal.h"

#include <stdlib.h>
#include <string.h>

/* The dry pass over a whole script: 0, or 2 after reporting the first malformed line. */
static int dry_pass(struct scen *s, struct scen_script *sc)
{
	s->dry = true;
	for (int i = 0; i < sc->n; i++) {
		struct gtt_err err = { 0 };
		if (scen_exec(s, &sc->lines[i], false, &err) == 2)
			return 2;
	}
	return 0;
}

static struct scen *scen_new(const struct hw_info *info, const char *path, const struct scenario_opts *opts)
{
	struct scen *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->path = path;
	s->info = info;
	s->devs[0] = (struct scen_device){ .name = "main", .info = info };
	s->n_devs = 1;
	s->out = opts && opts->out ? opts->out : stdout;
	s->errors = opts && opts->errors ? opts->errors : stderr;
	s->trace = opts ? opts->trace : NULL;
	s->quiet = opts && (opts->quiet || opts->json);
	s->json = opts && opts->json;
	s->svg = opts ? opts->svg : NULL;
	return s;
}

enum scenario_result scenario_check_text(const struct hw_info *info, const char *name, const char *text, size_t len,
					 FILE *errors)
{
	struct scenario_opts o = { .errors = errors };
	struct scen *s = scen_new(info, name, &o);
	struct scen_script sc;
	int rc;

	if (!s)
		return SCENARIO_MALFORMED;
	rc = scen_split_text(name, text, len, &sc, s->errors);
	if (!rc)
		rc = dry_pass(s, &sc);
	scen_script_free(&sc);
	free(s);
	return rc ? SCENARIO_MALFORMED : SCENARIO_PASSED;
}

enum scenario_result scenario_run_file(struct hw_device *dev, const char *path, const struct scenario_opts *opts)
{
	struct scen *s = scen_new(&dev->info, path, opts);
	struct scen_script sc;
	int rc;

	if (!s)
		return SCENARIO_MALFORMED;
	s->dev = dev;
	s->devs[0].dev = dev;
	if (scen_load_file(path, &sc, s->errors) || dry_pass(s, &sc)) {
		scen_end_second(s);
		scen_script_free(&sc);
		free(s);
		return SCENARIO_MALFORMED;
	}
	/* pass 2: for real */
	struct dom0_config cfg = s->cfg;
	memset(s->names, 0, sizeof(s->names));
	s->n_names = 0;
	s->cfg = cfg;
	s->dry = false;
	s->n_devs = 1;		/* the `device` line declares it again (the device stays open) */
	scen_use_device(s, 0);
	if (s->trace)
		fprintf(s->trace, "switch,line,from,to,ptes_written,ptes_skipped,ns,sim_ms\n");
	for (int i = 0; i < sc.n; i++) {
		struct gtt_err err = { 0 };
		s->commands++;
		if (scen_exec(s, &sc.lines[i], false, &err) && !s->started)
			break;	/* the runtime could not start: nothing else can run */
	}
	scen_use_device(s, 0);
	if (s->started) {
		if (s->json)
			scen_summary_json(s);
		else
			scen_summary(s);
		if (s->svg)
			scen_picture(s);
		if (dom0_fini(s->rt, &s->fini_err))
			s->unrestored = true;
	}
	scen_end_second(s);
	rc = s->failures ? SCENARIO_FAILED : SCENARIO_PASSED;
	if (s->unrestored) {
		fprintf(s->errors, "%s: ABORT: the device was not put back: %s\n", path, s->fini_err.msg);
		rc = SCENARIO_UNRESTORED;
	}
	if (s->json) {
		/* the result is known only now: it leads, the summary (written before the runtime ended) follows */
		static const char *const words[] = { "passed", "failed", "malformed", "unrestored" };
		fprintf(s->out, "{\"result\":\"%s\",\"summary\":%.*s}\n", words[rc], (int)s->json_len,
			s->json_body ? s->json_body : "null");
		free(s->json_body);
	}
	scen_script_free(&sc);
	free(s->sw);
	free(s);
	return (enum scenario_result)rc;
}
