/* SPDX-License-Identifier: MIT */
/* What every report format writes with: the sink, escaping for a format, the names of formats, verdicts and IGT binaries. */
#include "checks/report_sink.h"
#include "env/fmt.h"

#include <stdarg.h>

void sink_printf(struct report_sink *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	int n = gtt_vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->write(s->ctx, buf, n < (int)sizeof(buf) ? (size_t)n : sizeof(buf) - 1);
}

int report_format_parse(const char *s)
{
	static const char *const names[] = { "human", "tap", "junit", "igt-json" };

	for (int i = 0; i < 4; i++)
		if (!gtt_strcmp(s, names[i]))
			return i;
	return -1;
}

void report_igt_binary(const char *suite, char *buf, size_t n)
{
	size_t k = (size_t)gtt_snprintf(buf, n, "gtt_%s", suite);

	for (size_t i = 4; i < k && i < n; i++)
		if (buf[i] == '-')
			buf[i] = '_';
}

const char *report_verdict(const struct run_totals *t)
{
	/* a run in which nothing passed or failed proved nothing: not a pass */
	return t->abort ? "ABORT" : t->fail ? "FAIL" : t->pass ? "PASS" : "SKIP";
}

void report_device_text(struct report_sink *s, const struct report_info *in)
{
	sink_printf(s, "%s (%s, %s", in->device, in->platform, in->kind);
	if (in->pci_device)
		sink_printf(s, ", PCI 8086:%04x", in->pci_device);
	sink_printf(s, ")");
}

void report_escape(struct report_sink *s, const char *t, enum report_format f)
{
	for (; *t; t++) {
		char c = *t;
		if (f == REPORT_JUNIT && (c == '<' || c == '>' || c == '&' || c == '"' || c == '\'')) {
			sink_printf(s, "&%s;", c == '<' ? "lt" : c == '>' ? "gt" : c == '&' ? "amp" : c == '"' ? "quot" : "apos");
		} else if (f == REPORT_IGT_JSON && (c == '"' || c == '\\')) {
			sink_printf(s, "\\%c", c);
		} else if ((unsigned char)c < 0x20) {
			if (f == REPORT_IGT_JSON)
				sink_printf(s, "\\u%04x", (unsigned char)c);
			else
				s->write(s->ctx, " ", 1);
		} else if (f == REPORT_TAP && c == '\'') {
			s->write(s->ctx, "''", 2);	/* YAML single-quoted */
		} else {
			s->write(s->ctx, &c, 1);
		}
	}
}
