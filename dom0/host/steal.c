/* SPDX-License-Identifier: MIT */
/* W from the vCPU threads' schedstat (dom0/host/steal.h). */
#define _GNU_SOURCE
#include "dom0/host/steal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
