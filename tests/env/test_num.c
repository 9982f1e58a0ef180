/* SPDX-License-Identifier: MIT */
/*
 * The one number grammar (env/num.h), and the scenario commands that once
 * read numbers their own way: octal for a leading zero, 32-bit truncation,
 * GFNs that did not fit the PTE or wrapped when shifted, unbounded runs.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env/err.h"
#include "env/num.h"
#include "scenario/scenario.h"
#include "tests/helpers.h"

Test(num, accepts_the_documented_forms)
{
	static const struct { const char *s; uint64_t v; } ok[] = {
		{ "0", 0 }, { "10", 10 }, { "010", 10 }, { "08", 8 }, { "0009", 9 }, { "0x10", 16 }, { "0X1f", 31 },
		{ "0xFFFFFFFFFFFFFFFF", UINT64_MAX }, { "18446744073709551615", UINT64_MAX },
		{ "4K", 4096 }, { "4k", 4096 }, { "1M", 1u << 20 }, { "64MiB", 64u << 20 }, { "2G", 2ull << 30 },
		{ "1GB", 1ull << 30 }, { "0x10K", 16 << 10 }, { "17179869183G", 17179869183ull << 30 },
		{ "4294967296", 4294967296ull },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 12345;
		const char *why = NULL;
		cr_expect_eq(gtt_parse_u64(ok[i].s, &v, &why), GTT_OK, "'%s' refused: %s", ok[i].s, why ? why : "");
		cr_expect_eq(v, ok[i].v, "'%s' is 0x%llx, not 0x%llx", ok[i].s, (unsigned long long)v,
			     (unsigned long long)ok[i].v);
	}
}

Test(num, refuses_everything_else_without_touching_the_result)
{
	static const struct { const char *s; const char *rule; } bad[] = {
		{ "", "not a number" }, { "0x", "not a number" }, { "x10", "not a number" }, { "-1", "not a number" },
		{ "+1", "not a number" }, { " 1", "not a number" }, { "1 ", "not a number" }, { "1Q", "not a number" },
		{ "1KK", "not a number" }, { "1Kib", "not a number" }, { "1.5", "not a number" }, { "0b101", "not a number" },
		{ "16E", "not a number" }, { "0xg", "not a number" }, { "1e3", "not a number" }, { "K", "not a number" },
		{ "18446744073709551616", "64 bits" }, { "0x10000000000000000", "64 bits" },
		{ "17179869184G", "64 bits" }, { "99999999999999999999999", "64 bits" }, { "0xFFFFFFFFFFFFFFFFK", "64 bits" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 12345;
		const char *why = NULL;
		cr_expect_eq(gtt_parse_u64(bad[i].s, &v, &why), GTT_EINVAL, "'%s' accepted as %llu", bad[i].s,
			     (unsigned long long)v);
		cr_expect(why && strstr(why, bad[i].rule), "'%s': rule '%s'", bad[i].s, why ? why : "(none)");
		cr_expect_eq(v, 12345, "'%s' changed the result on error", bad[i].s);
	}
	cr_expect_eq(gtt_parse_u64(NULL, NULL, NULL), GTT_EINVAL);
}

/* The CLI reads numbers through the same grammar. */
Test(num, the_cli_reads_the_same_grammar)
{
	char out[1024];

	cr_expect_eq(t_run("./build/gttlab --json decode pte 010", out, sizeof(out)), 0);
	cr_expect(strstr(out, "\"pte\":\"0x000000000000000a\""), "010 is ten, not octal 8: %s", out);
	cr_expect_eq(t_run("./build/gttlab decode pte 08 >/dev/null", out, sizeof(out)), 0, "08 is eight");
	cr_expect_eq(t_run("./build/gttlab decode pte 18446744073709551616 2>&1", out, sizeof(out)), 2);
	cr_expect(strstr(out, "does not fit in 64 bits"), "%s", out);
}

static const struct hw_info *skl(void)
{
	static struct hw_device *dev;

	if (!dev)
		dev = t_open("sim:skl");
	return &dev->info;
}

/* The dry pass over `text`; its one error line in `err`. */
static enum scenario_result check_text(const char *text, size_t len, char *err, size_t n)
{
	FILE *f = tmpfile();
	cr_assert_not_null(f);
	enum scenario_result r = scenario_check_text(skl(), "t.scn", text, len, f);
	rewind(f);
	size_t got = fread(err, 1, n - 1, f);
	err[got] = '\0';
	fclose(f);
	return r;
}

#define MALFORMED(text, rule)                                                                              \
	do {                                                                                               \
		char e_[512];                                                                              \
		cr_expect_eq(check_text(text, strlen(text), e_, sizeof(e_)), SCENARIO_MALFORMED, "accepted: %s", text); \
		cr_expect(strstr(e_, rule), "'%s': error '%s' does not say '%s'", text, e_, rule);             \
	} while (0)

Test(num, scenario_numbers_are_never_truncated_or_wrapped)
{
	char e[512];
	static const char ok[] = "create a low=4M slots=1 fences=2\nguest-fence a 1 start=0x4000000 size=4K stride=512 tiling=x\n"
				 "expand a 010\nrun 100000\n";

	cr_expect_eq(check_text(ok, sizeof(ok) - 1, e, sizeof(e)), SCENARIO_PASSED, "%s", e);
	/* a fence id of 2^32 once programmed fence 0 */
	MALFORMED("create a low=4M slots=1 fences=2\nguest-fence a 4294967296 off\n", "fence id 4294967296 is out of range");
	/* expand by 2^32 + 1 once meant expand by 1 */
	MALFORMED("create a low=4M slots=1\nexpand a 4294967297\n", "slots 4294967297 is out of range");
	MALFORMED("create a low=4M slots=1\nreduce a 0\n", "slots 0 is out of range");
	MALFORMED("create a low=4M slots=4294967297\n", "slots=N 4294967297 is out of range");
	MALFORMED("create a low=4M slots=1 at=4294967296\n", "at=SLOT 4294967296 is out of range");
	MALFORMED("create a low=4M slots=1 mem=4294967297\n", "mem=PAGES 4294967297 is out of range");
	MALFORMED("create a low=4M slots=1 fences=4294967297\n", "fences=N 4294967297 is out of range");
	MALFORMED("config host-fences=4294967296\n", "host-fences 4294967296 is out of range");
	/* run N is bounded, so no scenario runs for hours */
	MALFORMED("create a low=4M slots=1\nrun 4294967295\n", "quanta 4294967295 is out of range: 0 to 100000");
	/* octal is gone: 08 is eight, 010 is ten */
	static const char octal[] = "create a low=4M slots=08\nexpand a 010\n";
	cr_expect_eq(check_text(octal, sizeof(octal) - 1, e, sizeof(e)), SCENARIO_PASSED, "%s", e);
	/* a GFN whose PTE cannot hold it was written as not present; one whose shift wrapped mapped another frame */
	MALFORMED("create a low=4M slots=1\nguest-pte a 0x4000000 0x8000000\n", "does not fit a skl PTE");
	MALFORMED("create a low=4M slots=1\nguest-pte a 0x4000000 0x10000000000001\n", "does not fit a skl PTE");
	MALFORMED("create a low=4M slots=1\nguest-pte a 0x4000000 0x7fffffe count=3\n", "and the pages after it");
	MALFORMED("create a low=4M slots=1\nguest-pte a 0xfffff000 1 count=2\n", "inside the 0x100000000-byte GGTT");
	MALFORMED("create a low=4M slots=1\nexpect slots a == 1-4294967296\n", "expect slots NAME == FIRST-LAST");
	MALFORMED("create a low=4M slots=1\nexpect pvinfo a 4294967296 == 0\n", "pvinfo field '4294967296'");
	/* a key given twice once let the last one win silently */
	MALFORMED("config pool=8M pool=16M\n", "pool= is given twice");
	MALFORMED("create b low=16M slots=1 low=32M\n", "low= is given twice");
}

Test(num, scenario_files_that_are_not_text_are_refused)
{
	char dir[64], path[128], cmd[256], out[1024];

	/* a NUL byte once made every later line, even an unknown command, be ignored */
	static const char nul[] = "create a low=4M slots=1\n\0frobnicate\n";
	char e[512];
	cr_expect_eq(check_text(nul, sizeof(nul) - 1, e, sizeof(e)), SCENARIO_MALFORMED);
	cr_expect(strstr(e, "t.scn:2: a NUL byte"), "%s", e);
	MALFORMED("# only a comment\n\n", "no command in it");
	/* a directory once ran nothing and exited 0 */
	t_tmpdir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "./build/gttlab dom0 run %s 2>&1", dir);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "is a directory"), "%s", out);
	/* a FIFO must not hang */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	cr_assert_eq(mkfifo(path, 0600), 0);
	snprintf(cmd, sizeof(cmd), "timeout 10 ./build/gttlab dom0 run %s 2>&1", path);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "not a regular file"), "%s", out);
	unlink(path);
	rmdir(dir);
}
