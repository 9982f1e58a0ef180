/* SPDX-License-Identifier: MIT */
/*
 * The hosted request service: dom0/host/serve.h says what the three modes
 * do. The doorbell and the sleep flag make a Dekker pair (sequentially
 * consistent atomics): the thread sets `sleeping` and then looks at the
 * doorbell once more; the trap rings the doorbell and then looks at
 * `sleeping`. At least one of them sees the other's store, so a request
 * never waits for a wake-up that nobody sends. A signal sent when the
 * thread did not sleep after all leaves a count in the eventfd: one
 * spurious wake-up later, nothing lost.
 */
#define _GNU_SOURCE
#include "dom0/host/serve.h"
#include "dom0/ops.h"
#include "dom0/pvinfo.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>

struct dom0_service {
	struct dom0_runtime *rt;
	struct dom0_service_opts o;
	pthread_mutex_t lock;		/* around every call into rt */
	pthread_t thread;
	int efd;
	atomic_uint doorbell;		/* requests rung by the trap */
	atomic_uint last_slots;		/* slots of the request rung last */
	atomic_bool sleeping;
	atomic_bool stop;
	atomic_uint_least64_t served, answered, wakeups, polls;
	int rc;				/* the thread's first error */
	struct gtt_err err;
};

const char *dom0_wait_mode_name(enum dom0_wait_mode m)
{
	return m == DOM0_WAIT_BUSY ? "busy" : m == DOM0_WAIT_SLEEP ? "sleep" : m == DOM0_WAIT_HYBRID ? "hybrid" : "?";
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("" ::: "memory");
#endif
}

static void signal_thread(struct dom0_service *s)
{
	uint64_t one = 1;

	/* eventfd's counter cannot overflow from here in practice; a failed write would only lose a wake-up the
	 * thread then finds by its own look at the doorbell after the next signal */
	while (write(s->efd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

/* The runtime's request hook: called inside dom0_pvinfo_write, under s->lock. */
static void ring(void *ctx, int id, unsigned code, unsigned count)
{
	struct dom0_service *s = ctx;

	(void)id;
	atomic_store(&s->last_slots, code == GTTLAB_GM_REQ_EVICTIONS ? 1u : count);
	atomic_fetch_add(&s->doorbell, 1);
	if (atomic_load(&s->sleeping))
		signal_thread(s);
}

static void sleep_on_eventfd(struct dom0_service *s)
{
	uint64_t v;

	while (read(s->efd, &v, sizeof(v)) < 0 && errno == EINTR)
		;
	atomic_fetch_add(&s->wakeups, 1);
}

/* Answer what is pending; false when the thread must stop on an error. */
static bool serve(struct dom0_service *s)
{
	unsigned n = 0;
	int rc;

	pthread_mutex_lock(&s->lock);
	rc = dom0_serve_requests(s->rt, &n, &s->err);
	pthread_mutex_unlock(&s->lock);
	if (rc) {
		s->rc = rc;
		return false;
	}
	if (n) {
		atomic_fetch_add(&s->served, 1);
		atomic_fetch_add(&s->answered, n);
	}
	return true;
}

static void *service_main(void *arg)
{
	struct dom0_service *s = arg;
	unsigned seen = 0;
	bool small = false;		/* the last request answered was small (hybrid) */
	uint64_t answered_at = 0;

	while (!atomic_load(&s->stop)) {
		unsigned rung = atomic_load(&s->doorbell);
		if (rung != seen) {
			if (!serve(s))
				break;
			seen = rung;
			small = atomic_load(&s->last_slots) <= s->o.hybrid_max_slots;
			answered_at = now_ns();
			continue;
		}
		bool poll = s->o.mode == DOM0_WAIT_BUSY ||
			    (s->o.mode == DOM0_WAIT_HYBRID && small && now_ns() - answered_at < s->o.spin_ns);
		if (poll) {
			atomic_fetch_add(&s->polls, 1);
			cpu_relax();
			continue;
		}
		atomic_store(&s->sleeping, true);
		if (atomic_load(&s->doorbell) == seen && !atomic_load(&s->stop))
			sleep_on_eventfd(s);
		atomic_store(&s->sleeping, false);
		small = false;	/* woken: poll again only after the next small answer */
	}
	return NULL;
}

int dom0_service_start(struct dom0_runtime *rt, const struct dom0_service_opts *o, struct dom0_service **out,
		       struct gtt_err *err)
{
	struct dom0_service *s;
	int rc;

	if (o->mode != DOM0_WAIT_BUSY && o->mode != DOM0_WAIT_SLEEP && o->mode != DOM0_WAIT_HYBRID)
		return gtt_err_set(err, GTT_EINVAL, "wait mode %d: busy, sleep or hybrid", (int)o->mode);
	if (!(s = calloc(1, sizeof(*s))))
		return gtt_err_set(err, GTT_ENOMEM, "no memory for the request service");
	s->rt = rt;
	s->o = *o;
	if (!s->o.hybrid_max_slots)
		s->o.hybrid_max_slots = 4;
	if (!s->o.spin_ns)
		s->o.spin_ns = 1000000;
	if ((s->efd = eventfd(0, EFD_CLOEXEC)) < 0) {
		rc = gtt_err_set(err, GTT_EIO, "eventfd: %s", strerror(errno));
		free(s);
		return rc;
	}
	/*
	 * Adaptive: a busy-waiting thread sees the doorbell while the trap still
	 * holds the lock (the hook runs inside it); a plain mutex would put it to
	 * sleep in the kernel for a wake-up's latency every time, and busy-wait
	 * would measure a sleep.
	 */
	pthread_mutexattr_t ma;
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_ADAPTIVE_NP);
	pthread_mutex_init(&s->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_mutex_lock(&s->lock);
	dom0_set_hooks(rt, &(struct dom0_hooks){ .request = ring, .ctx = s });
	pthread_mutex_unlock(&s->lock);
	if ((rc = pthread_create(&s->thread, NULL, service_main, s))) {
		dom0_set_hooks(rt, NULL);
		pthread_mutex_destroy(&s->lock);
		close(s->efd);
		free(s);
		return gtt_err_set(err, GTT_ENOMEM, "cannot start the service thread: %s", strerror(rc));
	}
	*out = s;
	return GTT_OK;
}

/*
 * The trap takes the lock spinning, as a vCPU in an MMIO exit waits for its
 * mediator: blocking in the kernel would add a wake-up's latency (tens of
 * microseconds in a VM) to every PVINFO access made while the service
 * answers, and the guest's polling of its status word would measure that.
 */
static void trap_lock(struct dom0_service *s)
{
	for (unsigned tries = 1; pthread_mutex_trylock(&s->lock); tries++)
		if (!(tries % 1024))
			sched_yield();
}

int dom0_service_guest_write(struct dom0_service *s, int id, uint32_t off, uint32_t val, struct gtt_err *err)
{
	trap_lock(s);
	int rc = dom0_pvinfo_write(s->rt, id, off, val, err);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int dom0_service_guest_read(struct dom0_service *s, int id, uint32_t off, uint32_t *val, struct gtt_err *err)
{
	trap_lock(s);
	int rc = dom0_pvinfo_read(s->rt, id, off, val, err);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int dom0_service_locked(struct dom0_service *s, int (*fn)(struct dom0_runtime *rt, void *ctx), void *ctx)
{
	pthread_mutex_lock(&s->lock);
	int rc = fn(s->rt, ctx);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

void dom0_service_stats(struct dom0_service *s, struct dom0_service_stats *st)
{
	clockid_t cid;
	struct timespec t = { 0 };

	*st = (struct dom0_service_stats){ .served = atomic_load(&s->served), .answered = atomic_load(&s->answered),
					   .wakeups = atomic_load(&s->wakeups), .polls = atomic_load(&s->polls),
					   .asleep = atomic_load(&s->sleeping) };
	if (!pthread_getcpuclockid(s->thread, &cid) && !clock_gettime(cid, &t))
		st->cpu_ns = (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int dom0_service_stop(struct dom0_service *s, struct dom0_service_stats *st, struct gtt_err *err)
{
	int rc;

	if (st)
		dom0_service_stats(s, st);	/* the CPU clock is gone once the thread is joined */
	atomic_store(&s->stop, true);
	signal_thread(s);
	pthread_join(s->thread, NULL);
	pthread_mutex_lock(&s->lock);
	dom0_set_hooks(s->rt, NULL);
	pthread_mutex_unlock(&s->lock);
	if (st) {
		uint64_t cpu = st->cpu_ns;	/* the rest as the joined thread left them */
		st->served = atomic_load(&s->served);
		st->answered = atomic_load(&s->answered);
		st->wakeups = atomic_load(&s->wakeups);
		st->polls = atomic_load(&s->polls);
		st->cpu_ns = cpu;
	}
	rc = s->rc;
	if (rc && err)
		*err = s->err;
	pthread_mutex_destroy(&s->lock);
	close(s->efd);
	free(s);
	return rc;
}
