/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for gtt_parse_u64 (env/num.h), differential: a second
 * parser written here from the grammar in env/num.h, computing in 128 bits so
 * it needs no overflow tricks, must agree with it on every input: accepted or
 * refused, the value, and the reason. Any disagreement aborts.
 *
 * Inputs whose first byte is 0xff are structured instead: the next 8 bytes are
 * a value, printed in decimal or hex with a suffix chosen by the following
 * byte, so the accepting paths are reached as often as the refusing ones.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/err.h"
#include "env/num.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef unsigned __int128 u128;

/* What the reference makes of a string. */
enum verdict {
	V_OK,		/* a number that fits */
	V_SYNTAX,	/* not a number */
	V_BIG,		/* a number, too big */
	V_EITHER,	/* not a number, and its digits overflow before the bad character: either reason */
};

static const u128 U64_LIMIT = (u128)UINT64_MAX;

static int ref_digit(unsigned char c, bool hex)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (!hex)
		return -1;
	if (c >= 'a' && c <= 'f')
		return 10 + (c - 'a');
	if (c >= 'A' && c <= 'F')
		return 10 + (c - 'A');
	return -1;
}

/*
 * The grammar of env/num.h, read literally: [0x|0X] digits, then optionally
 * one of K M G k m g, then optionally "iB" or "B", then the end.
 */
static enum verdict ref_parse(const char *s, uint64_t *out)
{
	const unsigned char *p = (const unsigned char *)s;
	bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
	u128 v = 0;
	bool overflow = false;
	size_t ndigits = 0;
	int d;

	if (hex)
		p += 2;
	for (; (d = ref_digit(*p, hex)) >= 0; p++, ndigits++) {
		if (!overflow) {
			v = v * (hex ? 16 : 10) + (u128)d;
			overflow = v > U64_LIMIT;
		}
	}
	bool syntax = ndigits > 0;
	u128 mul = 1;
	switch (*p) {
	case '\0':
		break;
	case 'k': case 'K':
		mul = (u128)1 << 10;
		p++;
		break;
	case 'm': case 'M':
		mul = (u128)1 << 20;
		p++;
		break;
	case 'g': case 'G':
		mul = (u128)1 << 30;
		p++;
		break;
	default:
		syntax = false;
	}
	if (syntax && mul != 1) {
		if (p[0] == 'i' && p[1] == 'B')
			p += 2;
		else if (p[0] == 'B')
			p += 1;
	}
	if (*p)
		syntax = false;
	if (!syntax)
		return overflow ? V_EITHER : V_SYNTAX;
	if (overflow || v * mul > U64_LIMIT)
		return V_BIG;
	*out = (uint64_t)(v * mul);
	return V_OK;
}

static void disagree(const char *s, const char *what, int rc, uint64_t got, enum verdict want, uint64_t want_v,
		     const char *why)
{
	fprintf(stderr, "fuzz_num: gtt_parse_u64(\"%s\") %s: rc %d value %llu why '%s'; reference verdict %d value %llu\n",
		s, what, rc, (unsigned long long)got, why ? why : "(null)", (int)want, (unsigned long long)want_v);
	abort();
}

static void check(const char *s)
{
	const uint64_t sentinel = 0x5a5a5a5a5a5a5a5aull;
	uint64_t got = sentinel, want = 0, got2 = sentinel;
	const char *why = NULL;
	enum verdict v = ref_parse(s, &want);
	int rc = gtt_parse_u64(s, &got, &why);
	int rc2 = gtt_parse_u64(s, &got2, NULL);

	if (rc != rc2 || got != got2)
		disagree(s, "differs with why = NULL", rc2, got2, v, want, why);
	if (v == V_OK) {
		if (rc != GTT_OK || got != want)
			disagree(s, "refused or misread a number", rc, got, v, want, why);
		return;
	}
	if (rc != GTT_EINVAL)
		disagree(s, "accepted a string the grammar refuses", rc, got, v, want, why);
	if (got != sentinel)
		disagree(s, "changed *out on error", rc, got, v, want, why);
	bool says_big = why && strstr(why, "64 bits");
	bool says_syntax = why && strstr(why, "not a number");
	if (says_big == says_syntax || (v == V_BIG && !says_big) || (v == V_SYNTAX && !says_syntax))
		disagree(s, "gave the wrong reason", rc, got, v, want, why);
}

/* A value printed the ways the grammar allows, each of which must read back. */
static void structured(const uint8_t *data, size_t size)
{
	static const char *const suffixes[] = { "", "K", "k", "KiB", "kB", "M", "MiB", "mB", "G", "g", "GiB", "GB" };
	uint64_t x = 0;
	char buf[64];

	for (size_t i = 0; i < 8 && i < size; i++)
		x |= (uint64_t)data[i] << (8 * i);
	unsigned style = size > 8 ? data[8] : 0;
	x >>= style >> 6;	/* smaller values too */
	const char *suf = suffixes[(style & 0x3f) % (sizeof(suffixes) / sizeof(suffixes[0]))];
	if (style & 0x10)
		snprintf(buf, sizeof(buf), "%s%llx%s", style & 0x20 ? "0X" : "0x", (unsigned long long)x, suf);
	else
		snprintf(buf, sizeof(buf), "%s%llu%s", style & 0x20 ? "000" : "", (unsigned long long)x, suf);
	check(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size && data[0] == 0xff) {
		structured(data + 1, size - 1);
		return 0;
	}
	char *s = malloc(size + 1);
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';	/* an embedded NUL ends the string for both parsers alike */
	check(s);
	free(s);
	return 0;
}
