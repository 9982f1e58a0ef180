/* SPDX-License-Identifier: MIT */
/*
 * The one number grammar of gttlab: the CLI's arguments, the scenario
 * language and the EFI application's options all read numbers through here.
 *
 *   number := digits [suffix]
 *   digits := [0-9]+            decimal, leading zeros allowed (010 is ten)
 *           | 0x [0-9a-fA-F]+   hexadecimal (0X too)
 *   suffix := (K | M | G) [iB | B]   powers of 1024, either case of K/M/G
 *
 * The value is 64-bit; anything beyond 2^64 - 1, before or after the suffix,
 * is refused, never wrapped. No sign, no blanks, nothing after the suffix.
 * Freestanding (no libc).
 */
#ifndef ENV_NUM_H
#define ENV_NUM_H

#include <stdint.h>

/* The grammar in a few words, for error messages. */
#define GTT_NUM_GRAMMAR "decimal or 0x hex, optional K/M/G suffix"

/*
 * Parse `s` as a whole. Returns GTT_OK and sets *out, or GTT_EINVAL with
 * *why (when why is not NULL) set to the rule it broke: "is not a number
 * (decimal or 0x hex, optional K/M/G suffix)" or "does not fit in 64 bits".
 * *out is untouched on error.
 */
int gtt_parse_u64(const char *s, uint64_t *out, const char **why);

#endif
