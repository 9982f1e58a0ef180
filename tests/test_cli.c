/* SPDX-License-Identifier: MIT */
/*
 * The gttlab CLI as a user runs it: outputs, --json, --help, and the rule for
 * bad input (one line naming the value and the rule, exit status 2).
 */
#include <criterion/criterion.h>
#include <string.h>

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
	cr_expect_str_eq(out, "{\"platform\":\"skl\",\"addr\":\"0x1000\",\"cache\":\"none\",\"pte\":\"0x0000000000001001\"}\n");
	cr_assert_eq(run("--json dump ggtt --end 0x3000", out, sizeof(out)), 0);
	cr_expect(strstr(out, "\"runs\":[{\"start\":\"0x00000000\",\"end\":\"0x00002fff\",\"ptes\":3,\"kind\":\"constant\""), "%s", out);
	cr_assert_eq(run("--json decode fence 0x0017f01f00100003", out, sizeof(out)), 0);
	cr_expect(strstr(out, "\"tiling\":\"y\"") && strstr(out, "\"stride\":4096") && strstr(out, "\"valid\":true"), "%s", out);
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

	cr_assert_eq(run("dump ggtt", out, sizeof(out)), 0);
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
