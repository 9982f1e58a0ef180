/* SPDX-License-Identifier: MIT */
/*
 * The server side of QEMU's ivshmem protocol (docs/specs/ivshmem-spec.rst
 * in QEMU; Debian ships no server): a UNIX socket QEMU's ivshmem-doorbell
 * connects to, a shared-memory object, and one eventfd per peer. The
 * server is itself peer 0 (its eventfd is what guests ring); clients get
 * IDs 1..max. On connect a client receives, in order: the protocol version
 * 0, its ID, -1 with the shared memory's fd, the server's connect notice
 * (0 with the server's eventfd), and its own ID with its own eventfd. A
 * disconnect is sent to no one (clients do not ring each other here).
 *
 * A client is hostile: the shared memory is a memfd sealed against shrink
 * and grow before any client sees it (a client that truncates it cannot make
 * the server fault), a fresh one is made for each client (ivs_renew_shm), and
 * a client that sends anything on its socket (ivshmem clients send nothing)
 * breaks the protocol: ivs_client_state says so after one bounded read.
 */
#ifndef DOM0_HOST_IVSHMEM_SERVER_H
#define DOM0_HOST_IVSHMEM_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define IVS_MAX_CLIENTS	64
/* The ID a refused connection is sent in place of its own: QEMU says "server sent invalid ID". */
#define IVS_REFUSED_ID	(-1)

struct ivs_server;

/*
 * Listen on path (an existing socket file is replaced only if it is this
 * user's and nothing listens there), the socket file mode `mode` (0600, or
 * 0660 with group `gid`; gid (gid_t)-1 keeps the creator's), with shared
 * memory of size bytes, zeroed and sealed, for up to max clients. 0, or -1
 * with why in err.
 */
int ivs_open(const char *path, size_t size, unsigned max, unsigned mode, gid_t gid, struct ivs_server **out, char *err,
	     size_t n);
/* The shared memory the next (or the current) client gets, mapped in this process. */
uint8_t *ivs_shm(struct ivs_server *s);
/*
 * Put a fresh shared-memory object in place of the current one, which is
 * unmapped and closed here: a client that kept its mapping of the old one
 * shares nothing with the next. 0, or -1 with why (the old one is kept).
 */
int ivs_renew_shm(struct ivs_server *s, char *err, size_t n);
/* The listening socket (readable: a client waits), the server's doorbell eventfd (readable: rung). */
int ivs_listen_fd(const struct ivs_server *s);
int ivs_doorbell_fd(const struct ivs_server *s);
/* Take the doorbell's count (0 if not rung since the last take). */
uint64_t ivs_doorbell_take(struct ivs_server *s);
/*
 * Accept one client and send it the setup messages: its ID in *id, its
 * socket in *fd (readable or hung up: it went away). -1 with why when it
 * could not be set up (no free ID: the connection is refused).
 */
int ivs_accept(struct ivs_server *s, unsigned *id, int *fd, char *err, size_t n);
/*
 * Accept one waiting connection and turn it away: the protocol version, then
 * IVS_REFUSED_ID and nothing else, and the socket closed. The peer's
 * credentials, for the server's message, in *uid (or (uid_t)-1).
 */
void ivs_refuse(struct ivs_server *s, uid_t *uid);

enum ivs_client_state {
	IVS_CLIENT_HERE,	/* nothing to read: still there */
	IVS_CLIENT_GONE,	/* hung up, or its socket failed */
	IVS_CLIENT_SPOKE,	/* it sent bytes: ivshmem clients send nothing (a protocol violation) */
};
/* What client id's socket says, from one read of at most 64 bytes: call when its fd is readable. */
enum ivs_client_state ivs_client_state(struct ivs_server *s, unsigned id);
/* Close client id's socket and eventfd; its ID is free again. */
void ivs_drop(struct ivs_server *s, unsigned id);
/* Ring client id (its vector 0). */
void ivs_ring(struct ivs_server *s, unsigned id);
/* Close everything; the socket file is removed. */
void ivs_close(struct ivs_server *s);

#endif
