/* SPDX-License-Identifier: MIT */
/* gttlab dom0 run FILE: run a Dom0 runtime scenario on a device. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "scenario/scenario.h"
#include "scenario/scenario_parse.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"usage: gttlab [--device D] [--json] dom0 run FILE [--trace FILE.csv] [--svg FILE.svg] [--quiet]\n"
	"Run a scenario of the Dom0 runtime (vGPUs, guest PTE and fence writes, switches,\n"
	"resizes, expects; see docs/dom0.md) and print what happened and a summary.\n"
	"The device: --device D, else the scenario's '# device: D' line, else sim:skl.\n"
	"--json prints one JSON document instead: the result, the failures with their\n"
	"lines, the counters, every vGPU and the history of the slots.\n"
	"--svg writes a picture: who holds which slot over the scenario's lines (shared\n"
	"slots overlap; expansions, reductions, pauses and migrations marked), every\n"
	"switch with the PTEs it wrote, and the GGTT at the end (whose entries where).\n"
	"Exit 0 when every command ran and every expect held, 1 when one failed (named\n"
	"as FILE:LINE), 2 for a malformed scenario (nothing is run) or an unusable device,\n"
	"3 (abort) when the runtime's restore did not read back as found (named).\n"
	"The device is left as it was found; a real one is journaled (gttlab restore).\n"
	"gttlab dom0 serve --help: the runtime serving QEMU guests (docs/transport.md).\n";

/*
 * With --trace there are two outputs, and a run whose trace was lost must
 * not look like a run that reported: what the run prints is held in memory
 * and reaches stdout only once the trace is safely written.
 */
static int finish_trace(FILE *held, char **textp, size_t *lenp, FILE *trace, const char *path, int rc)
{
	/* the memstream's buffer and length are only final once it is closed */
	int held_err = fclose(held) ? errno : 0;
	char *text = *textp;
	size_t len = *lenp;

	if (output_close(trace)) {
		int e = errno;
		free(text);
		return cli_error("--trace '%s': cannot write it: %s", path, strerror(e));
	}
	if (held_err) {
		free(text);
		return cli_error("dom0 run: cannot hold the run's output: %s", strerror(held_err));
	}
	fwrite(text, 1, len, stdout);	/* a failure here is main's to report */
	free(text);
	return rc;
}

/* the words after 'dom0 run' */
struct run_args {
	const char *file, *trace, *svg;
	bool quiet;
};

/* Reads the words after 'dom0 run'; returns EXIT_OK, else the exit code of the one line printed. */
static int parse_run(int argc, char **argv, struct run_args *a)
{
	const char *v;

	for (int i = 2; i < argc; i++) {
		int m = cli_opt(argc, argv, &i, "--trace", &v), ms = 0;
		if (m < 0 || (!m && (ms = cli_opt(argc, argv, &i, "--svg", &v)) < 0))
			return EXIT_USAGE;
		if (m && a->trace)
			return cli_twice("--trace", a->trace, v);
		if (ms && a->svg)
			return cli_twice("--svg", a->svg, v);
		if (m)
			a->trace = v;
		else if (ms)
			a->svg = v;
		else if (!strcmp(argv[i], "--quiet") && a->quiet)
			return cli_twice("--quiet", NULL, NULL);
		else if (!strcmp(argv[i], "--quiet"))
			a->quiet = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_error("dom0 run: unknown option '%s'", argv[i]);
		else if (!a->file)
			a->file = argv[i];
		else
			return cli_error("dom0 run: one scenario file only, got also '%s'", argv[i]);
	}
	if (!a->file)
		return cli_error("dom0 run: missing the scenario FILE");
	if (!a->file[0])
		return cli_error("dom0 run: the scenario FILE name is empty");
	if (a->trace && !a->trace[0])
		return cli_error("--trace: the file name is empty");
	if (a->svg && !a->svg[0])
		return cli_error("--svg: the file name is empty");
	return EXIT_OK;
}

/*
 * The outputs, created before the device is opened so that one that cannot be written is
 * refused first: the picture, the trace, and with a trace the memory stream that holds what
 * the run prints. Returns EXIT_OK, else the exit code of the one line printed.
 */
static int open_outputs(const struct run_args *a, struct scenario_opts *o, char **held_text, size_t *held_len)
{
	if (a->svg && !(o->svg = output_open(a->svg)))
		return cli_error("--svg '%s': cannot create it: %s", a->svg, strerror(errno));
	if (a->trace && !(o->trace = output_open(a->trace))) {
		int e = errno;
		if (o->svg)
			output_drop(o->svg);
		return cli_error("--trace '%s': cannot create it: %s", a->trace, strerror(e));
	}
	if (a->trace && !(o->out = open_memstream(held_text, held_len))) {
		output_drop(o->trace);
		if (o->svg)
			output_drop(o->svg);
		return cli_error("dom0 run: out of memory");
	}
	return EXIT_OK;
}

/* With a trace, the held output and the trace dropped: the run says nothing more on stdout. */
static void drop_held(const struct run_args *a, struct scenario_opts *o, char **held_text)
{
	if (o->svg)
		output_drop(o->svg);
	o->svg = NULL;
	if (!a->trace)
		return;
	fclose(o->out);		/* sets *held_text: the stream's buffer is known only now */
	free(*held_text);
	*held_text = NULL;
	output_drop(o->trace);
}

int cmd_dom0(struct cli *c, int argc, char **argv)
{
	struct run_args a = { 0 };
	struct scenario_opts o = { .out = stdout };
	struct hw_device *dev;
	char *held_text = NULL;
	size_t held_len = 0;
	int rc;

	if (argc >= 2 && !strcmp(argv[1], "serve"))
		return cmd_dom0_serve(c, argc, argv);
	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc < 2)
		return cli_error("dom0: the command is 'dom0 run FILE' or 'dom0 serve --dir DIR' (gttlab dom0 --help)");
	if (strcmp(argv[1], "run"))
		return cli_error("dom0: '%s' is neither 'run' nor 'serve' (gttlab dom0 --help)", argv[1]);
	if ((rc = parse_run(argc, argv, &a)))
		return rc;
	o.quiet = a.quiet;
	o.json = c->json;
	/*
	 * A file that is no scenario text at all (missing, a directory, a FIFO,
	 * NUL bytes, empty) is refused before any output is created or the
	 * device is opened; the run reads it again for its pre-pass.
	 */
	struct scen_script sc;
	if (scen_load_file(a.file, &sc, stderr))
		return EXIT_USAGE;
	/* the device the scenario names (`# device: D`) unless --device says otherwise */
	if (sc.device[0] && !c->device_given && (rc = cli_set_device(c, sc.device))) {
		scen_script_free(&sc);
		return rc;
	}
	if (sc.device[0] && !c->device_given)
		c->device_default = false;
	scen_script_free(&sc);
	if ((rc = open_outputs(&a, &o, &held_text, &held_len)))
		return rc;
	if (cli_open(c, &dev)) {
		drop_held(&a, &o, &held_text);
		return EXIT_USAGE;
	}
	/* a real device gets its crash journal before the first write */
	struct journal_file jf;
	if (cli_journal_begin(c, dev, &jf)) {
		cli_close(dev);
		drop_held(&a, &o, &held_text);
		return EXIT_USAGE;
	}
	enum scenario_result r = scenario_run_file(dev, a.file, &o);
	if (o.svg && output_close(o.svg) && r != SCENARIO_MALFORMED) {
		cli_error("--svg '%s': cannot write it: %s", a.svg, strerror(errno));
		if (r == SCENARIO_PASSED)
			r = SCENARIO_MALFORMED;	/* exit 2: an output the run promised is missing */
	}
	int jrc = cli_journal_end(dev, &jf, r != SCENARIO_UNRESTORED);
	cli_close(dev);
	if (jrc && r != SCENARIO_UNRESTORED)
		r = (enum scenario_result)jrc;
	if (!a.trace)
		return (int)r;
	if (r == SCENARIO_MALFORMED) {
		/* the one line is on stderr already; nothing else is to be said */
		drop_held(&a, &o, &held_text);
		return (int)r;
	}
	return finish_trace(o.out, &held_text, &held_len, o.trace, a.trace, (int)r);
}
