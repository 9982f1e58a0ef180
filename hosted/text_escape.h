/* SPDX-License-Identifier: MIT */
/*
 * Text from files and arguments on its way to a terminal: every control
 * byte (below 0x20, and DEL) and every byte of 0x80 and up is written as
 * \xNN, a backslash as \\, so an ESC sequence in a scenario file or a
 * newline in a device string can neither drive the terminal nor make one
 * message look like two. Hosted only: the sinks that print messages use it.
 */
#ifndef HOSTED_TEXT_ESCAPE_H
#define HOSTED_TEXT_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Escape `src` into `dst` (size n, always terminated; cut at a whole escape); returns dst. */
char *text_escape(char *dst, size_t n, const char *src);
/* fputs of `s` escaped. */
void text_fputs_escaped(FILE *f, const char *s);
/* vfprintf whose result is escaped before it reaches `f` (the format's own text included). */
void text_vfprintf_escaped(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

#endif
