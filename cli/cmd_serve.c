/* SPDX-License-Identifier: MIT */
/* gttlab dom0 serve: the Dom0 runtime serving vGPUs to QEMU guests over ivshmem (dom0/host/pv_serve.h). */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "dom0/host/pv_serve.h"

#include <grp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"usage: gttlab [--device D] dom0 serve --dir DIR [--guests N] [--mem PAGES] [--low MIB]\n"
	"                 [--high SLOTS] [--fences N] [--wait busy|sleep|hybrid] [--spin-us US]\n"
	"                 [--switch N] [--migrate N] [--exit-after N] [--group G]\n"
	"                 [--setup-timeout MS] [--policy CPUS] [--quiet]\n"
	"Run the Dom0 runtime on the device (the model, sim[:PLATFORM], by default sim:skl;\n"
	"a real GPU is journaled as every command's writes are: gttlab restore)\n"
	"and serve a vGPU to each QEMU guest that connects an ivshmem-doorbell device to\n"
	"DIR/vgpuK.sock (K = 1..N, default 2), as its ivshmem server; gttlab.efi in the\n"
	"guest finds it with --device pv (docs/transport.md). Each guest gets PAGES pages\n"
	"of memory (default 1024), a vGPU of MIB MiB of aperture (32), SLOTS high slots (1)\n"
	"and N fences (4). --wait: how the host waits for requests: busy polls, sleep\n"
	"blocks on the doorbells, hybrid polls for US microseconds after an answer (1000)\n"
	"then sleeps (default sleep). --switch N: a scheduler quantum every N requests\n"
	"(16, 0 never). --migrate N: the host moves a guest's high range to other slots\n"
	"every N reads of its PVINFO EPOCH (4, 0 never; VOCL). A guest that goes away\n"
	"has its vGPU reclaimed, and its slot gets fresh shared memory. DIR is made 0700\n"
	"(0770 with --group G, the sockets 0660 then); an existing DIR must be this\n"
	"user's and writable by no one else. A second connection to a slot that holds\n"
	"a guest is refused; a guest that makes no request within --setup-timeout MS of\n"
	"connecting (120000), or writes to its socket, is dropped. --policy CPUS runs\n"
	"gBalloon's policy every 500 ms of the wall clock (docs/dom0.md), N = CPUS in\n"
	"R_copy, on measured inputs: the switches' timed copies, and each guest's W from\n"
	"its QEMU's vCPU threads' schedstat (name them: -name G,debug-threads=on; else\n"
	"all its threads; a guest that cannot be metered is said). Runs until SIGINT\n"
	"or SIGTERM, or until --exit-after N guests came and went; then the device is\n"
	"restored. Exit 0; 1 when a guest read another's stamped bytes (a leak, named);\n"
	"2 for bad input or a device serve cannot use; 3 when the restore did not read back.\n"
#ifdef GTTLAB_FAULTS
	"--host-fault accept_pte_outside|shared_scratch (this test build only) gives the\n"
	"runtime a mediator bug, to show the leak search catches what it lets through.\n"
#endif
	;

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void say(void *ctx, const char *line)
{
	if (!*(bool *)ctx) {
		printf("dom0 serve: %s\n", line);
		fflush(stdout);
	}
}

/* A number option within [min, max]; EXIT_OK or the one-line error. */
static int num(const char *opt, const char *v, uint64_t min, uint64_t max, uint64_t *out)
{
	int rc = cli_parse_u64(opt, v, out);

	if (rc)
		return rc;
	if (*out < min || *out > max)
		return cli_error("%s %s: %llu to %llu", opt, v, (unsigned long long)min, (unsigned long long)max);
	return EXIT_OK;
}

/* A --wait word; EXIT_OK or the one-line error. */
static int wait_mode(const char *val, enum dom0_wait_mode *out)
{
	if (!strcmp(val, "busy"))
		*out = DOM0_WAIT_BUSY;
	else if (!strcmp(val, "sleep"))
		*out = DOM0_WAIT_SLEEP;
	else if (!strcmp(val, "hybrid"))
		*out = DOM0_WAIT_HYBRID;
	else
		return cli_error("--wait %s: one of busy, sleep, hybrid", val);
	return EXIT_OK;
}

#ifdef GTTLAB_FAULTS
/*
 * --host-fault NAME (the test build's gttlab only, dom0/faults.h): a mediator bug the leak search
 * must catch. 1 when taken, 0 when argv[*i] is not it, or the exit code of the one line printed.
 */
static int host_fault(int argc, char **argv, int *i, struct pv_serve_opts *o)
{
	static struct dom0_faults f;
	const char *val;
	int rc = cli_opt(argc, argv, i, "--host-fault", &val);

	if (rc != 1)
		return rc < 0 ? EXIT_USAGE : 0;
	if (!strcmp(val, "accept_pte_outside"))
		f.accept_pte_outside = true;
	else if (!strcmp(val, "shared_scratch"))
		f.shared_scratch = true;
	else
		return cli_error("--host-fault %s: accept_pte_outside or shared_scratch (tests only)", val);
	o->faults = &f;
	return 1;
}
#endif

/* --group G: a group name or number the directory and sockets are opened to; EXIT_OK or the one-line error. */
static int group_of(const char *val, struct pv_serve_opts *o)
{
	struct group *g = getgrnam(val);
	char *end;
	unsigned long v = strtoul(val, &end, 10);

	if (!g && *val >= '0' && *val <= '9' && !*end && v < (gid_t)-1)
		g = getgrgid((gid_t)v);
	if (!g)
		return cli_error("--group %s: no such group", val);
	o->grouped = true;
	o->group = g->gr_gid;
	return EXIT_OK;
}

/* The numeric options: name, range, and where the value goes. */
static int number_opt(int argc, char **argv, int *i, struct pv_serve_opts *o, bool *took)
{
	static const struct { const char *name; uint64_t min, max; } nums[] = {
		{ "--guests", 1, PV_SERVE_MAX_GUESTS }, { "--mem", 1, 1u << 18 }, { "--low", 1, 4096 },
		{ "--high", 0, 1024 }, { "--fences", 0, 16 }, { "--spin-us", 1, 10000000 },
		{ "--switch", 0, 1u << 30 }, { "--exit-after", 0, 1u << 30 }, { "--migrate", 0, 1u << 30 },
		{ "--setup-timeout", 1, 86400000 }, { "--policy", 1, 65536 },
	};
	const char *val;
	uint64_t v;
	int rc;

	*took = false;
	for (size_t k = 0; k < sizeof(nums) / sizeof(nums[0]); k++) {
		if ((rc = cli_opt(argc, argv, i, nums[k].name, &val)) < 0)
			return EXIT_USAGE;
		if (rc != 1)
			continue;
		if ((rc = num(nums[k].name, val, nums[k].min, nums[k].max, &v)))
			return rc;
		*took = true;
		switch (k) {
		case 0: o->guests = (unsigned)v; break;
		case 1: o->mem_pages = (unsigned)v; break;
		case 2: o->low_size = v << 20; break;
		case 3: o->high_slots = (unsigned)v; break;
		case 4: o->fences = (unsigned)v; break;
		case 5: o->spin_ns = v * 1000; break;
		case 6: o->switch_every = (unsigned)v; break;
		case 7: o->exit_after = (unsigned)v; break;
		case 8: o->migrate = (unsigned)v; break;
		case 9: o->setup_timeout_ms = v; break;
		default: o->policy_cpus = (unsigned)v; break;
		}
		return EXIT_OK;
	}
	return EXIT_OK;
}

/* The words after 'dom0 serve'; EXIT_OK or the exit code of the one line printed. */
static int parse_serve(int argc, char **argv, struct pv_serve_opts *o, bool *quiet)
{
	for (int i = 2; i < argc; i++) {
		const char *val;
		bool took;
		int rc;
		if (!strcmp(argv[i], "--quiet")) {
			*quiet = true;
			continue;
		}
		if ((rc = number_opt(argc, argv, &i, o, &took)))
			return rc;
		if (took)
			continue;
		if ((rc = cli_opt(argc, argv, &i, "--dir", &val)) < 0)
			return EXIT_USAGE;
		if (rc == 1) {
			o->dir = val;
			continue;
		}
#ifdef GTTLAB_FAULTS
		if ((rc = host_fault(argc, argv, &i, o)) == 1)
			continue;
		if (rc)
			return rc;
#endif
		if ((rc = cli_opt(argc, argv, &i, "--group", &val)) < 0)
			return EXIT_USAGE;
		if (rc == 1) {
			if ((rc = group_of(val, o)))
				return rc;
			continue;
		}
		if ((rc = cli_opt(argc, argv, &i, "--wait", &val)) < 0)
			return EXIT_USAGE;
		if (rc == 1) {
			if ((rc = wait_mode(val, &o->wait)))
				return rc;
			continue;
		}
		return cli_error("dom0 serve: unknown option '%s' (gttlab dom0 serve --help)", argv[i]);
	}
	if (!o->dir)
		return cli_error("dom0 serve: --dir DIR is required: the guests' sockets are DIR/vgpuK.sock");
	return EXIT_OK;
}

int cmd_dom0_serve(struct cli *c, int argc, char **argv)
{
	struct pv_serve_opts o = { .guests = 2, .mem_pages = 1024, .low_size = 32ull << 20, .high_slots = 1, .fences = 4,
				   .wait = DOM0_WAIT_SLEEP, .spin_ns = 1000000, .switch_every = 16, .migrate = 4,
				   .stop = &stop };
	struct pv_serve_stats st;
	struct gtt_err err = { 0 };
	struct hw_device *dev;
	bool quiet = false;
	int rc;

	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if ((rc = parse_serve(argc, argv, &o, &quiet)))
		return rc;
	o.say = say;
	o.ctx = &quiet;
	if (cli_open(c, &dev))
		return EXIT_USAGE;
	/* a real device gets its crash journal before the runtime's first write (gttlab restore) */
	struct journal_file jf;
	if (cli_journal_begin(c, dev, &jf)) {
		cli_close(dev);
		return EXIT_USAGE;
	}
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	rc = pv_serve(c->env, dev, &o, &st, &err);
	int jrc = cli_journal_end(dev, &jf, rc != GTT_EIO);
	cli_close(dev);
	if (jrc && rc != GTT_EIO)
		return jrc;
	if (rc == GTT_EIO) {
		cli_report(&err);
		return EXIT_ABORT;
	}
	if (rc)
		return cli_report(&err);
	char pol[128] = "";
	if (o.policy_cpus)
		snprintf(pol, sizeof(pol), ", %llu policy periods (a guest's W up to %llu.%03llu%%; %llu guests' W not metered)",
			 (unsigned long long)st.policy_periods, (unsigned long long)(st.w_peak_mpct / 1000),
			 (unsigned long long)(st.w_peak_mpct % 1000), (unsigned long long)st.unmetered);
	printf("dom0 serve: %llu requests (%llu refused), %llu guests came, %llu reclaimed (%llu dropped), %llu connections refused, %llu quanta, %llu sleeps%s; stamps read: %llu own, %llu another's, %llu forged\n",
	       (unsigned long long)st.requests, (unsigned long long)st.rejected, (unsigned long long)st.connects,
	       (unsigned long long)st.reclaims, (unsigned long long)st.dropped, (unsigned long long)st.refused,
	       (unsigned long long)st.quanta, (unsigned long long)st.sleeps, pol, (unsigned long long)st.own_stamps,
	       (unsigned long long)st.foreign_stamps, (unsigned long long)st.forged_stamps);
	return st.foreign_stamps ? EXIT_FAIL : EXIT_OK;
}
