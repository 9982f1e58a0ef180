/* SPDX-License-Identifier: MIT */
/* The scenario runner and the shipped scenarios. */
#include <criterion/criterion.h>
#include <unistd.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "scenario/scenario.h"
#include "tests/dom0_helpers.h"

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert(f && fputs(text, f) >= 0 && !fclose(f));
}

/* The device a scenario asks for in a "# device: D" line; sim:skl otherwise. */
static void device_of(const char *path, char *dev, size_t n)
{
	char line[256];
	FILE *f = fopen(path, "r");

	snprintf(dev, n, "sim:skl");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "# device: %63s", dev) == 1)
			break;
	if (f)
		fclose(f);
}

/* Every scenario of dir runs clean on the device its "# device:" line names; how many ran. */
static int run_all(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int ran = 0;

	cr_assert_not_null(d, "%s", dir);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".scn"))
			continue;
		char path[512], dev[64], cmd[768], out[1 << 16];
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		device_of(path, dev, sizeof(dev));
		snprintf(cmd, sizeof(cmd), "./build/gttlab --device %s dom0 run %s --quiet 2>&1", dev, path);
		int rc = t_run(cmd, out, sizeof(out));
		cr_expect_eq(rc, 0, "%s exited %d:\n%s", path, rc, out);
		cr_expect(strstr(out, "failures 0"), "%s:\n%s", path, out);
		ran++;
	}
	closedir(d);
	return ran;
}

Test(scenarios, every_shipped_scenario_passes, .timeout = 120)
{
	int ran = run_all("scenarios");

	cr_expect_geq(ran, 4, "only %d scenarios found", ran);
}

/* tests/scenarios/: regressions, each a scenario that once crashed or failed (its comment says how). */
Test(scenarios, every_regression_scenario_passes, .timeout = 120)
{
	int ran = run_all("tests/scenarios");

	cr_expect_geq(ran, 1, "only %d regression scenarios found", ran);
}

Test(scenarios, malformed_exits_2_naming_the_line_and_touches_nothing)
{
	char dir[64], path[128], cmd[256], out[4096];
	static const char *const bad[] = {
		"create a low=4M slots=1\nguest-pte b 0x4000000 1\n",		/* b never created */
		"create a low=4M slots=1\nswitch a\nfrobnicate a\n",		/* unknown command */
		"create a low=4M slots=1\nexpect pte 0x1001 == 0\n",		/* unaligned */
		"create a low=4M slots=1\nconfig slot-size=128M\n",		/* config too late */
		"run 1\nconfig slot-size=128M\n",				/* after any command: it was ignored */
		"run 1\ndevice kbl sim:kbl\n",				/* likewise: it never started */
		"create a low=4M slots=1 colour=red\n",				/* unknown argument */
		"create a low=4M slots=1\nexpect counter nonsense == 1\n",
		"create a low=4M slots=1\npolicy alpha=1.5.2\n",
		"create a low=4M slots=1\nrequest a expand\n",
		"create a low=4M slots=1\nguest-pte a 0x4000000 1\nevict b 1\n",
		"create a low=4M slots=1\npvinfo-write a 0x818 0x100 7\n",
		"policy\ncreate a low=4M slots=1\nexpect class == 2\n",
		"fail create a low=4M slots=1\ndestroy a\n",			/* fail create leaves no name */
		/* a vGPU's device is the run's to know; what holds on any device is checked before */
		"device kbl sim:kbl\non kbl create a low=4M slots=1\nguest-pte a 0x4001000 1\nguest-pte a 0x4000001 1\n",
	};
	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/bad.scn", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		write_file(path, bad[i]);
		int lines = 0;
		for (const char *p = bad[i]; *p; p++)
			lines += *p == '\n';
		snprintf(cmd, sizeof(cmd), "./build/gttlab dom0 run %s 2>&1", path);
		cr_expect_eq(t_run(cmd, out, sizeof(out)), 2, "case %zu: %s", i, out);
		char where[256];
		snprintf(where, sizeof(where), "%s:%d: ", path, lines);
		cr_expect(strstr(out, where), "case %zu must name %s:\n%s", i, where, out);

		/* and, in process, not one access to the device */
		struct hw_device *dev = t_open("sim:skl");
		struct sim_device *s = t_sim(dev);
		uint64_t w = sim_access_count(s, SIM_MMIO_WRITE), r = sim_access_count(s, SIM_MMIO_READ);
		FILE *null = fopen("/dev/null", "w");
		struct scenario_opts o = { .out = null, .errors = null };
		cr_expect_eq(scenario_run_file(dev, path, &o), SCENARIO_MALFORMED);
		cr_expect_eq(sim_access_count(s, SIM_MMIO_WRITE), w, "case %zu: a malformed scenario wrote the device", i);
		cr_expect_eq(sim_access_count(s, SIM_MMIO_READ), r, "case %zu: a malformed scenario read the device", i);
		fclose(null);
		hw_close(dev);
	}
}

Test(scenarios, a_failed_expect_exits_1_naming_the_line)
{
	char dir[64], path[128], cmd[256], out[8192];

	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/fail.scn", dir);
	write_file(path, "create a low=4M slots=1\nguest-pte a 0x4000000 1\nswitch a\n"
			 "expect pte 0x4000000 maps a 2\nexpect counter switches == 1\n");
	snprintf(cmd, sizeof(cmd), "./build/gttlab dom0 run %s 2>&1", path);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 1, "%s", out);
	char where[256];
	snprintf(where, sizeof(where), "%s:4: FAILED: expect pte 0x4000000 maps a page 2", path);
	cr_expect(strstr(out, where), "%s", out);
	cr_expect(strstr(out, "ok: counter switches == 1"), "the run goes on after a failed expect:\n%s", out);
}

Test(scenarios, a_run_leaves_the_device_as_found_and_writes_a_trace)
{
	char dir[64], path[128], trace[128];
	size_t n1, n2;
	struct d0 t;

	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/run.scn", dir);
	snprintf(trace, sizeof(trace), "%s/trace.csv", dir);
	write_file(path, "create a low=8M slots=2 fences=2\ncreate b low=4M slots=1\n"
			 "guest-pte a 0x4000000 1 count=8\nguest-fence a 0 start=0x4000000 size=32K stride=512 tiling=x\n"
			 "busy a\nbusy b\nrun 5\nexpand b 1\nrun 2\n");
	t.dev = t_open("sim:skl");
	t.sim = t_sim(t.dev);
	uint8_t *before = d0_capture(&t, &n1);
	FILE *null = fopen("/dev/null", "w"), *tr = fopen(trace, "w");
	struct scenario_opts o = { .out = null, .trace = tr };
	cr_assert_eq(scenario_run_file(t.dev, path, &o), SCENARIO_PASSED);
	fclose(tr);
	fclose(null);
	uint8_t *after = d0_capture(&t, &n2);
	cr_expect_eq(memcmp(before, after, n1), 0, "the scenario left the GGTT or the fences changed");
	char out[4096];
	char cmd[256];
	snprintf(cmd, sizeof(cmd), "cat %s", trace);
	t_run(cmd, out, sizeof(out));
	cr_expect(!strncmp(out, "switch,line,from,to,ptes_written,ptes_skipped,ns,sim_ms\n1,7,none,a,", 66), "%s", out);
	free(before);
	free(after);
	hw_close(t.dev);
}

/* The policy's expects fail with the line and what the runtime holds: the class and f, the PVINFO status. */
Test(scenarios, policy_expects_fail_naming_the_class_and_the_status)
{
	char dir[64], path[128], cmd[256], out[16384], where[256];

	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/policy.scn", dir);
	write_file(path, "config slot-size=128M\npolicy alpha=0.01 beta=0.01 copy-ns=100\n"
			 "create a low=4M slots=1 at=0\ncreate b low=4M slots=1 at=1\n"
			 "steal a 150\nrun 32\nexpect class == low\n"
			 "request b expand 1\n"
			 "expect request b == granted\nexpect class == high\n");
	snprintf(cmd, sizeof(cmd), "./build/gttlab dom0 run %s 2>&1", path);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 1, "%s", out);
	snprintf(where, sizeof(where), "%s:7: FAILED: expect class == low (it is high: f 1.5", path);
	cr_expect(strstr(out, where), "%s", out);
	snprintf(where, sizeof(where), "%s:8: FAILED: request b: answered refused-policy over PVINFO", path);
	cr_expect(strstr(out, where), "%s", out);
	snprintf(where, sizeof(where), "%s:9: FAILED: expect request b == granted (PVINFO status 0x78110 reads refused-policy)", path);
	cr_expect(strstr(out, where), "%s", out);
	cr_expect(strstr(out, "ok: class == high"), "%s", out);

	write_file(path, "create a low=4M slots=1\nexpect class == low\n");
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 1, "%s", out);
	cr_expect(strstr(out, "expect class: no policy is on"), "%s", out);
}

/* Issue 14: a vGPU reduced to zero slots shows as none everywhere (it printed 2-1 and 0-4294967295). */
Test(scenarios, zero_slots_show_as_none)
{
	char dir[64], path[128], cmd[256], out[1 << 14];

	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/z.scn", dir);
	write_file(path, "create a low=4M slots=2\nreduce a 2\nexpect slots a == none\n");
	snprintf(cmd, sizeof(cmd), "./build/gttlab dom0 run %s 2>&1", path);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "now slots none,") && strstr(out, "(it holds none)") && strstr(out, "a reduced to none (0 left, 2 right)") &&
		  strstr(out, "  a            none "), "%s", out);
	cr_expect(!strstr(out, "4294967295") && !strstr(out, "slots 2-1"), "%s", out);
	snprintf(cmd, sizeof(cmd), "./build/gttlab --json dom0 run %s 2>&1", path);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "\"slots\":\"none\""), "%s", out);
	unlink(path);
	rmdir(dir);
}

/*
 * Run `text` as a scenario file with `dom0 run`: its exit status, and its
 * output (stdout and stderr) in `out`. `path` names the file: made in a new
 * directory when empty, written over after that; done_text removes both.
 */
static int run_text(const char *text, char *path, size_t pn, char *out, size_t n)
{
	char dir[64], cmd[256];

	if (!*path) {
		t_tmpdir(dir, sizeof(dir));
		snprintf(path, pn, "%s/t.scn", dir);
	}
	write_file(path, text);
	snprintf(cmd, sizeof(cmd), "./build/gttlab dom0 run %s 2>&1", path);
	return t_run(cmd, out, n);
}

static void done_text(char *path)
{
	unlink(path);
	*strrchr(path, '/') = '\0';
	rmdir(path);
}

/* `FILE:LINE: ` then `what`, somewhere in out. */
static bool names_line(const char *out, const char *path, int line, const char *what)
{
	char where[512];

	snprintf(where, sizeof(where), "%s:%d: %s", path, line, what);
	return strstr(out, where) != NULL;
}

/*
 * A vGPU lives on the device its create ran on: `on D create NAME` made it
 * there, and every later line naming it acts on D's vGPU. Its name was filed
 * under main, where another vGPU had the same id, so a guest write meant for
 * the second device landed in the other guest's memory.
 */
Test(scenarios, a_vgpu_lives_on_the_device_it_was_created_on)
{
	char path[128] = "", out[1 << 15];

	int rc = run_text("device kbl sim:kbl\n"
			  "on kbl create b low=16M slots=1 mem=64\n"
			  "create a low=16M slots=1 mem=64\n"
			  "guest-pte a 0x4000000 7\nguest-pte b 0x4000000 7\n"
			  "guest-write a 0x4000000 aaaa\nguest-write b 0x4000000 bbbb\n"
			  "expect read a 0x4000000 == aaaa\nexpect read b 0x4000000 == bbbb\n"
			  "on kbl expect counter b.gtt_modifications == 1\nexpect counter a.gtt_modifications == 1\n",
			  path, sizeof(path), out, sizeof(out));
	cr_expect_eq(rc, 0, "%s", out);
	cr_expect(strstr(out, "ok: read a 0x4000000 == aaaa") && strstr(out, "ok: read b 0x4000000 == bbbb"), "%s", out);
	/* the summary lists it under its device */
	cr_expect(strstr(out, "device kbl (sim:kbl)") && strstr(strstr(out, "device kbl (sim:kbl)"), "\n  b "), "%s", out);
	done_text(path);
}

/*
 * A migration the runtime refuses leaves the vGPU where it was: its lines go
 * on running there. The pre-pass believed it moved, so a line naming it on
 * its own device was refused as malformed (exit 2), and a later `fail
 * migrate` back to where it really was passed as a refusal.
 */
Test(scenarios, a_refused_migration_leaves_the_vgpu_where_it_was)
{
	static const char head[] = "device kbl sim:kbl\n"
				   "config slot-size=512M share-limit=1\n"
				   "create x low=16M slots=2 mem=64\n"
				   "on kbl create y low=16M slots=6 mem=64\n"
				   "fail migrate x device=kbl\n"	/* line 5: no slot of kbl is free */
				   "guest-pte x 0x30000000 5\nswitch x\n"
				   "expect owner 0x30000000 == x\nexpect slots x == 0-1\n";
	char path[128] = "", out[1 << 15], text[1024];

	int rc = run_text(head, path, sizeof(path), out, sizeof(out));
	cr_expect_eq(rc, 0, "%s", out);
	cr_expect(!names_line(out, path, 5, "FAILED") && strstr(out, "   5  refused as expected: "), "%s", out);
	cr_expect(strstr(out, "ok: owner 0x30000000 == x"), "%s", out);

	/* a move to where it lives is no refusal by the runtime: the line did not run, and the run fails */
	snprintf(text, sizeof(text), "%sfail migrate x device=main\n", head);
	rc = run_text(text, path, sizeof(path), out, sizeof(out));
	cr_expect_eq(rc, 1, "%s", out);
	cr_expect(names_line(out, path, 10, "FAILED: did not run: migrate x device=main: it lives there"), "%s", out);
	done_text(path);
}

/*
 * What depends on the lines before is judged when the line runs: each of
 * these is well formed, and its last line fails, saying why it could not
 * run (exit 1). Before, some were refused as malformed though a run could
 * make them right (a first create that fails), and the lines naming a vGPU
 * whose create failed were skipped without a word.
 */
Test(scenarios, a_line_that_cannot_run_fails_saying_why)
{
	static const struct { const char *text, *why; } cases[] = {
		{ "create a low=16M slots=100\nexpect slots a == none\n",
		  "FAILED: did not run: no vGPU named 'a' exists: its create at line 1 failed" },
		{ "create a low=16M slots=100\nguest-write a 0x4000000 x\n", "its create at line 1 failed" },
		{ "create a low=4M slots=1\ncreate a low=4M slots=1\n",
		  "FAILED: did not run: vGPU 'a' exists already (created at line 1, on device main)" },
		{ "create a low=4M slots=1\ndestroy a\ndestroy a\n",
		  "FAILED: did not run: no vGPU named 'a' exists: it was destroyed at line 2" },
		{ "create a low=4M slots=1\ndestroy a\nguest-pte a 0x4000000 1\n", "it was destroyed at line 2" },
		{ "create a low=4M slots=1\nfail create a low=4M slots=1\n",
		  "FAILED: did not run: vGPU 'a' exists already (created at line 1); fail create needs a new name" },
		/* under `fail`, a line that could not run is no refusal */
		{ "create a low=16M slots=100\nfail destroy a\n", "FAILED: did not run: no vGPU named 'a' exists" },
		{ "device kbl sim:kbl\ncreate a low=4M slots=1\nmigrate a device=main\n",
		  "FAILED: did not run: migrate a device=main: it lives there" },
		{ "device kbl sim:kbl\ncreate a low=4M slots=1\nmigrate a device=kbl\nexpect owner 0x14000000 == a\n",
		  "FAILED: did not run: vGPU 'a' lives on device kbl, and this line runs on device main" },
		{ "device kbl sim:kbl\ncreate a low=4M slots=1\nmigrate a device=kbl\nexpect counter a.quanta == 0\n",
		  "vGPU 'a' lives on device kbl, and this line runs on device main" },
		{ "device kbl sim:kbl\ncreate a low=4M slots=1\non kbl switch a\n",
		  "FAILED: did not run: vGPU 'a' lives on device main, and this line runs on device kbl" },
		/* the bounds of the device a vGPU lives on: known when the line runs */
		{ "device kbl sim:kbl\non kbl create a low=4M slots=1\nguest-pte a 0xfffff000 1 count=9\n",
		  "FAILED: did not run: GM range 0xfffff000+9 pages is not 4 KiB-aligned inside the 0x100000000-byte GGTT" },
		/* a second device that cannot start: every line for it fails */
		{ "device old sim:snb\nconfig host-high=2G\ncreate a low=16M slots=1\non old run 1\n",
		  "FAILED: did not run: device old did not start" },
		{ "device old sim:snb\nconfig host-high=2G\ncreate a low=16M slots=1\nmigrate a device=old\n",
		  "FAILED: did not run: migrate a device=old: device old did not start" },
	};
	char path[128] = "", out[1 << 15];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int lines = 0;
		for (const char *p = cases[i].text; *p; p++)
			lines += *p == '\n';
		cr_expect_eq(run_text(cases[i].text, path, sizeof(path), out, sizeof(out)), 1, "case %zu:\n%s", i, out);
		cr_expect(names_line(out, path, lines, "FAILED: "), "case %zu: line %d must fail:\n%s", i, lines, out);
		cr_expect(strstr(out, cases[i].why), "case %zu must say '%s':\n%s", i, cases[i].why, out);
		cr_expect(!strstr(out, "refused as expected"), "case %zu:\n%s", i, out);
	}
	done_text(path);
}

/*
 * `device` after any other command: it was accepted, the device never
 * started, every line naming it was skipped, and an expect on it that could
 * never hold passed with exit 0. Now malformed, like config.
 */
Test(scenarios, a_device_after_a_command_is_malformed)
{
	char path[128] = "", out[4096];

	int rc = run_text("run 1\ndevice kbl sim:kbl\non kbl expect counter migrations == 12345\n", path, sizeof(path), out,
			  sizeof(out));
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(names_line(out, path, 2, "device must come before every other command"), "%s", out);
	done_text(path);
}

/*
 * A layout the runtime cannot hold is the config line's fault: malformed (exit 2, that line named), before
 * anything runs. A second device it cannot hold does not start: every line on it fails, the run fails.
 */
Test(scenarios, a_layout_the_runtime_cannot_hold_is_refused_on_its_config_line)
{
	char path[128] = "", out[4096];

	int rc = run_text("config host-high=4G\ncreate a low=16M slots=1\nexpect slots a == 0-0\nrun 1\nrun 2\n", path,
			  sizeof(path), out, sizeof(out));
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(names_line(out, path, 1, "config: host high size 0x100000000 does not fit the GGTT above the aperture"), "%s",
		  out);
	cr_expect(!strstr(out, "create a"), "a line ran: %s", out);
	done_text(path);
	path[0] = 0;
	rc = run_text("config slot-size=1M\ncreate a low=16M slots=1\n", path, sizeof(path), out, sizeof(out));
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(names_line(out, path, 1, "config: slot size 0x100000 gives 3839 slots in high graphics memory; 1 to 1024 are supported"),
		  "%s", out);
	done_text(path);
	path[0] = 0;
	rc = run_text("config slot-size=4M slot-runs=2\ncreate a low=16M slots=1\n", path, sizeof(path), out, sizeof(out));
	cr_expect_eq(rc, 2, "%s", out);
	cr_expect(names_line(out, path, 1, "config: slot size 0x400000 gives 959 slots; non-contiguous slots (slot runs 2) support at most 256"), "%s", out);
	done_text(path);
	path[0] = 0;
	rc = run_text("config host-high=3G\ndevice h sim:hsw\non h create a low=16M slots=1\nrun 1\n", path, sizeof(path), out,
		      sizeof(out));
	cr_expect_eq(rc, 1, "%s", out);
	cr_expect(names_line(out, path, 3, "FAILED: cannot start the runtime on device h: host high size 0xc0000000 does not fit"),
		  "%s", out);
	done_text(path);
}

/* A control byte of a scenario file reaches no terminal: every message escapes it (\x1b), malformed, failed or said. */
Test(scenarios, control_bytes_in_messages_are_escaped)
{
	char path[128] = "", out[1 << 15];

	cr_expect_eq(run_text("create a\x1b[31m low=4M slots=1\n", path, sizeof(path), out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "'a\\x1b[31m'") && !strchr(out, '\x1b'), "%s", out);

	cr_expect_eq(run_text("create a low=16M slots=1 mem=64\nguest-pte a 0x4000000 7\n"
			      "guest-write a 0x4000000 \x1b[2J\nexpect read a 0x4000000 == \x1b[2J\n"
			      "expect read a 0x4000000 == x\x1b]0;owned\x07\n",
			      path, sizeof(path), out, sizeof(out)),
		     1, "%s", out);
	cr_expect(!strchr(out, '\x1b') && !strchr(out, '\x07'), "a raw control byte in:\n%s", out);
	cr_expect(strstr(out, "ok: read a 0x4000000 == \\x1b[2J"), "%s", out);
	cr_expect(names_line(out, path, 5, "FAILED: expect read a 0x4000000 == x\\x1b]0;owned\\x07 (it reads \\x1b[2J"),
		  "%s", out);
	done_text(path);
}

/* A withdrawn request is said to be withdrawn, never admitted; what queued behind it is admitted. */
Test(scenarios, a_withdrawal_is_reported_as_one)
{
	char out[1 << 16];
	int rc = t_run("./build/gttlab --device sim:skl dom0 run scenarios/admission-withdraw.scn 2>&1", out, sizeof(out));

	cr_assert_eq(rc, 0, "%s", out);
	cr_expect(strstr(out, "16  a withdrew its paused expand"), "%s", out);
	cr_expect(strstr(out, "16  c admitted after"), "%s", out);
	cr_expect(!strstr(out, "a admitted"), "a withdrawn request was reported admitted:\n%s", out);
}
