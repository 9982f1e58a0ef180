/* SPDX-License-Identifier: MIT */
/*
 * W of gBalloon's eq. 2 on a Linux host: the steal rate of a VM's vCPU
 * threads from the scheduler's own accounting. /proc/PID/task/TID/schedstat
 * holds three numbers: time on the CPU (ns), time runnable but waiting on a
 * run queue (ns), and timeslices run. A vCPU thread's waiting time is the
 * time its guest was ready to run and did not: the steal the guest sees.
 * Over an interval t, a thread's rate is its waiting time / t; W of the VM is
 * the sum over its vCPUs (two vCPUs waiting all the time: 200%), in the
 * milli-percent of dom0_policy_steal.
 */
#ifndef DOM0_HOST_STEAL_H
#define DOM0_HOST_STEAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "env/err.h"

#define DOM0_STEAL_MAX_THREADS 64
#define DOM0_VCPU_SCAN_MAX	1024	/* threads of a peer looked through for its vCPUs, at most */

struct dom0_schedstat {
	uint64_t run_ns, wait_ns, slices;
};

/* Read and check one schedstat file ("RUN WAIT SLICES\n", decimal). */
int dom0_schedstat_read(const char *path, struct dom0_schedstat *out, struct gtt_err *err);

struct dom0_steal_meter {
	unsigned n;
	char path[DOM0_STEAL_MAX_THREADS][96];
	struct dom0_schedstat last[DOM0_STEAL_MAX_THREADS];
	uint64_t last_ns;
};

/*
 * Meter the threads tids[0..n) of process pid under proc_root (normally
 * "/proc"), taking the first sample at now_ns (CLOCK_MONOTONIC).
 */
int dom0_steal_meter_init(struct dom0_steal_meter *m, const char *proc_root, pid_t pid, const pid_t *tids, unsigned n,
			  uint64_t now_ns, struct gtt_err *err);
/*
 * The vCPU threads of QEMU process pid under proc_root: the threads whose
 * name (task/TID/comm) is QEMU's "CPU <n>/<accel>", which QEMU gives only
 * with -name ...,debug-threads=on. Without such names every thread of the
 * process is taken (*named false): its I/O threads wait little, and a vCPU
 * missed would be W lost. At most max; more is an error naming the count,
 * and so is a process of more than DOM0_VCPU_SCAN_MAX threads (the peer
 * chooses how many: the look is bounded) or with no task directory
 * (GTT_ENODEV).
 */
int dom0_vcpu_threads(const char *proc_root, pid_t pid, pid_t *tids, unsigned max, unsigned *n, bool *named,
		      struct gtt_err *err);
/*
 * W of one QEMU guest: the vCPU threads (dom0_vcpu_threads, under /proc) of
 * the process at the other end of its unix socket (SO_PEERCRED). QEMU
 * connects its ivshmem chardev before it makes its vCPU threads, so until
 * named ones are found they are looked for again at every sample.
 */
struct dom0_guest_meter {
	struct dom0_steal_meter m;
	int sock;
	pid_t pid;		/* the peer */
	unsigned n;		/* threads metered */
	bool named;		/* they are QEMU's named vCPU threads (else all the process's) */
};

/* Start metering the process at the other end of sock. */
int dom0_guest_meter_start(struct dom0_guest_meter *g, int sock, uint64_t now_ns, struct gtt_err *err);
/*
 * W since the last sample (dom0_steal_meter_sample). When the vCPU threads
 * are named only now, the meter starts again on them: *restarted, and W is
 * the old threads' up to now.
 */
int dom0_guest_meter_sample(struct dom0_guest_meter *g, uint64_t now_ns, uint64_t *w_mpct, bool *restarted,
			    struct gtt_err *err);
/*
 * W since the last sample, in milli-percent: the sum over the threads of
 * their waiting time grown since then, over the time passed (now_ns - the
 * last sample). A counter that went backwards (a thread gone and its id
 * reused) or no time passed is an error; the sample is then not taken.
 */
int dom0_steal_meter_sample(struct dom0_steal_meter *m, uint64_t now_ns, uint64_t *w_mpct, struct gtt_err *err);

#endif
