/* SPDX-License-Identifier: MIT */
/* What every report format writes with (checks/report_sink.c). */
#ifndef CHECKS_REPORT_SINK_H
#define CHECKS_REPORT_SINK_H

#include "checks/report_types.h"
#include "checks/runner.h"

void sink_printf(struct report_sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Parse "human", "tap", "junit", "igt-json"; -1 for anything else. */
int report_format_parse(const char *s);
/* Text escaped for a format (XML entities, JSON escapes, YAML single quotes). */
void report_escape(struct report_sink *s, const char *t, enum report_format f);
/* "ABORT" when the device could not be restored after a check, else "FAIL" or "PASS". */
const char *report_verdict(const struct run_totals *t);
/* What a run was taken on, as every text report says it: "D (platform, kind[, PCI 8086:DDDD])". */
void report_device_text(struct report_sink *s, const struct report_info *in);
/* The IGT binary a suite belongs to: "gtt_" + suite with '-' as '_'. */
void report_igt_binary(const char *suite, char *buf, size_t n);

#endif
