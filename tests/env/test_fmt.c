/* SPDX-License-Identifier: MIT */
/* The freestanding formatter against the C library's snprintf. */
#include <criterion/criterion.h>
#include <stdio.h>

#include "env/fmt.h"

#define SAME(...)                                                                   \
	do {                                                                        \
		char a[128], b[128];                                                \
		int na = gtt_snprintf(a, sizeof(a), __VA_ARGS__);                   \
		int nb = snprintf(b, sizeof(b), __VA_ARGS__);                       \
		cr_expect_str_eq(a, b, "format %s", #__VA_ARGS__);                  \
		cr_expect_eq(na, nb);                                               \
	} while (0)

Test(fmt, matches_libc)
{
	SAME("%d %i %u", -42, 7, 4000000000u);
	SAME("%x %X %08x %-6x|", 0xbeef, 0xbeef, 0x12, 0xab);
	SAME("%llx %016llx %llu", 0x123456789abcdefull, 0x7full, 18446744073709551615ull);
	SAME("%zu %zx", (size_t)12345, (size_t)0xfff);
	SAME("%s|%10s|%-10s|%c%%", "abc", "right", "left", 'z');
	SAME("%5d|%-5d|%05d|%05d", 42, 42, 42, -42);
	SAME("%lld %ld", -9223372036854775807ll - 1, -5l);
	SAME("%hhx %hx", 0x1ff, 0x1ffff);
	SAME("%.3s|%.*s|%.*s|%8.2s|%-6.9s|%.0s|", "abcdef", 2, "xyz", -1, "all", "right", "ab", "gone");
}

/* A precision reads no byte past it: an unterminated buffer is fine. */
Test(fmt, a_precision_reads_no_further)
{
	const char raw[4] = { 'w', 'x', 'y', 'z' };
	char b[16];

	cr_expect_eq(gtt_snprintf(b, sizeof(b), "<%.*s>", 4, raw), 6);
	cr_expect_str_eq(b, "<wxyz>");
}

Test(fmt, truncates_and_reports_full_length)
{
	char b[8];

	cr_expect_eq(gtt_snprintf(b, sizeof(b), "0123456789"), 10);
	cr_expect_str_eq(b, "0123456");
	cr_expect_eq(gtt_snprintf(NULL, 0, "%d", 12345), 5);
}
