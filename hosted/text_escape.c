/* SPDX-License-Identifier: MIT */
#include "hosted/text_escape.h"

#include <stdlib.h>

static size_t escaped_len(unsigned char c)
{
	if (c == '\\')
		return 2;
	return c < 0x20 || c >= 0x7f ? 4 : 1;
}

char *text_escape(char *dst, size_t n, const char *src)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;

	if (!n)
		return dst;
	for (const unsigned char *p = (const unsigned char *)src; *p; p++) {
		size_t k = escaped_len(*p);
		if (o + k >= n)
			break;
		if (k == 1) {
			dst[o++] = (char)*p;
		} else if (k == 2) {
			dst[o++] = '\\';
			dst[o++] = '\\';
		} else {
			dst[o++] = '\\';
			dst[o++] = 'x';
			dst[o++] = hex[*p >> 4];
			dst[o++] = hex[*p & 15];
		}
	}
	dst[o] = '\0';
	return dst;
}

void text_fputs_escaped(FILE *f, const char *s)
{
	char buf[256];

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		char one[2] = { (char)*p, 0 };
		fputs(escaped_len(*p) == 1 ? one : text_escape(buf, sizeof(buf), one), f);
	}
}

void text_vfprintf_escaped(FILE *f, const char *fmt, va_list ap)
{
	char small[1024];
	va_list aq;

	va_copy(aq, ap);
	int len = vsnprintf(small, sizeof(small), fmt, aq);
	va_end(aq);
	if (len < 0)
		return;
	if ((size_t)len < sizeof(small)) {
		text_fputs_escaped(f, small);
		return;
	}
	char *big = malloc((size_t)len + 1);
	if (!big) {
		text_fputs_escaped(f, small);	/* what fits: still escaped */
		return;
	}
	vsnprintf(big, (size_t)len + 1, fmt, ap);
	text_fputs_escaped(f, big);
	free(big);
}
