/* SPDX-License-Identifier: MIT */
/*
 * A small vsnprintf for the freestanding core, which has no libc. Supports
 * %d %i %u %x %X %c %s %p %% with flags '-' '0', a width, a precision for
 * %s only (.N or .*: at most that many characters, none read past them),
 * and the length modifiers hh h l ll z j. Output is always NUL-terminated; the return value
 * is the length the full output would have had.
 */
#ifndef ENV_FMT_H
#define ENV_FMT_H

#include <stdarg.h>
#include <stddef.h>

int gtt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int gtt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* String helpers the core needs in place of <string.h>. */
size_t gtt_strlen(const char *s);
int gtt_strcmp(const char *a, const char *b);
int gtt_strncmp(const char *a, const char *b, size_t n);

#endif
