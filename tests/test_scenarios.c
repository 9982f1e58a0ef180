/* SPDX-License-Identifier: MIT */
/* The scenario runner and the shipped scenarios. */
#include <criterion/criterion.h>
#include <unistd.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "harness/scenario.h"
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

Test(scenarios, every_shipped_scenario_passes, .timeout = 120)
{
	DIR *d = opendir("scenarios");
	struct dirent *e;
	int ran = 0;

	cr_assert_not_null(d);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		if (n < 5 || strcmp(e->d_name + n - 4, ".scn"))
			continue;
		char path[512], dev[64], cmd[768], out[1 << 16];
		snprintf(path, sizeof(path), "scenarios/%s", e->d_name);
		device_of(path, dev, sizeof(dev));
		snprintf(cmd, sizeof(cmd), "./build/gttlab --device %s dom0 run %s --quiet 2>&1", dev, path);
		int rc = t_run(cmd, out, sizeof(out));
		cr_expect_eq(rc, 0, "%s exited %d:\n%s", path, rc, out);
		cr_expect(strstr(out, "failures 0"), "%s:\n%s", path, out);
		ran++;
	}
	closedir(d);
	cr_expect_geq(ran, 4, "only %d scenarios found", ran);
}

Test(scenarios, malformed_exits_2_naming_the_line_and_touches_nothing)
{
	char dir[64], path[128], cmd[256], out[4096];
	static const char *const bad[] = {
		"create a low=4M slots=1\nguest-pte b 0x4000000 1\n",		/* b never created */
		"create a low=4M slots=1\nswitch a\nfrobnicate a\n",		/* unknown command */
		"create a low=4M slots=1\nexpect pte 0x1001 == 0\n",		/* unaligned */
		"create a low=4M slots=1\ncreate a low=4M slots=1\n",		/* twice */
		"create a low=4M slots=1\nconfig slot-size=128M\n",		/* config too late */
		"create a low=4M slots=1 colour=red\n",				/* unknown argument */
		"create a low=4M slots=1\nexpect counter nonsense == 1\n",
		"create a low=4M slots=1\npolicy alpha=1.5.2\n",
		"create a low=4M slots=1\nrequest a expand\n",
		"create a low=4M slots=1\nguest-pte a 0x4000000 1\nevict b 1\n",
		"create a low=4M slots=1\npvinfo-write a 0x818 0x100 7\n",
		"policy\ncreate a low=4M slots=1\nexpect class == 2\n",
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
