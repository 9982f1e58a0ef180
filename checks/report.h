/* SPDX-License-Identifier: MIT */
/*
 * Reporters: the runner's results as human text, TAP 13, JUnit XML or an IGT
 * results.json (results_version 10). Freestanding: they write through a sink,
 * which the CLI points at a file and the EFI application at ConOut or the ESP.
 */
#ifndef CHECKS_REPORT_H
#define CHECKS_REPORT_H

#include "checks/report_sink.h"
#include "checks/report_types.h"
#include "checks/runner.h"

/* The whole report of a run; `ran` of the n results were run (the rest were cancelled). */
void report_write(enum report_format f, struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		  const struct report_info *info);

/* The IGT results.json of a run (results_version 10, as igt_runner's resultgen writes it). */
void report_igt_json(struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		     const struct report_info *info);

#endif
