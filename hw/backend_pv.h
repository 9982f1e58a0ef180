/* SPDX-License-Identifier: MIT */
/*
 * The pv backend: a vGPU that `gttlab dom0 serve` runs in the host, reached
 * from inside a guest over the paravirtual transport (regs/pv_transport.h,
 * docs/transport.md). Every operation of hw/backend.h is one request in the
 * guest's mailbox; test pages come from the guest's memory in the shared
 * region, which the host runtime maps for its vGPU. The environment finds
 * the ivshmem-doorbell device and gives the link; nothing here knows how.
 */
#ifndef HW_BACKEND_PV_H
#define HW_BACKEND_PV_H

#include "hw/backend.h"

/*
 * How a guest waits for the host's answer (VGVM §4.1 puts the choice in the
 * guest): polling its mailbox, polling with a short stall between looks, or
 * asleep until the host's interrupt (the answer rings the guest's vector).
 */
enum hw_pv_wait { HW_PV_POLL, HW_PV_PAUSE, HW_PV_SLEEP };

/* The ivshmem-doorbell device as the environment reaches it. */
struct hw_pv_link {
	uint8_t *shm;			/* BAR2: the shared memory, mapped */
	uint64_t shm_size;
	uint32_t id;			/* IVPosition: this guest's ID, its mailbox */
	/* write the Doorbell register (BAR0 + 0x0c) */
	void (*ring)(void *ctx, uint32_t value);
	/* HW_PV_PAUSE: called between looks at the answer (a short stall) */
	void (*pause)(void *ctx);
	/* HW_PV_SLEEP: block until the host rings this guest or timeout_ns pass; NULL: the guest cannot (it polls) */
	void (*sleep)(void *ctx, uint64_t timeout_ns);
	enum hw_pv_wait wait;
	/* the host is lost when its heartbeat does not move for this long while a request waits; 0: 10 s */
	uint64_t timeout_ns;
	void *ctx;
	const char *where;		/* the device's location, for messages ("0000:00:03.0") */
};

/*
 * Attach to this guest's mailbox: the header's magic and version, the ID
 * inside 1..max guests, the region large enough, and a vGPU ready behind
 * the mailbox (waited for up to the timeout). GTT_ENODEV naming what is
 * missing or wrong.
 */
int hw_pv_open(const struct gtt_env *env, const struct hw_pv_link *link, const struct hw_backend_ops **ops,
	       void **ctx, struct gtt_err *err);

/*
 * Whether the host was lost (its heartbeat stopped, it stopped serving, or
 * it reclaimed the vGPU): nonzero with why; GTT_OK while it answers.
 */
int hw_pv_lost(void *ctx, char *why, size_t n);

/* The way the guest waits from now on (VGVM's hybrid picks it per request); the previous one. */
enum hw_pv_wait hw_pv_set_wait(void *ctx, enum hw_pv_wait w);

/* The link's ctx as given to hw_pv_open (for a front-end that wraps close). */
void *hw_pv_link_ctx(void *ctx);

/* Requests answered so far and the time spent waiting for them (the latency a benchmark reports). */
void hw_pv_stats(void *ctx, uint64_t *requests, uint64_t *wait_ns);

#endif
