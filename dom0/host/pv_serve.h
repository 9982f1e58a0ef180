/* SPDX-License-Identifier: MIT */
/*
 * `gttlab dom0 serve` (docs/transport.md): one Dom0 runtime on a model,
 * serving a vGPU to each guest that connects over QEMU's ivshmem-doorbell.
 * Guest slot k listens on DIR/vgpuK.sock with shared memory of its own (the
 * header, its mailbox, its memory: regs/pv_transport.h), so no guest maps
 * another's; a fresh, sealed object for every guest that connects, the last
 * one's unmapped and let go by the device when it leaves, so a departed guest
 * that kept its mapping shares nothing with the next. A guest that connects
 * gets a vGPU (dom0_guest_view_open) on that memory and a stamp key of its
 * own; its requests go to that vGPU's traps, in one thread, one bounded step
 * of each pending guest's request per round (dom0/host/pv_answer.h); the
 * scheduler switches among the guests' vGPUs every switch_every requests. A
 * guest that goes away (its socket hangs up: QEMU exited or was killed),
 * breaks the ivshmem protocol (sends bytes), or makes no request within
 * setup_timeout_ms of connecting has its vGPU reclaimed; the slot takes the
 * next guest. A second connection to a slot that holds a guest is refused.
 * Everything a guest reads is searched for another guest's stamp: a leak is
 * counted and said, a forged stamp counted apart.
 *
 * With policy_cpus, gBalloon's policy (dom0/policy.h) runs every 500 ms of
 * the wall clock on measured inputs: R_copy from the switches' timed copies,
 * and each guest's W from its QEMU's vCPU threads (the connecting process,
 * SO_PEERCRED; its threads named "CPU n/..." with -name ...,debug-threads=on,
 * else all its threads), read by dom0/host/steal.h's schedstat meter. A guest
 * whose W cannot be metered is said and counted: the policy reads its W as 0.
 */
#ifndef DOM0_HOST_PV_SERVE_H
#define DOM0_HOST_PV_SERVE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dom0/host/serve.h"
#include "hw/handle.h"

#define PV_SERVE_MAX_GUESTS	16

struct pv_serve_opts {
	const char *dir;		/* the sockets: DIR/vgpu1.sock .. DIR/vgpuN.sock */
	unsigned guests;		/* slots, 1 to PV_SERVE_MAX_GUESTS */
	unsigned mem_pages;		/* each guest's memory */
	uint64_t low_size;		/* each guest's vGPU: aperture slice */
	unsigned high_slots, fences;
	enum dom0_wait_mode wait;	/* busy: poll; sleep: block on the doorbells; hybrid: poll spin_ns after an answer */
	uint64_t spin_ns;
	unsigned switch_every;		/* requests between scheduler quanta; 0 never */
	unsigned migrate;		/* a guest's EPOCH reads between host moves of its high range; 0 never */
	unsigned exit_after;		/* return once this many guests came and went; 0 never */
	uint64_t setup_timeout_ms;	/* a guest that makes no request this long after it connects is dropped; 0: 120 s */
	unsigned policy_cpus;		/* gBalloon's policy every 500 ms of the wall clock, N of eq. 1 this; 0 off */
	bool grouped;			/* the directory and sockets are the group's too (0770, 0660); else 0700, 0600 */
	gid_t group;			/* ...that group */
	volatile sig_atomic_t *stop;	/* set (by a signal handler): return */
#ifdef GTTLAB_FAULTS
	const struct dom0_faults *faults;	/* deliberate mediator bugs (the test build: the leak oracle shown to bite); NULL none */
#endif
	void (*say)(void *ctx, const char *line);	/* progress, one line each */
	void *ctx;
};

struct pv_serve_stats {
	uint64_t requests, rejected;	/* answered; of them refused as malformed */
	uint64_t connects, reclaims;
	uint64_t quanta;		/* scheduler quanta run */
	uint64_t own_stamps, foreign_stamps;	/* stamps found in what guests read: theirs, another's */
	uint64_t forged_stamps;		/* stamps naming another guest whose keyed tag did not verify */
	uint64_t refused;		/* connections turned away: their slot held a guest */
	uint64_t dropped;		/* guests dropped: no request in time, or bytes on their socket */
	uint64_t sleeps;		/* waits on the doorbells */
	uint64_t policy_periods;	/* the policy's periods ticked (--policy) */
	uint64_t unmetered;		/* guests whose W could not be metered (their W reads 0 to the policy: said) */
	uint64_t w_peak_mpct;		/* the largest W one guest's threads were metered at in a period (milli-percent) */
};

/*
 * Serve until stopped or exit_after guests have gone; the runtime is
 * stopped and the model restored before it returns. GTT_OK, an error
 * setting up (the sockets, the model, the runtime), or GTT_EIO when the
 * runtime's restore did not read back.
 */
int pv_serve(const struct gtt_env *env, struct hw_device *host, const struct pv_serve_opts *o,
	     struct pv_serve_stats *st, struct gtt_err *err);

#endif
