/* SPDX-License-Identifier: MIT */
#include "hosted/json.h"

#include <inttypes.h>

void json_init(struct json *j, FILE *f)
{
	j->f = f;
	j->depth = 0;
	j->need_comma[0] = false;
}

/*
 * The length of the well-formed UTF-8 sequence at s (RFC 3629: no overlong
 * forms, no surrogates, nothing above U+10FFFF), or 0 when there is none.
 */
static size_t utf8_seq(const unsigned char *s)
{
	unsigned char c = s[0];
	size_t n;
	unsigned lo = 0x80, hi = 0xbf;

	if (c >= 0xc2 && c <= 0xdf)
		n = 2;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4;
	else
		return 0;
	/* the second byte carries the range limits of the first */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < n; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A JSON string (RFC 8259). Strings here come from the command line and
 * from file names, so anything can be in them: quotes and backslashes are
 * escaped, control characters become \u00XX, and a byte that is not part of
 * well-formed UTF-8 becomes U+FFFD, since JSON text must be Unicode.
 */
static void quoted(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		unsigned char c = *s;
		size_t n;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (c < 0x80)
			fputc(c, f);
		else if ((n = utf8_seq(s))) {
			fwrite(s, 1, n, f);
			s += n;
			continue;
		} else
			fputs("\\ufffd", f);
		s++;
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
