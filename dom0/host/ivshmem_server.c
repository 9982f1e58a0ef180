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
	uint64_t shm_made;		/* objects made so far: each gets a name of its own */
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

/*
 * A fresh shared-memory object of s->size bytes, zeroed, sealed against
 * shrink and grow (and further seals), mapped: what a client can do to its
 * size it cannot do, so no access of the server's mapping can fault.
 */
static int make_shm(struct ivs_server *s, int *fd, uint8_t **map, char *err, size_t n)
{
	char name[40];

	snprintf(name, sizeof(name), "gttlab-pv-%llu", (unsigned long long)++s->shm_made);
	*map = NULL;
	if ((*fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING)) < 0 || ftruncate(*fd, (off_t)s->size) < 0 ||
	    fcntl(*fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) < 0) {
		fail(err, n, "sealed shared memory for", "the transport");
		goto out;
	}
	if ((*map = mmap(NULL, s->size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0)) == MAP_FAILED) {
		*map = NULL;
		fail(err, n, "mapping", "the shared memory");
		goto out;
	}
	return 0;
out:
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return -1;
}

int ivs_renew_shm(struct ivs_server *s, char *err, size_t n)
{
	int fd;
	uint8_t *map;

	if (make_shm(s, &fd, &map, err, n))
		return -1;
	munmap(s->shm, s->size);
	close(s->shm_fd);
	s->shm = map;
	s->shm_fd = fd;
	return 0;
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

int ivs_open(const char *path, size_t size, unsigned max, unsigned mode, gid_t gid, struct ivs_server **out, char *err,
	     size_t n)
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
	if (make_shm(s, &s->shm_fd, &s->shm, err, n))
		goto out;
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
		if (st.st_uid != geteuid()) {
			snprintf(err, n, "ivshmem server: %s is a socket of user %u, not this one's (%u): refused, it is not ours to replace",
				 path, (unsigned)st.st_uid, (unsigned)geteuid());
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
	/* who may connect is the file's mode, not the umask: the owner, and the group when one is named */
	if (chmod(path, mode) < 0 || (gid != (gid_t)-1 && chown(path, (uid_t)-1, gid) < 0)) {
		fail(err, n, "setting the mode of", path);
		unlink(path);
		goto out;
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
	/* non-blocking: the setup is five small messages, and nothing a client does may stall the server */
	int c = accept4(s->listen, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
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

void ivs_refuse(struct ivs_server *s, uid_t *uid)
{
	int c = accept4(s->listen, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	struct ucred cr;
	socklen_t len = sizeof(cr);

	*uid = (uid_t)-1;
	if (c < 0)
		return;
	if (!getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cr, &len))
		*uid = cr.uid;
	send_msg(c, IVSHMEM_PROTOCOL_VERSION, -1);
	send_msg(c, IVS_REFUSED_ID, -1);
	close(c);
}

enum ivs_client_state ivs_client_state(struct ivs_server *s, unsigned id)
{
	char b[64];
	ssize_t r;

	if (!id || id > s->max || s->c[id].sock < 0)
		return IVS_CLIENT_GONE;
	/* one read a call: a client that streams bytes costs the server one 64-byte read, then it is dropped */
	r = recv(s->c[id].sock, b, sizeof(b), MSG_DONTWAIT);
	if (r > 0)
		return IVS_CLIENT_SPOKE;
	if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
		return IVS_CLIENT_GONE;
	return IVS_CLIENT_HERE;
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
