/* SPDX-License-Identifier: MIT */
/*
 * P5: the front-ends. The CPU seconds (user + system) of
 * `gttlab --device sim:P check` for every simulated platform, taken from the
 * child's rusage (wait4); and the EFI application's boot-to-verdict on
 * sim:skl under QEMU TCG against the same OVMF boot of an application that
 * only reports a verdict and powers off (bench/efi/floor.c): the firmware
 * floor. Boots alternate between the two so both see the same machine; the
 * ratio is of the medians.
 */
#define _DEFAULT_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"

static const char *const platforms[BENCH_PLATFORMS] = { "snb", "ivb", "hsw", "bdw", "skl", "kbl" };

/*
 * Run argv as a child with stdin from /dev/null; its stdout into out (when
 * given, else /dev/null), stderr to /dev/null. Returns the exit status (-1
 * when it did not exit) and its rusage.
 */
static int run_child(char *const argv[], char *out, size_t n, struct rusage *ru)
{
	int pfd[2] = { -1, -1 }, status = 0;

	if (out && pipe(pfd))
		bench_die("pipe");
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		bench_die("fork");
	if (!pid) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(out ? pfd[1] : null, 1);
		dup2(null, 2);
		if (out)
			close(pfd[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	if (out) {
		size_t len = 0;
		ssize_t got;
		char drain[512];
		close(pfd[1]);
		while (len < n - 1 && (got = read(pfd[0], out + len, n - 1 - len)) > 0)
			len += (size_t)got;
		while (read(pfd[0], drain, sizeof(drain)) > 0)
			;
		out[len] = 0;
		close(pfd[0]);
	}
	if (wait4(pid, &status, 0, ru) != pid)
		bench_die("wait4 %s", argv[0]);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static double cpu_seconds(const struct rusage *ru)
{
	return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 + (double)ru->ru_stime.tv_sec +
	       ru->ru_stime.tv_usec / 1e6;
}

static void check_cpu(const struct bench_opts *o, struct bench_results *r)
{
	unsigned reps = o->quick ? 1 : 5;

	for (int p = 0; p < BENCH_PLATFORMS; p++) {
		char dev[32];
		double s[5];
		snprintf(dev, sizeof(dev), "sim:%s", platforms[p]);
		char *argv[] = { (char *)o->gttlab, "--device", dev, "check", NULL };
		for (unsigned k = 0; k < reps; k++) {
			struct rusage ru;
			int rc = run_child(argv, NULL, 0, &ru);
			if (rc)
				bench_die("P5: %s --device %s check exited %d", o->gttlab, dev, rc);
			s[k] = cpu_seconds(&ru);
		}
		r->p5_platforms[p] = platforms[p];
		r->p5_cpu_s[p] = bench_median(s, reps);
	}
}

/*
 * One boot of app (bench/run-efi.sh): the seconds from QEMU's start to its
 * exit; *pool_s the seconds the application says it spent inside the
 * firmware's memory calls (-1 when it says nothing: the floor).
 */
static double boot(const struct bench_opts *o, const char *app, const char *cfg, const char *tag, double *pool_s)
{
	char work[512], out[4096];
	int status = -1;
	long long calls = -1;
	double seconds = 0;

	snprintf(work, sizeof(work), "%s/%s", o->work, tag);
	char *argv[] = { (char *)o->efi_runner, (char *)app, work, (char *)cfg, NULL };
	struct rusage ru;
	int rc = run_child(argv, out, sizeof(out), &ru);
	const char *line = strstr(out, "status=");
	if (rc || !line || sscanf(line, "status=%d seconds=%lf pool_calls=%lld pool_s=%lf", &status, &seconds, &calls, pool_s) != 4)
		bench_die("P5: %s %s exited %d: %s", o->efi_runner, app, rc, out);
	if (status != 33)
		bench_die("P5: booting %s: QEMU exited %d, not 33 (the pass verdict); serial log in %s", app, status, work);
	return seconds;
}

static void efi(const struct bench_opts *o, struct bench_results *r)
{
	unsigned reps = o->quick ? 1 : 5;
	double app[5], floor_s[5], pool[5], none;

	for (unsigned k = 0; k < reps; k++) {
		floor_s[k] = boot(o, o->efi_floor, "", "floor", &none);
		app[k] = boot(o, o->efi_app, "--device sim:skl --debug-exit", "gttlab", &pool[k]);
		if (pool[k] < 0)
			bench_die("P5: %s did not say its firmware memory calls (the 'gttlab: memory:' line)", o->efi_app);
	}
	r->p5_efi_pool_s = bench_median(pool, reps);
	r->p5_efi_s = bench_median(app, reps);
	r->p5_floor_s = bench_median(floor_s, reps);
	r->p5_efi_over_floor = r->p5_efi_s / r->p5_floor_s;
}

void bench_frontends(const struct bench_opts *o, struct bench_results *r)
{
	bench_note("P5: CPU seconds of gttlab check per platform");
	check_cpu(o, r);
	bench_note("P5: EFI boot-to-verdict on sim:skl against the firmware floor (QEMU TCG)");
	efi(o, r);
}
