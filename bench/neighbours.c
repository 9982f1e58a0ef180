/* SPDX-License-Identifier: MIT */
/*
 * neighbours: the victim's guest suite beside each neighbour of
 * bench/neighbours_result.h. One `gttlab dom0 serve` with two guest slots,
 * ready once it printed that slot 2 listens; for each repetition, each
 * neighbour in turn: pv_attack started on slot 2 (its mode until killed),
 * 100 ms for it to get going, then the victim (this process, a pv: client of
 * slot 1) runs the guest suite on a fresh connection, timed wall-clock, and
 * the neighbour is stopped. Nothing is pinned: the host, the victim and the
 * neighbour share the machine as a lab's guests do.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "checks/runner.h"
#include "hw/device.h"

#define MAX_REPS 9

static const char *const modes[BENCH_NEIGHBOURS] = { "burn", "audit", "ptes", "socket", "doorbell" };

static pid_t spawn(char *const argv[], const char *log)
{
	pid_t p = fork();

	if (p < 0)
		bench_die("neighbours: fork");
	if (!p) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return p;
}

/* The victim's guest suite on a fresh connection to sock: its wall time in ms. */
static double victim(const char *sock)
{
	const struct check *sel[16];
	struct check_result r[16];
	struct runner_opts ro = { .seed = 1 };
	struct gtt_err err = { 0 };
	struct hw_device *d = NULL;
	char spec[160];
	size_t n = 0;

	snprintf(spec, sizeof(spec), "pv:%s", sock);
	uint64_t t0 = bench_now_ns();
	if (hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &d, &err))
		bench_die("neighbours: the victim cannot open %s: %s", spec, err.msg);
	if (runner_select("guest", sel, 16, &n, &err) || runner_run(d, sel, n, &ro, r) != n)
		bench_die("neighbours: the victim's guest suite stopped early");
	for (size_t i = 0; i < n; i++)
		if (r[i].status == CHECK_FAIL || r[i].status == CHECK_ABORT)
			bench_die("neighbours: the victim's %s %s: %s", r[i].check->name, check_status_name(r[i].status), r[i].reason);
	hw_close(d);
	return (double)(bench_now_ns() - t0) / 1e6;
}

void bench_neighbours(const struct bench_opts *o, struct bench_results *res)
{
	struct bench_neighbours *nb = &res->neighbours;
	char dir[64], log[96], alog[96], s1[96], s2[96];
	double t[BENCH_NEIGHBOURS][MAX_REPS];

	memset(nb, 0, sizeof(*nb));
	nb->reps = o->quick ? 3 : MAX_REPS;
	if (access(o->attack, X_OK))
		bench_die("neighbours: %s is missing (make %s)", o->attack, o->attack);
	snprintf(dir, sizeof(dir), "/tmp/gttlab-bench-XXXXXX");
	if (!mkdtemp(dir))
		bench_die("neighbours: no temporary directory");
	snprintf(log, sizeof(log), "%s/serve.log", dir);
	snprintf(alog, sizeof(alog), "%s/attack.log", dir);
	snprintf(s1, sizeof(s1), "%s/s/vgpu1.sock", dir);
	snprintf(s2, sizeof(s2), "%s/s/vgpu2.sock", dir);
	char sdir[80];
	snprintf(sdir, sizeof(sdir), "%s/s", dir);
	char *serve_argv[] = { (char *)o->gttlab, "dom0", "serve", "--dir", sdir, "--guests", "2", "--setup-timeout", "60000", NULL };
	pid_t serve = spawn(serve_argv, log);
	char why[160];
	if (!bench_wait_line(serve, log, "guest 2: listening on", 30000, why, sizeof(why)))
		bench_die("neighbours: dom0 serve: %s; its log: %s", why, log);
	bench_note("neighbours: the guest suite over pv: beside a control and %d hostile neighbours in dom0 serve's next slot, %u rounds",
		   BENCH_NEIGHBOURS - 1, nb->reps);
	for (unsigned r = 0; r < nb->reps; r++)
		for (unsigned m = 0; m < BENCH_NEIGHBOURS; m++) {
			char *argv[] = { (char *)o->attack, s2, (char *)modes[m], "600000", NULL };
			pid_t a = spawn(argv, alog);
			nanosleep(&(struct timespec){ 0, 100000000 }, NULL);
			t[m][r] = victim(s1);
			kill(a, SIGKILL);
			waitpid(a, NULL, 0);
			nanosleep(&(struct timespec){ 0, 150000000 }, NULL);	/* the slot takes a connection again after a drop */
		}
	kill(serve, SIGTERM);
	int st;
	if (waitpid(serve, &st, 0) != serve || !WIFEXITED(st) || WEXITSTATUS(st))
		bench_die("neighbours: dom0 serve ended badly (status 0x%x); its log: %s", st, log);
	unlink(log);
	unlink(alog);
	rmdir(sdir);
	rmdir(dir);
	for (unsigned m = 0; m < BENCH_NEIGHBOURS; m++) {
		nb->names[m] = modes[m];
		double v[MAX_REPS];
		memcpy(v, t[m], sizeof(v));
		nb->lo_ms[m] = nb->hi_ms[m] = v[0];
		for (unsigned r = 1; r < nb->reps; r++) {
			nb->lo_ms[m] = v[r] < nb->lo_ms[m] ? v[r] : nb->lo_ms[m];
			nb->hi_ms[m] = v[r] > nb->hi_ms[m] ? v[r] : nb->hi_ms[m];
		}
		nb->suite_ms[m] = bench_median(v, nb->reps);
		if (m && nb->suite_ms[m] > nb->suite_ms[nb->worst ? nb->worst : 1])
			nb->worst = m;
	}
	if (!nb->worst)
		nb->worst = 1;
	nb->ratio = nb->suite_ms[nb->worst] / nb->suite_ms[0];
}

void bench_neighbours_table(const struct bench_opts *o, const struct bench_neighbours *nb)
{
	(void)o;
	printf("\nneighbours: the victim's guest suite over pv: (wall ms, median of %u, range) beside each neighbour in dom0 serve's next slot\n",
	       nb->reps);
	for (unsigned m = 0; m < BENCH_NEIGHBOURS; m++)
		printf("  %-9s %8.1f  (%.1f-%.1f)%s\n", nb->names[m], nb->suite_ms[m], nb->lo_ms[m], nb->hi_ms[m],
		       m ? "" : "  the control: burns the CPU, makes no request");
}

void bench_neighbours_json(struct bench_json *j, const struct bench_neighbours *nb)
{
	bench_json_open(j, "neighbours");
	bench_json_kint(j, "reps", nb->reps);
	for (unsigned m = 0; m < BENCH_NEIGHBOURS; m++) {
		bench_json_open(j, nb->names[m]);
		bench_json_knum(j, "suite_ms", nb->suite_ms[m]);
		bench_json_knum(j, "lo_ms", nb->lo_ms[m]);
		bench_json_knum(j, "hi_ms", nb->hi_ms[m]);
		bench_json_close(j);
	}
	bench_json_close(j);
}
