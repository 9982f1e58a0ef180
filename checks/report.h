/* SPDX-License-Identifier: MIT */
/*
 * Reporters: the runner's results as human text, TAP 13, JUnit XML or an IGT
 * results.json (results_version 10). Freestanding: they write through a sink,
 * which the CLI points at a file and the EFI application at ConOut or the ESP.
 */
#ifndef HARNESS_REPORT_H
#define HARNESS_REPORT_H

#include "checks/firmware_policy.h"
#include "checks/runner.h"

struct report_sink {
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
};

void sink_printf(struct report_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct report_info {
	const char *device;		/* the device string */
	const char *platform;		/* short platform name */
	uint64_t seed;
	uint64_t start_s, end_s;	/* wall-clock seconds of the run, 0 when unknown */
	const struct fw_policy *firmware;	/* the Secure Boot policy the run was taken under; NULL: not read */
};

enum report_format { REPORT_HUMAN, REPORT_TAP, REPORT_JUNIT, REPORT_IGT_JSON };

/* Parse "human", "tap", "junit", "igt-json"; -1 for anything else. */
int report_format_parse(const char *s);

/* The whole report of a run; `ran` of the n results were run (the rest were cancelled). */
void report_write(enum report_format f, struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		  const struct report_info *info);

/* The IGT results.json of a run (results_version 10, as igt_runner's resultgen writes it). */
void report_igt_json(struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		     const struct report_info *info);

/* Text escaped for a format (XML entities, JSON escapes, YAML single quotes). */
void report_escape(struct report_sink *s, const char *t, enum report_format f);
/* "ABORT" when the device could not be restored after a check, else "FAIL" or "PASS". */
const char *report_verdict(const struct run_totals *t);

/* The IGT binary a suite belongs to: "gtt_" + suite with '-' as '_'. */
void report_igt_binary(const char *suite, char *buf, size_t n);

#endif
