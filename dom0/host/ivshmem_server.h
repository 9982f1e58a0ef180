/* SPDX-License-Identifier: MIT */
/*
 * The server side of QEMU's ivshmem protocol (docs/specs/ivshmem-spec.rst
 * in QEMU; Debian ships no server): a UNIX socket QEMU's ivshmem-doorbell
 * connects to, one shared-memory object, and one eventfd per peer. The
 * server is itself peer 0 (its eventfd is what guests ring); clients get
 * IDs 1..max. On connect a client receives, in order: the protocol version
 * 0, its ID, -1 with the shared memory's fd, the server's connect notice
 * (0 with the server's eventfd), and its own ID with its own eventfd. A
 * disconnect is sent to no one (clients do not ring each other here).
 */
#ifndef DOM0_HOST_IVSHMEM_SERVER_H
#define DOM0_HOST_IVSHMEM_SERVER_H

#include <stddef.h>
#include <stdint.h>

#define IVS_MAX_CLIENTS	64

struct ivs_server;

/*
 * Listen on path (an existing socket file is replaced only if nothing
 * listens there), with shared memory of size bytes, zeroed, for up to max
 * clients. 0, or -1 with why in err.
 */
int ivs_open(const char *path, size_t size, unsigned max, struct ivs_server **out, char *err, size_t n);
/* The shared memory, mapped in this process. */
uint8_t *ivs_shm(struct ivs_server *s);
/* The listening socket (readable: a client waits), the server's doorbell eventfd (readable: rung). */
int ivs_listen_fd(const struct ivs_server *s);
int ivs_doorbell_fd(const struct ivs_server *s);
/* Take the doorbell's count (0 if not rung since the last take). */
uint64_t ivs_doorbell_take(struct ivs_server *s);
/*
 * Accept one client and send it the setup messages: its ID in *id, its
 * socket in *fd (readable or hung up: it went away). -1 with why when it
 * could not be set up (no free ID: the connection is closed).
 */
int ivs_accept(struct ivs_server *s, unsigned *id, int *fd, char *err, size_t n);
/* Whether client id's socket says it is gone (hung up or closed); call when its fd is readable. */
int ivs_client_gone(struct ivs_server *s, unsigned id);
/* Close client id's socket and eventfd; its ID is free again. */
void ivs_drop(struct ivs_server *s, unsigned id);
/* Ring client id (its vector 0). */
void ivs_ring(struct ivs_server *s, unsigned id);
/* Close everything; the socket file is removed. */
void ivs_close(struct ivs_server *s);

#endif
