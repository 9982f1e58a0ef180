/* SPDX-License-Identifier: MIT */
#include "harness/json.h"

#include <inttypes.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

static void quoted(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void key(struct json *j, const char *k)
{
	if (j->need_comma[j->depth])
		fputc(',', j->f);
	j->need_comma[j->depth] = true;
	if (k) {
		quoted(j->f, k);
		fputc(':', j->f);
	}
}

static void open_(struct json *j, const char *k, char c)
{
	key(j, k);
	fputc(c, j->f);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->need_comma[j->depth] = false;
}

void json_object_begin(struct json *j, const char *k) { open_(j, k, '{'); }
void json_array_begin(struct json *j, const char *k) { open_(j, k, '['); }

void json_object_end(struct json *j)
{
	fputc('}', j->f);
	j->depth--;
}

void json_array_end(struct json *j)
{
	fputc(']', j->f);
	j->depth--;
}

void json_str(struct json *j, const char *k, const char *v)
{
	key(j, k);
	quoted(j->f, v);
}

void json_u64(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	fprintf(j->f, "%" PRIu64, v);
}

void json_hex(struct json *j, const char *k, uint64_t v, int digits)
{
	key(j, k);
	fprintf(j->f, "\"0x%0*" PRIx64 "\"", digits, v);
}

void json_bool(struct json *j, const char *k, bool v)
{
	key(j, k);
	fputs(v ? "true" : "false", j->f);
}

void json_finish(struct json *j)
{
	fputc('\n', j->f);
}
