/* SPDX-License-Identifier: MIT */
/*
 * The hosted request service (dom0/host/serve.h) and the schedstat reader
 * (dom0/host/steal.h). The service is judged by what the guest sees over
 * PVINFO and by exact counts (requests answered, wake-ups, empty polls);
 * no timing is asserted. The steal meter is judged on fake schedstat files
 * whose rates are worked out by hand.
 *
 * Every test is a plain function listed once in SERVE_TESTS (at the end):
 * Criterion runs them through Test() wrappers made from that list, and
 * make tsan runs the same functions from serve_tests[] under
 * ThreadSanitizer (tests/tsan/serve_main.c), where Criterion's runner does
 * not start. Built for that runner (GTTLAB_TSAN_RUNNER), <criterion/criterion.h>
 * is tests/tsan/criterion/criterion.h, the assertions alone.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "dom0/host/serve.h"
#include "dom0/host/steal.h"
#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"
#include "tests/tsan/serve_tests.h"

#define MiB (1ull << 20)
#define OFF(reg) ((reg) - VGT_PVINFO_PAGE)

static void pause_us(long us)
{
	struct timespec t = { 0, us * 1000 };

	nanosleep(&t, NULL);
}

static double seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Waits in these tests give up after this long: a lost wake-up shows as a failure, not a hang. */
#define PATIENCE_S 10.0

/* The guest: the request words, the doorbell, then its own wait for the answer (PATIENCE_S at most). */
static uint32_t guest_request(struct dom0_service *s, int id, uint32_t code, uint32_t count, uint32_t seq)
{
	struct gtt_err err = { 0 };
	uint32_t st = GTTLAB_GM_ST_PENDING, aseq = 0;

	cr_assert_eq(dom0_service_guest_write(s, id, OFF(GTTLAB_IF_GM_CODE), code, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_service_guest_write(s, id, OFF(GTTLAB_IF_GM_COUNT), count, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_service_guest_write(s, id, OFF(GTTLAB_IF_GM_SEQ), seq, &err), 0, "%s", err.msg);
	cr_assert_eq(dom0_service_guest_write(s, id, OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, &err), 0, "%s",
		     err.msg);
	for (double end = seconds() + PATIENCE_S; (st == GTTLAB_GM_ST_PENDING || aseq != seq) && seconds() < end;) {
		cr_assert_eq(dom0_service_guest_read(s, id, OFF(GTTLAB_IF_GM_STATUS), &st, &err), 0);
		cr_assert_eq(dom0_service_guest_read(s, id, OFF(GTTLAB_IF_GM_ANSWER_SEQ), &aseq, &err), 0);
		if (st == GTTLAB_GM_ST_PENDING)
			pause_us(50);
	}
	cr_assert(aseq == seq && st != GTTLAB_GM_ST_PENDING, "no answer to request %u within %.0f s (status %u)", seq,
		  PATIENCE_S, st);
	return st;
}

struct info_arg {
	int id;
	struct dom0_vgpu_info in;
};

static int info_locked(struct dom0_runtime *rt, void *ctx)
{
	struct info_arg *a = ctx;

	return dom0_vgpu_info(rt, a->id, &a->in);
}

static unsigned slots_of(struct dom0_service *s, int id)
{
	struct info_arg a = { .id = id };

	cr_assert_eq(dom0_service_locked(s, info_locked, &a), 0);
	return a.in.slots;
}

/*
 * Wait (PATIENCE_S at most) until the service thread blocks on its eventfd: a
 * request made then can only be found through the trap's signal.
 */
static void until_asleep(struct dom0_service *s)
{
	struct dom0_service_stats st;

	for (double end = seconds() + PATIENCE_S; seconds() < end;) {
		dom0_service_stats(s, &st);
		if (st.asleep)
			return;
		pause_us(50);
	}
	cr_assert_fail("the service thread never went to sleep");
}

/*
 * Expand by q then give q back, over PVINFO; the stats after stopping. With
 * `asleep`, every request is made while the thread sleeps.
 */
static struct dom0_service_stats expand_and_give_back(const struct dom0_service_opts *o, unsigned q, unsigned rounds,
						      bool asleep)
{
	struct dom0_service *s;
	struct dom0_service_stats st;
	struct gtt_err err = { 0 };
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	int a = d0_create(&t, 4 * MiB, 1, 0);
	d0_create(&t, 4 * MiB, 1, 0);
	cr_assert_eq(dom0_service_start(t.rt, o, &s, &err), 0, "%s", err.msg);
	for (unsigned r = 0; r < rounds; r++) {
		if (asleep)
			until_asleep(s);
		cr_assert_eq(guest_request(s, a, GTTLAB_GM_REQ_EXPAND, q, 2 * r + 1), GTTLAB_GM_ST_GRANTED);
		cr_assert_eq(slots_of(s, a), 1 + q, "the vGPU holds its new slots once the answer is there");
		uint32_t size = 0;
		cr_assert_eq(dom0_service_guest_read(s, a, OFF(VGT_IF_NONMAPPABLE_SIZE), &size, &err), 0);
		cr_assert_eq(size, (1 + q) * 64 * MiB, "PVINFO's non-mappable size is the new range (step 4)");
		if (asleep)
			until_asleep(s);
		cr_assert_eq(guest_request(s, a, GTTLAB_GM_REQ_REDUCE, q, 2 * r + 2), GTTLAB_GM_ST_GRANTED);
		cr_assert_eq(slots_of(s, a), 1);
	}
	cr_assert_eq(dom0_service_stop(s, &st, &err), 0, "%s", err.msg);
	cr_expect_eq(st.answered, 2 * rounds, "every request answered once (%llu)", (unsigned long long)st.answered);
	d0_stop(&t);
	return st;
}

static void busy_wait_answers_and_never_sleeps(void)
{
	struct dom0_service_stats st = expand_and_give_back(&(struct dom0_service_opts){ .mode = DOM0_WAIT_BUSY }, 2, 3, false);

	cr_expect_eq(st.wakeups, 0, "busy-wait slept %llu times", (unsigned long long)st.wakeups);
	cr_expect_gt(st.polls, 0);
}

static void sleep_answers_after_a_wakeup_each_and_never_polls(void)
{
	struct dom0_service_stats st = expand_and_give_back(&(struct dom0_service_opts){ .mode = DOM0_WAIT_SLEEP }, 2, 3, true);

	/* it never polls, so every answer came after a wake-up the trap sent: a lost one leaves a request unanswered */
	cr_expect_eq(st.polls, 0, "sleep mode polled %llu times", (unsigned long long)st.polls);
	cr_expect_geq(st.wakeups, 1, "%llu", (unsigned long long)st.wakeups);
}

/*
 * Small requests (at most hybrid_max_slots): after the first answer the
 * thread polls (30 s here) and never sleeps again; at most the first request
 * needed a wake-up.
 */
static void hybrid_polls_for_small_requests(void)
{
	struct dom0_service_opts o = { .mode = DOM0_WAIT_HYBRID, .hybrid_max_slots = 4, .spin_ns = 30ull * 1000000000 };
	struct dom0_service_stats st = expand_and_give_back(&o, 4, 3, false);

	cr_expect_leq(st.wakeups, 1, "at most the first request wakes it, then it polls: %llu",
		      (unsigned long long)st.wakeups);
	cr_expect_gt(st.polls, 0);
}

/* Large requests: the thread sleeps after each answer, as in sleep mode. */
static void hybrid_sleeps_for_large_requests(void)
{
	struct dom0_service_opts o = { .mode = DOM0_WAIT_HYBRID, .hybrid_max_slots = 4, .spin_ns = 30ull * 1000000000 };
	struct dom0_service_stats st = expand_and_give_back(&o, 5, 3, true);

	cr_expect_eq(st.polls, 0, "hybrid polled %llu times after large answers", (unsigned long long)st.polls);
	cr_expect_geq(st.wakeups, 1, "%llu", (unsigned long long)st.wakeups);
}

static void an_unknown_mode_is_refused(void)
{
	struct dom0_service *s = NULL;
	struct gtt_err err = { 0 };
	struct d0 t;

	d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
	cr_expect_eq(dom0_service_start(t.rt, &(struct dom0_service_opts){ .mode = 7 }, &s, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "wait mode 7"), "%s", err.msg);
	cr_expect_null(s);
	d0_stop(&t);
}

/* Hostile guests on their own threads, writing any word while the host serves and switches. */
struct hostile {
	struct dom0_service *s;
	int id;
	uint64_t seed;
#ifdef TSAN_SELFTEST_RACE
	int bumped;			/* relaxed: this guest bumped selftest_racy_count */
#endif
	unsigned accepted_notifies;	/* requests the trap took as pending: the service answers each... */
	unsigned withdrawn;		/* ...but these, which a withdraw took back first */
};

#ifdef TSAN_SELFTEST_RACE
/*
 * make tsan's proof that its check can fail: each hostile guest bumps
 * selftest_racy_count first and says so through a relaxed atomic; the test's
 * thread, once every guest has, bumps it too and lets them go on. Relaxed
 * atomics order nothing for ThreadSanitizer and no lock or join lies between
 * the bumps, so the test's bump races with each guest's on every run,
 * whatever the threads' timing. Each guest waits, idle, until the test's bump:
 * its bump stays in ThreadSanitizer's history, which keeps only the latest
 * events of a thread and drops a report whose earlier stack it lost (a guest
 * that went on serving thousands of requests first made the report come and go).
 */
static unsigned selftest_racy_count;
static int selftest_race_go;

/* wait, idle and bounded, for an int another thread sets with a relaxed store */
static void selftest_wait_for(int *flag)
{
	for (int i = 0; i < 20000 && !__atomic_load_n(flag, __ATOMIC_RELAXED); i++)
		pause_us(1000);
}
#endif

static uint64_t next(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void *hostile_guest(void *arg)
{
	struct hostile *h = arg;
	static const uint32_t offs[] = { 0x104, 0x108, 0x10c, 0x818, 0x110, 0x048, 0x04c, 0x800, 0x804 };
	uint32_t code = 0;	/* the CODE word as this guest last wrote it: nobody else writes its words */

#ifdef TSAN_SELFTEST_RACE
	selftest_racy_count++;
	__atomic_store_n(&h->bumped, 1, __ATOMIC_RELAXED);
	selftest_wait_for(&selftest_race_go);
#endif
	for (int i = 0; i < 3000; i++) {
		uint64_t r = next(&h->seed);
		uint32_t off = r & 1 ? offs[(r >> 1) % 9] : (uint32_t)((r >> 8) % 0x1000) & ~3u;
		uint32_t val = (r >> 32) & 4 ? (uint32_t)(r >> 40) % 40 : (uint32_t)(r >> 32);
		if (off == 0x818 && (r >> 60) & 1)
			val = GTTLAB_G2V_GM_REQUEST;
		int rc = dom0_service_guest_write(h->s, h->id, off, val, NULL);
		if (rc)
			continue;
		if (off == OFF(GTTLAB_IF_GM_CODE))
			code = val;
		if (off != OFF(VGT_IF_G2V_NOTIFY) || val != GTTLAB_G2V_GM_REQUEST)
			continue;
		if (code != GTTLAB_GM_REQ_WITHDRAW) {
			h->accepted_notifies++;
			continue;
		}
		/*
		 * A withdraw is answered in the trap: WITHDRAWN when it took back a
		 * pending request (which the service then never answers), NOTED when
		 * none waited. No request of this vGPU waits after it, so nothing
		 * but this guest changes its status word: the next read is that answer.
		 */
		uint32_t st = 0;
		if (!dom0_service_guest_read(h->s, h->id, OFF(GTTLAB_IF_GM_STATUS), &st, NULL) && st == GTTLAB_GM_ST_WITHDRAWN)
			h->withdrawn++;
	}
	return NULL;
}

struct switch_arg {
	int id;
};

static int switch_locked(struct dom0_runtime *rt, void *ctx)
{
	struct switch_arg *a = ctx;

	return dom0_switch(rt, a->id, NULL, NULL);
}

static int pending_locked(struct dom0_runtime *rt, void *ctx)
{
	(void)ctx;
	return (int)dom0_requests_pending(rt);
}

static void hostile_guests_on_threads_leave_pvinfo_consistent_and_the_device_as_found(void)
{
	enum dom0_wait_mode modes[] = { DOM0_WAIT_BUSY, DOM0_WAIT_SLEEP, DOM0_WAIT_HYBRID };

	for (int m = 0; m < 3; m++) {
		struct dom0_service *s;
		struct dom0_service_stats st;
		struct gtt_err err = { 0 };
		struct hostile h[3];
		pthread_t th[3];
		struct d0 t;
		size_t n1, n2;

		d0_start(&t, "sim:skl", &(struct dom0_config){ 0 });
		uint8_t *before = d0_capture(&t, &n1);
		for (int i = 0; i < 3; i++)
			h[i] = (struct hostile){ .id = d0_create(&t, 4 * MiB, 2, 0), .seed = 77 + 10 * m + i };
		cr_assert_eq(dom0_service_start(t.rt, &(struct dom0_service_opts){ .mode = modes[m], .spin_ns = 200000 },
					     &s, &err), 0, "%s", err.msg);
		for (int i = 0; i < 3; i++) {
			h[i].s = s;
			cr_assert_eq(pthread_create(&th[i], NULL, hostile_guest, &h[i]), 0);
		}
#ifdef TSAN_SELFTEST_RACE
		for (int i = 0; i < 3; i++)
			selftest_wait_for(&h[i].bumped);
		selftest_racy_count++;
		__atomic_store_n(&selftest_race_go, 1, __ATOMIC_RELAXED);
#endif
		for (int k = 0; k < 200; k++) {
			struct switch_arg a = { h[k % 3].id };
			cr_assert_eq(dom0_service_locked(s, switch_locked, &a), 0);
		}
		unsigned accepted = 0, withdrawn = 0;
		for (int i = 0; i < 3; i++) {
			pthread_join(th[i], NULL);
			accepted += h[i].accepted_notifies;
			withdrawn += h[i].withdrawn;
		}
		for (double end = seconds() + PATIENCE_S; dom0_service_locked(s, pending_locked, NULL) && seconds() < end;)
			pause_us(50);
		cr_assert_eq(dom0_service_locked(s, pending_locked, NULL), 0, "%s: requests left unanswered",
			     dom0_wait_mode_name(modes[m]));
		for (int i = 0; i < 3; i++) {
			struct info_arg a = { .id = h[i].id };
			uint32_t base = 0, size = 0;
			cr_assert_eq(dom0_service_locked(s, info_locked, &a), 0);
			dom0_service_guest_read(s, a.id, OFF(VGT_IF_NONMAPPABLE_BASE), &base, NULL);
			dom0_service_guest_read(s, a.id, OFF(VGT_IF_NONMAPPABLE_SIZE), &size, NULL);
			cr_expect_eq(base, (uint32_t)a.in.high_base, "%s: vGPU %d: PVINFO base 0x%x, runtime 0x%llx",
				     dom0_wait_mode_name(modes[m]), a.id, base, (unsigned long long)a.in.high_base);
			cr_expect_eq(size, (uint32_t)a.in.high_size, "%s: vGPU %d: PVINFO size 0x%x, runtime 0x%llx",
				     dom0_wait_mode_name(modes[m]), a.id, size, (unsigned long long)a.in.high_size);
		}
		cr_assert_eq(dom0_service_stop(s, &st, &err), 0, "%s", err.msg);
		cr_expect_eq(st.answered, accepted - withdrawn,
			     "%s: %u requests accepted at the doorbell, %u of them withdrawn, %llu answered",
			     dom0_wait_mode_name(modes[m]), accepted, withdrawn, (unsigned long long)st.answered);
		cr_assert_eq(dom0_fini(t.rt, &err), 0, "dom0_fini: %s", err.msg);
		uint8_t *after = d0_capture(&t, &n2);
		cr_expect_eq(memcmp(before, after, n1), 0, "%s: the GGTT or the fences are not as found",
			     dom0_wait_mode_name(modes[m]));
		free(before);
		free(after);
		hw_close(t.dev);
	}
}

/* ---- the schedstat reader ---- */

static void put(const char *dir, int tid, const char *text)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/4242/task/%d", dir, tid);
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
	cr_assert_eq(system(cmd), 0);
	strcat(path, "/schedstat");
	FILE *f = fopen(path, "w");
	cr_assert(f && fputs(text, f) >= 0 && !fclose(f));
}

static void rate_is_the_sum_of_waiting_over_time(void)
{
	struct dom0_steal_meter m;
	struct gtt_err err = { 0 };
	pid_t tids[2] = { 10, 11 };
	uint64_t w = 0;
	char dir[64];

	t_tmpdir(dir, sizeof(dir));
	put(dir, 10, "5000 1000 3\n");
	put(dir, 11, "7000 0 9\n");
	cr_assert_eq(dom0_steal_meter_init(&m, dir, 4242, tids, 2, 1000000000, &err), 0, "%s", err.msg);
	/* in 1 s: thread 10 waited 250 ms, thread 11 500 ms: 75% */
	put(dir, 10, "600000000 250001000 4\n");
	put(dir, 11, "400000000 500000000 12\n");
	cr_assert_eq(dom0_steal_meter_sample(&m, 2000000000, &w, &err), 0, "%s", err.msg);
	cr_expect_eq(w, 75000, "75%% is 75000 milli-percent, got %llu", (unsigned long long)w);
	/* in the next 0.5 s: both waited the whole time: 200% */
	put(dir, 10, "600000000 750001000 4\n");
	put(dir, 11, "400000000 1000000000 12\n");
	cr_assert_eq(dom0_steal_meter_sample(&m, 2500000000, &w, &err), 0, "%s", err.msg);
	cr_expect_eq(w, 200000);
}

static void bad_files_and_counters_going_back_are_refused(void)
{
	static const char *const bad[] = { "12 34\n", "a b c\n", "1 2 3", "1 2 3\nx", "-1 2 3\n", "1  2 3\n",
					   "99999999999999999999 1 1\n", "" };
	struct dom0_steal_meter m;
	struct gtt_err err = { 0 };
	pid_t tid = 20;
	uint64_t w = 0;
	char dir[64];

	t_tmpdir(dir, sizeof(dir));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		put(dir, 20, bad[i]);
		cr_expect_eq(dom0_steal_meter_init(&m, dir, 4242, &tid, 1, 1, &err), GTT_EINVAL, "case %zu", i);
		cr_expect(strstr(err.msg, "not a schedstat line"), "case %zu: %s", i, err.msg);
	}
	pid_t gone = 21;
	cr_expect_eq(dom0_steal_meter_init(&m, dir, 4242, &gone, 1, 1, &err), GTT_ENODEV);
	put(dir, 20, "100 100 1\n");
	cr_assert_eq(dom0_steal_meter_init(&m, dir, 4242, &tid, 1, 1000, &err), 0, "%s", err.msg);
	cr_expect_eq(dom0_steal_meter_sample(&m, 1000, &w, &err), GTT_EINVAL, "no time passed");
	put(dir, 20, "100 50 1\n");
	cr_expect_eq(dom0_steal_meter_sample(&m, 2000, &w, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "went backwards"), "%s", err.msg);
	cr_expect_eq(dom0_steal_meter_init(&m, dir, 4242, &tid, 0, 1, &err), GTT_EINVAL);
}

/* This kernel's own file for this thread reads, and its counters do not go back. */
static void reads_this_kernels_schedstat(void)
{
	struct dom0_steal_meter m;
	struct gtt_err err = { 0 };
	pid_t tid = gettid();
	uint64_t w = 0;
	char probe[96];

	snprintf(probe, sizeof(probe), "/proc/%d/task/%d/schedstat", (int)getpid(), (int)tid);
	if (access(probe, R_OK))
		cr_skip_test("%s is not there (a kernel without CONFIG_SCHED_INFO)", probe);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	cr_assert_eq(dom0_steal_meter_init(&m, "/proc", getpid(), &tid, 1,
					   (uint64_t)a.tv_sec * 1000000000u + (uint64_t)a.tv_nsec, &err), 0, "%s", err.msg);
	pause_us(20000);
	clock_gettime(CLOCK_MONOTONIC, &b);
	cr_assert_eq(dom0_steal_meter_sample(&m, (uint64_t)b.tv_sec * 1000000000u + (uint64_t)b.tv_nsec, &w, &err), 0,
		     "%s", err.msg);
	cr_expect_leq(w, 100000, "one thread cannot wait more than the whole time: %llu", (unsigned long long)w);
}

/* A thread of process 4242 named comm (its comm file) in a fake /proc. */
static void thread_named(const char *dir, int tid, const char *comm)
{
	char path[256], cmd[300];

	snprintf(path, sizeof(path), "%s/4242/task/%d", dir, tid);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", path);
	cr_assert_eq(system(cmd), 0);
	strcat(path, "/comm");
	FILE *f = fopen(path, "w");
	cr_assert(f && fputs(comm, f) >= 0 && !fclose(f));
}

/* QEMU's vCPU threads by name ("CPU n/ACCEL", -name ...,debug-threads=on); without names, every thread. */
static void vcpu_threads_by_name_else_all(void)
{
	struct gtt_err err = { 0 };
	pid_t tids[4];
	unsigned n = 0;
	bool named = false;
	char dir[64], unnamed[64];

	t_tmpdir(dir, sizeof(dir));
	thread_named(dir, 100, "qemu-system-x86\n");
	thread_named(dir, 101, "CPU 0/TCG\n");
	thread_named(dir, 102, "IO mon_iothread\n");
	thread_named(dir, 103, "CPU 12/KVM\n");
	thread_named(dir, 104, "CPU x/KVM\n");	/* near misses: not vCPUs */
	thread_named(dir, 105, "CPU 1\n");
	cr_assert_eq(dom0_vcpu_threads(dir, 4242, tids, 4, &n, &named, &err), 0, "%s", err.msg);
	cr_expect(named);
	cr_assert_eq(n, 2);
	cr_expect((tids[0] == 101 && tids[1] == 103) || (tids[0] == 103 && tids[1] == 101), "%d %d", tids[0], tids[1]);
	cr_expect_eq(dom0_vcpu_threads(dir, 4242, tids, 1, &n, &named, &err), GTT_EINVAL, "two vCPUs, room for one");
	cr_expect(strstr(err.msg, "more than 1 vCPU threads"), "%s", err.msg);

	t_tmpdir(unnamed, sizeof(unnamed));
	thread_named(unnamed, 200, "qemu-system-x86\n");
	thread_named(unnamed, 201, "qemu-system-x86\n");
	cr_assert_eq(dom0_vcpu_threads(unnamed, 4242, tids, 4, &n, &named, &err), 0, "%s", err.msg);
	cr_expect(!named);
	cr_expect_eq(n, 2);
	cr_expect_eq(dom0_vcpu_threads(unnamed, 4242, tids, 1, &n, &named, &err), GTT_EINVAL, "two threads, room for one");
	cr_expect_eq(dom0_vcpu_threads(unnamed, 4343, tids, 4, &n, &named, &err), GTT_ENODEV, "no such process");
}

/* A peer of more threads than the look goes through is refused, not looked through at its pace. */
static void a_peer_of_too_many_threads_is_not_looked_through(void)
{
	struct gtt_err err = { 0 };
	pid_t tids[4];
	unsigned n = 0;
	bool named = false;
	char dir[64], path[160];

	t_tmpdir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/4242", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/4242/task", dir);
	cr_assert_eq(mkdir(path, 0700), 0);
	for (int t = 1; t <= DOM0_VCPU_SCAN_MAX + 1; t++) {
		snprintf(path, sizeof(path), "%s/4242/task/%d", dir, t);
		cr_assert_eq(mkdir(path, 0700), 0);
	}
	cr_expect_eq(dom0_vcpu_threads(dir, 4242, tids, 4, &n, &named, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "more than 1024 threads"), "%s", err.msg);
}

static _Atomic bool vcpu_stop;

static void *vcpu_idle(void *arg)
{
	(void)arg;
	while (!atomic_load(&vcpu_stop))
		pause_us(1000);
	return NULL;
}

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/*
 * A guest's meter: the peer of its socket (here this process, through a
 * socketpair) and, once a thread is named as QEMU names vCPUs, that thread
 * alone; until then all the process's threads.
 */
static void guest_meter_moves_to_the_vcpu_threads_once_named(void)
{
	struct dom0_guest_meter g;
	struct gtt_err err = { 0 };
	uint64_t w = 0;
	bool restarted = true;
	pthread_t t;
	int sv[2];

	cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	cr_assert_eq(dom0_guest_meter_start(&g, sv[0], mono_ns(), &err), 0, "%s", err.msg);
	cr_expect_eq(g.pid, getpid());
	cr_expect(!g.named && g.n >= 1, "named %d, %u threads", g.named, g.n);
	pause_us(2000);
	cr_assert_eq(dom0_guest_meter_sample(&g, mono_ns(), &w, &restarted, &err), 0, "%s", err.msg);
	cr_expect(!restarted, "nothing named a vCPU yet");
	atomic_store(&vcpu_stop, false);
	cr_assert_eq(pthread_create(&t, NULL, vcpu_idle, NULL), 0);
	cr_assert_eq(pthread_setname_np(t, "CPU 0/TCG"), 0);
	pause_us(2000);
	cr_assert_eq(dom0_guest_meter_sample(&g, mono_ns(), &w, &restarted, &err), 0, "%s", err.msg);
	cr_expect(restarted && g.named && g.n == 1, "restarted %d, named %d, %u threads", restarted, g.named, g.n);
	pause_us(2000);
	cr_assert_eq(dom0_guest_meter_sample(&g, mono_ns(), &w, &restarted, &err), 0, "%s", err.msg);
	cr_expect(!restarted, "named: it stays on its threads");
	atomic_store(&vcpu_stop, true);
	pthread_join(t, NULL);
	close(sv[0]);
	close(sv[1]);
}

/* ---- every test once: Criterion's wrappers and the TSan runner's table are both made from this list ---- */

#define SERVE_TESTS(X)                                                                             \
	X(dom0_serve, busy_wait_answers_and_never_sleeps, 60)                                      \
	X(dom0_serve, sleep_answers_after_a_wakeup_each_and_never_polls, 60)                       \
	X(dom0_serve, hybrid_polls_for_small_requests, 60)                                         \
	X(dom0_serve, hybrid_sleeps_for_large_requests, 60)                                        \
	X(dom0_serve, an_unknown_mode_is_refused, 0)                                               \
	X(dom0_serve, hostile_guests_on_threads_leave_pvinfo_consistent_and_the_device_as_found, 120) \
	X(dom0_steal, rate_is_the_sum_of_waiting_over_time, 0)                                     \
	X(dom0_steal, bad_files_and_counters_going_back_are_refused, 0)                            \
	X(dom0_steal, reads_this_kernels_schedstat, 0)                                             \
	X(dom0_steal, vcpu_threads_by_name_else_all, 0)                                            \
	X(dom0_steal, a_peer_of_too_many_threads_is_not_looked_through, 0)                         \
	X(dom0_steal, guest_meter_moves_to_the_vcpu_threads_once_named, 0)

#define SERVE_TABLE_ENTRY(suite, name, timeout) { #suite, #name, name, timeout },
const struct serve_test serve_tests[] = { SERVE_TESTS(SERVE_TABLE_ENTRY) };
const size_t serve_num_tests = sizeof(serve_tests) / sizeof(serve_tests[0]);

#ifndef GTTLAB_TSAN_RUNNER
#define SERVE_CRITERION_TEST(suite, name, timeout_s)                                               \
	Test(suite, name, .timeout = timeout_s)                                                    \
	{                                                                                          \
		name();                                                                            \
	}
SERVE_TESTS(SERVE_CRITERION_TEST)
#endif
