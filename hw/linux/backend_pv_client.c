/* SPDX-License-Identifier: MIT */
/* "pv:SOCKET": the transport as an ivshmem client process (hw/linux/backend_pv_client.h). */
#define _GNU_SOURCE
#include "hw/linux/backend_pv_client.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "hw/backend_pv.h"
#include "regs/pv_transport.h"

struct client {
	int sock, shm_fd, host_efd, own_efd;
	uint8_t *shm;
	size_t size;
	const struct hw_backend_ops *pv_ops;	/* the transport over it */
	struct hw_backend_ops ops;		/* its table with this client's close */
	void *pv;
	char where[136];
};

/* One message of the server: 8 bytes little endian, and an fd or -1. */
static int recv_msg(int sock, int64_t *v, int *fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	uint8_t b[8];
	struct iovec io = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cm.buf, .msg_controllen = sizeof(cm.buf) };
	ssize_t r;

	do
		r = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof(b))
		return -1;
	*fd = -1;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(h), sizeof(int));
	uint64_t u = 0;
	for (unsigned i = 0; i < 8; i++)
		u |= (uint64_t)b[i] << (8 * i);
	*v = (int64_t)u;
	return 0;
}

static void ring(void *ctx, uint32_t value)
{
	struct client *c = ctx;
	uint64_t one = 1;

	/* as QEMU does for a Doorbell write: the peer's eventfd for that vector; the host is peer 0 */
	if (value >> 16 == 0 && (value & 0xffff) == PV_VECTOR && write(c->host_efd, &one, sizeof(one)) < 0) {
		/* a full counter is still rung */
	}
}

/* Asleep until the host rings this client's vector (its eventfd), or the timeout; the count taken. */
static void sleep_on_vector(void *ctx, uint64_t timeout_ns)
{
	struct client *c = ctx;
	struct pollfd p = { .fd = c->own_efd, .events = POLLIN };
	uint64_t v;

	if (poll(&p, 1, (int)(timeout_ns / 1000000 ? timeout_ns / 1000000 : 1)) > 0 && read(c->own_efd, &v, sizeof(v)) < 0) {
		/* taken by an earlier look, or nothing: the mailbox says */
	}
}

static void pause_a_little(void *ctx)
{
	struct timespec t = { 0, 10000 };

	(void)ctx;
	nanosleep(&t, NULL);
}

static void c_free(struct client *c)
{
	if (c->pv)
		c->pv_ops->close(c->pv);
	if (c->shm)
		munmap(c->shm, c->size);
	int fds[] = { c->sock, c->shm_fd, c->host_efd, c->own_efd };
	for (unsigned i = 0; i < 4; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(c);
}

/*
 * The setup as ivshmem_recv_setup takes it: version, ID, then messages until
 * the memory, then the vectors. Every read waits at most timeout_ms: a server
 * that accepts and never speaks is a device error naming the socket.
 */
static int setup(struct client *c, const char *path, uint64_t timeout_ms, uint32_t *id, struct gtt_err *err)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timeval tv = { (time_t)(timeout_ms / 1000), (suseconds_t)(timeout_ms % 1000 * 1000) };
	int64_t v;
	int fd;

	if (strlen(path) >= sizeof(a.sun_path))
		return gtt_err_set(err, GTT_EINVAL, "pv:%s: a socket path is at most %zu bytes", path, sizeof(a.sun_path) - 1);
	strcpy(a.sun_path, path);
	if ((c->sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0 ||
	    setsockopt(c->sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0 ||
	    connect(c->sock, (struct sockaddr *)&a, sizeof(a)) < 0)
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: cannot connect: %s (is `gttlab dom0 serve` running?)", path,
				   strerror(errno));
	if (recv_msg(c->sock, &v, &fd))
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server %s within %llu ms of the connect", path,
				   errno == EAGAIN || errno == EWOULDBLOCK ? "sent nothing" : "hung up",
				   (unsigned long long)timeout_ms);
	if (v != IVSHMEM_PROTOCOL_VERSION || fd >= 0)
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server's first message is not protocol version 0", path);
	if (recv_msg(c->sock, &v, &fd))
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server sent no ID within %llu ms", path,
				   (unsigned long long)timeout_ms);
	if (v == -1 && fd < 0)
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server refused this connection (its slot holds a guest already, or is out of service)",
				   path);
	if (v < 0 || v > 65535 || fd >= 0)
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server's second message is not an ID", path);
	*id = (uint32_t)v;
	for (;;) {
		if (recv_msg(c->sock, &v, &fd))
			return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server hung up or went silent (%llu ms) during the setup", path,
					   (unsigned long long)timeout_ms);
		if (v == -1 && fd >= 0) {
			c->shm_fd = fd;
			break;
		}
		if (v == 0 && fd >= 0 && c->host_efd < 0)
			c->host_efd = fd;
		else if (fd >= 0)
			close(fd);
	}
	/* the host's connect notice and this client's own vector follow the memory (the reference server's order) */
	while (c->host_efd < 0 || c->own_efd < 0) {
		if (recv_msg(c->sock, &v, &fd) || fd < 0)
			return gtt_err_set(err, GTT_ENODEV, "pv:%s: the server sent no eventfd for %s", path,
					   c->host_efd < 0 ? "the host (peer 0)" : "this client's vector");
		if (v == 0 && c->host_efd < 0)
			c->host_efd = fd;
		else if (v == *id && c->own_efd < 0)
			c->own_efd = fd;
		else
			close(fd);
	}
	struct stat st;
	if (fstat(c->shm_fd, &st) || st.st_size <= 0)
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: the shared memory has no size", path);
	c->size = (size_t)st.st_size;
	if ((c->shm = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm_fd, 0)) == MAP_FAILED) {
		c->shm = NULL;
		return gtt_err_set(err, GTT_ENODEV, "pv:%s: mapping %zu bytes: %s", path, c->size, strerror(errno));
	}
	return GTT_OK;
}

/* Every operation is the transport's; close also hangs up (the host reclaims the vGPU). */
static void x_close(void *ctx)
{
	c_free(hw_pv_link_ctx(ctx));
}

/* wait=, timeout=: what the grammar (hw/device_spec.h) gathered, judged here */
static int client_options(const struct hw_device_spec *spec, enum hw_pv_wait *wait, uint64_t *timeout_ms, struct gtt_err *err)
{
	static const char *const keys[] = { "wait", "timeout", NULL };
	static const char rule[] = "wait=poll, wait=pause, wait=sleep or timeout=MS (1 to 3600000)";
	const char *w = hw_spec_opt(spec, "wait"), *t = hw_spec_opt(spec, "timeout");
	char *e;
	int rc;

	if ((rc = hw_spec_opts_only(spec, keys, rule, err)))
		return rc;
	if (w && !strcmp(w, "pause"))
		*wait = HW_PV_PAUSE;
	else if (w && !strcmp(w, "sleep"))
		*wait = HW_PV_SLEEP;
	else if (w && strcmp(w, "poll"))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': wait=%s: %s", spec->text, w, rule);
	if (t && (*t < '0' || *t > '9' || (*timeout_ms = strtoull(t, &e, 10)) < 1 || *timeout_ms > 3600000 || *e))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': timeout=%s: %s", spec->text, t, rule);
	return GTT_OK;
}

static int client_open(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		       const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	struct client *c;
	char path[128];
	enum hw_pv_wait wait = HW_PV_POLL;
	uint64_t timeout_ms = 0;
	uint32_t id = 0;
	int rc;

	(void)opts;
	size_t n = strlen(spec->target);
	if (!n || n >= sizeof(path))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': name the socket, pv:SOCKET[,wait=poll|pause|sleep][,timeout=MS] (at most %zu bytes)",
				   spec->text, sizeof(path) - 1);
	memcpy(path, spec->target, n + 1);
	if ((rc = client_options(spec, &wait, &timeout_ms, err)))
		return rc;
	if (!(c = calloc(1, sizeof(*c))))
		return gtt_err_set(err, GTT_ENOMEM, "pv: out of memory");
	c->sock = c->shm_fd = c->host_efd = c->own_efd = -1;
	snprintf(c->where, sizeof(c->where), "%s", path);
	if ((rc = setup(c, path, timeout_ms ? timeout_ms : 10000, &id, err))) {
		c_free(c);
		return rc;
	}
	struct hw_pv_link l = { .shm = c->shm, .shm_size = c->size, .id = id, .ring = ring, .pause = pause_a_little,
				.sleep = sleep_on_vector,
				.wait = wait, .timeout_ns = timeout_ms * 1000000, .ctx = c, .where = c->where };
	if ((rc = hw_pv_open(env, &l, &c->pv_ops, &c->pv, err))) {
		c_free(c);
		return rc;
	}
	/* the transport's table with this client's close (which also closes the transport) */
	c->ops = *c->pv_ops;
	c->ops.close = x_close;
	*ops = &c->ops;
	*ctx = c->pv;
	return GTT_OK;
}

const struct hw_backend_factory hw_pv_client_backend = {
	.scheme = "pv",
	.usage = "pv:SOCKET[,wait=poll|pause|sleep][,timeout=MS]",
	.open = client_open,
};
