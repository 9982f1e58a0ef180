/* SPDX-License-Identifier: MIT */
/* gttlab dom0 run FILE: run a Dom0 runtime scenario on a device. */
#include "harness/cli.h"
#include "harness/scenario.h"

#include <string.h>

static const char help[] =
	"usage: gttlab dom0 run FILE [--device D] [--trace FILE.csv] [--quiet]\n"
	"Run a scenario of the Dom0 runtime (vGPUs, guest PTE and fence writes, switches,\n"
	"resizes, expects; see docs/dom0.md) and print what happened and a summary.\n"
	"Exit 0 when every command ran and every expect held, 1 when one failed (named\n"
	"as FILE:LINE), 2 for a malformed scenario (nothing is run) or an unusable device.\n"
	"The device is left as it was found.\n";

int cmd_dom0(struct cli *c, int argc, char **argv)
{
	const char *file = NULL, *trace = NULL, *v;
	struct scenario_opts o = { .out = stdout };
	struct hw_device *dev;

	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc < 2 || strcmp(argv[1], "run"))
		return cli_error("dom0: the command is 'dom0 run FILE' (gttlab dom0 --help)");
	for (int i = 2; i < argc; i++) {
		int m = cli_opt(argc, argv, &i, "--trace", &v);
		if (m < 0)
			return EXIT_USAGE;
		if (m)
			trace = v;
		else if (!strcmp(argv[i], "--quiet"))
			o.quiet = true;
		else if (argv[i][0] == '-')
			return cli_error("dom0 run: unknown option '%s'", argv[i]);
		else if (!file)
			file = argv[i];
		else
			return cli_error("dom0 run: one scenario file only, got also '%s'", argv[i]);
	}
	if (!file)
		return cli_error("dom0 run: missing the scenario FILE");
	if (cli_open(c, &dev))
		return EXIT_USAGE;
	if (trace && !(o.trace = fopen(trace, "w"))) {
		cli_close(dev);
		return cli_error("--trace '%s': cannot create it", trace);
	}
	enum scenario_result r = scenario_run_file(dev, file, &o);
	if (o.trace)
		fclose(o.trace);
	cli_close(dev);
	return (int)r;
}
