/* SPDX-License-Identifier: MIT */
/*
 * Scenario files for the Dom0 runtime: one command per line, run by
 * `gttlab dom0 run FILE`. The whole file is checked before the device is
 * touched, then every line runs; the language is described in docs/dom0.md.
 */
#ifndef SCENARIO_SCENARIO_H
#define SCENARIO_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "hw/device.h"

enum scenario_result {
	SCENARIO_PASSED = 0,	/* every command ran, every expect held */
	SCENARIO_FAILED = 1,	/* an expect or a command failed */
	SCENARIO_MALFORMED = 2,	/* the file is not a valid scenario: nothing was run */
	SCENARIO_UNRESTORED = 3,	/* the runtime's restore did not read back: the device is not as found */
};

struct scenario_opts {
	FILE *out;		/* what happened, and the summary */
	FILE *errors;		/* where a malformed file is reported; default stderr */
	FILE *trace;		/* per-switch CSV, or NULL */
	bool quiet;		/* only failures and the summary */
	bool json;		/* no step lines: one JSON document on `out` at the end (docs/dom0.md) */
	FILE *svg;		/* slots over time and the GGTT at the end, as SVG, or NULL */
};

/*
 * Check a scenario held in memory against a device's facts without running
 * it (the pre-pass every run starts with: only what holds whatever runs,
 * docs/dom0.md): SCENARIO_PASSED when it is well formed, SCENARIO_MALFORMED
 * after one line on `errors`. Touches no device.
 */
enum scenario_result scenario_check_text(const struct hw_info *info, const char *name, const char *text, size_t len,
					 FILE *errors);

/* Run a scenario file on an open device; the device is left as found. */
enum scenario_result scenario_run_file(struct hw_device *dev, const char *path, const struct scenario_opts *opts);

#endif
