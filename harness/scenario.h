/* SPDX-License-Identifier: MIT */
/*
 * Scenario files for the Dom0 runtime: one command per line, run by
 * `gttlab dom0 run FILE`. The whole file is checked before the device is
 * touched; the language is described in docs/dom0.md.
 */
#ifndef HARNESS_SCENARIO_H
#define HARNESS_SCENARIO_H

#include <stdbool.h>
#include <stdio.h>

#include "hw/device.h"

enum scenario_result {
	SCENARIO_PASSED = 0,	/* every command ran, every expect held */
	SCENARIO_FAILED = 1,	/* an expect or a command failed */
	SCENARIO_MALFORMED = 2,	/* the file is not a valid scenario: nothing was run */
};

struct scenario_opts {
	FILE *out;		/* what happened, and the summary */
	FILE *errors;		/* where a malformed file is reported; default stderr */
	FILE *trace;		/* per-switch CSV, or NULL */
	bool quiet;		/* only failures and the summary */
};

/* Run a scenario file on an open device; the device is left as found. */
enum scenario_result scenario_run_file(struct hw_device *dev, const char *path, const struct scenario_opts *opts);

#endif
