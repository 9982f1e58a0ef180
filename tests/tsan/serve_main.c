/* SPDX-License-Identifier: MIT */
/*
 * The hosted service's tests under ThreadSanitizer (make tsan): runs every
 * entry of serve_tests[] (tests/test_dom0_serve.c), or those whose names
 * contain an argument, one after another in this process, and reports TAP.
 * Criterion's runner does not start under TSan; this one has no sandbox, no
 * fork and no registration, only the table.
 *
 *   build/tsan/serve [NAME-PART...]
 *
 * Exit 0 when every test passed or skipped, 1 when one failed. A report
 * from TSan itself ends the process with TSan's exit code (make tsan sets
 * halt_on_error and exitcode=66, and tells the two apart).
 *
 * The assertions of tests/tsan/criterion/criterion.h land here. A failed
 * cr_assert leaves its test by longjmp, as Criterion's leaves the test's
 * process: what the test had open is left as it is, and the run goes on with
 * the next test, its own failure already counted. The tests assert on the
 * thread that runs them only; an assertion on any other thread ends the run.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "hosted/backends.h"
#include "hw/backend_sim.h"
#include "tests/tsan/criterion/criterion.h"
#include "tests/tsan/serve_tests.h"

/*
 * The tests open simulated devices only. Giving tests/helpers.c's t_open a
 * sim-only backend list here keeps libpci and the linux backend out of the
 * TSan build: it needs the core, env/env_posix.c and dom0/host/ alone.
 */
const struct hw_backend_factory *const gtt_posix_backends[] = { &hw_sim_backend };
const size_t gtt_num_posix_backends = 1;

enum outcome { RAN, FAILED, SKIPPED };

static pthread_t runner;		/* the thread every test runs on */
static jmp_buf leave;			/* where a cr_assert or cr_skip_test leaves the test */
static bool failed;			/* the current test: a cr_expect or cr_assert failed */
static char skip_reason[256];
static volatile sig_atomic_t current = -1;	/* the test running, for the alarm's message */

static void diag(const char *file, int line, const char *what, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	/* TAP diagnostics: one line per failure, the message's own newlines kept behind '#' */
	printf("# %s:%d: failed: %s%s", file, line, what, msg[1] ? ":" : "");
	for (const char *p = msg[1] ? msg : ""; *p; p++) {
		putchar(*p);
		if (*p == '\n' && p[1])
			fputs("#   ", stdout);
	}
	putchar('\n');
	fflush(stdout);
}

void tsan_cr_expect_failed(const char *file, int line, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(file, line, what, fmt, ap);
	va_end(ap);
	failed = true;
}

_Noreturn void tsan_cr_assert_failed(const char *file, int line, const char *what, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag(file, line, what, fmt, ap);
	va_end(ap);
	failed = true;
	if (!pthread_equal(pthread_self(), runner)) {
		/* no test of this file asserts off its own thread; one that did has nowhere to return to */
		printf("Bail out! an assertion failed on a thread of the test's own\n");
		fflush(stdout);
		_exit(1);
	}
	longjmp(leave, 1);
}

_Noreturn void tsan_cr_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(skip_reason, sizeof(skip_reason), fmt, ap);
	va_end(ap);
	longjmp(leave, 2);
}

static void say(const char *s)
{
	if (write(STDOUT_FILENO, s, strlen(s)) < 0)
		_exit(1);
}

static void on_alarm(int sig)
{
	(void)sig;
	/* async-signal-safe calls only: a lost wake-up shows as this line, not as a hung make test */
	say("Bail out! ");
	if (current >= 0)
		say(serve_tests[current].name);
	say(" ran past its timeout\n");
	_exit(1);
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static enum outcome run_one(const struct serve_test *t)
{
	bool skipped = false;

	failed = false;
	skip_reason[0] = '\0';
	alarm(t->timeout_s);
	/* setjmp only as a whole controlling expression (C11 7.13.1.1); nothing set before it is read after */
	switch (setjmp(leave)) {
	case 0:
		t->run();
		break;
	case 2:
		skipped = true;
		break;
	default:
		break;	/* a cr_assert: `failed` is set */
	}
	alarm(0);
	if (skipped)
		return SKIPPED;
	return failed ? FAILED : RAN;
}

static bool wanted(const struct serve_test *t, int argc, char **argv)
{
	if (argc < 2)
		return true;
	for (int i = 1; i < argc; i++)
		if (strstr(t->name, argv[i]))
			return true;
	return false;
}

int main(int argc, char **argv)
{
	unsigned planned = 0, n = 0, bad = 0;
	struct sigaction sa = { .sa_handler = on_alarm };

	runner = pthread_self();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	for (size_t i = 0; i < serve_num_tests; i++)
		planned += wanted(&serve_tests[i], argc, argv);
	if (!planned) {
		fprintf(stderr, "%s: no test's name contains what was given\n", argv[0]);
		return 2;
	}
	printf("TAP version 13\n1..%u\n", planned);
	fflush(stdout);
	for (size_t i = 0; i < serve_num_tests; i++) {
		const struct serve_test *t = &serve_tests[i];
		if (!wanted(t, argc, argv))
			continue;
		current = (sig_atomic_t)i;
		double t0 = now_s();
		enum outcome o = run_one(t);
		double took = now_s() - t0;
		n++;
		bad += o == FAILED;
		if (o == SKIPPED)
			printf("ok %u - %s::%s # SKIP%s\n", n, t->suite, t->name, skip_reason);
		else
			printf("%sok %u - %s::%s (%.2f s)\n", o == FAILED ? "not " : "", n, t->suite, t->name, took);
		fflush(stdout);
	}
	current = -1;
	printf("# %u of %u failed\n", bad, n);
	return bad ? 1 : 0;
}
