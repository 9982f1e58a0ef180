/* SPDX-License-Identifier: MIT */
/* The runner's own report formats: the human table with its progress-free verdict line, TAP 13, JUnit XML. */
#ifndef CHECKS_REPORT_TEXT_H
#define CHECKS_REPORT_TEXT_H

#include "checks/report_types.h"
#include "checks/runner.h"

/* The report of a run in f (REPORT_HUMAN, REPORT_TAP or REPORT_JUNIT; nothing for another), its totals t. */
void report_text(enum report_format f, struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		 const struct report_info *in, const struct run_totals *t);

#endif
