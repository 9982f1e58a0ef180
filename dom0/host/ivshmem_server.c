/* SPDX-License-Identifier: MIT */
/* The server side of QEMU's ivshmem protocol (dom0/host/ivshmem_server.h). */
#define _GNU_SOURCE
#include "dom0/host/ivshmem_server.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "regs/pv_transport.h"

struct ivs_client {
	int sock, efd;			/* -1 when the ID is free */
};

struct ivs_server {
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int listen, shm_fd, doorbell;
	uint8_t *shm;
	size_t size;
	unsigned max;
	struct ivs_client c[IVS_MAX_CLIENTS + 1];	/* [0] is the server's own */
};

static int fail(char *err, size_t n, const char *what, const char *arg)
{
	snprintf(err, n, "ivshmem server: %s %s: %s", what, arg, strerror(errno));
	return -1;
}

/* One message: 8 bytes little endian, with fd (-1: none) as SCM_RIGHTS. */
static int send_msg(int sock, int64_t v, int fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	uint8_t b[8];
	struct iovec io = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1 };

	for (unsigned i = 0; i < 8; i++)
		b[i] = (uint8_t)((uint64_t)v >> (8 * i));
	if (fd >= 0) {
		memset(&cm, 0, sizeof(cm));
		m.msg_control = cm.buf;
		m.msg_controllen = sizeof(cm.buf);
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(h), &fd, sizeof(int));
	}
	ssize_t r;
	do
		r = sendmsg(sock, &m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
	return r == (ssize_t)sizeof(b) ? 0 : -1;
}

/* A socket file nobody listens on is stale: connecting to it is refused. */
static bool stale(const struct sockaddr_un *a)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool dead = s >= 0 && connect(s, (const struct sockaddr *)a, sizeof(*a)) < 0 && errno == ECONNREFUSED;

	if (s >= 0)
		close(s);
	return dead;
}

int ivs_open(const char *path, size_t size, unsigned max, struct ivs_server **out, char *err, size_t n)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct ivs_server *s;

	if (strlen(path) >= sizeof(a.sun_path)) {
		snprintf(err, n, "ivshmem server: socket path '%s' is longer than %zu bytes", path, sizeof(a.sun_path) - 1);
		return -1;
	}
	if (!max || max > IVS_MAX_CLIENTS) {
		snprintf(err, n, "ivshmem server: %u clients: 1 to %u", max, IVS_MAX_CLIENTS);
		return -1;
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		snprintf(err, n, "ivshmem server: out of memory");
		return -1;
	}
	snprintf(s->path, sizeof(s->path), "%s", path);
	strcpy(a.sun_path, path);
	s->listen = s->shm_fd = s->doorbell = -1;
	s->size = size;
	s->max = max;
	for (unsigned i = 0; i <= IVS_MAX_CLIENTS; i++)
		s->c[i].sock = s->c[i].efd = -1;
	if ((s->shm_fd = memfd_create("gttlab-pv", MFD_CLOEXEC)) < 0 || ftruncate(s->shm_fd, (off_t)size) < 0) {
		fail(err, n, "shared memory of", "the transport");
		goto out;
	}
	if ((s->shm = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm_fd, 0)) == MAP_FAILED) {
		s->shm = NULL;
		fail(err, n, "mapping", "the shared memory");
		goto out;
	}
	if ((s->doorbell = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0) {
		fail(err, n, "eventfd for", "the doorbell");
		goto out;
	}
	s->c[0].efd = s->doorbell;
	if ((s->listen = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)) < 0) {
		fail(err, n, "socket", path);
		goto out;
	}
	if (bind(s->listen, (struct sockaddr *)&a, sizeof(a)) < 0) {
		struct stat st;
		if (errno != EADDRINUSE || lstat(path, &st) || !S_ISSOCK(st.st_mode)) {
			fail(err, n, "binding", path);
			goto out;
		}
		if (!stale(&a)) {
			snprintf(err, n, "ivshmem server: %s: a server listens there already", path);
			goto out;
		}
		/* a socket file a dead server left: ours to replace */
		if (unlink(path) || bind(s->listen, (struct sockaddr *)&a, sizeof(a)) < 0) {
			fail(err, n, "binding", path);
			goto out;
		}
	}
	if (listen(s->listen, 8) < 0) {
		fail(err, n, "listening on", path);
		goto out;
	}
	*out = s;
	return 0;
out:
	s->path[0] = '\0';	/* not ours to remove */
	ivs_close(s);
	return -1;
}

uint8_t *ivs_shm(struct ivs_server *s)
{
	return s->shm;
}

int ivs_listen_fd(const struct ivs_server *s)
{
	return s->listen;
}

int ivs_doorbell_fd(const struct ivs_server *s)
{
	return s->doorbell;
}

uint64_t ivs_doorbell_take(struct ivs_server *s)
{
	uint64_t v = 0;

	if (read(s->doorbell, &v, sizeof(v)) != (ssize_t)sizeof(v))
		return 0;
	return v;
}

int ivs_accept(struct ivs_server *s, unsigned *id, int *fd, char *err, size_t n)
{
	int c = accept4(s->listen, NULL, NULL, SOCK_CLOEXEC);
	unsigned k = 1;

	if (c < 0)
		return fail(err, n, "accepting on", s->path);
	while (k <= s->max && s->c[k].sock >= 0)
		k++;
	if (k > s->max) {
		close(c);
		snprintf(err, n, "ivshmem server: a client came and all %u IDs are taken: refused", s->max);
		return -1;
	}
	int e = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (e < 0) {
		close(c);
		return fail(err, n, "eventfd for", "a client");
	}
	/* version, its ID, the memory, the server as peer 0, its own vector */
	if (send_msg(c, IVSHMEM_PROTOCOL_VERSION, -1) || send_msg(c, k, -1) || send_msg(c, -1, s->shm_fd) ||
	    send_msg(c, 0, s->doorbell) || send_msg(c, k, e)) {
		fail(err, n, "sending the setup to client", "");
		close(c);
		close(e);
		return -1;
	}
	s->c[k].sock = c;
	s->c[k].efd = e;
	*id = k;
	*fd = c;
	return 0;
}

int ivs_client_gone(struct ivs_server *s, unsigned id)
{
	char b[64];
	ssize_t r;

	if (!id || id > s->max || s->c[id].sock < 0)
		return 1;
	/* clients send nothing; anything read is discarded, end of file is the end */
	while ((r = recv(s->c[id].sock, b, sizeof(b), MSG_DONTWAIT)) > 0)
		;
	return r == 0 || (r < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

void ivs_drop(struct ivs_server *s, unsigned id)
{
	if (!id || id > s->max)
		return;
	if (s->c[id].sock >= 0)
		close(s->c[id].sock);
	if (s->c[id].efd >= 0)
		close(s->c[id].efd);
	s->c[id].sock = s->c[id].efd = -1;
}

void ivs_ring(struct ivs_server *s, unsigned id)
{
	uint64_t one = 1;

	if (id && id <= s->max && s->c[id].efd >= 0 && write(s->c[id].efd, &one, sizeof(one)) < 0) {
		/* a full counter is still rung */
	}
}

void ivs_close(struct ivs_server *s)
{
	if (!s)
		return;
	for (unsigned k = 1; k <= IVS_MAX_CLIENTS; k++)
		ivs_drop(s, k);
	if (s->listen >= 0)
		close(s->listen);
	if (s->path[0])
		unlink(s->path);
	if (s->doorbell >= 0)
		close(s->doorbell);
	if (s->shm)
		munmap(s->shm, s->size);
	if (s->shm_fd >= 0)
		close(s->shm_fd);
	free(s);
}
