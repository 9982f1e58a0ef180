/* SPDX-License-Identifier: MIT */
/*
 * `gttlab dom0 serve` and the pv transport, without a VM: the server runs as
 * its own process, as it does for QEMU guests, and the guests are pv:
 * clients (the ivshmem protocol's client side, the transport's bytes). Two
 * guests pass the guest suite at once; a guest killed mid-run is reclaimed
 * and its slot serves the next; a host that dies or stops is a lost device
 * (an abort, never a pass); malformed requests by the thousand are refused
 * and change nothing another guest sees; and the leak search is shown to
 * bite on a mediator bug that lets one guest's page into another's range.
 * With --policy, a guest's W is metered from the threads of the process that
 * connected, and reads their contention.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "env/env_posix.h"
#include "env/siphash.h"
#include "hosted/backends.h"
#include "checks/runner.h"
#include "hw/device.h"
#include "hw/pte.h"
#include "hw/raw_access.h"
#include "env/siphash.h"
#include "regs/pv_transport.h"
#include "regs/pvinfo.h"
#include "tests/helpers.h"

#define GTTLAB "./build/gttlab"
/* the test build's CLI: the same with the deliberate mediator bugs (dom0/faults.h), --host-fault among them */
#define GTTLAB_FAULTS_CLI "./build/faults/gttlab"

static void nap_ms(unsigned ms)
{
	struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000 };
	nanosleep(&t, NULL);
}

/* Start argv with stdout and stderr into log; its pid. */
static pid_t spawn(char *const argv[], const char *log)
{
	pid_t pid = fork();

	cr_assert_geq(pid, 0);
	if (!pid) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

static int wait_exit(pid_t pid)
{
	int st;

	cr_assert_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void slurp(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k = f ? fread(buf, 1, n - 1, f) : 0;

	buf[k] = '\0';
	if (f)
		fclose(f);
}

/* Wait (up to 10 s) for a line in the log. */
static bool log_says(const char *log, const char *what)
{
	static char buf[1 << 16];

	for (unsigned i = 0; i < 1000; i++) {
		slurp(log, buf, sizeof(buf));
		if (strstr(buf, what))
			return true;
		nap_ms(10);
	}
	return false;
}

struct served {
	char dir[64], log[96];
	pid_t pid;
};

/* dom0 serve on DIR with more words; returns once every slot listens. */
static void serve(struct served *s, unsigned guests, const char *const *more)
{
	char g[8], *argv[24] = { GTTLAB, "dom0", "serve", "--dir", s->dir, "--guests", g };
	unsigned n = 7;

	t_tmpdir(s->dir, sizeof(s->dir));
	snprintf(s->log, sizeof(s->log), "%s/serve.log", s->dir);
	snprintf(g, sizeof(g), "%u", guests);
	for (; more && *more; more++) {
		if (!strcmp(*more, "--host-fault"))
			argv[0] = GTTLAB_FAULTS_CLI;
		argv[n++] = (char *)*more;
	}
	argv[n] = NULL;
	s->pid = spawn(argv, s->log);
	char want[96];
	snprintf(want, sizeof(want), "guest %u: listening", guests);
	cr_assert(log_says(s->log, want), "dom0 serve did not start");
}

static struct hw_device *client(const struct served *s, unsigned k, const char *opts)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char spec[160];

	snprintf(spec, sizeof(spec), "pv:%s/vgpu%u.sock%s", s->dir, k, opts ? opts : "");
	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &dev, &err),
		     0, "%s: %s", spec, err.msg);
	cr_assert(dev->info.pvinfo.active, "%s is not in guest mode", spec);
	return dev;
}

/* `gttlab check --run guest` on slot k, as its own process. */
static pid_t guest_run(const struct served *s, unsigned k, const char *run, char *log, size_t n)
{
	static char spec[8][160];
	char *argv[] = { GTTLAB, "--device", spec[k], "check", "--run", (char *)run, NULL };

	snprintf(spec[k], sizeof(spec[k]), "pv:%s/vgpu%u.sock", s->dir, k);
	snprintf(log, n, "%s/guest%u-%ld.log", s->dir, k, (long)random());
	return spawn(argv, log);
}

Test(pv_serve, two_guests_pass_the_guest_suite_at_once, .timeout = 120)
{
	static const char *const more[] = { "--exit-after", "2", NULL };
	static char out[1 << 16];
	char l1[160], l2[160];
	struct served s;

	serve(&s, 2, more);
	pid_t a = guest_run(&s, 1, "guest", l1, sizeof(l1)), b = guest_run(&s, 2, "guest", l2, sizeof(l2));
	cr_expect_eq(wait_exit(a), 0);
	cr_expect_eq(wait_exit(b), 0);
	slurp(l1, out, sizeof(out));
	cr_expect(strstr(out, "7 passed, 0 failed, 0 skipped"), "guest 1:\n%s", out);
	slurp(l2, out, sizeof(out));
	cr_expect(strstr(out, "7 passed, 0 failed, 0 skipped"), "guest 2:\n%s", out);
	cr_expect_eq(wait_exit(s.pid), 0);
	slurp(s.log, out, sizeof(out));
	cr_expect(strstr(out, "2 guests came, 2 reclaimed"), "%s", out);
	cr_expect(strstr(out, " another's") && strstr(out, ", 0 another's"), "a leak:\n%s", out);
	/* the leak search saw the guests' own stamps: it is not looking at nothing */
	unsigned long long own = 0;
	const char *p = strstr(out, "stamps read: ");
	cr_assert(p && sscanf(p, "stamps read: %llu own", &own) == 1, "%s", out);
	cr_expect_gt(own, 0, "%s", out);
}

static _Atomic bool spinning;

static void *spin(void *arg)
{
	(void)arg;
	while (atomic_load(&spinning))
		;
	return NULL;
}

/*
 * --policy: the guest's process is this one; twice as many spinning threads
 * as the machine has cores each wait at least half the time, so its metered
 * W is well above 50% (a meter that read nothing, or the wrong process's
 * sleeping threads, reads near 0).
 */
Test(pv_serve, the_policy_meters_w_on_the_guests_own_threads, .timeout = 60)
{
	static const char *const more[] = { "--policy", "2", "--exit-after", "1", NULL };
	static char out[1 << 16];
	long cores = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n = cores > 0 && cores < 16 ? 2 * (unsigned)cores : 32;
	pthread_t t[32];
	struct served s;

	serve(&s, 1, more);
	atomic_store(&spinning, true);
	for (unsigned i = 0; i < n; i++)
		cr_assert_eq(pthread_create(&t[i], NULL, spin, NULL), 0);
	struct hw_device *dev = client(&s, 1, NULL);
	cr_assert(log_says(s.log, "guest 1: W metered on"), "no meter");
	nap_ms(1600);	/* three periods of 500 ms */
	atomic_store(&spinning, false);
	for (unsigned i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	hw_close(dev);
	cr_expect_eq(wait_exit(s.pid), 0);
	slurp(s.log, out, sizeof(out));
	cr_expect(strstr(out, "policy on: gBalloon's f every 500 ms, N = 2 CPUs"), "%s", out);
	unsigned long long periods = 0, w = 0, w_frac = 0, unmetered = 1;
	const char *p = strstr(out, " sleeps, ");
	cr_assert(p && sscanf(p, " sleeps, %llu policy periods (a guest's W up to %llu.%llu%%; %llu", &periods, &w, &w_frac,
			      &unmetered) == 4, "%s", out);
	cr_expect_geq(periods, 2, "%s", out);
	cr_expect_eq(unmetered, 0, "%s", out);
	cr_expect_gt(w, 50, "%u spinning threads on %ld cores: W %llu%% metered\n%s", n, cores, w, out);
}

Test(pv_serve, a_killed_guest_is_reclaimed_and_its_slot_serves_the_next, .timeout = 120)
{
	static const char *const more[] = { "--exit-after", "3", NULL };
	static char out[1 << 16];
	char l1[160], l2[160], l3[160];
	struct served s;

	serve(&s, 2, more);
	pid_t victim = guest_run(&s, 1, "*", l1, sizeof(l1));
	pid_t other = guest_run(&s, 2, "guest", l2, sizeof(l2));
	cr_assert(log_says(s.log, "guest 1 connected"));
	nap_ms(30);
	kill(victim, SIGKILL);
	cr_expect_eq(wait_exit(victim), 128 + SIGKILL);
	cr_assert(log_says(s.log, "guest 1 gone: vGPU"), "the killed guest's vGPU was not reclaimed");
	cr_expect_eq(wait_exit(other), 0, "the other guest failed while one was killed");
	slurp(l2, out, sizeof(out));
	cr_expect(strstr(out, "7 passed, 0 failed, 0 skipped"), "guest 2:\n%s", out);
	/* the slot serves again, on scrubbed memory and a fresh vGPU */
	pid_t next = guest_run(&s, 1, "guest", l3, sizeof(l3));
	cr_expect_eq(wait_exit(next), 0);
	slurp(l3, out, sizeof(out));
	cr_expect(strstr(out, "7 passed, 0 failed, 0 skipped"), "the next guest on slot 1:\n%s", out);
	cr_expect_eq(wait_exit(s.pid), 0);
	slurp(s.log, out, sizeof(out));
	cr_expect(strstr(out, "3 guests came, 3 reclaimed"), "%s", out);
}

/* A guest that sleeps until the host rings it, and one that stalls between looks, get every answer. */
Test(pv_serve, every_way_of_waiting_gets_its_answers, .timeout = 120)
{
	static const char *const more[] = { "--exit-after", "2", NULL };
	static const char *const waits[] = { ",wait=sleep", ",wait=pause" };
	struct check_result r[16];
	const struct check *sel[16];
	struct gtt_err err = { 0 };
	struct served s;
	size_t n = 0;

	serve(&s, 2, more);
	cr_assert_eq(runner_select("guest", sel, 16, &n, &err), 0);
	for (unsigned k = 0; k < 2; k++) {
		struct runner_opts o = { .seed = 3 };
		struct hw_device *dev = client(&s, k + 1, waits[k]);
		cr_assert_eq(runner_run(dev, sel, n, &o, r), n);
		for (size_t i = 0; i < n; i++)
			cr_expect_eq(r[i].status, CHECK_PASS, "%s%s: %s %s", r[i].check->name, waits[k],
				     check_status_name(r[i].status), r[i].reason);
		hw_close(dev);
	}
	cr_expect_eq(wait_exit(s.pid), 0);
}

/* The guest suite on a device whose host is gone: no pass, an abort naming the loss. */
static void lost(int sig, const char *says)
{
	struct check_result r[16];
	const struct check *sel[16];
	struct runner_opts o = { .seed = 1 };
	struct gtt_err err = { 0 };
	struct served s;
	size_t n = 0;

	serve(&s, 1, NULL);
	struct hw_device *dev = client(&s, 1, ",timeout=300");
	kill(s.pid, sig);
	wait_exit(s.pid);
	cr_assert_eq(runner_select("guest", sel, 16, &n, &err), 0);
	size_t ran = runner_run(dev, sel, n, &o, r);
	cr_assert_eq(ran, 1, "the run went on after the device was lost (%zu checks)", ran);
	cr_expect_eq(r[0].status, CHECK_ABORT, "%s: %s", check_status_name(r[0].status), r[0].reason);
	cr_expect(strstr(r[0].reason, "device lost") && strstr(r[0].reason, says), "%s", r[0].reason);
	hw_close(dev);
}

Test(pv_serve, a_host_killed_mid_run_is_a_lost_device, .timeout = 60) { lost(SIGKILL, "heartbeat stood still"); }
Test(pv_serve, a_host_stopped_mid_run_is_a_lost_device, .timeout = 60) { lost(SIGTERM, "stopped serving"); }

/* ---- a raw client: the ivshmem setup, then mailbox words of its own choosing ---- */

struct raw {
	int sock, host_efd;
	uint8_t *shm, *mb;
	size_t size;
	uint64_t seq;
};

static int64_t recv_msg(int sock, int *fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	uint8_t b[8];
	struct iovec io = { b, 8 };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };

	cr_assert_eq(recvmsg(sock, &m, 0), 8);
	*fd = -1;
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	if (h && h->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(h), sizeof(int));
	int64_t v;
	memcpy(&v, b, 8);
	return v;
}

static void raw_open(struct raw *r, const struct served *s, unsigned k)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int fd, shm = -1;

	snprintf(a.sun_path, sizeof(a.sun_path), "%s/vgpu%u.sock", s->dir, k);
	r->sock = socket(AF_UNIX, SOCK_STREAM, 0);
	cr_assert_eq(connect(r->sock, (struct sockaddr *)&a, sizeof(a)), 0, "%s", strerror(errno));
	cr_assert_eq(recv_msg(r->sock, &fd), 0);	/* version */
	cr_assert_eq(recv_msg(r->sock, &fd), 1);	/* the ID */
	for (unsigned i = 0; i < 3; i++) {		/* memory, the host's eventfd, its own */
		int64_t v = recv_msg(r->sock, &fd);
		if (v == -1)
			shm = fd;
		else if (v == 0)
			r->host_efd = fd;
		else
			close(fd);
	}
	struct stat st;
	cr_assert_eq(fstat(shm, &st), 0);
	r->size = (size_t)st.st_size;
	r->shm = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, shm, 0);
	cr_assert_neq(r->shm, MAP_FAILED);
	close(shm);
	r->mb = r->shm + PV_MAILBOX(1);
	for (unsigned i = 0; i < 1000 && __atomic_load_n((uint32_t *)(r->mb + PV_MB_STATE), __ATOMIC_ACQUIRE) != PV_GUEST_READY; i++)
		nap_ms(5);
	r->seq = __atomic_load_n((uint64_t *)(r->mb + PV_MB_REQ_SEQ), __ATOMIC_ACQUIRE);
}

/* One request of raw words; the status the host answered (fails the test if none comes in 5 s). */
static int32_t raw_call(struct raw *r, uint32_t op, uint32_t width, uint64_t addr, uint64_t len)
{
	uint64_t one = 1;

	memcpy(r->mb + PV_MB_OP, &op, 4);
	memcpy(r->mb + PV_MB_WIDTH, &width, 4);
	memcpy(r->mb + PV_MB_ADDR, &addr, 8);
	memcpy(r->mb + PV_MB_LEN, &len, 8);
	__atomic_store_n((uint64_t *)(r->mb + PV_MB_REQ_SEQ), ++r->seq, __ATOMIC_RELEASE);
	cr_assert_eq(write(r->host_efd, &one, 8), 8);
	for (unsigned i = 0; __atomic_load_n((uint64_t *)(r->mb + PV_MB_ANS_SEQ), __ATOMIC_ACQUIRE) != r->seq; i++) {
		cr_assert_lt(i, 5000000, "request %llu (op %u) unanswered", (unsigned long long)r->seq, op);
		if (i > 1000)
			nap_ms(0);
	}
	int32_t st;
	memcpy(&st, r->mb + PV_MB_STATUS, 4);
	return st;
}

static void raw_close(struct raw *r)
{
	munmap(r->shm, r->size);
	close(r->host_efd);
	close(r->sock);
}

Test(pv_serve, malformed_requests_are_refused_and_reach_no_other_guest, .timeout = 180)
{
	static const char *const more[] = { "--exit-after", "2", NULL };
	static char out[1 << 16];
	char l2[160];
	struct served s;
	struct raw r = { .sock = -1, .host_efd = -1 };
	uint64_t rng = 0x5eed5eed5eedull;
	unsigned refused = 0;

	serve(&s, 2, more);
	raw_open(&r, &s, 1);
	/* the other guest runs its suite meanwhile: its checks audit the host side */
	pid_t other = guest_run(&s, 2, "guest", l2, sizeof(l2));
	for (unsigned i = 0; i < 3000; i++) {
		uint64_t x = t_rand(&rng), y = t_rand(&rng), z = t_rand(&rng);
		uint32_t op = (uint32_t)(x % 18);		/* past the last op too */
		uint32_t width = (uint32_t)((x >> 8) % 3 ? (x >> 16) % 10 : (x >> 16));
		uint64_t addr = (y % 4) ? y % (32ull << 20) : y;	/* mostly near, sometimes anywhere */
		uint64_t len = (z % 4) ? z % (PV_DATA_MAX + 64) : z;
		for (unsigned b = 0; b < 64; b++)
			r.mb[PV_MB_DATA + b] = (uint8_t)t_rand(&rng);
		int32_t st = raw_call(&r, op, width, addr, len);
		cr_assert(st == 0 || (st <= -1 && st >= -8), "request %u (op %u): status %d is no gtt error code", i, op, st);
		refused += st == GTT_EINVAL;
	}
	cr_expect_gt(refused, 100, "only %u of 3000 random requests refused", refused);
	raw_close(&r);
	cr_expect_eq(wait_exit(other), 0);
	slurp(l2, out, sizeof(out));
	cr_expect(strstr(out, "7 passed, 0 failed, 0 skipped"), "the other guest:\n%s", out);
	cr_expect_eq(wait_exit(s.pid), 0);
	slurp(s.log, out, sizeof(out));
	cr_expect(strstr(out, ", 0 another's"), "%s", out);
	cr_expect(!strstr(out, "did not restore"), "%s", out);
}

/*
 * The leak search bites: under accept_pte_outside, guest 1 writes an entry
 * in guest 2's high range naming its own stamped page, and guest 2 (the
 * render owner, so nothing switches its range back) reads it. Without the
 * bug the entry is refused and guest 2 reads its own scratch.
 */
static void leak(bool bug)
{
	const char *more[] = { "--exit-after", "2", "--switch", "0", "--migrate", "0", bug ? "--host-fault" : NULL,
			       "accept_pte_outside", NULL };
	static char out[1 << 16];
	struct served s;
	struct hw_page pg;
	struct gtt_err err = { 0 };
	uint8_t buf[4096];
	uint64_t pte;

	serve(&s, 2, more);
	struct hw_device *a = client(&s, 1, NULL), *b = client(&s, 2, NULL);
	uint64_t gm = b->info.pvinfo.nonmappable_base;
	cr_assert_eq(hw_gpu_read(b, gm, buf, sizeof(buf), &err), 0, "%s", err.msg);	/* guest 2 runs */
	cr_assert_eq(hw_alloc_test_pages(a, 1, &pg, &err), 0, "%s", err.msg);
	/* a stamp as the guest suite makes it: its keyed tag under the key serve gave guest 1 */
	uint64_t who = a->info.pvinfo.vgt_id, stamp[3] = { PV_TAG_MAGIC, who, gtt_siphash24(a->info.stamp_key, &who, 8) };
	cr_assert(a->info.stamp_key[0] | a->info.stamp_key[1], "serve gave guest 1 no stamp key");
	memset(pg.cpu, 0x3c, 4096);
	memcpy(pg.cpu, stamp, sizeof(stamp));
	cr_assert_eq(hw_pte_encode_for(&a->info, pg.phys, HW_CACHE_NONE, &pte, &err), 0);
	a->ops->mmio_write64(a->ctx, (uint32_t)(a->info.gsm_offset + gm / 4096 * 8), pte);
	cr_assert_eq(hw_gpu_read(b, gm, buf, sizeof(buf), &err), 0, "%s", err.msg);
	a->ops->mmio_write64(a->ctx, (uint32_t)(a->info.gsm_offset + gm / 4096 * 8), 0);
	hw_free_test_pages(a, 1, &pg);
	hw_close(a);
	hw_close(b);
	int rc = wait_exit(s.pid);
	slurp(s.log, out, sizeof(out));
	if (bug) {
		cr_expect_eq(rc, 1, "%s", out);
		cr_expect(strstr(out, "LEAK: guest 2") && strstr(out, "stamped page"), "%s", out);
		cr_expect(!strstr(out, ", 0 another's"), "%s", out);
	} else {
		cr_expect_eq(rc, 0, "%s", out);
		cr_expect(!strstr(out, "LEAK") && strstr(out, ", 0 another's"), "%s", out);
	}
}

Test(pv_serve, the_leak_search_catches_a_page_let_into_another_range, .timeout = 60) { leak(true); }
Test(pv_serve, without_the_bug_the_entry_is_refused_and_nothing_leaks, .timeout = 60) { leak(false); }

Test(pv_serve, bad_options_are_one_line_and_exit_2)
{
	static const char *const bad[][2] = {
		{ GTTLAB " dom0 serve", "--dir DIR is required" },
		{ GTTLAB " dom0 serve --dir /tmp --guests 0", "--guests 0" },
		{ GTTLAB " dom0 serve --dir /tmp --guests 17", "--guests 17" },
		{ GTTLAB " dom0 serve --dir /tmp --wait nap", "--wait nap" },
		{ GTTLAB " dom0 serve --dir /tmp --frob", "unknown option '--frob'" },
		{ GTTLAB_FAULTS_CLI " dom0 serve --dir /tmp --host-fault nope", "--host-fault nope" },
		/* the shipped CLI has no mediator bugs to give */
		{ GTTLAB " dom0 serve --dir /tmp --host-fault accept_pte_outside", "unknown option '--host-fault'" },
		{ GTTLAB " --device vgpu:sim:skl dom0 serve --dir /tmp", "cannot take the guests' shared memory" },
		{ GTTLAB " --device pv:/nonexistent/vgpu1.sock info", "cannot connect" },
		{ GTTLAB " --device pv:/tmp/x.sock,wait=nap info", "wait=poll, wait=pause, wait=sleep or timeout=MS" },
	};
	static char out[4096];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char cmd[256];
		snprintf(cmd, sizeof(cmd), "%s 2>&1", bad[i][0]);
		cr_expect_eq(t_run(cmd, out, sizeof(out)), 2, "%s: %s", bad[i][0], out);
		cr_expect(strstr(out, bad[i][1]), "%s: %s", bad[i][0], out);
		cr_expect(strchr(out, '\n') == out + strlen(out) - 1, "%s: more than one line: %s", bad[i][0], out);
	}
}
