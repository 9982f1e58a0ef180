/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the scenario language's pre-pass,
 * scenario_check_text() (scenario/scenario.h): the whole input is the text of
 * a scenario, checked against the facts of a simulated Skylake or, when the
 * first byte is odd, a Haswell (gScale's layout is written for one). The
 * devices are opened once and only their hw_info is used; the pre-pass
 * touches no device. Its one-line errors go to /dev/null.
 *
 * Beyond not crashing, the result must be one of the two the pre-pass gives,
 * and the same when checked twice (nothing is kept between calls).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "scenario/scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct hw_device *open_sim(const char *spec)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	if (hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &dev,
		    &err)) {
		fprintf(stderr, "fuzz_scenario: cannot open %s: %s\n", spec, err.msg);
		abort();
	}
	return dev;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* opened once for the whole run: LeakSanitizer does not count what is still reachable */
	static struct hw_device *skl, *hsw;
	static FILE *null;

	if (!skl) {
		skl = open_sim("sim:skl");
		hsw = open_sim("sim:hsw");
		if (!(null = fopen("/dev/null", "w")))
			abort();
	}
	const struct hw_info *info = size && (data[0] & 1) ? &hsw->info : &skl->info;
	enum scenario_result r = scenario_check_text(info, "fuzz.scn", (const char *)data, size, null);
	if (r != SCENARIO_PASSED && r != SCENARIO_MALFORMED)
		abort();
	if (scenario_check_text(info, "fuzz.scn", (const char *)data, size, null) != r)
		abort();
	return 0;
}
