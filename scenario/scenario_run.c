/* SPDX-License-Identifier: MIT */
/*
 * The scenario runner. A file is read whole and goes through the command
 * handlers twice.
 *
 * The pre-pass (s->dry) checks only what holds whatever happens at run time:
 * each line's form, its arguments' forms and ranges, that config and device
 * lines come before every other command, and that every vGPU name a line
 * uses is created by some line before it. It simulates nothing (no vGPU is
 * alive or destroyed there, none lives on a device, no migration succeeds),
 * so it refuses only a file that could never run correctly, and never
 * decides what runs. A file it refuses never reaches the device (exit 2).
 *
 * The run is the one interpreter. Every line executes, and what depends on
 * the lines before (a vGPU destroyed, living on another device, whose create
 * failed; a device that did not start) is judged there: the line fails,
 * saying why. A line that does not run is a failure too: the run counts the
 * lines it executed, and any short count fails it, naming the first line
 * left. A file that runs leaves the device as found (dom0_fini restores it).
 *
 * This file holds the two passes and the entry points; the commands are in
 * scenario_exec.c and scenario_expect.c (scenario_internal.h lists the rest).
 */
#include "scenario/scenario_internal.h"

#include <stdlib.h>
#include <string.h>

/* The state both passes start from: main current, no `on`, no name, no config, nothing past the preamble. */
static void pass_start(struct scen *s, bool dry)
{
	s->dry = dry;
	memset(s->names, 0, sizeof(s->names));
	s->n_names = 0;
	s->cfg = (struct dom0_config){ 0 };
	s->n_devs = 1;		/* the `device` line declares it (the pre-pass opened it; it stays open) */
	s->on_dev = -1;
	s->depth = 0;
	s->past_preamble = false;
	s->lines_run = 0;
	scen_use_device(s, 0);
}

/* The pre-pass over a whole script: 0, or 2 after reporting the first malformed line. */
static int pre_pass(struct scen *s, struct scen_script *sc)
{
	pass_start(s, true);
	for (int i = 0; i < sc->n; i++) {
		struct gtt_err err = { 0 };
		enum scen_rc rc = scen_exec(s, &sc->lines[i], false, &err);
		if (rc == SCEN_RAN)
			continue;
		if (rc != SCEN_MALFORMED)	/* said nothing on errors: still one line, never a silent refusal */
			scen_bad(s, "the pre-pass could not judge this line (a fault of the runner)");
		return 2;
	}
	return 0;
}

/* The end of the run: every line executed, once. Any other count is a line that did not run, and a failure. */
static void all_lines_ran(struct scen *s, const struct scen_script *sc)
{
	if (s->lines_run == sc->n)
		return;
	int first = s->lines_run < sc->n ? s->lines_run : sc->n - 1, left = sc->n - s->lines_run;
	s->cur_line = sc->lines[first].no;
	const char *why = s->started ? "the runner left it (a fault of the runner)" : "the runtime could not start";
	if (left == 1)
		scen_failed(s, "did not run (1 of the %d commands of the file): %s", sc->n, why);
	else if (left == 2)
		scen_failed(s, "did not run, nor did the line after it, line %d (2 of the %d commands of the file): %s",
			    sc->lines[sc->n - 1].no, sc->n, why);
	else if (left > 2)
		scen_failed(s, "did not run, nor did the %d lines after it, to line %d (%d of the %d commands of the file): %s",
			    left - 1, sc->lines[sc->n - 1].no, left, sc->n, why);
	else
		scen_failed(s, "%d commands ran of the %d in the file (a fault of the runner)", s->lines_run, sc->n);
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
		rc = pre_pass(s, &sc);
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
	if (scen_load_file(path, &sc, s->errors) || pre_pass(s, &sc)) {
		scen_end_second(s);
		scen_script_free(&sc);
		free(s);
		return SCENARIO_MALFORMED;
	}
	/* the run */
	pass_start(s, false);
	if (s->trace)
		fprintf(s->trace, "switch,line,from,to,ptes_written,ptes_skipped,ns,sim_ms\n");
	for (int i = 0; i < sc.n; i++) {
		struct gtt_err err = { 0 };
		s->commands++;
		if (scen_exec(s, &sc.lines[i], false, &err) != SCEN_RAN && !s->started)
			break;	/* the runtime could not start: nothing else can run (all_lines_ran names them) */
	}
	all_lines_ran(s, &sc);
	scen_use_device(s, 0);
	if (s->started) {
		if (s->json)
			scen_summary_json(s);
		else
			scen_summary(s);
		if (s->svg)
			scen_picture(s);
		/* the PF's VFs first: the runtime then finds the GGTT as it found it */
		if (scen_pf_end(s, &s->fini_err) || dom0_fini(s->rt, &s->fini_err))
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
		if (s->json_body)
			fprintf(s->out, "{\"result\":\"%s\",\"summary\":%.*s}\n", words[rc], (int)s->json_len, s->json_body);
		else	/* no runtime ran: no summary */
			fprintf(s->out, "{\"result\":\"%s\",\"summary\":null}\n", words[rc]);
		free(s->json_body);
	}
	scen_script_free(&sc);
	free(s->sw);
	free(s);
	return (enum scenario_result)rc;
}
