/* SPDX-License-Identifier: MIT */
/*
 * A run's report in the format asked for: the text formats (checks/report_text.c) and IGT's results.json
 * (checks/report_igt.c) beside each other, both writing through checks/report_sink.c.
 */
#include "checks/report.h"
#include "checks/report_text.h"

void report_write(enum report_format f, struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		  const struct report_info *in)
{
	struct run_totals t;

	runner_totals(r, n, ran, &t);
	if (f == REPORT_IGT_JSON)
		report_igt_json(s, r, n, ran, in);
	else
		report_text(f, s, r, n, ran, in, &t);
}
