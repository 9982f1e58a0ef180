/* SPDX-License-Identifier: MIT */
/*
 * boundary: our Table 1 where VGVM measured it, between a guest and its
 * host. `gttlab dom0 serve` runs in its own process (busy, sleep or
 * hybrid waiting); this process is the guest, a pv: client speaking the
 * transport over the shared memory and the host's doorbell eventfd, as
 * QEMU's ivshmem-doorbell does without the VM exits. For Q = 1 .. 32: the
 * guest writes the request words and g2v_notify (each a transport round
 * trip), then polls STATUS until the answer; the median time, over
 * busy-wait's, and over the same request on the in-process vgpu: device
 * (the same traps, no boundary). The host's CPU time over its life comes
 * from the kernel (wait4). Then the guest suite on both devices, per check.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "env/env_posix.h"
#include "harness/backends.h"
#include "harness/runner.h"
#include "hw/backend_pv.h"
#include "hw/device.h"
#include "regs/pvinfo.h"

#define MAX_REPS 41
#define PAUSE_US 200		/* the guest's think time between two requests, as in table1 */
#define LOCAL "vgpu:sim:skl,peers=0,switch=0,migrate=0,mem=64"

static const unsigned sizes[BENCH_WAIT_SIZES] = { 1, 2, 4, 8, 16, 32 };
static const char *const mode_words[BENCH_WAIT_MODES] = { "busy", "sleep", "hybrid" };

static struct hw_device *open_dev(const char *spec)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	if (hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &dev, &err))
		bench_die("boundary: %s: %s", spec, err.msg);
	return dev;
}

/* One request over PVINFO, answered: its time as the guest sees it. */
static double ask(struct hw_device *d, uint32_t code, uint32_t q, uint32_t seq)
{
	uint64_t t0 = bench_now_ns(), deadline = t0 + 10000000000ull;
	uint32_t st;

	hw_mmio_write32(d, GTTLAB_IF_GM_CODE, code);
	hw_mmio_write32(d, GTTLAB_IF_GM_COUNT, q);
	hw_mmio_write32(d, GTTLAB_IF_GM_SEQ, seq);
	hw_mmio_write32(d, VGT_IF_G2V_NOTIFY, GTTLAB_G2V_GM_REQUEST);
	while (hw_mmio_read32(d, GTTLAB_IF_GM_ANSWER_SEQ) != seq ||
	       (st = hw_mmio_read32(d, GTTLAB_IF_GM_STATUS)) == GTTLAB_GM_ST_PENDING)
		if (bench_now_ns() > deadline)
			bench_die("boundary: request %u of %u slots not answered within 10 s", seq, q);
	double ns = (double)(bench_now_ns() - t0);
	if (st != GTTLAB_GM_ST_GRANTED)
		bench_die("boundary: a request of %u slots was answered %u, not granted", q, st);
	return ns;
}

static void think(void)
{
	nanosleep(&(struct timespec){ 0, PAUSE_US * 1000 }, NULL);
}

/*
 * The series on one device: median expansion time per size (each given
 * back before the next). The guest owns the render engine first (a GPU-side
 * read), so on both devices an expansion also copies its new slots in.
 */
static void series(struct hw_device *d, unsigned reps, double *out)
{
	uint32_t seq = hw_mmio_read32(d, GTTLAB_IF_GM_ANSWER_SEQ);
	struct gtt_err err = { 0 };
	uint8_t b[8];

	if (hw_gpu_read(d, d->info.pvinfo.mappable_base, b, sizeof(b), &err))
		bench_die("boundary: the guest's GPU-side read: %s", err.msg);

	for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++) {
		double t[MAX_REPS];
		ask(d, GTTLAB_GM_REQ_EXPAND, sizes[k], ++seq);	/* warm-up, untimed */
		ask(d, GTTLAB_GM_REQ_REDUCE, sizes[k], ++seq);
		for (unsigned r = 0; r < reps; r++) {
			think();
			t[r] = ask(d, GTTLAB_GM_REQ_EXPAND, sizes[k], ++seq);
			think();
			ask(d, GTTLAB_GM_REQ_REDUCE, sizes[k], ++seq);
		}
		out[k] = bench_median(t, reps);
	}
}

struct host {
	char dir[64], log[96], sock[96];
	pid_t pid;
	uint64_t t0;
};

static void host_start(const struct bench_opts *o, struct host *h, const char *mode)
{
	char *argv[] = { (char *)o->gttlab, "dom0", "serve", "--dir", h->dir, "--guests", "1", "--wait", (char *)mode,
			 "--switch", "0", "--migrate", "0", "--mem", "64", "--exit-after", "1", NULL };

	snprintf(h->dir, sizeof(h->dir), "/tmp/gttlab-bench-XXXXXX");
	if (!mkdtemp(h->dir))
		bench_die("boundary: no temporary directory");
	snprintf(h->log, sizeof(h->log), "%s/serve.log", h->dir);
	snprintf(h->sock, sizeof(h->sock), "%s/vgpu1.sock", h->dir);
	h->t0 = bench_now_ns();
	if ((h->pid = fork()) < 0)
		bench_die("boundary: fork");
	if (!h->pid) {
		int fd = open(h->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	for (unsigned i = 0; i < 1000 && access(h->sock, F_OK); i++)
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	if (access(h->sock, F_OK))
		bench_die("boundary: dom0 serve (%s) did not listen; its log: %s", mode, h->log);
}

/* The host's end (the guest hung up): its CPU time over its life, its sleeps from its summary. */
static void host_end(struct host *h, struct bench_boundary_cell *c)
{
	struct rusage ru;
	int st;
	char line[512] = "";
	unsigned long long sleeps = 0;

	if (wait4(h->pid, &st, 0, &ru) != h->pid || !WIFEXITED(st) || WEXITSTATUS(st))
		bench_die("boundary: dom0 serve ended badly (status 0x%x); its log: %s", st, h->log);
	double wall = (double)(bench_now_ns() - h->t0);
	double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		     (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3;
	FILE *f = fopen(h->log, "r");
	while (f && fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "quanta, ");
		if (p)
			sscanf(p, "quanta, %llu sleeps", &sleeps);
	}
	if (f)
		fclose(f);
	for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++) {
		c[k * BENCH_WAIT_MODES].host_cpu_pct = 100.0 * cpu / wall;
		c[k * BENCH_WAIT_MODES].sleeps = sleeps;
	}
	unlink(h->log);
	rmdir(h->dir);
}

/* The guest suite on a device: each check's time (runner's), in the table's order. */
static void suite(struct hw_device *d, const char **names, double *ns)
{
	const struct check *sel[16];
	struct check_result r[16];
	struct runner_opts o = { .seed = 1 };
	struct gtt_err err = { 0 };
	size_t n = 0;

	if (runner_select("guest", sel, 16, &n, &err) || n != BENCH_SUITE_CHECKS)
		bench_die("boundary: the guest suite has %zu checks, this benchmark %d", n, BENCH_SUITE_CHECKS);
	if (runner_run(d, sel, n, &o, r) != n)
		bench_die("boundary: the guest suite stopped early");
	for (size_t i = 0; i < n; i++) {
		if (r[i].status == CHECK_FAIL || r[i].status == CHECK_ABORT)
			bench_die("boundary: %s %s: %s", r[i].check->name, check_status_name(r[i].status), r[i].reason);
		names[i] = r[i].check->name;
		ns[i] = (double)r[i].ns;
	}
}

void bench_boundary(const struct bench_opts *o, struct bench_results *res)
{
	struct bench_boundary *b = &res->boundary;
	unsigned reps = o->quick ? 5 : MAX_REPS;
	double t[BENCH_WAIT_SIZES];

	memset(b, 0, sizeof(*b));
	b->reps = reps;
	for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++)
		b->sizes[k] = sizes[k];
	bench_note("boundary: requests of 1-32 slots to dom0 serve in another process, busy, sleep and hybrid (%u each)",
		   reps);
	struct hw_device *local = open_dev(LOCAL);
	series(local, reps, b->local_ns);
	for (unsigned m = 0; m < BENCH_WAIT_MODES; m++) {
		struct host h;
		b->modes[m] = mode_words[m];
		host_start(o, &h, mode_words[m]);
		char spec[128];
		snprintf(spec, sizeof(spec), "pv:%s", h.sock);
		struct hw_device *d = open_dev(spec);
		series(d, reps, t);
		for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++) {
			b->cell[k][m].latency_ns = t[k];
			b->cell[k][m].over_local = t[k] / b->local_ns[k];
		}
		if (m == 0) {
			uint64_t before, after, w;
			hw_pv_stats(d->ctx, &before, &w);
			suite(d, b->checks, b->suite_pv_ns);
			hw_pv_stats(d->ctx, &after, &w);
			b->suite_requests = after - before;
		}
		hw_close(d);
		host_end(&h, &b->cell[0][m]);
	}
	for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++)
		for (unsigned m = 0; m < BENCH_WAIT_MODES; m++)
			b->cell[k][m].over_busy = b->cell[k][m].latency_ns / b->cell[k][0].latency_ns;
	suite(local, b->checks, b->suite_local_ns);
	for (unsigned i = 0; i < BENCH_SUITE_CHECKS; i++)
		b->suite_ratio[i] = b->suite_pv_ns[i] / b->suite_local_ns[i];
	hw_close(local);
}

void bench_boundary_table(const struct bench_opts *o, const struct bench_boundary *b)
{
	(void)o;
	printf("\nboundary: Table 1 between a guest and its host (dom0 serve in its own process, the guest a pv: client\n"
	       "over the transport's shared memory and doorbell; median of %u, %d us guest pauses between requests;\n"
	       "x local: over the same request on the in-process vgpu: device; host CPU: the serve process's CPU time\n"
	       "over its life, start and every size included)\n", b->reps, PAUSE_US);
	printf("  %5s %10s  %-24s %-24s %-24s\n", "slots", "local", "busy-wait", "sleep", "hybrid");
	for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++) {
		char cell[BENCH_WAIT_MODES][40];
		for (unsigned m = 0; m < BENCH_WAIT_MODES; m++) {
			const struct bench_boundary_cell *c = &b->cell[k][m];
			snprintf(cell[m], sizeof(cell[m]), "%8.1f us %5.1fx local", c->latency_ns / 1e3, c->over_local);
		}
		printf("  %5u %7.1f us  %-24s %-24s %-24s\n", b->sizes[k], b->local_ns[k] / 1e3, cell[0], cell[1], cell[2]);
	}
	printf("  host CPU: busy %.0f%%, sleep %.0f%% (%llu sleeps), hybrid %.0f%% (%llu sleeps)\n",
	       b->cell[0][0].host_cpu_pct, b->cell[0][1].host_cpu_pct, (unsigned long long)b->cell[0][1].sleeps,
	       b->cell[0][2].host_cpu_pct, (unsigned long long)b->cell[0][2].sleeps);
	printf("  the guest suite per check, pv: (host busy) over vgpu: in-process; %llu transport requests:\n",
	       (unsigned long long)b->suite_requests);
	for (unsigned i = 0; i < BENCH_SUITE_CHECKS; i++)
		printf("    %-20s %9.2f ms over %7.2f ms: %6.1fx\n", b->checks[i] ? b->checks[i] : "?",
		       b->suite_pv_ns[i] / 1e6, b->suite_local_ns[i] / 1e6, b->suite_ratio[i]);
	printf("  paper (VGVM, CUDA over virtio): busy 5.0-463 ms at 100%% CPU; sleep 13.8 ms (2.8x) for the smallest\n");
}

void bench_boundary_json(struct bench_json *j, const struct bench_boundary *b)
{
	bench_json_open(j, "boundary");
	bench_json_kint(j, "reps", b->reps);
	for (unsigned k = 0; k < BENCH_WAIT_SIZES; k++) {
		char key[16];
		snprintf(key, sizeof(key), "slots_%u", b->sizes[k]);
		bench_json_open(j, key);
		bench_json_knum(j, "local_ns", b->local_ns[k]);
		for (unsigned m = 0; m < BENCH_WAIT_MODES; m++) {
			const struct bench_boundary_cell *c = &b->cell[k][m];
			bench_json_open(j, b->modes[m]);
			bench_json_knum(j, "latency_ns", c->latency_ns);
			bench_json_knum(j, "over_busy", c->over_busy);
			bench_json_knum(j, "over_local", c->over_local);
			bench_json_close(j);
		}
		bench_json_close(j);
	}
	for (unsigned m = 0; m < BENCH_WAIT_MODES; m++) {
		char key[32];
		snprintf(key, sizeof(key), "host_%s", b->modes[m]);
		bench_json_open(j, key);
		bench_json_knum(j, "cpu_pct", b->cell[0][m].host_cpu_pct);
		bench_json_kint(j, "sleeps", b->cell[0][m].sleeps);
		bench_json_close(j);
	}
	bench_json_open(j, "guest_suite");
	bench_json_kint(j, "requests", b->suite_requests);
	for (unsigned i = 0; i < BENCH_SUITE_CHECKS; i++) {
		bench_json_open(j, b->checks[i] ? b->checks[i] : "?");
		bench_json_knum(j, "pv_ns", b->suite_pv_ns[i]);
		bench_json_knum(j, "local_ns", b->suite_local_ns[i]);
		bench_json_knum(j, "ratio", b->suite_ratio[i]);
		bench_json_close(j);
	}
	bench_json_close(j);
	bench_json_close(j);
}
