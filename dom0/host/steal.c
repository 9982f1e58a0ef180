/* SPDX-License-Identifier: MIT */
/* W from the vCPU threads' schedstat (dom0/host/steal.h). */
#define _GNU_SOURCE
#include "dom0/host/steal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

/* One decimal field of at most 19 digits (no sign, no overflow); *p moves past it. */
static bool field(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;
	int d = 0;

	for (; *s >= '0' && *s <= '9'; s++, d++) {
		if (d == 19)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*v = x;
	return d > 0;
}

int dom0_schedstat_read(const char *path, struct dom0_schedstat *out, struct gtt_err *err)
{
	char buf[128];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return gtt_err_set(err, errno == ENOENT ? GTT_ENODEV : GTT_EIO, "%s: %s", path, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	int e = errno;
	close(fd);
	if (n < 0)
		return gtt_err_set(err, GTT_EIO, "%s: %s", path, strerror(e));
	buf[n] = 0;
	const char *p = buf;
	struct dom0_schedstat s;
	if (!field(&p, &s.run_ns) || *p++ != ' ' || !field(&p, &s.wait_ns) || *p++ != ' ' || !field(&p, &s.slices) ||
	    strcmp(p, "\n"))
		return gtt_err_set(err, GTT_EINVAL, "%s: not a schedstat line (three decimal numbers: run ns, wait ns, slices)",
				   path);
	*out = s;
	return GTT_OK;
}

int dom0_steal_meter_init(struct dom0_steal_meter *m, const char *proc_root, pid_t pid, const pid_t *tids, unsigned n,
			  uint64_t now_ns, struct gtt_err *err)
{
	int rc;

	if (!n || n > DOM0_STEAL_MAX_THREADS)
		return gtt_err_set(err, GTT_EINVAL, "%u vCPU threads: 1 to %d", n, DOM0_STEAL_MAX_THREADS);
	memset(m, 0, sizeof(*m));
	for (unsigned i = 0; i < n; i++) {
		int len = snprintf(m->path[i], sizeof(m->path[i]), "%s/%d/task/%d/schedstat", proc_root, (int)pid,
				   (int)tids[i]);
		if (len < 0 || (size_t)len >= sizeof(m->path[i]))
			return gtt_err_set(err, GTT_EINVAL, "proc root '%s' is too long (at most %zu bytes with the ids)",
					   proc_root, sizeof(m->path[i]) - 1);
		if ((rc = dom0_schedstat_read(m->path[i], &m->last[i], err)))
			return rc;
	}
	m->n = n;
	m->last_ns = now_ns;
	return GTT_OK;
}

int dom0_steal_meter_sample(struct dom0_steal_meter *m, uint64_t now_ns, uint64_t *w_mpct, struct gtt_err *err)
{
	struct dom0_schedstat now[DOM0_STEAL_MAX_THREADS];
	uint64_t waited = 0;
	int rc;

	if (now_ns <= m->last_ns)
		return gtt_err_set(err, GTT_EINVAL, "no time passed since the last sample (%llu ns, then %llu ns)",
				   (unsigned long long)now_ns, (unsigned long long)m->last_ns);
	for (unsigned i = 0; i < m->n; i++) {
		if ((rc = dom0_schedstat_read(m->path[i], &now[i], err)))
			return rc;
		if (now[i].wait_ns < m->last[i].wait_ns || now[i].run_ns < m->last[i].run_ns)
			return gtt_err_set(err, GTT_EINVAL, "%s went backwards (wait %llu ns, then %llu ns): the thread is gone",
					   m->path[i], (unsigned long long)m->last[i].wait_ns,
					   (unsigned long long)now[i].wait_ns);
		uint64_t d = now[i].wait_ns - m->last[i].wait_ns;
		waited = d > UINT64_MAX - waited ? UINT64_MAX : waited + d;
	}
	uint64_t t = now_ns - m->last_ns;
	/* waited / t x 100% in milli-percent: waited x 100000 / t, saturating */
	*w_mpct = waited > UINT64_MAX / 100000 ? UINT64_MAX / t : waited * 100000 / t;
	memcpy(m->last, now, sizeof(now[0]) * m->n);
	m->last_ns = now_ns;
	return GTT_OK;
}

/* Whether comm is QEMU's vCPU thread name, "CPU <n>/<accel>" (qemu_thread_create in the vCPU start functions). */
static bool vcpu_name(const char *comm)
{
	const char *p = comm;

	if (strncmp(p, "CPU ", 4))
		return false;
	p += 4;
	if (*p < '0' || *p > '9')
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '/' && p[1] && p[1] != '\n';
}

int dom0_vcpu_threads(const char *proc_root, pid_t pid, pid_t *tids, unsigned max, unsigned *n, bool *named,
		      struct gtt_err *err)
{
	pid_t all[DOM0_STEAL_MAX_THREADS * 4];
	unsigned n_all = 0, n_cpu = 0, seen = 0;
	char path[160], comm[32];
	struct dirent *e;

	snprintf(path, sizeof(path), "%s/%d/task", proc_root, (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return gtt_err_set(err, errno == ENOENT ? GTT_ENODEV : GTT_EIO, "%s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || *end || tid <= 0)
			continue;
		if (++seen > DOM0_VCPU_SCAN_MAX) {
			/* a peer decides how many threads it has: the look at them is bounded, not its cost */
			closedir(d);
			return gtt_err_set(err, GTT_EINVAL, "process %d has more than %d threads: not looked through",
					   (int)pid, DOM0_VCPU_SCAN_MAX);
		}
		if (n_all < sizeof(all) / sizeof(all[0]))
			all[n_all++] = (pid_t)tid;
		snprintf(path, sizeof(path), "%s/%d/task/%ld/comm", proc_root, (int)pid, tid);
		int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		ssize_t k = fd < 0 ? -1 : read(fd, comm, sizeof(comm) - 1);
		if (fd >= 0)
			close(fd);
		if (k <= 0)
			continue;	/* the thread left meanwhile */
		comm[k] = 0;
		if (vcpu_name(comm)) {
			if (n_cpu == max) {
				closedir(d);
				return gtt_err_set(err, GTT_EINVAL, "process %d has more than %u vCPU threads", (int)pid, max);
			}
			tids[n_cpu++] = (pid_t)tid;
		}
	}
	closedir(d);
	*named = n_cpu > 0;
	if (n_cpu) {
		*n = n_cpu;
		return GTT_OK;
	}
	if (!seen)
		return gtt_err_set(err, GTT_ENODEV, "process %d has no threads under %s", (int)pid, proc_root);
	if (seen > max || seen > n_all)
		return gtt_err_set(err, GTT_EINVAL, "process %d names no vCPU thread and has %u threads: at most %u metered",
				   (int)pid, seen, max);
	memcpy(tids, all, n_all * sizeof(all[0]));
	*n = n_all;
	return GTT_OK;
}

/* The peer of sock and its vCPU threads, metered from now_ns. */
static int meter_peer(struct dom0_guest_meter *g, int sock, uint64_t now_ns, struct gtt_err *err)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	pid_t tids[DOM0_STEAL_MAX_THREADS];
	int rc;

	if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) || len != sizeof(cred) || cred.pid <= 0)
		return gtt_err_set(err, GTT_EIO, "the socket names no peer process: %s", strerror(errno));
	if ((rc = dom0_vcpu_threads("/proc", cred.pid, tids, DOM0_STEAL_MAX_THREADS, &g->n, &g->named, err)))
		return rc;
	g->sock = sock;
	g->pid = cred.pid;
	return dom0_steal_meter_init(&g->m, "/proc", cred.pid, tids, g->n, now_ns, err);
}

int dom0_guest_meter_start(struct dom0_guest_meter *g, int sock, uint64_t now_ns, struct gtt_err *err)
{
	memset(g, 0, sizeof(*g));
	return meter_peer(g, sock, now_ns, err);
}

int dom0_guest_meter_sample(struct dom0_guest_meter *g, uint64_t now_ns, uint64_t *w_mpct, bool *restarted,
			    struct gtt_err *err)
{
	int rc = dom0_steal_meter_sample(&g->m, now_ns, w_mpct, err);

	*restarted = false;
	if (rc || g->named)
		return rc;
	struct dom0_guest_meter again;
	if (!meter_peer(&again, g->sock, now_ns, err) && again.named) {
		*g = again;
		*restarted = true;
	}
	return GTT_OK;	/* not named yet (or the look failed): the old threads go on */
}
