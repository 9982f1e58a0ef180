/* SPDX-License-Identifier: MIT */
/*
 * gttlab: the command-line front-end. Global options may stand anywhere on
 * the line; the first word that is not an option is the command.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "env/version.h"
#include "env/env_posix.h"

#include "regs/mmio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char usage[] =
	"usage: gttlab [--device D] [--json] COMMAND [ARGS]\n"
	"\n"
	"Register-level tool for the GGTT, aperture and fence registers of Intel\n"
	"integrated GPUs (Sandy Bridge to Raptor Lake, gen6-gen12), on real hardware or\n"
	"the built-in simulated device.\n"
	"\n"
	"commands:\n"
	"  check [--run P] [--format F] [-o FILE] [--list]   run the register-level checks\n"
	"  info                       platform, BARs, GSM, PTE and GGTT sizes, eDRAM,\n"
	"                             scanout surfaces, fences; in a vGPU its PVINFO page\n"
	"  info --platforms           the platforms this build knows (opens no device)\n"
	"  encode pte ADDR            the PTE value for a physical page\n"
	"  decode pte VALUE           the fields of a PTE value\n"
	"  encode fence --start A --size S --stride P --tiling x|y\n"
	"                             the 64-bit fence register value\n"
	"  decode fence VALUE         the fields of a fence register value\n"
	"  dump ggtt [--start A] [--end B]   the GGTT, runs compressed\n"
	"  dump fences                every fence register, decoded\n"
	"  snapshot FILE              BAR0's 2 MiB MMIO space as an intel_reg snapshot\n"
	"  dom0 run FILE [--trace F.csv] [--svg F.svg] [--quiet]\n"
	"                             run a Dom0 runtime scenario (docs/dom0.md)\n"
	"  dom0 serve --dir DIR [--guests N] [--wait busy|sleep|hybrid] ...\n"
	"                             serve vGPUs to QEMU guests over ivshmem (docs/transport.md)\n"
	"  restore [--journal FILE]   put a real device back from a crashed run's journal\n"
	"\n"
	"global options:\n"
	"  --device D        sim, sim:PLATFORM (each with a model: gttlab info --platforms),\n"
	"                    sim:PLATFORM,edram (Haswell and later, with eDRAM),\n"
	"                    vgpu:sim:PLATFORM[,KEY=VALUE...] (a vGPU of the Dom0 runtime\n"
	"                    on the model: guest mode; keys in docs/guest.md),\n"
	"                    pv:SOCKET[,wait=poll|pause|sleep][,timeout=MS] (a\n"
	"                    vGPU dom0 serve serves: docs/transport.md),\n"
	"                    pci:DDDD:BB:DD.F, or auto (the first Intel display device);\n"
	"                    default " HW_DEVICE_DEFAULT "\n"
	"  --json            machine-readable output\n"
	"  --allow-i915      use a real device even though i915 is bound to it\n"
	"  --mmio-seed FILE  boot a simulated device with this intel_reg MMIO snapshot\n"
	"  --sysfs-root DIR  where sysfs is (default /sys; tests use a fake tree)\n"
	"  --journal FILE    the crash journal of a real device (default\n"
	"                    /var/lib/gttlab/DDDD:BB:DD.F.journal; docs/journal.md)\n"
	"  --help            this text, or a command's with COMMAND --help\n"
	"  --version         gttlab's version (git describe of the tree it was built from)\n"
	"\n"
	"Bad input exits 2 with one line naming the value and the rule; nothing is\n"
	"written to any device then.\n";

/*
 * Read an MMIO snapshot for --mmio-seed. Only a regular file of exactly the
 * snapshot size is taken: the open may not block (a FIFO), and nothing is
 * allocated from a size the file did not promise (a directory or a device
 * reports sizes that mean nothing), so a wrong file is named before any
 * memory or device is touched.
 */
static int load_seed(struct cli *c, const char *path)
{
	struct stat st;
	ssize_t r;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return cli_error("--mmio-seed '%s': cannot open it: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		int e = errno;
		close(fd);
		return cli_error("--mmio-seed '%s': cannot stat it: %s", path, strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return cli_error("--mmio-seed '%s' is not a regular file (an intel_reg MMIO snapshot is)", path);
	}
	if (st.st_size != GTT_MMIO_SIZE) {
		close(fd);
		return cli_error("--mmio-seed '%s' is %jd bytes; an MMIO snapshot is exactly %u bytes (2 MiB)", path,
				 (intmax_t)st.st_size, GTT_MMIO_SIZE);
	}
	if (!(c->seed = malloc(GTT_MMIO_SIZE))) {
		close(fd);
		return cli_error("--mmio-seed '%s': out of memory", path);
	}
	/* a regular file: O_NONBLOCK means nothing here, short reads are retried */
	while (got < GTT_MMIO_SIZE && ((r = read(fd, (char *)c->seed + got, GTT_MMIO_SIZE - got)) > 0 ||
				       (r < 0 && errno == EINTR)))
		got += r > 0 ? (size_t)r : 0;
	if (got < GTT_MMIO_SIZE) {
		int e = r < 0 ? errno : 0;
		close(fd);
		return cli_error("--mmio-seed '%s': cannot read it: %s", path,
				 e ? strerror(e) : "the file shrank while it was read");
	}
	close(fd);
	c->opts.sim_mmio_seed = c->seed;
	c->opts.sim_mmio_seed_len = GTT_MMIO_SIZE;
	return 0;
}

/* the global options, given before the command */
struct globals {
	const char *device, *seed, *sysfs, *journal;
	bool json, allow, version;
};

/*
 * Reads the global options into g and the command and its words into rest (*nrest of them);
 * returns EXIT_OK, else the exit code of the one line printed.
 */
static int parse_globals(struct cli *c, int argc, char **argv, struct globals *g, char **rest, int *nrest)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		int m;
		if ((m = cli_opt(argc, argv, &i, "--device", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (g->device)
				return cli_twice("--device", g->device, v);
			g->device = v;
		} else if ((m = cli_opt(argc, argv, &i, "--mmio-seed", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (g->seed)
				return cli_twice("--mmio-seed", g->seed, v);
			g->seed = v;
		} else if ((m = cli_opt(argc, argv, &i, "--sysfs-root", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (g->sysfs)
				return cli_twice("--sysfs-root", g->sysfs, v);
			g->sysfs = v;
		} else if ((m = cli_opt(argc, argv, &i, "--journal", &v))) {
			if (m < 0)
				return EXIT_USAGE;
			if (g->journal)
				return cli_twice("--journal", g->journal, v);
			g->journal = v;
		} else if (!strcmp(argv[i], "--json")) {
			if (g->json)
				return cli_twice("--json", NULL, NULL);
			g->json = true;
		} else if (!strcmp(argv[i], "--allow-i915")) {
			if (g->allow)
				return cli_twice("--allow-i915", NULL, NULL);
			g->allow = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			c->help = true;
		} else if (!*nrest && !strcmp(argv[i], "--version")) {
			g->version = true;
		} else if (!*nrest && argv[i][0] == '-' && argv[i][1]) {
			/* before the command, only global options; after it, the command judges */
			return cli_error("unknown option '%s' before the command (gttlab --help)", argv[i]);
		} else {
			rest[(*nrest)++] = argv[i];
		}
	}
	return EXIT_OK;
}

/* Runs the command rest[0] with its words. */
static int run_command(struct cli *c, int nrest, char **rest)
{
	const char *cmd = rest[0];
	if (!strcmp(cmd, "info"))
		return cmd_info(c, nrest, rest);
	if (!strcmp(cmd, "encode"))
		return cmd_encode(c, nrest, rest);
	if (!strcmp(cmd, "decode"))
		return cmd_decode(c, nrest, rest);
	if (!strcmp(cmd, "dump"))
		return cmd_dump(c, nrest, rest);
	if (!strcmp(cmd, "snapshot"))
		return cmd_snapshot(c, nrest, rest);
	if (!strcmp(cmd, "dom0"))
		return cmd_dom0(c, nrest, rest);
	if (!strcmp(cmd, "check"))
		return cmd_check(c, nrest, rest);
	if (!strcmp(cmd, "restore"))
		return cmd_restore(c, nrest, rest);
	if (!strcmp(cmd, "help")) {
		if (nrest > 1)
			return cli_error("help takes no arguments, got '%s' (gttlab COMMAND --help)", rest[1]);
		fputs(usage, stdout);
		return EXIT_OK;
	}
	return cli_error("unknown command '%s': one of check, info, encode, decode, dump, snapshot, dom0, restore (see gttlab --help)", cmd);
}

static int parse_and_run(struct cli *c, int argc, char **argv, char **rest)
{
	struct globals g = { 0 };
	int nrest = 0, rc;

	if ((rc = parse_globals(c, argc, argv, &g, rest, &nrest)))
		return rc;
	c->device_given = g.device != NULL;
	c->device_default = !c->device_given;
	if ((rc = cli_set_device(c, g.device ? g.device : HW_DEVICE_DEFAULT)))
		return rc;
	c->json = g.json;
	c->opts.allow_i915 = g.allow;
	c->opts.sysfs_root = g.sysfs;
	c->journal = g.journal;
	if (g.version) {
		if (c->json)
			printf("{\"version\":\"%s\"}\n", gttlab_version);
		else
			printf("gttlab %s\n", gttlab_version);
		return EXIT_OK;
	}
	if (!nrest) {
		if (c->help) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		return cli_error("no command given: one of check, info, encode, decode, dump, snapshot, dom0, restore (gttlab --help)");
	}
	if (g.seed && strcmp(c->spec.scheme, "sim"))
		return cli_error("--mmio-seed applies to simulated devices (sim:...) only, not to --device '%s'", c->device);
	if (g.seed && load_seed(c, g.seed))
		return EXIT_USAGE;
	return run_command(c, nrest, rest);
}

int main(int argc, char **argv)
{
	static struct cli c;	/* static: its parsed device is over a kilobyte */
	c.env = gtt_env_posix(GTT_LOG_WARN);
	char **rest = calloc((size_t)argc + 1, sizeof(*rest));
	int rc;

	if (!rest)
		return cli_error("out of memory");
	rc = parse_and_run(&c, argc, argv, rest);
	free(rest);
	free(c.seed);
	/*
	 * Whatever was printed must have arrived: a report that hit a full disk
	 * is not a success. Every device is closed (and restored) by now. When
	 * the command already failed with its one line, stdout was left empty
	 * and has nothing to add.
	 */
	errno = 0;
	if (output_close(stdout) && rc != EXIT_USAGE)
		rc = cli_error("cannot write standard output: %s", strerror(errno));
	if (rc != EXIT_USAGE)
		cli_say_default(&c);
	return rc;
}
