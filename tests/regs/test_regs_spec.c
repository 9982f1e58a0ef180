/* SPDX-License-Identifier: MIT */
/*
 * regs/spec/ against intel_reg's file format (docs/intel-reg.md: the ERE of
 * tools/intel_reg_spec.c, include lines, comments) and against the register
 * table in regs/reg_names.c: per platform, the same names at the same offsets.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "regs/reg_names.h"

#define SPEC_DIR "regs/spec"
#define MAX_REGS 256

struct spec_reg {
	char name[64];
	unsigned long addr;
};

static const char *ERE =
	"^[[:space:]]*\\([[:space:]]*'([[:print:]]*)'[[:space:]]*,[[:space:]]*'([[:print:]]*)'"
	"[[:space:]]*,[[:space:]]*'([[:print:]]*)'[[:space:]]*\\)[[:space:]]*$";

/* Parse a spec file the way intel_reg does, following includes; returns the count. */
static size_t parse(const char *path, struct spec_reg *out, size_t n, int depth)
{
	regex_t re;
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	FILE *f = fopen(path, "r");

	cr_assert_not_null(f, "cannot open %s", path);
	cr_assert_lt(depth, 8, "include loop at %s", path);
	cr_assert_eq(regcomp(&re, ERE, REG_EXTENDED), 0);
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		size_t len = strlen(line);
		cr_assert(len && line[len - 1] == '\n', "%s:%zu: no final newline", path, lineno);
		line[len - 1] = '\0';
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#' || *p == ';' || !strncmp(p, "//", 2))
			continue;
		if (*p != '(') {
			/* include: the rest of the line, relative to this file; no trailing blanks or CR */
			cr_assert(!strpbrk(p, " \t\r"), "%s:%zu: include '%s' has blanks", path, lineno, p);
			char inc[512];
			snprintf(inc, sizeof(inc), SPEC_DIR "/%s", p);
			n = parse(inc, out, n, depth + 1);
			continue;
		}
		regmatch_t m[4];
		cr_assert_eq(regexec(&re, line, 4, m, 0), 0, "%s:%zu: not intel_reg's 3-tuple: %s", path, lineno, line);
		cr_assert_lt(n, MAX_REGS);
		snprintf(out[n].name, sizeof(out[n].name), "%.*s", (int)(m[1].rm_eo - m[1].rm_so), line + m[1].rm_so);
		char addr[32], port[32], *end;
		snprintf(addr, sizeof(addr), "%.*s", (int)(m[2].rm_eo - m[2].rm_so), line + m[2].rm_so);
		snprintf(port, sizeof(port), "%.*s", (int)(m[3].rm_eo - m[3].rm_so), line + m[3].rm_so);
		out[n].addr = strtoul(addr, &end, 16);
		cr_assert(*addr && !*end, "%s:%zu: address '%s' is not hex", path, lineno, addr);
		cr_assert_str_eq(port, "", "%s:%zu: gttlab registers are plain 32-bit MMIO", path, lineno);
		n++;
	}
	free(line);
	regfree(&re);
	fclose(f);
	return n;
}

Test(regs_spec, every_platform_file_matches_the_table)
{
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *p = &gtt_platforms[i];
		struct spec_reg regs[MAX_REGS];
		char path[256];
		snprintf(path, sizeof(path), SPEC_DIR "/%s", p->codename);
		size_t n = parse(path, regs, 0, 0);
		size_t expected = 0;

		for (size_t k = 0; k < gtt_num_reg_names; k++) {
			const struct gtt_reg_name *r = &gtt_reg_names[k];
			if (!gtt_reg_on_platform(r, p))
				continue;
			expected++;
			size_t hits = 0;
			for (size_t j = 0; j < n; j++)
				if (!strcasecmp(regs[j].name, r->name)) {
					hits++;
					cr_expect_eq(regs[j].addr, r->offset, "%s: %s at 0x%lx, regs/ says 0x%x",
						     path, r->name, regs[j].addr, r->offset);
				}
			cr_expect_eq(hits, 1, "%s names %s %zu times", path, r->name, hits);
		}
		cr_expect_eq(n, expected, "%s has %zu registers, regs/ has %zu for %s", path, n, expected, p->name);
	}
}

Test(regs_spec, the_checker_rejects_a_bad_line)
{
	regex_t re;

	cr_assert_eq(regcomp(&re, ERE, REG_EXTENDED), 0);
	cr_expect_eq(regexec(&re, "('A', '0x10', '')", 0, NULL, 0), 0);
	cr_expect_neq(regexec(&re, "(\"A\", '0x10', '')", 0, NULL, 0), 0, "double quotes");
	cr_expect_neq(regexec(&re, "('A', '0x10', '',)", 0, NULL, 0), 0, "trailing comma");
	cr_expect_neq(regexec(&re, "('A', '0x10')", 0, NULL, 0), 0, "two fields");
	regfree(&re);
}
