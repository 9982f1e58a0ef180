/* SPDX-License-Identifier: MIT */
/*
 * gttlab check: run the register-level checks and report. On a real device it
 * needs root, keeps every check off the GGTT ranges the display planes scan
 * out, and restores the device after every check; SIGINT and SIGTERM stop
 * the run after the current check, which is restored like any other.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/firmware_efivarfs.h"
#include "checks/report.h"
#include "checks/runner.h"
#include "hosted/text_escape.h"
#include "hw/backend_sim.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char help[] =
	"usage: gttlab check [--device D] [--list] [--run PATTERNS] [--format F] [-o FILE] [--seed N]\n"
	"Run the register-level checks (default device sim:skl) and report.\n"
	"  --list          the checks, one per line: name, suite, description (touches no device)\n"
	"  --run PATTERNS  a comma-separated list of suite names, check names or globs (fence-*)\n"
	"  --format F      human (default: live progress, then a table), tap (TAP 13),\n"
	"                  junit (JUnit XML) or igt-json (IGT results.json, results_version 10;\n"
	"                  the default under --json)\n"
	"  -o FILE         write the report to FILE instead of standard output\n"
	"  --seed N        the run seed (default 0); a check's own seed comes from it and\n"
	"                  the check's name, so --run NAME --seed N repeats that check\n"
	"Exit 0 when a check passed and none failed, 77 (SKIP) when every check skipped, 1 when\n"
	"a check failed or the run was interrupted, 2 for a usage or device error, 3 (abort) when\n"
	"the device could not be restored after a check (named; nothing more runs). On a real\n"
	"device (pci:..., auto) it needs root, refuses a device i915 is bound to, never touches\n"
	"the GGTT behind an enabled display plane, and puts back every PTE and fence it wrote.\n";

static volatile int cancelled;

static void on_signal(int sig)
{
	(void)sig;
	cancelled = 1;
}

static void file_write(void *ctx, const char *s, size_t n)
{
	fwrite(s, 1, n, ctx);
}

struct progress {
	bool live;		/* a terminal: one line rewritten in place */
	bool on;
	unsigned pass, fail, skip;
};

static void progress(void *ctx, size_t i, size_t total, const struct check *c, const struct check_result *r)
{
	struct progress *p = ctx;
	/* a reason can quote what a device or a seed file held: escaped, 4 bytes at most for each of its own */
	char why[4 * sizeof(r->reason)];

	if (!p->on)
		return;
	if (!r) {
		if (p->live)
			fprintf(stderr, "\r\033[K[%2zu/%zu] %u passed %u failed %u skipped  %s ...", i + 1, total, p->pass, p->fail,
				p->skip, c->name);
		return;
	}
	p->pass += r->status == CHECK_PASS;
	p->fail += r->status == CHECK_FAIL;
	p->skip += r->status == CHECK_SKIP;
	if (p->live) {
		fprintf(stderr, "\r\033[K[%2zu/%zu] %u passed %u failed %u skipped  %s %s", i + 1, total, p->pass, p->fail, p->skip,
			c->name, check_status_name(r->status));
		if (r->status == CHECK_FAIL)
			fprintf(stderr, "\n  %s: %s\n", c->name, text_escape(why, sizeof(why), r->reason));
		if (i + 1 == total)
			fputc('\n', stderr);
	} else {
		fprintf(stderr, "[%2zu/%zu] %-4s %-26s %6.1f ms%s%s\n", i + 1, total, check_status_name(r->status), c->name,
			r->ns / 1e6, r->status == CHECK_PASS ? "" : "  ", text_escape(why, sizeof(why), r->reason));
	}
}

/* The runner keeps every check off what the display scans out: say what that is, on stderr. */
static void keeping_off(void *ctx, const struct runner_exclusion *x, size_t n)
{
	char line[160];

	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		runner_exclusion_text(&x[i], line, sizeof(line));
		fprintf(stderr, "gttlab: %s\n", line);
	}
}

static int list(struct cli *c, const struct check *const *sel, size_t n)
{
	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_array_begin(&j, NULL);
		for (size_t i = 0; i < n; i++) {
			json_object_begin(&j, NULL);
			json_str(&j, "name", sel[i]->name);
			json_str(&j, "suite", sel[i]->suite);
			json_str(&j, "description", sel[i]->description);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_finish(&j);
		return EXIT_OK;
	}
	for (size_t i = 0; i < n; i++)
		printf("%-26s %-12s %s\n", sel[i]->name, sel[i]->suite, sel[i]->description);
	return EXIT_OK;
}

/* the words of 'check' */
struct check_args {
	const char *run, *format, *out_path, *seed_s;
	bool do_list;
};

/* Reads the words of 'check'; returns EXIT_OK, else the exit code of the one line printed. */
static int parse_check(int argc, char **argv, bool json, struct check_args *a)
{
	const char *v;

	for (int i = 1; i < argc; i++) {
		static const char *const names[] = { "--run", "--format", "-o", "--seed" };
		const char **dst[] = { &a->run, &a->format, &a->out_path, &a->seed_s };
		int m = 0;
		for (unsigned k = 0; k < 4 && !m; k++) {
			if ((m = cli_opt(argc, argv, &i, names[k], &v)) <= 0)
				continue;
			if (*dst[k])
				return cli_twice(names[k], *dst[k], v);
			*dst[k] = v;
		}
		if (m < 0)
			return EXIT_USAGE;
		if (m)
			continue;
		if (!strcmp(argv[i], "--list")) {
			if (a->do_list)
				return cli_twice("--list", NULL, NULL);
			a->do_list = true;
		} else {
			return cli_error("check: unexpected '%s' (gttlab check --help)", argv[i]);
		}
	}
	if (!a->format)
		a->format = json ? "igt-json" : "human";	/* --json: machine-readable, as for every command */
	/* runner_select() takes no --run as "every check"; an empty pattern in it is a slip */
	if (a->run && (!a->run[0] || a->run[0] == ',' || a->run[strlen(a->run) - 1] == ',' || strstr(a->run, ",,")))
		return cli_error("--run '%s': an empty pattern names no check", a->run);
	return EXIT_OK;
}

/* The report file, if any, closed unjudged and the results freed: the run did not start. */
static void drop_outputs(FILE *out, struct check_result *res)
{
	if (out != stdout)
		output_drop(out);
	free(res);
}

/*
 * Runs the selected checks in the open session with progress on stderr (stopped early by
 * SIGINT or SIGTERM), writes the report, and says every abort on its own line whatever the
 * format: the device is not as it was found. Returns how many ran.
 */
static size_t run_and_report(struct session *s, const struct check *const *sel, size_t n, int fmt, uint64_t seed,
			     FILE *out, struct check_result *res)
{
	struct runner_opts o = { .seed = seed, .cancel = &cancelled };
	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct progress pr = { .live = isatty(STDERR_FILENO), .on = fmt == REPORT_HUMAN || isatty(STDERR_FILENO) };
	o.keeping_off = keeping_off;
	o.progress = progress;
	o.ctx = &pr;

	time_t t0 = time(NULL);
	size_t ran = session_run(s, sel, n, &o, res);
	const struct hw_device *dev = s->dev;
	struct fw_policy fw;
	fw_policy_read_efivarfs(EFIVARFS_DIR, &fw);
	char where[64];
	struct report_info info = { hw_device_where(dev, where, sizeof(where)), dev->info.plat->name, hw_device_kind(dev), seed,
				    (uint64_t)t0, (uint64_t)time(NULL), &fw, hw_device_pci_id(dev) };
	struct report_sink sink = { file_write, out };
	report_write((enum report_format)fmt, &sink, res, n, ran, &info);
	for (size_t i = 0; i < ran; i++)
		if (res[i].status == CHECK_ABORT)
			cli_error("ABORT after %s: %s", res[i].check->name, res[i].reason);	/* escaped, as every gttlab: line */
	return ran;
}

int cmd_check(struct cli *c, int argc, char **argv)
{
	struct check_args a = { 0 };
	uint64_t seed = 0;
	const struct check *sel[64];
	size_t n;
	struct gtt_err err = { 0 };
	int rc;

	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if ((rc = parse_check(argc, argv, c->json, &a)))
		return rc;
	int fmt = report_format_parse(a.format);
	if (fmt < 0)
		return cli_error("format '%s' is not one of human, tap, junit, igt-json", a.format);
	if (a.seed_s && cli_parse_u64("seed", a.seed_s, &seed))
		return EXIT_USAGE;
	if (runner_select(a.run, sel, 64, &n, &err))
		return cli_report(&err);
	if (a.do_list)
		return list(c, sel, n);

	if (a.out_path && !a.out_path[0])
		return cli_error("-o: the file name is empty");
	struct check_result *res = calloc(n ? n : 1, sizeof(*res));
	if (!res)
		return cli_error("out of memory");
	/* a report that cannot be written is refused before the device is opened */
	FILE *out = stdout;
	if (a.out_path && !(out = output_open(a.out_path))) {
		free(res);
		return cli_error("-o '%s': cannot create it: %s", a.out_path, strerror(errno));
	}
	/* open, the test build's model fault (GTTLAB_TEST_FAULT), a real device's crash journal */
	struct cli_session cs;
#ifdef GTTLAB_FAULTS
	cli_session_init(&cs, c, getenv("GTTLAB_TEST_FAULT"));
#else
	cli_session_init(&cs, c, NULL);
#endif
	if (session_open(&cs.s, &err)) {
		drop_outputs(out, res);
#ifdef GTTLAB_FAULTS
		if (cs.s.stage == SESSION_FAULT_FAILED)
			return cli_error("GTTLAB_TEST_FAULT: %s", err.msg);
#endif
		return cli_report(&err);
	}
	size_t ran = run_and_report(&cs.s, sel, n, fmt, seed, out, res);
	free(res);
	/* a journal that does not end restored keeps what the device held: an abort */
	if (session_close(&cs.s, &err))
		cli_report(&err);
	const struct run_totals *t = &cs.s.totals;
	/* stdout is main's to close and judge; a report file is judged here */
	if (out != stdout && output_close(out))
		return cli_error("-o '%s': cannot write the report: %s", a.out_path, strerror(errno));
	if (t->abort)
		return EXIT_ABORT;
	if (ran < n) {
		fprintf(stderr, "gttlab: interrupted after %zu of %zu checks; the device is restored\n", ran, n);
		return EXIT_FAIL;
	}
	if (t->fail)
		return EXIT_FAIL;
	if (!t->pass) {
		fprintf(stderr, "gttlab: SKIP: no check ran on %s (%zu selected, every one skipped): nothing was proven\n",
			c->device, n);
		return EXIT_SKIP;
	}
	return EXIT_OK;
}
