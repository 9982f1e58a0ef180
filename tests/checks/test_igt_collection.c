/* SPDX-License-Identifier: MIT */
/*
 * The IGT collection run the way igt_runner runs it: one process per subtest
 * (and per dynamic subtest), IGT_SENTINEL_ON_STDERR=1, results derived from
 * the marker lines and exit codes by the rules of igt-protocol.md (a result
 * line wins; otherwise 0 pass, 77/79 skip, 112 abort, else fail; an unknown
 * result word is incomplete; a pass with other stderr lines is a warn). Every
 * igt@bin@subtest must agree with the check's own result in process.
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checks/runner.h"
#include "tests/helpers.h"

#define ROOT "build/igt"

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b = calloc(1, 1 << 16);
	if (f) {
		size_t n = fread(b, 1, (1 << 16) - 1, f);
		b[n] = '\0';
		fclose(f);
	}
	return b;
}

/* What igt_runner makes of one process: the result word from the lines, or from the exit code. */
static const char *derive(const char *out, const char *err, int rc, const char *line_prefix)
{
	const char *res = NULL;
	static char word[32];

	for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (!strncmp(p, line_prefix, strlen(line_prefix))) {
			sscanf(p + strlen(line_prefix), "%31s", word);
			res = !strcmp(word, "SUCCESS") ? "pass" : !strcmp(word, "FAIL") ? "fail" : !strcmp(word, "SKIP") ? "skip"
			      : !strcmp(word, "CRASH") ? "crash" : !strcmp(word, "TIMEOUT") ? "timeout" : "incomplete";
		}
	}
	if (!res)
		res = rc == 0 ? "pass" : rc == 77 || rc == 79 ? "skip" : rc == 112 ? "abort" : "fail";
	if (!strcmp(res, "pass")) {
		/* anything on stderr between the sentinels but the sentinels makes it a warn */
		for (const char *p = err; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
			if (*p != '\n' && strncmp(p, "Starting ", 9) && strncmp(p, "Subtest ", 8) && strncmp(p, "Dynamic subtest ", 16))
				return "warn";
	}
	return res;
}

static const char *run_igt(const char *bin, const char *sub, const char *dyn, const char *prefix, char *dir)
{
	char cmd[512];
	static char res[32];

	snprintf(cmd, sizeof(cmd), "cd " ROOT " && GTTLAB_DEVICE=sim:skl IGT_SENTINEL_ON_STDERR=1 ./%s --run-subtest %s %s%s >%s/out 2>%s/err; echo $?",
		 bin, sub, dyn ? "--dynamic-subtest " : "", dyn ? dyn : "", dir, dir);
	char rcbuf[16];
	t_run(cmd, rcbuf, sizeof(rcbuf));
	char p1[128], p2[128];
	snprintf(p1, sizeof(p1), "%s/out", dir);
	snprintf(p2, sizeof(p2), "%s/err", dir);
	char *out = slurp(p1), *err = slurp(p2);
	snprintf(res, sizeof(res), "%s", derive(out, err, atoi(rcbuf), prefix));
	free(out);
	free(err);
	return res;
}

Test(igt_collection, every_subtest_agrees_with_the_check, .timeout = 300)
{
	char *list = slurp(ROOT "/test-list.txt"), dir[64], cmd[256], names[4096];
	struct hw_device *dev = t_open("sim:skl");
	unsigned compared = 0;

	t_tmpdir(dir, sizeof(dir));
	cr_assert(strstr(list, "TESTLIST"), "no test list in " ROOT);
	for (char *bin = strtok(list, " \n"); bin; bin = strtok(NULL, " \n")) {
		if (!strcmp(bin, "TESTLIST") || !strcmp(bin, "END") || !strcmp(bin, "TESTLIST"))
			continue;
		snprintf(cmd, sizeof(cmd), "./" ROOT "/%s --list-subtests", bin);
		cr_assert_eq(t_run(cmd, names, sizeof(names)), 0, "%s --list-subtests", bin);
		char *save;
		for (char *sub = strtok_r(names, "\n", &save); sub; sub = strtok_r(NULL, "\n", &save)) {
			char prefix[128];
			if (!strcmp(sub, "platforms")) {
				for (size_t p = 0; p < gtt_num_platforms; p++) {
					if (!gtt_platform_simulated(&gtt_platforms[p]))
						continue;
					snprintf(prefix, sizeof(prefix), "Dynamic subtest %s: ", gtt_platforms[p].name);
					const char *got = run_igt(bin, sub, gtt_platforms[p].name, prefix, dir);
					/* the vf and pf suites run where the platform has SR-IOV (gen12); elsewhere all skip */
					bool sriov = !strcmp(bin, "gtt_vf") || !strcmp(bin, "gtt_pf");
					const char *want = sriov && gtt_platforms[p].gen < 120 ? "skip" : "pass";
					cr_expect_str_eq(got, want, "igt@%s@%s@%s is %s", bin, sub, gtt_platforms[p].name, got);
					compared++;
				}
				continue;
			}
			snprintf(prefix, sizeof(prefix), "Subtest %s: ", sub);
			const char *got = run_igt(bin, sub, NULL, prefix, dir);
			/* the check itself, in process, on the same default device */
			const struct check *sel[1];
			size_t n;
			cr_assert_eq(runner_select(sub, sel, 1, &n, NULL), 0, "%s names no check", sub);
			struct check_result r;
			struct runner_opts o = { 0 };
			runner_run(dev, sel, 1, &o, &r);
			cr_expect_str_eq(got, check_status_name(r.status), "igt@%s@%s is %s; the check says %s (%s)", bin, sub, got,
					 check_status_name(r.status), r.reason);
			compared++;
		}
	}
	cr_expect_geq(compared, gtt_check_count() + 6 * 6, "only %u results compared", compared);
	hw_close(dev);
	free(list);
}

Test(igt_collection, the_parser_follows_the_contract)
{
	cr_expect_str_eq(derive("Subtest a: SUCCESS (0.001s)\n", "", 98, "Subtest a: "), "pass", "the line wins over the exit code");
	cr_expect_str_eq(derive("Subtest a: PASS (0.001s)\n", "", 0, "Subtest a: "), "incomplete", "PASS is not a result word");
	cr_expect_str_eq(derive("", "", 77, "Subtest a: "), "skip");
	cr_expect_str_eq(derive("", "", 79, "Subtest a: "), "skip");
	cr_expect_str_eq(derive("", "", 112, "Subtest a: "), "abort");
	cr_expect_str_eq(derive("", "", 1, "Subtest a: "), "fail");
	cr_expect_str_eq(derive("Subtest a: SUCCESS (0.1s)\n", "Subtest a: SUCCESS (0.1s)\nnoise\n", 0, "Subtest a: "), "warn");
}

Test(igt_collection, no_usable_device_skips_with_the_reason)
{
	char out[4096];

	cr_expect_eq(t_run("GTTLAB_DEVICE=pci:0000:00:1e.7 ./" ROOT "/gtt_ggtt --run-subtest ggtt-invalidate 2>&1", out, sizeof(out)), 77, "%s", out);
	cr_expect(strstr(out, "Subtest ggtt-invalidate: SKIP") && strstr(out, "no usable device pci:0000:00:1e.7"), "%s", out);
	cr_expect_eq(t_run("./" ROOT "/gtt_ggtt --device sim:hsw --run-subtest 'ggtt-*' 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "Subtest ggtt-guard-page: SUCCESS"), "%s", out);
}

/* Issue 14: a device string that names no device is the lab's configuration error: a failure with the reason, not a skip. */
Test(igt_collection, a_device_string_naming_no_device_fails_with_the_reason)
{
	char out[4096];

	cr_expect_eq(t_run("GTTLAB_DEVICE=sim:skylake-typo ./" ROOT "/gtt_ggtt --run-subtest ggtt-invalidate 2>&1", out, sizeof(out)),
		     98, "%s", out);
	cr_expect(strstr(out, "Subtest ggtt-invalidate: FAIL") &&
		  strstr(out, "GTTLAB_DEVICE 'sim:skylake-typo' names no device") && strstr(out, "unknown platform"), "%s", out);
	cr_expect_eq(t_run("./" ROOT "/gtt_fence --device bogus --run-subtest fence-readback 2>&1", out, sizeof(out)), 98, "%s", out);
	cr_expect(strstr(out, "--device 'bogus' names no device"), "%s", out);
	/* the reason is on stderr, as IGT puts a failure's details, and the marker on stdout */
	cr_expect_eq(t_run("GTTLAB_DEVICE=bogus ./" ROOT "/gtt_ggtt --run-subtest ggtt-invalidate 2>/dev/null", out, sizeof(out)), 98,
		     "%s", out);
	cr_expect(strstr(out, "Subtest ggtt-invalidate: FAIL") && !strstr(out, "names no device"), "%s", out);
}

/*
 * The binaries are one program under one name per suite (igt-tests/igt_main.c): the name of the
 * file it runs from picks the suite, so a copy under another gtt_ name runs that suite, and a file
 * that is no gtt_<suite> of the table lists nothing and exits 79 (IGT's invalid) with the reason.
 * (tests/hosted/test_escape.c runs gtt_ggtt under a hostile argv[0]: it stays gtt_ggtt.)
 */
Test(igt_collection, the_name_a_binary_runs_under_picks_its_suite)
{
	char out[4096], dir[] = "/tmp/gttlab-igt-name-XXXXXX", cmd[512];

	cr_assert(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "cp " ROOT "/gtt_ggtt %s/gtt_fence_pool && cp " ROOT "/gtt_ggtt %s/gtt_nosuch && cp " ROOT
		 "/gtt_ggtt %s/ggtt", dir, dir, dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/gtt_fence_pool --list-subtests 2>&1", dir);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "fence-pool-") && !strstr(out, "ggtt-"), "gtt_ggtt copied as gtt_fence_pool lists: %s", out);
	static const char *const bad[] = { "gtt_nosuch", "ggtt" };
	for (int i = 0; i < 2; i++) {
		snprintf(cmd, sizeof(cmd), "%s/%s --list-subtests 2>&1", dir, bad[i]);
		cr_expect_eq(t_run(cmd, out, sizeof(out)), 79, "%s: %s", bad[i], out);
		cr_expect(strstr(out, "names no suite of the check table") && !strstr(out, "platforms"), "%s: %s", bad[i], out);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_eq(system(cmd), 0);
}

/*
 * Issue 14: build/igt/gttlab.testlist is a testlist for igt_runner --test-list, every test in
 * igt@BINARY@SUBTEST[@DYNAMIC] form: each check once under its suite's binary, and the platforms
 * subtest's dynamic subtests once per binary and platform; every entry names a subtest its binary
 * lists. test-list.txt stays the test root's TESTLIST block.
 */
Test(igt_collection, the_testlist_names_every_test_once)
{
	FILE *f = fopen(ROOT "/gttlab.testlist", "r");
	char line[256];
	size_t n = 0, dyn = 0, seen[64] = { 0 };

	cr_assert_not_null(f, "no " ROOT "/gttlab.testlist (make igt)");
	while (fgets(line, sizeof(line), f)) {
		char bin[64], sub[64], plat[32], extra[8];
		line[strcspn(line, "\n")] = '\0';
		int k = sscanf(line, "igt@%63[a-z0-9_]@%63[a-z0-9-]@%31[a-z0-9]%7s", bin, sub, plat, extra);
		cr_expect(k == 2 || k == 3, "'%s' is not igt@BINARY@SUBTEST[@DYNAMIC]", line);
		n++;
		if (k == 3) {
			cr_expect_str_eq(sub, "platforms", "%s", line);
			dyn++;
			continue;
		}
		size_t i;
		for (i = 0; i < gtt_check_count() && strcmp(gtt_check(i)->name, sub); i++)
			;
		cr_assert_lt(i, gtt_check_count(), "%s: no such check", line);
		char want[64];
		snprintf(want, sizeof(want), "gtt_%s", gtt_check(i)->suite);
		for (char *p = want; *p; p++)
			if (*p == '-')
				*p = '_';
		cr_expect_str_eq(bin, want, "%s: the check's binary is %s", line, want);
		seen[i]++;
	}
	fclose(f);
	for (size_t i = 0; i < gtt_check_count(); i++)
		cr_expect_eq(seen[i], 1, "check %s named %zu times", gtt_check(i)->name, seen[i]);
	size_t bins = 0;
	FILE *t = fopen(ROOT "/test-list.txt", "r");
	cr_assert_not_null(t);
	while (fgets(line, sizeof(line), t))
		for (char *w = strtok(line, " \n"); w; w = strtok(NULL, " \n"))
			bins += !strncmp(w, "gtt_", 4);
	fclose(t);
	size_t simulated = 0;
	for (size_t p = 0; p < gtt_num_platforms; p++)
		simulated += gtt_platform_simulated(&gtt_platforms[p]) != 0;
	cr_expect_eq(dyn, bins * simulated, "%zu platform entries for %zu binaries x %zu simulated platforms", dyn, bins,
		     simulated);
	cr_expect_eq(n, gtt_check_count() + dyn);
}
