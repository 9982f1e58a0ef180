/* SPDX-License-Identifier: MIT */
#include "env/num.h"
#include "env/err.h"

#define NOT_A_NUMBER "is not a number (" GTT_NUM_GRAMMAR ")"
#define TOO_BIG "does not fit in 64 bits"

static int digit(char c, unsigned base)
{
	unsigned d;

	if (c >= '0' && c <= '9')
		d = (unsigned)(c - '0');
	else if (c >= 'a' && c <= 'f')
		d = (unsigned)(c - 'a') + 10;
	else if (c >= 'A' && c <= 'F')
		d = (unsigned)(c - 'A') + 10;
	else
		return -1;
	return d < base ? (int)d : -1;
}

static int fail(const char **why, const char *rule)
{
	if (why)
		*why = rule;
	return GTT_EINVAL;
}

int gtt_parse_u64(const char *s, uint64_t *out, const char **why)
{
	unsigned base = 10;
	uint64_t v = 0, mul = 1;
	int d;

	if (!s || !*s)
		return fail(why, NOT_A_NUMBER);
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (digit(*s, base) < 0)
		return fail(why, NOT_A_NUMBER);
	for (; (d = digit(*s, base)) >= 0; s++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return fail(why, TOO_BIG);
		v = v * base + (uint64_t)d;
	}
	switch (*s) {
	case '\0':
		*out = v;
		return GTT_OK;
	case 'K': case 'k': mul = 1ull << 10; break;
	case 'M': case 'm': mul = 1ull << 20; break;
	case 'G': case 'g': mul = 1ull << 30; break;
	default:
		return fail(why, NOT_A_NUMBER);
	}
	s++;
	if (s[0] == 'i' && s[1] == 'B')
		s += 2;
	else if (s[0] == 'B')
		s++;
	if (*s)
		return fail(why, NOT_A_NUMBER);
	if (v > UINT64_MAX / mul)
		return fail(why, TOO_BIG);
	*out = v * mul;
	return GTT_OK;
}
