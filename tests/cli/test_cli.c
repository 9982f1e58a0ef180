/* SPDX-License-Identifier: MIT */
/*
 * The gttlab CLI as a user runs it: outputs, --json, --help, and the rule for
 * bad input (one line naming the value and the rule, exit status 2).
 */
#define _POSIX_C_SOURCE 200809L
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "regs/platform.h"
#include "tests/helpers.h"

#define GTTLAB "./build/gttlab "

static int run(const char *args, char *out, size_t n)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), GTTLAB "%s 2>&1", args);
	return t_run(cmd, out, n);
}

static size_t lines(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

Test(cli, info_hsw_and_skl)
{
	char out[4096];

	cr_assert_eq(run("info --device sim:hsw", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "GGTT size     2 GiB"), "%s", out);
	cr_expect(strstr(out, "PTEs          524288\n"), "%s", out);
	cr_expect(strstr(out, "PTE size      4 bytes"), "%s", out);
	cr_expect(strstr(out, "0x0412"), "%s", out);
	cr_assert_eq(run("info", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "GGTT size     4 GiB"), "%s", out);
	cr_expect(strstr(out, "PTEs          1048576\n"), "%s", out);
	cr_expect(strstr(out, "PTE size      8 bytes"), "%s", out);
	cr_expect(strstr(out, "BAR0 size     16 MiB"), "%s", out);
	cr_expect(strstr(out, "aperture size 256 MiB"), "%s", out);
	cr_expect(strstr(out, "fences        32"), "%s", out);
}

Test(cli, json_output)
{
	char out[4096];

	cr_assert_eq(run("--json info --device sim:hsw", out, sizeof(out)), 0);
	cr_expect(strstr(out, "\"ggtt_size\":2147483648") && strstr(out, "\"num_ptes\":524288") &&
		  strstr(out, "\"pte_size\":4") && strstr(out, "\"gen\":\"7.5\""), "%s", out);
	cr_assert_eq(run("encode pte 0x1000 --json", out, sizeof(out)), 0);
	cr_expect_str_eq(out, "{\"platform\":\"skl\",\"addr\":\"0x1000\",\"cache\":\"none\",\"edram\":false,\"pte\":\"0x0000000000001001\"}\n");
	cr_assert_eq(run("--json dump ggtt --end 0x3000", out, sizeof(out)), 0);
	cr_expect(strstr(out, "\"runs\":[{\"start\":\"0x00000000\",\"end\":\"0x00002fff\",\"ptes\":3,\"kind\":\"constant\""), "%s", out);
	cr_assert_eq(run("--json decode fence 0x0017f01f00100003", out, sizeof(out)), 0);
	cr_expect(strstr(out, "\"tiling\":\"y\"") && strstr(out, "\"stride\":4096") && strstr(out, "\"valid\":true"), "%s", out);
}

/* Issue 14: dom0 run honours the scenario's `# device:` line, and --json gives one JSON document. */
Test(cli, dom0_run_takes_the_scenarios_device_and_json, .timeout = 60)
{
	static char out[1 << 20];

	/* written for sim:hsw (2 GiB GGTT, 384 MiB slots): run without --device, it runs there */
	cr_expect_eq(run("dom0 run scenarios/gscale-15-vgpus.scn --quiet", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "failures 0"), "%s", out);
	/* an explicit --device wins over the line (and this scenario does not fit a Skylake's slots) */
	cr_expect_eq(run("--device sim:skl dom0 run scenarios/gscale-15-vgpus.scn --quiet", out, sizeof(out)), 1, "%s", out);
	cr_assert_eq(run("--json dom0 run scenarios/gscale-15-vgpus.scn", out, sizeof(out)), 0, "%s", out);
	static const char head[] = "{\"result\":\"passed\",\"summary\":{\"scenario\":\"scenarios/gscale-15-vgpus.scn\",\"device\":\"sim:hsw\"";
	cr_expect(!strncmp(out, head, strlen(head)), "%s", out);
	cr_expect(strstr(out, "\"failures\":0,\"failed\":[]") && strstr(out, "\"vgpus\":[{\"name\":\"vm1\"") &&
		  strstr(out, "\"history\":["), "%.400s", out);
	cr_expect_eq(strchr(out, '\n') - out + 1, (long)strlen(out), "one line, one document");
	/* a failed expect is in the document with its line, not on stdout as text */
	char dir[64], path[128], cmd[256];
	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/f.scn", dir);
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("create a low=4M slots=1\nexpect counter switches == 7\n", f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "--json --device sim:skl dom0 run %s", path);
	cr_expect_eq(run(cmd, out, sizeof(out)), 1, "%s", out);
	cr_expect(!strncmp(out, "{\"result\":\"failed\"", 18) &&
		  strstr(out, "\"failed\":[{\"line\":2,\"message\":\"expect counter switches == 7 (it is 0)\"}]"), "%s", out);
	unlink(path);
	rmdir(dir);
}

/* Issue 14: Haswell write-through as i915 writes it for 0x0412 (no eDRAM), and decoded names back into --cache. */
Test(cli, haswell_cache_levels_and_decoded_names)
{
	char out[1024];

	/* hsw_pte_encode: level != NONE -> HSW_WB_LLC_AGE3 = HSW_CACHEABILITY_CONTROL(2) = 0x4 */
	cr_assert_eq(run("encode pte 0x1000 --platform hsw --cache wt", out, sizeof(out)), 0, "%s", out);
	cr_expect_str_eq(out, "0x00001005\n");
	/* iris_pte_encode (eDRAM): WT -> HSW_WT_ELLC_LLC_AGE3 = CONTROL(7) = 0xe */
	cr_assert_eq(run("encode pte 0x1000 --platform hsw --cache wt --edram", out, sizeof(out)), 0, "%s", out);
	cr_expect_str_eq(out, "0x0000100f\n");
	cr_assert_eq(run("decode pte 0x100f --platform hsw", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "cache   wt-ellc-llc-age3"), "%s", out);
	cr_assert_eq(run("encode pte 0x1000 --platform hsw --cache wt-ellc-llc-age3", out, sizeof(out)), 0, "%s", out);
	cr_expect_str_eq(out, "0x0000100f\n");
	cr_assert_eq(run("encode pte 0x1000 --platform ivb --cache l3+llc", out, sizeof(out)), 0, "%s", out);
	cr_expect_str_eq(out, "0x00001007\n");
	cr_assert_eq(run("encode pte 0x1000 --platform snb --cache uncached", out, sizeof(out)), 0, "%s", out);
	cr_expect_str_eq(out, "0x00001003\n");
	cr_assert_eq(run("decode pte 0x1001 --platform skl", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "cache   none (bits 0x0): gen8+ GGTT PTEs carry no cache bits"), "%s", out);
	cr_assert_eq(run("encode pte 0x1000 --platform skl --cache none", out, sizeof(out)), 0, "%s", out);
	cr_expect_eq(run("encode pte 0x1000 --platform hsw --cache wb-llc-age0", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "no i915 encoder writes it"), "%s", out);
	cr_expect_eq(run("encode pte 0x1000 --platform hsw --cache wb-llc-age3 --edram", out, sizeof(out)), 2, "%s", out);
	cr_expect_eq(run("encode pte 0x1000 --platform hsw --edram --edram", out, sizeof(out)), 2, "%s", out);
}

/* Issue 14: decode fence shows the end field as written, flags a pitch beyond the platform and reserved bits; --aperture takes BAR sizes. */
Test(cli, decode_fence_says_what_no_encoder_writes)
{
	char out[2048];

	/* HI 31:12 = 0x0007f (end 0x7ffff) below LO's start 0x100000 */
	cr_assert_eq(run("decode fence 0x0007f01f00100001", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "end     0x0007ffff (last byte): BELOW THE START") && strstr(out, "size    0x0 "), "%s", out);
	/* pitch field 0xfff: 4096 x 128 bytes, above snb's 1024 x 128 (I965_FENCE_MAX_PITCH_VAL); LO 11:2 all set */
	cr_assert_eq(run("decode fence 0x0017ffff00100ffd --platform snb", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "pitch field 4095): ABOVE snb's MAXIMUM of 131072 bytes (pitch field 1023)"), "%s", out);
	cr_expect(strstr(out, "reserved bits 0xffc set"), "%s", out);
	/* the same pitch field on skl: 2048 x 128 is its maximum (GEN7_FENCE_MAX_PITCH_VAL), 0x7ff is within */
	cr_assert_eq(run("--json decode fence 0x0017f7ff00100001", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "\"pitch_field\":2047,\"pitch_over_max\":false,\"max_stride\":262144,\"reserved_bits\":\"0x000\""), "%s", out);
	cr_assert_eq(run("--json decode fence 0x0007f01f00100001", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "\"end\":\"0x0007ffff\",\"end_below_start\":true"), "%s", out);
	/* an aperture is a power of two BAR2 can be on the platform */
	cr_expect_eq(run("encode fence --start 0 --size 64K --stride 512 --tiling x --aperture 4K", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "64 MiB to 4096 MiB"), "%s", out);
	cr_expect_eq(run("encode fence --start 0 --size 64K --stride 512 --tiling x --platform hsw --aperture 1G", out, sizeof(out)),
		     2, "%s", out);
	cr_expect_eq(run("encode fence --start 0 --size 64K --stride 512 --tiling x --aperture 96M", out, sizeof(out)), 2, "%s", out);
	cr_expect_eq(run("encode fence --start 0 --size 64K --stride 512 --tiling x --platform hsw --aperture 512M", out, sizeof(out)),
		     0, "%s", out);
	cr_expect_eq(run("encode fence --start 0 --size 64K --stride 512 --tiling x --aperture 256M --aperture 512M", out, sizeof(out)),
		     2, "%s", out);
	cr_expect(strstr(out, "given twice"), "%s", out);
}

Test(cli, encode_and_decode)
{
	char out[4096];

	cr_assert_eq(run("encode fence --start 0x100000 --size 512K --stride 4096 --tiling x", out, sizeof(out)), 0, "%s", out);
	cr_expect_str_eq(out, "0x0017f01f00100001\n");
	cr_assert_eq(run("encode fence --start=0x100000 --size=0x80000 --stride=4096 --tiling=y --platform hsw", out, sizeof(out)), 0);
	cr_expect_str_eq(out, "0x0017f01f00100003\n");
	cr_assert_eq(run("decode fence 0x0017f01f00100001", out, sizeof(out)), 0);
	cr_expect(strstr(out, "start   0x00100000") && strstr(out, "end     0x0017ffff") &&
		  strstr(out, "stride  4096") && strstr(out, "tiling  x") && strstr(out, "valid   yes"), "%s", out);
	cr_assert_eq(run("encode pte 0x1234567000 --platform snb --cache llc", out, sizeof(out)), 0);
	cr_expect_str_eq(out, "0x34567125\n");
	cr_assert_eq(run("decode pte 0x34567125 --platform snb", out, sizeof(out)), 0);
	cr_expect(strstr(out, "address 0x1234567000") && strstr(out, "cache   llc"), "%s", out);
	/* the platform follows a simulated --device */
	cr_assert_eq(run("--device sim:hsw encode pte 0x7f80000000", out, sizeof(out)), 0);
	cr_expect_str_eq(out, "0x800007f1\n");
}

Test(cli, dump_compresses_runs)
{
	char out[8192];

	cr_assert_eq(run("--device sim:skl dump ggtt", out, sizeof(out)), 0);
	cr_expect_str_eq(out, "0x00000000 - 0xfffff000: constant 0x7ffff000 (1048576 PTEs)\n");
	cr_assert_eq(run("dump fences --device sim:snb", out, sizeof(out)), 0);
	cr_expect_eq(lines(out), 16, "snb has 16 fences:\n%s", out);
}

static void bad(const char *args, const char *needle1, const char *needle2)
{
	char out[4096];
	int rc = run(args, out, sizeof(out));

	cr_expect_eq(rc, 2, "'%s' exited %d: %s", args, rc, out);
	cr_expect_eq(lines(out), 1, "'%s' must print exactly one line:\n%s", args, out);
	cr_expect(!strncmp(out, "gttlab: ", 8), "%s", out);
	cr_expect(strstr(out, needle1) && strstr(out, needle2), "'%s' gave '%s', lacking '%s'/'%s'", args, out,
		  needle1, needle2);
}

Test(cli, bad_input_gets_one_line_and_exit_2)
{
	bad("info --device sim:foo", "foo", "one of snb, ivb, hsw, bdw, skl, kbl");
	bad("info --device gpu0", "gpu0", "pci:DDDD:BB:DD.F");
	bad("info --device pci:0:2", "pci:0:2", "pci:DDDD:BB:DD.F");
	bad("encode pte 0x1000 --platform foo", "foo", "unknown platform");
	bad("encode fence --start 0x1800 --size 0x4000 --stride 512 --tiling x", "0x1800", "4 KiB aligned");
	bad("encode fence --start 0x1000 --size 0x4000 --stride 1000 --tiling y", "1000", "multiple of 128");
	bad("encode fence --start 0x1000 --size 0x4000 --stride 1024K --tiling y", "1048576", "maximum");
	bad("encode fence --start 0x1000 --size 0x4000 --stride 640 --tiling x", "640", "512");
	bad("encode fence --start 0x1000 --size 0x4000 --stride 512 --tiling w", "'w'", "x or y");
	bad("encode fence --start 0x1000 --size 0x4000 --stride 512", "--tiling", "required");
	bad("encode fence --start 0xff00000 --size 0x200000 --stride 512 --tiling x", "aperture", "0x100fffff");
	bad("encode pte 0x8000000000 --platform hsw", "0x8000000000", "39 physical address bits");
	bad("encode pte 0x1001", "0x1001", "4 KiB aligned");
	bad("encode pte banana", "banana", "not a number");
	bad("decode pte 0x100000000 --platform hsw", "0x100000000", "32-bit PTE");
	bad("dump ggtt --start 0x800", "0x800", "4 KiB aligned");
	bad("dump ggtt --end 0x200000000", "0x200000000", "GGTT");
	bad("frobnicate", "frobnicate", "unknown command");
	bad("info extra", "extra", "no arguments");
	bad("encode", "pte", "fence");
}

Test(cli, help_everywhere)
{
	char out[8192];
	static const char *const cmds[] = { "--help", "info --help", "encode --help", "decode --help",
					    "dump --help", "snapshot --help", "encode pte --help", "help" };
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		cr_expect_eq(run(cmds[i], out, sizeof(out)), 0, "%s", cmds[i]);
		cr_expect(!strncmp(out, "usage: gttlab", 13), "%s:\n%s", cmds[i], out);
	}
	cr_expect_eq(run("", out, sizeof(out)), 2, "no command is a usage error");
}

Test(cli, snapshot_writes_2_mib)
{
	char out[512], dir[64], args[256];

	t_tmpdir(dir, sizeof(dir));
	snprintf(args, sizeof(args), "--device sim:hsw snapshot %s/s.mmio && stat -c %%s %s/s.mmio", dir, dir);
	cr_assert_eq(run(args, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "2097152\n"), "%s", out);
}

/*
 * Run gttlab with stdout and stderr kept apart. `redir` may replace the
 * stdout redirection (e.g. ">/dev/full"); `pre` is a shell prefix such as
 * "timeout 10". Returns the exit status.
 */
struct outs {
	char out[4096], err[4096];
};

static int run_apart(const char *pre, const char *bin, const char *args, const char *redir, struct outs *o)
{
	char dir[64], cmd[2048], path[128];
	int rc;

	t_tmpdir(dir, sizeof(dir));
	/* the command's stdout goes to a file (or `redir`), so it is not mixed with the status */
	if (!redir)
		snprintf(cmd, sizeof(cmd), "%s %s %s >%s/out 2>%s/err; echo $?", pre ? pre : "", bin, args, dir, dir);
	else
		snprintf(cmd, sizeof(cmd), "%s %s %s %s 2>%s/err; echo $?", pre ? pre : "", bin, args, redir, dir);
	char status[32];
	t_run(cmd, status, sizeof(status));
	rc = atoi(status);
	o->out[0] = o->err[0] = '\0';
	snprintf(path, sizeof(path), "%s/out", dir);
	FILE *f = fopen(path, "r");
	if (f) {
		o->out[fread(o->out, 1, sizeof(o->out) - 1, f)] = '\0';
		fclose(f);
	}
	snprintf(path, sizeof(path), "%s/err", dir);
	f = fopen(path, "r");
	if (f) {
		o->err[fread(o->err, 1, sizeof(o->err) - 1, f)] = '\0';
		fclose(f);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_neq(system(cmd), -1, "%s", cmd);
	return rc;
}

/* The bad-input contract: exit 2, one line on stderr holding both needles, nothing on stdout. */
static void refused(const char *pre, const char *args, const char *redir, const char *needle1, const char *needle2)
{
	struct outs o;
	int rc = run_apart(pre, "./build/gttlab", args, redir, &o);

	cr_expect_eq(rc, 2, "'%s' exited %d: %s", args, rc, o.err);
	cr_expect_eq(lines(o.err), 1, "'%s' must print exactly one line on stderr:\n%s", args, o.err);
	cr_expect_str_empty(o.out, "'%s' printed on stdout: %s", args, o.out);
	cr_expect(strstr(o.err, needle1) && strstr(o.err, needle2), "'%s' gave '%s', lacking '%s'/'%s'", args, o.err,
		  needle1, needle2);
}

Test(cli, mmio_seed_is_a_2_mib_regular_file_for_sim_devices)
{
	char dir[64], args[512];
	struct outs o;

	t_tmpdir(dir, sizeof(dir));
	snprintf(args, sizeof(args), "--mmio-seed %s info", dir);
	refused(NULL, args, NULL, dir, "not a regular file");
	/* a FIFO nobody writes must not hang the open */
	snprintf(args, sizeof(args), "mkfifo %s/fifo", dir);
	cr_assert_eq(system(args), 0);
	snprintf(args, sizeof(args), "--mmio-seed %s/fifo info", dir);
	refused("timeout 10", args, NULL, "fifo", "not a regular file");
	snprintf(args, sizeof(args), "truncate -s 2M %s/seed && truncate -s 4097 %s/short", dir, dir);
	cr_assert_eq(system(args), 0);
	snprintf(args, sizeof(args), "--mmio-seed %s/short info", dir);
	refused(NULL, args, NULL, "4097 bytes", "exactly 2097152");
	snprintf(args, sizeof(args), "--mmio-seed %s/seed --device pci:0000:00:02.0 info", dir);
	refused(NULL, args, NULL, "--mmio-seed applies to simulated devices (sim:...) only", "pci:0000:00:02.0");
	snprintf(args, sizeof(args), "--device auto --mmio-seed %s/seed info", dir);
	refused(NULL, args, NULL, "--mmio-seed applies to simulated devices", "'auto'");
	snprintf(args, sizeof(args), "--mmio-seed %s/seed --device sim:hsw info", dir);
	cr_expect_eq(run_apart(NULL, "./build/gttlab", args, NULL, &o), 0, "%s", o.err);
	snprintf(args, sizeof(args), "rm -rf %s", dir);
	cr_expect_neq(system(args), -1, "%s", args);
}

Test(cli, json_strings_are_escaped)
{
	char dir[64], args[512], want[512];
	struct outs o;

	t_tmpdir(dir, sizeof(dir));
	/* a quote, a backslash and a tab in the file name */
	snprintf(args, sizeof(args), "--json snapshot \"$(printf '%s/a\\042b\\134c\\011d')\"", dir);
	cr_assert_eq(run_apart(NULL, "./build/gttlab", args, NULL, &o), 0, "%s", o.err);
	snprintf(want, sizeof(want), "{\"file\":\"%s/a\\\"b\\\\c\\td\",\"bytes\":2097152}\n", dir);
	cr_expect_str_eq(o.out, want);
	/* a control character and a byte that is not UTF-8 */
	snprintf(args, sizeof(args), "--json snapshot \"$(printf '%s/e\\001\\377')\"", dir);
	cr_assert_eq(run_apart(NULL, "./build/gttlab", args, NULL, &o), 0, "%s", o.err);
	snprintf(want, sizeof(want), "{\"file\":\"%s/e\\u0001\\ufffd\",\"bytes\":2097152}\n", dir);
	cr_expect_str_eq(o.out, want);
	snprintf(args, sizeof(args), "rm -rf %s", dir);
	cr_expect_neq(system(args), -1, "%s", args);
}

Test(cli, outputs_that_cannot_be_written_exit_2)
{
	refused(NULL, "info", ">/dev/full", "standard output", "No space left on device");
	refused(NULL, "--json dump fences", ">/dev/full", "standard output", "No space left on device");
	refused(NULL, "--help", ">/dev/full", "standard output", "No space left on device");
	refused(NULL, "check --run fence-readback --format tap -o /dev/full", NULL, "'/dev/full'", "No space left on device");
	refused(NULL, "snapshot /dev/full", NULL, "'/dev/full'", "No space left on device");
	/* the run's own output is held back when its trace is lost */
	refused(NULL, "dom0 run scenarios/gballoon-figure4.scn --trace /dev/full", NULL, "'/dev/full'",
		"No space left on device");
	/* an output that cannot be opened is refused before the device (a well-formed string, which would fail too) is opened */
	refused(NULL, "--sysfs-root /nonexistent-sysfs --device pci:0000:00:02.0 check -o /nonexistent/dir/x", NULL, "/nonexistent/dir/x", "No such file or directory");
	refused(NULL, "--sysfs-root /nonexistent-sysfs --device pci:0000:00:02.0 snapshot /nonexistent/dir/x", NULL, "/nonexistent/dir/x", "No such file or directory");
	refused(NULL, "--sysfs-root /nonexistent-sysfs --device pci:0000:00:02.0 dom0 run scenarios/fence-pool.scn --trace /nonexistent/dir/x", NULL,
		"/nonexistent/dir/x", "No such file or directory");
}

Test(cli, an_option_given_twice_is_refused)
{
	refused(NULL, "--device sim:skl --device sim:hsw info", NULL, "--device", "twice");
	refused(NULL, "--mmio-seed a --mmio-seed b info", NULL, "--mmio-seed", "twice");
	refused(NULL, "--sysfs-root /a --sysfs-root=/b info", NULL, "--sysfs-root", "twice");
	refused(NULL, "--json info --json", NULL, "--json", "twice");
	refused(NULL, "check --run ggtt --run fence", NULL, "--run", "twice");
	refused(NULL, "check -o /dev/null -o /dev/null --list", NULL, "-o", "twice");
	refused(NULL, "encode pte 0x1000 --cache llc --cache=wt", NULL, "--cache", "twice");
	refused(NULL, "encode fence --start 0 --start 0 --size 4K --stride 512 --tiling x", NULL, "--start", "twice");
	refused(NULL, "decode pte 1 --platform skl --platform hsw", NULL, "--platform", "twice");
	refused(NULL, "dump ggtt --end 4K --end 8K", NULL, "--end", "twice");
	refused(NULL, "dom0 run scenarios/fence-pool.scn --trace /dev/null --trace /dev/null", NULL, "--trace", "twice");
	refused(NULL, "", NULL, "no command", "gttlab --help");
	refused(NULL, "--frobnicate info", NULL, "--frobnicate", "unknown option");
}

/*
 * Every path out of main frees what it allocated. Needs the sanitizer build
 * (build/asan/gttlab, as tests/vm/bad-input.sh is run against); skipped without it.
 */
Test(cli, no_leaks_on_any_path_out_of_main)
{
	static const char *const args[] = { "--help", "info --help", "--device", "--device a --device b info", "frobnicate",
					    "--mmio-seed /nonexistent info", "encode pte 0x1000", "dump ggtt --start 1Q" };
	struct outs o;

	if (access("build/asan/gttlab", X_OK))
		cr_skip_test("no sanitizer build (build/asan/gttlab)");
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		run_apart(NULL, "ASAN_OPTIONS=detect_leaks=1 ./build/asan/gttlab", args[i], NULL, &o);
		cr_expect(!strstr(o.err, "LeakSanitizer") && !strstr(o.err, "AddressSanitizer"), "'%s':\n%s", args[i], o.err);
	}
}

/* info --platforms lists the table and opens no device (a --device with it is refused). */
Test(cli, info_platforms_opens_no_device)
{
	static char out[16384];

	cr_assert_eq(run("info --platforms", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "skl   skylake       gen 9    sim:skl   0x1906") &&
		  strstr(out, "hsw   haswell       gen 7.5  sim:hsw   0x0a02") &&
		  strstr(out, "tgl   tigerlake     gen 12   sim:tgl   0x9a60"), "%s", out);
	/* a platform the table gives no model is listed with "-" for it (the first such, whichever it is) */
	const struct gtt_platform *bare = NULL;
	for (size_t i = 0; i < gtt_num_platforms && !bare; i++)
		if (!gtt_platform_simulated(&gtt_platforms[i]))
			bare = &gtt_platforms[i];
	cr_assert_not_null(bare);
	char row[64], json[160];
	snprintf(row, sizeof(row), "%-5s %-13s", bare->name, bare->codename);
	const char *at = strstr(out, row);
	cr_expect(at && strstr(at, "  -         0x"), "%s has no '-' in its model column: %s", bare->name, out);
	cr_expect_eq(lines(out), gtt_num_platforms, "%s", out);
	cr_expect_eq(run("--device pci:0000:00:02.0 info --platforms", out, sizeof(out)), 2, "%s", out);
	cr_assert_eq(run("--json info --platforms", out, sizeof(out)), 0, "%s", out);
	static const char first[] = "[{\"name\":\"snb\",\"codename\":\"sandybridge\",\"gen\":\"6\",\"family\":\"Sandy Bridge (SNB)\","
				    "\"simulated\":true,\"gvt\":false,\"devids\":[\"0x0102\"";
	cr_expect(!strncmp(out, first, sizeof(first) - 1), "%s", out);
	snprintf(json, sizeof(json), "{\"name\":\"%s\",\"codename\":\"%s\",", bare->name, bare->codename);
	at = strstr(out, json);
	cr_expect(at && strstr(at, "\"simulated\":false,"), "%s", out);
}

/*
 * Guest mode in info (docs/cli.md): on a fake GVT-g guest (tests/lib/fake_sysfs.sh's fake_pvinfo: 64 MiB
 * at 64 MiB of the aperture, 512 MiB at 1 GiB, fence_num 4) the PVINFO lines after the native
 * ones, and "pvinfo" in --json; on the model, a native device, only {"active":false}.
 */
Test(cli, info_shows_guest_mode)
{
	char dir[64], cmd[1024], args[256], out[8192];

	cr_assert_eq(run("--json info --device sim:skl", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, ",\"gvt\":true,\"pvinfo\":{\"active\":false},\"vf\":{\"active\":false}}\n"), "%s", out);
	cr_assert_eq(run("info --device sim:skl", out, sizeof(out)), 0, "%s", out);
	cr_expect(!strstr(out, "guest mode"), "%s", out);
	t_tmpdir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "bash -c '. tests/lib/fake_sysfs.sh && fake_device %s 0000:00:02.0 0x8086 0x1912 0x030000 gpu 256 && "
		 "fake_pvinfo %s/bus/pci/devices/0000:00:02.0 0x4000000 0x4000000 0x40000000 0x20000000 4'", dir, dir);
	cr_assert_eq(system(cmd), 0);
	snprintf(args, sizeof(args), "--device pci:0000:00:02.0 --sysfs-root %s --journal %s/j info", dir, dir);
	cr_assert_eq(run(args, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "fences        32\n"
			      "guest mode    GVT-g PVINFO page at 0x78000: gttlab claims only its ranges and fences below fence_num\n"
			      "PVINFO        version 1.0, vgt_id 1, caps 0x0000001c (FULL_PPGTT HWSP_EMULATION HUGE_GTT)\n"
			      "mappable      GM 0x04000000-0x07ffffff (64 MiB, in the aperture)\n"
			      "non-mappable  GM 0x40000000-0x5fffffff (512 MiB, above the aperture)\n"
			      "fence_num     4 (fences 0-3 of 32)\n"
			      "GM requests   no (no gttlab request channel in PVINFO)\n"), "%s", out);
	snprintf(args, sizeof(args), "--json --device pci:0000:00:02.0 --sysfs-root %s --journal %s/j info", dir, dir);
	cr_assert_eq(run(args, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, ",\"pvinfo\":{\"active\":true,\"version\":\"1.0\",\"vgt_id\":1,\"caps\":\"0x0000001c\","
			      "\"caps_names\":[\"FULL_PPGTT\",\"HWSP_EMULATION\",\"HUGE_GTT\"],\"mappable_base\":\"0x04000000\","
			      "\"mappable_size\":67108864,\"nonmappable_base\":\"0x40000000\",\"nonmappable_size\":536870912,"
			      "\"fence_num\":4,\"gm_channel\":false},\"vf\":{\"active\":false}}\n"), "%s", out);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect_neq(system(cmd), -1, "%s", cmd);
}

/* The model is the newcomer's default and says so after every run on it; a named device does not (issue 43). */
Test(cli, the_default_model_is_said_after_every_run_on_it)
{
	char out[8192];
	static const char *const cmds[] = { "info", "dump fences", "check --run fence-readback", "--json info" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		cr_assert_eq(run(cmds[i], out, sizeof(out)), 0, "%s: %s", cmds[i], out);
		cr_expect(strstr(out, "gttlab: no --device: this ran on the model sim:skl (simulated skl)"),
			  "'%s' did not say it ran on the default model:\n%s", cmds[i], out);
	}
	cr_assert_eq(run("--device sim:skl info", out, sizeof(out)), 0);
	cr_expect(!strstr(out, "no --device"), "a named model is no default:\n%s", out);
	/* encode and decode open no device: nothing to say */
	cr_assert_eq(run("encode pte 0x1000", out, sizeof(out)), 0);
	cr_expect(!strstr(out, "no --device"), "%s", out);
}

/* A run in which no check passed or failed proved nothing: SKIP and IGT's 77, never PASS and 0 (issue 43). */
Test(cli, a_run_in_which_nothing_ran_is_skip_77)
{
	char out[8192];

	/* the guest suite outside a vGPU: every check skips */
	cr_expect_eq(run("--device sim:skl check --run 'guest*'", out, sizeof(out)), 77, "%s", out);
	cr_expect(strstr(out, "\nSKIP on sim:skl (skl, simulated)"), "the verdict is SKIP:\n%s", out);
	cr_expect(strstr(out, "gttlab: SKIP: no check ran on sim:skl"), "%s", out);
	cr_expect(!strstr(out, "PASS"), "%s", out);
	cr_expect_eq(run("--device sim:skl check --run 'guest*' --format tap", out, sizeof(out)), 77, "%s", out);
	/* --json: the machine-readable report (IGT's results.json), naming what it was taken on */
	cr_expect_eq(run("--json --device sim:skl check --run fence-readback", out, sizeof(out)), 0, "%s", out);
	cr_expect(out[0] == '{' && strstr(out, "\"gttlab\":{\"version\":\"") &&
		  strstr(out, "\"device\":\"sim:skl\",\"platform\":\"skl\",\"kind\":\"simulated\"}"), "%s", out);
	/* one check that passes is a pass */
	cr_expect_eq(run("--device sim:skl check --run 'guest*,fence-readback'", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "\nPASS on sim:skl"), "%s", out);
}
