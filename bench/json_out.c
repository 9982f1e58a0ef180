/* SPDX-License-Identifier: MIT */
/* results.json, written key by key so that parts left out by --only leave no key behind. */
#include <math.h>
#include <stdio.h>

#include "bench/bench.h"

void bench_json_key(struct bench_json *j, const char *k)
{
	fprintf(j->f, "%s\n%*s\"%s\": ", j->first ? "" : ",", 2 * j->depth, "", k);
	j->first = false;
}

void bench_json_num(FILE *f, double v)
{
	if (isfinite(v) && fabs(v) >= 1e5)
		fprintf(f, "%.0f", v);
	else if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

void bench_json_knum(struct bench_json *j, const char *k, double v)
{
	bench_json_key(j, k);
	bench_json_num(j->f, v);
}

void bench_json_kint(struct bench_json *j, const char *k, uint64_t v)
{
	bench_json_key(j, k);
	fprintf(j->f, "%llu", (unsigned long long)v);
}

void bench_json_kstr(struct bench_json *j, const char *k, const char *v)
{
	bench_json_key(j, k);
	fputc('"', j->f);
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			fputc('\\', j->f);
		fputc((unsigned char)*v < 0x20 ? '?' : *v, j->f);
	}
	fputc('"', j->f);
}

void bench_json_open(struct bench_json *j, const char *k)
{
	if (k)
		bench_json_key(j, k);
	fputc('{', j->f);
	j->depth++;
	j->first = true;
}

void bench_json_close(struct bench_json *j)
{
	j->depth--;
	fprintf(j->f, "\n%*s}", 2 * j->depth, "");
	j->first = false;
}

