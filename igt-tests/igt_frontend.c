/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "env/version.h"
#include "igt-tests/igt_device_filter.h"
#include "igt-tests/igt_frontend.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hosted/journal_file.h"
#include "checks/runner.h"
#include "checks/session.h"
#include "hosted/text_escape.h"
#include "hw/backend_sim.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SUBTESTS 32
#define PLATFORMS_SUBTEST "platforms"

struct fe {
	const char *suite, *binary;
	const char *device;
	bool sentinel;			/* IGT_SENTINEL_ON_STDERR */
	const struct check *checks[MAX_SUBTESTS];
	size_t n_checks;
	struct session s;		/* the device's: opened on first need, never for listing */
	struct journal_file jf;		/* a real device's crash journal (GTTLAB_JOURNAL or the default) */
	struct hw_open_opts opts;	/* GTTLAB_SYSFS_ROOT: where sysfs is (tests use a fake tree) */
	bool dev_tried;
	bool said_keeping_off;		/* the keeping-off lines are said once, in the first subtest that runs */
	char dev_error[400];
	bool dev_config_error;		/* the device string names no device: a failure, not a skip */
	const char *device_from;	/* where the device string came from: --device, GTTLAB_DEVICE, IGT_DEVICE or "no device named" */
	const char *filter;		/* the IGT filter (igt_device_filter.h) the device string is read from, or NULL */
	char filter_dev[32];		/* the device string the filter selects */
	int opened;			/* devices opened, for GTTLAB_ACCESS_LOG */
	unsigned pass, fail, skip, aborted;
};

/*
 * One line on `f` whose arguments may hold what the command line, the
 * environment (GTTLAB_DEVICE, GTTLAB_JOURNAL) or a device gave: escaped
 * (hosted/text_escape.h), so that a control byte can neither drive the
 * terminal nor start a second line that igt_runner would read as one of ours.
 */
static void say(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vfprintf_escaped(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
}

/* A marker line on stdout, and on stderr too when the runner asked for sentinels. */
static void marker(struct fe *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void marker(struct fe *f, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	printf("%s\n", line);
	fflush(stdout);
	if (f->sentinel) {
		fprintf(stderr, "%s\n", line);
		fflush(stderr);
	}
}

static const char *word(enum check_status s)
{
	/* an abort ends the binary with IGT_EXIT_ABORT; its subtest line says FAIL, as IGT's does */
	return s == CHECK_PASS ? "SUCCESS" : s == CHECK_SKIP ? "SKIP" : "FAIL";
}

static void usage(FILE *out, const char *bin)
{
	char name[256];

	bin = text_escape(name, sizeof(name), bin);	/* argv[0] is whatever the caller made it */
	fprintf(out,
		"Usage: %s [OPTIONS]\n"
		"  --list-subtests            list the subtests (touches no device)\n"
		"  --run-subtest NAMES        run the subtests named (comma-separated, * and ? globs)\n"
		"  --dynamic-subtest NAMES    with --run-subtest: only these dynamic subtests\n"
		"  --device D                 sim[:PLATFORM], pci:DDDD:BB:DD.F, auto, or an IGT filter\n"
		"                             (sys:PATH, pci:vendor=8086[,device=ID][,card=N], pci:slot=BDF,\n"
		"                             drm:/dev/dri/cardN); else GTTLAB_DEVICE, else IGT_DEVICE (IGT's\n"
		"                             filters), else auto: the first Intel GPU. The model runs only\n"
		"                             when named; no Intel GPU is a skip (77), never a pass.\n"
		"Environment: GTTLAB_DEVICE, IGT_DEVICE, GTTLAB_SYSFS_ROOT (where sysfs is; default /sys),\n"
		"GTTLAB_JOURNAL (a real device's crash journal; default /var/lib/gttlab/BDF.journal).\n"
		"  --help                     this text\n"
		"Without --run-subtest every subtest runs. Exit: 0 success, 77 skip, 79 invalid,\n"
		"98 failure, 112 abort.\n",
		bin);
}

/* Write the model's access counts to GTTLAB_ACCESS_LOG: proof of what the binary touched. */
static void access_log(struct fe *f)
{
	const char *path = getenv("GTTLAB_ACCESS_LOG");
	FILE *o;

	if (!path || !(o = fopen(path, "w")))
		return;
	if (!f->opened) {
		fprintf(o, "device not opened\n");
	} else {
		struct sim_device *s = f->s.dev ? hw_sim_model(f->s.dev) : NULL;
		fprintf(o, "devices opened %d\n", f->opened);
		for (int k = 0; s && k < SIM_ACCESS_KINDS; k++)
			fprintf(o, "%s %llu\n", sim_access_name((enum sim_access)k),
				(unsigned long long)sim_access_count(s, (enum sim_access)k));
	}
	fclose(o);
}

/* The session's hooks: the device string with the POSIX backends, and its crash journal. */
static int open_device(void *ctx, struct hw_device **dev, struct gtt_err *err)
{
	struct fe *f = ctx;
	int rc = hw_open(gtt_env_posix(GTT_LOG_ERROR), f->device, gtt_posix_backends, gtt_num_posix_backends, &f->opts, dev,
			 err);

	f->opened += !rc;
	return rc;
}

static int journal_open(void *ctx, struct hw_device *dev, struct gtt_err *err)
{
	struct fe *f = ctx;
	const char *journal = getenv("GTTLAB_JOURNAL");

	return journal_begin(dev, journal && *journal ? journal : NULL, &f->opts, &f->jf, err);
}

static int journal_close(void *ctx, struct hw_device *dev, bool restored, struct gtt_err *err)
{
	struct fe *f = ctx;

	return journal_end(dev, &f->jf, restored, NULL, err);
}

/* The device of every subtest but the platforms', opened once, on the first that needs it. */
static struct hw_device *device(struct fe *f)
{
	struct gtt_err err = { 0 };

	if (f->dev_tried)
		return f->s.dev;
	f->dev_tried = true;
	if (f->filter) {
		/* IGT's filter: malformed is the lab's configuration error, no match a requirement not met */
		char why[300];
		enum igt_filter_result r = igt_filter_resolve(f->filter, f->opts.sysfs_root, f->filter_dev,
							      sizeof(f->filter_dev), why, sizeof(why));
		if (r != IGT_FILTER_FOUND) {
			f->dev_config_error = r == IGT_FILTER_MALFORMED;
			snprintf(f->dev_error, sizeof(f->dev_error), "%s %s '%s': %s",
				 r == IGT_FILTER_MALFORMED ? "malformed device filter" : "no Intel GPU matches", f->device_from,
				 f->filter, why);
			return NULL;
		}
		f->device = f->filter_dev;
	}
	if (!session_open(&f->s, &err)) {
		/* an info line on stdout: what every result of this binary was taken on, and by which gttlab */
		char where[64];
		printf("gttlab %s on %s (%s, %s", gttlab_version, hw_device_where(f->s.dev, where, sizeof(where)),
		       f->s.dev->info.plat->name, hw_device_kind(f->s.dev));
		if (hw_device_pci_id(f->s.dev))
			printf(", PCI 8086:%04x", hw_device_pci_id(f->s.dev));
		printf(")\n");
		fflush(stdout);
		return f->s.dev;
	}
	/*
	 * A device string that names no device (a typo in GTTLAB_DEVICE or --device) is the lab's
	 * configuration error: every subtest fails saying so. A valid one whose device is absent,
	 * busy or needs root is a requirement not met: skip. So is one whose journal cannot start
	 * (an unrestored journal makes the device unusable).
	 */
	f->dev_config_error = f->s.stage == SESSION_OPEN_FAILED && err.code == GTT_EINVAL;
	if (f->dev_config_error)
		snprintf(f->dev_error, sizeof(f->dev_error), "%s '%s' names no device: %s", f->device_from, f->device,
			 err.msg);
#ifdef GTTLAB_FAULTS
	else if (f->s.stage == SESSION_FAULT_FAILED)
		snprintf(f->dev_error, sizeof(f->dev_error), "GTTLAB_TEST_FAULT: %s", err.msg);
#endif
	else
		snprintf(f->dev_error, sizeof(f->dev_error), "no usable device %s (%s): %s", f->device, f->device_from, err.msg);
	return NULL;
}

/*
 * The runner keeps every check off what the display scans out; say what that is
 * once, as an info line on stdout (igt_info's stream: stderr stays clean on a pass).
 */
static void keeping_off(void *ctx, const struct runner_exclusion *x, size_t n)
{
	struct fe *f = ctx;
	char line[160];

	if (f->said_keeping_off)
		return;
	f->said_keeping_off = true;
	for (size_t i = 0; i < n; i++) {
		runner_exclusion_text(&x[i], line, sizeof(line));
		printf("gttlab: %s\n", line);
	}
	fflush(stdout);
}

static void count(struct fe *f, enum check_status s)
{
	f->pass += s == CHECK_PASS;
	f->fail += s == CHECK_FAIL || s == CHECK_ABORT;
	f->aborted += s == CHECK_ABORT;
	f->skip += s == CHECK_SKIP;
}

static void report_failure(const char *name, const char *reason)
{
	/* IGT prints a failure's details on stderr; a pass or skip leaves stderr clean */
	say(stderr, "gttlab: %s: %s", name, reason);
	fflush(stderr);
}

static void run_check(struct fe *f, const struct check *c)
{
	marker(f, "Starting subtest: %s", c->name);
	struct hw_device *dev = device(f);
	struct check_result r = { .check = c };
	if (!dev && f->dev_config_error) {
		report_failure(c->name, f->dev_error);
		r.status = CHECK_FAIL;
	} else if (!dev) {
		say(stdout, "Test requirement not met: %s", f->dev_error);
		r.status = CHECK_SKIP;
	} else {
		struct runner_opts o = { .keeping_off = keeping_off, .ctx = f };
		session_run(&f->s, &c, 1, &o, &r);
		if (r.status == CHECK_FAIL || r.status == CHECK_ABORT) {
			report_failure(c->name, r.reason);
		} else if (r.status == CHECK_SKIP) {
			say(stdout, "Test requirement not met: %s", r.reason);
		}
	}
	marker(f, "Subtest %s: %s (%llu.%03llus)", c->name, word(r.status), (unsigned long long)(r.ns / 1000000000u),
	       (unsigned long long)(r.ns / 1000000u % 1000u));
	count(f, r.status);
}

/*
 * The suite on every simulated platform, one dynamic subtest each: on the
 * model, for the guest suite inside a vGPU of the Dom0 runtime on it, for
 * the vf suite on the model as a VF where the platform has them.
 */
/* A platforms subtest's session: the model of one platform, or a vGPU on it; no fault, no journal. */
struct model_run {
	struct fe *f;
	const char *spec;
};

static int open_model(void *ctx, struct hw_device **dev, struct gtt_err *err)
{
	struct model_run *m = ctx;
	int rc = hw_open(gtt_env_posix(GTT_LOG_ERROR), m->spec, gtt_posix_backends, gtt_num_posix_backends, NULL, dev, err);

	m->f->opened += !rc;
	return rc;
}

/* Whether the device string is the model's (sim:... or vgpu:sim:...), as the grammar reads it. */
static bool names_the_model(const struct fe *f)
{
	struct hw_device_spec spec;
	struct gtt_err err = { 0 };

	if (f->filter || hw_device_spec_parse(f->device, &spec, &err))
		return false;
	return !strcmp(spec.scheme, "sim") || !strcmp(spec.scheme, "vgpu");
}

static void run_platforms(struct fe *f, const char *dyn)
{
	unsigned p = 0, fl = 0, ran = 0;
	uint64_t total = 0;

	marker(f, "Starting subtest: %s", PLATFORMS_SUBTEST);
	/* the models, and only where the device string asks for the model: never a lab's silent green */
	if (!names_the_model(f)) {
		say(stdout, "Test requirement not met: the %s subtest runs the models, and only when the device string names "
			"one (sim[:PLATFORM] or vgpu:sim[:PLATFORM]); the device here is %s (%s)", PLATFORMS_SUBTEST,
		    f->device, f->device_from);
		marker(f, "Subtest %s: SKIP (0.000s)", PLATFORMS_SUBTEST);
		count(f, CHECK_SKIP);
		return;
	}
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *pl = &gtt_platforms[i];
		if (!gtt_platform_simulated(pl))
			continue;
		if (dyn && !runner_glob(dyn, pl->name)) {
			/* a comma list of dynamic names */
			bool any = false;
			char copy[256];
			snprintf(copy, sizeof(copy), "%s", dyn);
			for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","))
				any |= runner_glob(t, pl->name);
			if (!any)
				continue;
		}
		ran++;
		marker(f, "Starting dynamic subtest: %s", pl->name);
		char spec[32];
		const char *host = strcmp(f->suite, "guest") ? "" : "vgpu:";
		struct gtt_err err = { 0 };
		enum check_status st = CHECK_SKIP;
		uint64_t ns = 0;
		/* the vf suite as VF 1 of the model's PF where the platform has VFs (gen12) */
		const char *vf = !strcmp(f->suite, "vf") && pl->gen >= 120 ? ",vf" : "";
		snprintf(spec, sizeof(spec), "%ssim:%s%s", host, pl->name, vf);
		struct model_run m = { f, spec };
		struct session s = { .hooks = { open_model, NULL, NULL, &m } };
		if (session_open(&s, &err)) {
			report_failure(pl->name, err.msg);
			st = CHECK_FAIL;
		} else {
			struct check_result r[MAX_SUBTESTS];
			struct runner_opts o = { 0 };
			session_run(&s, f->checks, f->n_checks, &o, r);
			for (size_t k = 0; k < f->n_checks; k++) {
				ns += r[k].ns;
				if (r[k].status == CHECK_PASS && st == CHECK_SKIP)
					st = CHECK_PASS;	/* a pass needs at least one check that passed */
				if (r[k].status == CHECK_FAIL || r[k].status == CHECK_ABORT) {
					char what[96];
					snprintf(what, sizeof(what), "%s on %s", r[k].check->name, spec);
					report_failure(what, r[k].reason);
					if (st != CHECK_ABORT)
						st = r[k].status;
				}
			}
			session_close(&s, &err);	/* no journal: nothing it can refuse */
		}
		total += ns;
		p += st == CHECK_PASS;
		fl += st == CHECK_FAIL || st == CHECK_ABORT;
		f->aborted += st == CHECK_ABORT;
		if (st == CHECK_SKIP)
			printf("Test requirement not met: every check skipped on %s\n", spec);
		marker(f, "Dynamic subtest %s: %s (%llu.%03llus)", pl->name, word(st), (unsigned long long)(ns / 1000000000u),
		       (unsigned long long)(ns / 1000000u % 1000u));
	}
	enum check_status st = fl ? CHECK_FAIL : p ? CHECK_PASS : CHECK_SKIP;
	if (!ran)
		say(stdout, "Test requirement not met: no dynamic subtest matches '%s'", dyn);
	marker(f, "Subtest %s: %s (%llu.%03llus)", PLATFORMS_SUBTEST, word(st), (unsigned long long)(total / 1000000000u),
	       (unsigned long long)(total / 1000000u % 1000u));
	count(f, st);
}

static bool valid_dynamic(const char *dyn)
{
	char copy[256];

	snprintf(copy, sizeof(copy), "%s", dyn);
	for (char *t = strtok(copy, ","); t; t = strtok(NULL, ","))
		for (size_t i = 0; i < gtt_num_platforms; i++)
			if (gtt_platform_simulated(&gtt_platforms[i]) && runner_glob(t, gtt_platforms[i].name))
				return true;
	return false;
}

/* the words of the command line */
struct igt_args {
	const char *run, *dyn;
	bool list;
};

/*
 * Reads the command line into x (and --device into f); returns -1 to go on, else the exit
 * code: --help's, or an unknown option's or a missing value's after the usage.
 */
static int parse_igt_args(struct fe *f, int argc, char **argv, struct igt_args *x)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = NULL;
		size_t n;
		if (!strcmp(a, "--list-subtests")) {
			x->list = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout, argv[0]);
			return IGT_EXIT_SUCCESS;
		}
		static const char *const with_value[] = { "--run-subtest", "--dynamic-subtest", "--device" };
		int which = -1;
		for (int k = 0; k < 3; k++) {
			n = strlen(with_value[k]);
			if (!strncmp(a, with_value[k], n) && (a[n] == '=' || !a[n])) {
				which = k;
				v = a[n] == '=' ? a + n + 1 : i + 1 < argc ? argv[++i] : NULL;
			}
		}
		if (which < 0 || !v) {
			say(stderr, "%s: %s '%s'", argv[0], which < 0 ? "unknown option" : "missing value for", a);
			usage(stderr, argv[0]);
			return IGT_EXIT_INVALID;
		}
		if (which == 0)
			x->run = v;
		else if (which == 1)
			x->dyn = v;
		else {
			f->device = v;
			f->device_from = "--device";
		}
	}
	return -1;
}

/*
 * Which subtests run (want[], the checks then "platforms"): every one, or those the patterns
 * name; a dynamic subtest only under "platforms". Returns 0, or IGT_EXIT_INVALID after the line.
 */
static int select_subtests(const struct fe *f, const char *argv0, const struct igt_args *x, bool *want)
{
	size_t total = f->n_checks + 1;
	if (!x->run) {
		for (size_t i = 0; i < total; i++)
			want[i] = true;
	} else {
		char copy[512];
		snprintf(copy, sizeof(copy), "%s", x->run);
		for (char *t = strtok(copy, ","); t; t = strtok(NULL, ",")) {
			bool any = false;
			for (size_t i = 0; i < total; i++) {
				const char *name = i < f->n_checks ? f->checks[i]->name : PLATFORMS_SUBTEST;
				if (runner_glob(t, name))
					want[i] = any = true;
			}
			if (!any) {
				say(stderr, "%s: unknown subtest '%s'", argv0, t);
				return IGT_EXIT_INVALID;
			}
		}
	}
	if (x->dyn) {
		/* dynamic subtests exist only under "platforms" */
		if (!x->run || !want[f->n_checks] || !valid_dynamic(x->dyn)) {
			say(stderr, "%s: unknown dynamic subtest '%s' (they are under '%s')", argv0, x->dyn, PLATFORMS_SUBTEST);
			return IGT_EXIT_INVALID;
		}
		for (size_t i = 0; i < f->n_checks; i++)
			want[i] = false;
	}
	return 0;
}

int igt_frontend_main(const char *suite, int argc, char **argv)
{
	struct fe f = { .suite = suite, .jf = { .fd = -1 } };
	f.s = (struct session){ .hooks = { open_device, journal_open, journal_close, &f } };
#ifdef GTTLAB_FAULTS
	f.s.fault = getenv("GTTLAB_TEST_FAULT");	/* the test build's binaries only (build/faults/igt/) */
#endif
	const char *sysfs = getenv("GTTLAB_SYSFS_ROOT");
	struct igt_args x = { 0 };
	int rc;

	f.opts.sysfs_root = sysfs && *sysfs ? sysfs : NULL;
	char binary[64];

	snprintf(binary, sizeof(binary), "gtt_%s", suite);
	for (char *p = binary; *p; p++)
		if (*p == '-')
			*p = '_';
	f.binary = binary;
	/*
	 * The device: --device, else GTTLAB_DEVICE, else IGT's IGT_DEVICE, else the first Intel GPU
	 * (auto). Never the model unless a device string names it: a lab machine without its GPU
	 * skips, it does not pass on the model. --device takes IGT's filters as IGT's tests do.
	 */
	const char *gd = getenv("GTTLAB_DEVICE"), *id = getenv("IGT_DEVICE");
	if (gd && *gd)
		f.device = gd, f.device_from = "GTTLAB_DEVICE";
	else if (id && *id)
		f.device = id, f.device_from = "IGT_DEVICE";
	else
		f.device = "auto", f.device_from = "no device named";
	f.sentinel = getenv("IGT_SENTINEL_ON_STDERR") != NULL;
	for (size_t i = 0; i < gtt_check_count() && f.n_checks < MAX_SUBTESTS - 1; i++)
		if (!strcmp(gtt_check(i)->suite, suite))
			f.checks[f.n_checks++] = gtt_check(i);
	if (!f.n_checks) {
		/* one program, a name per suite (igt_main.c): any other name is no test binary of ours */
		say(stderr, "%s: '%s' names no suite of the check table: this program runs as gtt_<suite>, e.g. gtt_ggtt",
		    argc > 0 && argv[0] ? argv[0] : "gtt_", suite);
		return IGT_EXIT_INVALID;
	}
	if ((rc = parse_igt_args(&f, argc, argv, &x)) >= 0)
		return rc;
	/* IGT_DEVICE is IGT's variable: only its filters; --device takes both grammars */
	if (!strcmp(f.device_from, "IGT_DEVICE") || igt_filter_is(f.device))
		f.filter = f.device;

	if (x.list) {
		for (size_t i = 0; i < f.n_checks; i++)
			printf("%s\n", f.checks[i]->name);
		printf("%s\n", PLATFORMS_SUBTEST);
		access_log(&f);
		return IGT_EXIT_SUCCESS;
	}

	bool want[MAX_SUBTESTS + 1] = { false };
	if ((rc = select_subtests(&f, argv[0], &x, want)))
		return rc;
	/* after an abort nothing more runs: the device could not be put back */
	for (size_t i = 0; i < f.n_checks && !f.aborted; i++)
		if (want[i])
			run_check(&f, f.checks[i]);
	if (want[f.n_checks] && !f.aborted)
		run_platforms(&f, x.dyn);
	access_log(&f);
	struct gtt_err err = { 0 };
	if (session_close(&f.s, &err)) {
		say(stderr, "%s: %s", argv[0], err.msg);
		f.aborted++;
	}
	if (f.aborted)
		return IGT_EXIT_ABORT;
	if (f.fail)
		return IGT_EXIT_FAILURE;
	return f.pass ? IGT_EXIT_SUCCESS : IGT_EXIT_SKIP;
}
