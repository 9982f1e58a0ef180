/* SPDX-License-Identifier: MIT */
/*
 * pv_attack SOCKET MODE [MS]: a hostile guest of `gttlab dom0 serve`, an
 * ivshmem client written from the transport's documentation
 * (docs/transport.md, regs/pv_transport.h) and nothing of gttlab's client.
 * Each mode is one attack on the VM boundary (tests/vm/hostile-neighbour.sh runs
 * them beside a victim guest; make bench times the floods):
 *
 *   truncate         shrink and grow the shared memory, then ask for a word:
 *                    serve must still answer (exit 0), the memory sealed
 *   retain MS        hang up, keep the mapping and fd; for MS watch the old
 *                    mapping for any byte serve or the next guest changes,
 *                    and scribble on it: exit 1 if something changed
 *   residue          the mailbox and memory of a fresh connection must be
 *                    zero but the host's words (exit 1, with the count)
 *   audit MS         host audits back to back
 *   ptes MS          PTE writes of 8192 entries back to back
 *   socket MS        bytes on the socket, reconnecting when dropped
 *   doorbell MS      the host's doorbell rung in a loop
 *   burn MS          the control: the CPU burnt, connected, no request
 *   silent           connect and never ask: exit 0 once dropped (the
 *                    milliseconds it took printed), 1 if never in 60 s
 *   busy             connect to a slot that holds a guest: exit 0 if refused
 *   forge            a stamp naming another vGPU with a made-up tag, written
 *                    and read back through its aperture: serve must count it
 *                    forged, not a leak
 *
 * One line on stdout says what happened. Exit 2 for a setup that failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "regs/pv_transport.h"
#include "regs/pvinfo.h"

struct conn {
	int sock, shm_fd, host_efd, own_efd;
	long id;
	uint8_t *shm, *mb;
	size_t size;
	uint64_t seq;
};

static uint64_t now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static int recv_msg(int sock, int64_t *v, int *fd)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} cm;
	uint8_t b[8];
	struct iovec io = { b, sizeof(b) };
	struct msghdr m = { .msg_iov = &io, .msg_iovlen = 1, .msg_control = cm.buf, .msg_controllen = sizeof(cm.buf) };

	if (recvmsg(sock, &m, 0) != 8)
		return -1;
	*fd = -1;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h))
		if (h->cmsg_type == SCM_RIGHTS)
			memcpy(fd, CMSG_DATA(h), sizeof(int));
	memcpy(v, b, 8);
	return 0;
}

/* Connect and take the setup: 0, 1 when the server refused (ID -1), -1 on any other failure. */
static int conn_open(struct conn *c, const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct timeval tv = { 5, 0 };
	int64_t v;
	int fd;

	*c = (struct conn){ .sock = -1, .shm_fd = -1, .host_efd = -1, .own_efd = -1 };
	snprintf(a.sun_path, sizeof(a.sun_path), "%s", path);
	if ((c->sock = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 || setsockopt(c->sock, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    connect(c->sock, (struct sockaddr *)&a, sizeof(a)))
		return -1;
	if (recv_msg(c->sock, &v, &fd) || v != 0 || recv_msg(c->sock, &v, &fd))
		return -1;
	if (v < 0)
		return 1;
	c->id = (long)v;
	while (c->shm_fd < 0 || c->host_efd < 0 || c->own_efd < 0) {
		if (recv_msg(c->sock, &v, &fd) || fd < 0)
			return -1;
		if (v == -1)
			c->shm_fd = fd;
		else if (v == 0)
			c->host_efd = fd;
		else
			c->own_efd = fd;
	}
	struct stat st;
	if (fstat(c->shm_fd, &st))
		return -1;
	c->size = (size_t)st.st_size;
	if ((c->shm = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED, c->shm_fd, 0)) == MAP_FAILED)
		return -1;
	c->mb = c->shm + PV_MAILBOX(1);
	for (uint64_t t0 = now_ms(); *(volatile uint32_t *)(c->mb + PV_MB_STATE) != PV_GUEST_READY;)
		if (now_ms() - t0 > 5000)
			return -1;
	c->seq = *(volatile uint64_t *)(c->mb + PV_MB_REQ_SEQ);
	return 0;
}

static void ring(struct conn *c)
{
	uint64_t one = 1;

	if (write(c->host_efd, &one, 8) < 0) {
		/* a full counter is still rung */
	}
}

/* One request: the words, REQ_SEQ, the doorbell; its status, or 1000 when no answer came in 10 s. */
static int call(struct conn *c, uint32_t op, uint32_t width, uint64_t addr, uint64_t len)
{
	volatile uint8_t *mb = c->mb;

	*(volatile uint32_t *)(mb + PV_MB_OP) = op;
	*(volatile uint32_t *)(mb + PV_MB_WIDTH) = width;
	*(volatile uint64_t *)(mb + PV_MB_ADDR) = addr;
	*(volatile uint64_t *)(mb + PV_MB_LEN) = len;
	__atomic_store_n((uint64_t *)(c->mb + PV_MB_REQ_SEQ), ++c->seq, __ATOMIC_RELEASE);
	ring(c);
	for (uint64_t t0 = now_ms(); __atomic_load_n((uint64_t *)(c->mb + PV_MB_ANS_SEQ), __ATOMIC_ACQUIRE) != c->seq;)
		if (now_ms() - t0 > 10000)
			return 1000;
	return (int32_t)*(volatile uint32_t *)(mb + PV_MB_STATUS);
}

/*
 * After the memory was shrunk to nothing (the server let it be: unsealed) no
 * request can be written; the doorbell alone makes the server look at the
 * mailbox it maps: 1000 (no answer), whether it died of that or not.
 */
static int call_raw_after_shrink(struct conn *c)
{
	ring(c);
	struct pollfd p = { .fd = c->sock, .events = POLLIN };
	char b;
	if (poll(&p, 1, 3000) > 0 && recv(c->sock, &b, 1, MSG_DONTWAIT) == 0)
		return 1000;	/* the server hung up: it died */
	return 1000;
}

static int usage(void)
{
	fprintf(stderr, "usage: pv_attack SOCKET truncate|retain MS|residue|audit MS|ptes MS|socket MS|doorbell MS|burn MS|silent|busy|forge\n");
	return 2;
}

static int setup_failed(const char *sock)
{
	printf("pv_attack: cannot connect to %s as a guest\n", sock);
	return 2;
}

/* The flood modes: each until MS passed; how many rounds it made. */
static uint64_t flood(struct conn *c, const char *sock, const char *mode, uint64_t ms)
{
	uint64_t n = 0, t0 = now_ms();
	uint8_t junk[4096];

	call(c, PV_OP_MMIO_READ32, 0, VGT_IF_MAGIC, 0);	/* one request: a guest, not a connection that never asks */
	memset(junk, 0xa5, sizeof(junk));
	while (now_ms() - t0 < ms) {
		if (!strcmp(mode, "audit")) {
			call(c, PV_OP_HOST_AUDIT, 0, 0, 0);
		} else if (!strcmp(mode, "ptes")) {
			memset(c->mb + PV_MB_DATA, 0, PV_DATA_MAX);
			call(c, PV_OP_PTE_WRITE, 8, 8u << 20, PV_DATA_MAX / 8);	/* 8192 entries from the GSM's start */
		} else if (!strcmp(mode, "socket")) {
			if (send(c->sock, junk, sizeof(junk), MSG_NOSIGNAL | MSG_DONTWAIT) < 0 && errno != EAGAIN) {
				close(c->sock);		/* dropped: come back and do it again */
				if (conn_open(c, sock))
					usleep(1000);
			}
		} else if (!strcmp(mode, "doorbell")) {
			ring(c);
		} else {	/* burn */
			for (volatile unsigned k = 0; k < 100000; k++)
				;
		}
		n++;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct conn c;

	if (argc < 3)
		return usage();
	const char *sock = argv[1], *mode = argv[2];
	uint64_t ms = argc > 3 ? strtoull(argv[3], NULL, 10) : 0;
	int rc = conn_open(&c, sock);

	if (!strcmp(mode, "busy")) {
		printf("pv_attack: a connection to a slot that holds a guest was %s\n", rc == 1 ? "refused" : "taken");
		return rc == 1 ? 0 : 1;
	}
	if (rc)
		return setup_failed(sock);
	if (!strcmp(mode, "truncate")) {
		/* shrunk to nothing, then a request: a server that maps it unsealed dies of SIGBUS at its next access */
		int a = ftruncate(c.shm_fd, 0), ea = errno;
		int st = a ? call(&c, PV_OP_MMIO_READ32, 0, VGT_IF_MAGIC, 0) : call_raw_after_shrink(&c);
		int b = ftruncate(c.shm_fd, (off_t)c.size * 2), eb = errno;
		printf("pv_attack: shrinking the shared memory %s (%s), growing it %s (%s); serve then answered %s\n",
		       a ? "refused" : "TAKEN", a ? strerror(ea) : "-", b ? "refused" : "TAKEN", b ? strerror(eb) : "-",
		       st == 1000 ? "nothing" : "the request");
		return !a || !b || st == 1000;
	}
	if (!strcmp(mode, "residue")) {
		uint64_t dirty = 0;
		for (size_t o = 0; o < PV_MAILBOX_SIZE; o++) {
			bool host = o < PV_MB_REQ_SEQ || (o >= PV_MB_STAMP_KEY && o < PV_MB_STAMP_KEY + 16);
			dirty += !host && c.mb[o];
		}
		for (size_t o = PV_MAILBOX(2); o < c.size; o++)
			dirty += c.shm[o] != 0;
		printf("pv_attack: a fresh connection found %llu bytes of its mailbox and memory not zero\n", (unsigned long long)dirty);
		return dirty != 0;
	}
	if (!strcmp(mode, "retain")) {
		uint8_t *copy = malloc(c.size);
		if (!copy)
			return 2;
		close(c.sock);	/* hung up: serve reclaims; the fd and mapping stay */
		usleep(200000);
		memcpy(copy, c.shm, c.size);
		uint64_t changed = 0, t0 = now_ms(), scribbles = 0;
		while (now_ms() - t0 < ms) {
			for (size_t o = 0; o < c.size; o += 4096)
				changed += memcmp(copy + o, c.shm + o, 4096) != 0;
			memcpy(copy, c.shm, c.size);
			/* and scribble: none of it may reach the next guest */
			for (size_t o = PV_MAILBOX(1); o < c.size; o += 64, scribbles++)
				c.shm[o] = (uint8_t)scribbles, copy[o] = (uint8_t)scribbles;
			usleep(20000);
		}
		printf("pv_attack: after hanging up, %llu pages of the kept mapping changed under it (it wrote %llu bytes into it)\n",
		       (unsigned long long)changed, (unsigned long long)scribbles);
		return changed != 0;
	}
	if (!strcmp(mode, "silent")) {
		uint64_t t0 = now_ms();
		struct pollfd p = { .fd = c.sock, .events = POLLIN };
		while (now_ms() - t0 < 60000) {
			char b[8];
			if (poll(&p, 1, 100) > 0 && recv(c.sock, b, sizeof(b), MSG_DONTWAIT) == 0) {
				printf("pv_attack: a guest that never asked was dropped after %llu ms\n",
				       (unsigned long long)(now_ms() - t0));
				return 0;
			}
		}
		printf("pv_attack: a guest that never asked still holds its slot after 60 s\n");
		return 1;
	}
	if (!strcmp(mode, "forge")) {
		/* its own low range (PVINFO's mappable base); whatever is behind it there, it is its own */
		int st = call(&c, PV_OP_MMIO_READ32, 0, VGT_IF_MAPPABLE_BASE, 0);
		if (st)
			return setup_failed(sock);
		uint64_t low = *(volatile uint64_t *)(c.mb + PV_MB_VALUE) & 0xffffffffu;
		uint32_t other = *(volatile uint32_t *)(c.mb + PV_MB_VGT_ID) + 1;	/* another vGPU's name, a made-up tag */
		uint64_t stamp[3] = { PV_TAG_MAGIC, other | 7ull << 32, 0x0123456789abcdefull };
		memset(c.mb + PV_MB_DATA, 0x3c, 4096);
		memcpy(c.mb + PV_MB_DATA, stamp, sizeof(stamp));		/* at the page's start */
		memcpy(c.mb + PV_MB_DATA + 1000, stamp, sizeof(stamp));	/* and inside it: every byte is searched */
		/* the stamp in what it reads: an aperture write of the bytes, then their read back */
		call(&c, PV_OP_AP_WRITE, 0, low, 4096);
		memset(c.mb + PV_MB_DATA, 0, 4096);
		st = call(&c, PV_OP_AP_READ, 0, low, 4096);
		printf("pv_attack: a stamp naming vGPU %u with a made-up tag written and read back through the aperture (status %d)\n",
		       other, st);
		return st != 0;
	}
	if (ms && (!strcmp(mode, "audit") || !strcmp(mode, "ptes") || !strcmp(mode, "socket") ||
		   !strcmp(mode, "doorbell") || !strcmp(mode, "burn"))) {
		uint64_t n = flood(&c, sock, mode, ms);
		printf("pv_attack: %s flood: %llu rounds in %llu ms\n", mode, (unsigned long long)n, (unsigned long long)ms);
		return 0;
	}
	return usage();
}
