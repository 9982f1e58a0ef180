/* SPDX-License-Identifier: MIT */
/*
 * build/bench/bench: every benchmark of make bench, then the table and
 * results.json (bench/bench.h says what is measured and how).
 *   bench [--quick] [--only p1,p2,p3,p4,p5,p6,growth,balloon,table1,admission,migration,balance,boundary,neighbours,table2] [--seed N] [--json FILE]
 *         [--markdown FILE] [--tree NAME]
 *         [--gttlab PATH] [--efi-app PATH] [--efi-floor PATH] [--efi-runner PATH] [--work DIR]
 * --only runs some parts (for development); the report then leaves the others' keys out.
 *
 * Each part runs in a process of its own, its figures written into results
 * shared with this one: a part that dies (bench_die, a crash, a helper that
 * never got ready) or outlives PART_LIMIT_S is named, the parts after it
 * still run, the report holds every part that finished and lists the ones
 * that did not, and the exit status is 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/balloon_model.h"
#include "bench/bench.h"
#include "bench/papers.h"

/* In the order they run (enum bench_part), with their names for --only. */
static const struct {
	const char *name;
	void (*run)(const struct bench_opts *o, struct bench_results *r);
} parts[BENCH_PARTS] = {
	[PART_WRITES] = { "p1", bench_writes },
	[PART_SWITCH] = { "p2,p3", bench_switch_time },
	[PART_SCALE] = { "p4", bench_scale },
	[PART_RESIZE] = { "p6", bench_resize },
	[PART_GROWTH] = { "growth", bench_growth },
	[PART_BALLOON] = { "balloon", bench_balloon },
	[PART_WAIT] = { "table1", bench_request_wait },
	[PART_ADMISSION] = { "admission", bench_admission },
	[PART_MIGRATION] = { "migration", bench_migration },
	[PART_BALANCE] = { "balance", bench_balance },
	[PART_BOUNDARY] = { "boundary", bench_boundary },
	[PART_NEIGHBOURS] = { "neighbours", bench_neighbours },
	[PART_LADDER] = { "table2", bench_ladder },
	[PART_FRONTENDS] = { "p5", bench_frontends },
};

/* A part's time limit: the full run's longest part takes about 100 s here. */
#define PART_LIMIT_S	1200

/* Runs part i in a child; true when it ended well. Otherwise r->failure[i] says how it ended. */
static bool run_part(int i, const struct bench_opts *o, struct bench_results *r)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	uint64_t deadline = bench_now_ns() + (uint64_t)PART_LIMIT_S * 1000000000ull;
	int st;
	pid_t pid, got;

	fflush(stdout);
	fflush(stderr);
	if ((pid = fork()) < 0) {
		snprintf(r->failure[i], sizeof(r->failure[i]), "cannot start: fork: %s", strerror(errno));
		return false;
	}
	if (!pid) {
		parts[i].run(o, r);
		fflush(stdout);
		_exit(0);
	}
	while ((got = waitpid(pid, &st, WNOHANG)) == 0 || (got < 0 && errno == EINTR)) {
		if (bench_now_ns() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &st, 0);
			snprintf(r->failure[i], sizeof(r->failure[i]), "still running after its limit of %d s: killed",
				 PART_LIMIT_S);
			return false;
		}
		nanosleep(&tick, NULL);
	}
	if (got < 0)
		snprintf(r->failure[i], sizeof(r->failure[i]), "lost: waitpid: %s", strerror(errno));
	else if (WIFEXITED(st) && !WEXITSTATUS(st))
		return true;
	else if (WIFEXITED(st))
		snprintf(r->failure[i], sizeof(r->failure[i]), "exit status %d", WEXITSTATUS(st));
	else
		snprintf(r->failure[i], sizeof(r->failure[i]), "killed by signal %d (%s)", WTERMSIG(st),
			 strsignal(WTERMSIG(st)));
	return false;
}

/* Whether a comma list of names shares one with another. */
static bool wanted(const char *list, const char *names)
{
	for (const char *a = list; *a; a += strcspn(a, ","), a += *a == ',') {
		size_t n = strcspn(a, ",");
		for (const char *b = names; *b; b += strcspn(b, ","), b += *b == ',')
			if (n && strcspn(b, ",") == n && !strncmp(a, b, n))
				return true;
	}
	return false;
}

static void usage(void)
{
	fputs("usage: bench --self-test | [--quick] [--only p1,p2,p3,p4,p5,p6,growth,balloon,table1,admission,migration,balance,boundary,neighbours,table2] [--seed N] [--json FILE] [--markdown FILE] [--tree NAME] [--gttlab PATH]\n"
	      "             [--efi-app PATH] [--efi-floor PATH] [--efi-runner PATH] [--work DIR] [--attack PATH]\n",
	      stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	struct bench_opts o = {
		.seed = 1,
		.gttlab = "build/gttlab",
		.efi_app = "build/efi/gttlab.efi",
		.efi_floor = "build/bench/efi-floor.efi",
		.efi_runner = "bench/run-efi.sh",
		.attack = "build/tests/pv_attack",
		.work = "build/bench/qemu",
		.json = "build/bench/results.json",
	};
	/* shared with the parts' processes: each writes its own figures here */
	struct bench_results *r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	const char *only = NULL;

	/* the papers' judge against verdicts known by construction (make test runs it) */
	if (argc == 2 && !strcmp(argv[1], "--self-test"))
		return bench_claims_self_test() | balloon_cpu_model_self_test();
	for (int i = 1; i < argc; i++) {
		const char **val = NULL;
		if (!strcmp(argv[i], "--quick")) {
			o.quick = true;
			continue;
		}
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			char *end;
			o.seed = strtoull(argv[++i], &end, 0);
			if (*end || !*argv[i])
				usage();
			continue;
		}
		if (!strcmp(argv[i], "--only"))
			val = &only;
		else if (!strcmp(argv[i], "--json"))
			val = &o.json;
		else if (!strcmp(argv[i], "--markdown"))
			val = &o.markdown;
		else if (!strcmp(argv[i], "--tree"))
			val = &o.tree;
		else if (!strcmp(argv[i], "--gttlab"))
			val = &o.gttlab;
		else if (!strcmp(argv[i], "--efi-app"))
			val = &o.efi_app;
		else if (!strcmp(argv[i], "--efi-floor"))
			val = &o.efi_floor;
		else if (!strcmp(argv[i], "--efi-runner"))
			val = &o.efi_runner;
		else if (!strcmp(argv[i], "--attack"))
			val = &o.attack;
		else if (!strcmp(argv[i], "--work"))
			val = &o.work;
		if (!val || i + 1 >= argc)
			usage();
		*val = argv[++i];
	}
	if (only) {
		bool any = false;
		for (int i = 0; i < BENCH_PARTS; i++)
			any |= wanted(only, parts[i].name);
		if (!any)
			usage();
	}
	if (r == MAP_FAILED)
		bench_die("no memory for the results: %s", strerror(errno));
	uint64_t start = bench_now_ns();
	unsigned failed = 0;
	for (int i = 0; i < BENCH_PARTS; i++) {
		if (only && !wanted(only, parts[i].name))
			continue;
		uint64_t t0 = bench_now_ns();
		r->part_name[i] = parts[i].name;
		if (run_part(i, &o, r)) {
			r->ran[i] = true;
			bench_note("  (%.1f s)", (double)(bench_now_ns() - t0) / 1e9);
		} else {
			r->failed[i] = true;
			failed++;
			bench_note("part %s FAILED after %.1f s: %s; the parts after it still run", parts[i].name,
				   (double)(bench_now_ns() - t0) / 1e9, r->failure[i]);
		}
	}
	bench_note("all benchmarks: %.1f s", (double)(bench_now_ns() - start) / 1e9);
	bench_report(&o, r);
	if (failed) {
		fprintf(stderr, "bench: %u part%s FAILED:", failed, failed == 1 ? "" : "s");
		for (int i = 0; i < BENCH_PARTS; i++)
			if (r->failed[i])
				fprintf(stderr, " %s (%s)", parts[i].name, r->failure[i]);
		fprintf(stderr, "; the report holds the parts that finished\n");
		return 1;
	}
	return 0;
}
