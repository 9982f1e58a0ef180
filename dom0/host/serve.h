/* SPDX-License-Identifier: MIT */
/*
 * The hosted request service (Linux): one host thread that answers the
 * guests' graphics-memory requests over PVINFO (docs/dom0.md, "The request
 * channel"), waiting for them in one of VGVM's three ways (§4.1, Table 1):
 *
 *   busy    polls the doorbell the trap rings: the fastest answer, a whole
 *           CPU spent waiting;
 *   sleep   blocks on an eventfd the trap signals: the CPU is free, every
 *           answer pays a wake-up;
 *   hybrid  polls for small requests, sleeps for large ones: after
 *           answering a request of at most hybrid_max_slots slots it keeps
 *           polling for spin_ns (the next small one is answered at busy-wait
 *           speed), after a larger one (whose own work dwarfs a wake-up), or
 *           once spin_ns has passed, it sleeps.
 *
 * The runtime is not thread-safe; while a service runs, every call into it
 * goes through the service: the guest's PVINFO accesses (the trap) and
 * anything else under dom0_service_locked.
 */
#ifndef DOM0_HOST_SERVE_H
#define DOM0_HOST_SERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "dom0/dom0.h"

enum dom0_wait_mode { DOM0_WAIT_BUSY, DOM0_WAIT_SLEEP, DOM0_WAIT_HYBRID };

struct dom0_service_opts {
	enum dom0_wait_mode mode;
	unsigned hybrid_max_slots;	/* hybrid: requests of up to this many slots are polled for; 0: 4 */
	uint64_t spin_ns;		/* hybrid: polling after a small answer; 0: 1 ms */
};

struct dom0_service_stats {
	uint64_t served;		/* rounds of dom0_serve_requests with something to answer */
	uint64_t answered;		/* requests answered */
	uint64_t wakeups;		/* returns from the eventfd */
	uint64_t polls;			/* empty looks at the doorbell */
	uint64_t cpu_ns;		/* the service thread's CPU time so far */
	bool asleep;			/* the thread is blocked on the eventfd (or about to be) */
};

struct dom0_service;

/* Install the doorbell hook on rt and start the thread. */
int dom0_service_start(struct dom0_runtime *rt, const struct dom0_service_opts *o, struct dom0_service **out,
		       struct gtt_err *err);
/* The guest's 32-bit write to its PVINFO page (the trap), from any thread. */
int dom0_service_guest_write(struct dom0_service *s, int id, uint32_t off, uint32_t val, struct gtt_err *err);
/* The guest's 32-bit read of its PVINFO page, from any thread. */
int dom0_service_guest_read(struct dom0_service *s, int id, uint32_t off, uint32_t *val, struct gtt_err *err);
/* Run fn on the runtime under the service's lock; returns what fn returns. */
int dom0_service_locked(struct dom0_service *s, int (*fn)(struct dom0_runtime *rt, void *ctx), void *ctx);
/* The counters so far (cpu_ns read from the thread's CPU clock). */
void dom0_service_stats(struct dom0_service *s, struct dom0_service_stats *st);
/*
 * Stop and join the thread, take the hook off the runtime, free the
 * service. Returns the first error the thread met answering (also in err),
 * else 0; st (if given) gets the final counters.
 */
int dom0_service_stop(struct dom0_service *s, struct dom0_service_stats *st, struct gtt_err *err);

const char *dom0_wait_mode_name(enum dom0_wait_mode m);

#endif
