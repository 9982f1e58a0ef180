/* SPDX-License-Identifier: MIT */
/*
 * gttlab: the command-line front-end. Global options may stand anywhere on
 * the line; the first word that is not an option is the command.
 */
#include "harness/cli.h"
#include "env/env_posix.h"

#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: gttlab [--device D] [--json] COMMAND [ARGS]\n"
	"\n"
	"Register-level tool for the GGTT, aperture and fence registers of Intel\n"
	"integrated GPUs (Gen6-Gen9), on real hardware or the built-in simulated device.\n"
	"\n"
	"commands:\n"
	"  check [--run P] [--format F] [-o FILE] [--list]   run the register-level checks\n"
	"  info                       platform, BARs, GSM, PTE and GGTT sizes, fences\n"
	"  encode pte ADDR            the PTE value for a physical page\n"
	"  decode pte VALUE           the fields of a PTE value\n"
	"  encode fence --start A --size S --stride P --tiling x|y\n"
	"                             the 64-bit fence register value\n"
	"  decode fence VALUE         the fields of a fence register value\n"
	"  dump ggtt [--start A] [--end B]   the GGTT, runs compressed\n"
	"  dump fences                every fence register, decoded\n"
	"  snapshot FILE              BAR0's 2 MiB MMIO space as an intel_reg snapshot\n"
	"  dom0 run FILE [--trace F.csv]   run a Dom0 runtime scenario (docs/dom0.md)\n"
	"\n"
	"global options:\n"
	"  --device D        sim, sim:PLATFORM (snb ivb hsw bdw skl kbl), pci:DDDD:BB:DD.F,\n"
	"                    or auto (the first Intel display device); default sim:skl\n"
	"  --json            machine-readable output\n"
	"  --allow-i915      use a real device even though i915 is bound to it\n"
	"  --mmio-seed FILE  boot a simulated device with this intel_reg MMIO snapshot\n"
	"  --sysfs-root DIR  where sysfs is (default /sys; tests use a fake tree)\n"
	"  --help            this text, or a command's with COMMAND --help\n"
	"\n"
	"Bad input exits 2 with one line naming the value and the rule; nothing is\n"
	"written to any device then.\n";

static int load_seed(struct cli *c, const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return cli_error("--mmio-seed '%s': cannot open it", path);
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return cli_error("--mmio-seed '%s': cannot tell its size", path);
	}
	c->seed = malloc((size_t)n ? (size_t)n : 1);
	if (!c->seed || fread(c->seed, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return cli_error("--mmio-seed '%s': cannot read it", path);
	}
	fclose(f);
	c->opts.sim_mmio_seed = c->seed;
	c->opts.sim_mmio_seed_len = (size_t)n;
	return 0;
}

int main(int argc, char **argv)
{
	struct cli c = { .env = gtt_env_posix(GTT_LOG_WARN), .device = "sim:skl" };
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	int nrest = 0, rc;

	if (!rest)
		return EXIT_FAIL;
	for (int i = 1; i < argc; i++) {
		const char *v;
		int m;
		if ((m = cli_opt(argc, argv, &i, "--device", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			c.device = v;
		} else if ((m = cli_opt(argc, argv, &i, "--mmio-seed", &v))) {
			if (m < 0 || load_seed(&c, v))
				return EXIT_USAGE;
		} else if ((m = cli_opt(argc, argv, &i, "--sysfs-root", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			c.opts.sysfs_root = v;
		} else if (!strcmp(argv[i], "--json")) {
			c.json = true;
		} else if (!strcmp(argv[i], "--allow-i915")) {
			c.opts.allow_i915 = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			c.help = true;
		} else {
			rest[nrest++] = argv[i];
		}
	}
	if (!nrest) {
		if (c.help) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		fputs(usage, stderr);
		return EXIT_USAGE;
	}
	const char *cmd = rest[0];
	if (!strcmp(cmd, "info"))
		rc = cmd_info(&c, nrest, rest);
	else if (!strcmp(cmd, "encode"))
		rc = cmd_encode(&c, nrest, rest);
	else if (!strcmp(cmd, "decode"))
		rc = cmd_decode(&c, nrest, rest);
	else if (!strcmp(cmd, "dump"))
		rc = cmd_dump(&c, nrest, rest);
	else if (!strcmp(cmd, "snapshot"))
		rc = cmd_snapshot(&c, nrest, rest);
	else if (!strcmp(cmd, "dom0"))
		rc = cmd_dom0(&c, nrest, rest);
	else if (!strcmp(cmd, "check"))
		rc = cmd_check(&c, nrest, rest);
	else if (!strcmp(cmd, "help")) {
		fputs(usage, stdout);
		rc = EXIT_OK;
	} else
		rc = cli_error("unknown command '%s': one of check, info, encode, decode, dump, snapshot, dom0 (see gttlab --help)", cmd);
	free(rest);
	free(c.seed);
	return rc;
}
