/* SPDX-License-Identifier: MIT */
/*
 * A VF's MMIO channel to GuC, before any command transport buffer exists
 * (docs/hardware.md §10.2; xe's xe_guc_mmio_send_recv, re-typed from the
 * facts): the request's dwords go into VF_SW_FLAG(0..n-1), a 0 written to
 * GUC_HOST_INTERRUPT rings GuC, and VF_SW_FLAG(0) is polled until GuC's
 * origin bit shows its answer:
 *
 *   no answer within 50 ms   sent once more if the flag still reads 0 (a
 *                            function reset clears the scratch registers),
 *                            else an error;
 *   BUSY                     GuC is working: polled up to 2 s more for a
 *                            failure or a success (anything else then is an
 *                            error, as in xe);
 *   RETRY                    sent again, at most HW_GUC_MMIO_RETRIES times
 *                            (xe has no limit; a hostile GuC must not hold
 *                            the caller for ever);
 *   FAILURE                  an error naming the action, its hint and code;
 *   SUCCESS                  data0 (bits 27:0) and the reply's dwords 1-3;
 *   anything else            an error naming the header.
 *
 * Every wait is bounded twice: by the environment's clock and by a count of
 * reads, so a clock that stands still cannot hold it either. The mailbox is
 * reached through the callbacks below, so that a device, the model and a
 * test's scripted GuC are the same to it. Freestanding.
 */
#ifndef HW_GUC_MMIO_H
#define HW_GUC_MMIO_H

#include <stdbool.h>
#include <stdint.h>

#include "env/env.h"
#include "env/err.h"

#define HW_GUC_MMIO_TIMEOUT_MS	50	/* a first answer */
#define HW_GUC_MMIO_BUSY_MS	2000	/* a final answer after BUSY (xe: 1 s to Linux 6.18, 2 s since) */
#define HW_GUC_MMIO_RETRIES	8	/* RETRY answers taken before giving up */
#define HW_GUC_MMIO_MAX_POLLS	(1u << 24)	/* reads of the flag in one wait, whatever the clock says */

/* One GT's mailbox: where its flags and doorbell are, and how to reach them. */
struct hw_guc_mbox {
	uint32_t (*read32)(void *ctx, uint32_t off);
	/* a scratch flag or the doorbell; non-zero: the write was refused and did not reach the device */
	int (*write32)(void *ctx, uint32_t off, uint32_t val);
	void *ctx;
	const struct gtt_env *env;	/* the clock */
	uint32_t flag0;			/* VF_SW_FLAG(0), or MED_VF_SW_FLAG(0) on the media GT */
	uint32_t doorbell;		/* GUC_HOST_INTERRUPT, or MED_GUC_HOST_INTERRUPT */
};

/* What one exchange met on the way (for the caller's report and the tests). */
struct hw_guc_mmio_stats {
	unsigned sends;			/* requests written and rung (a resend counts) */
	unsigned busy, retries;		/* BUSY and RETRY answers taken */
	unsigned polls;			/* reads of the flag, over every wait */
	bool no_reply;			/* it ended with no answer in time (a caller may send again) */
};

/*
 * Send the request req[0..n) (1 <= n <= 4; dword 0 a host REQUEST header)
 * and wait for GuC's final answer. GTT_OK: *data0 the success's bits 27:0
 * and reply[0..4) the reply's dwords (reply[0] the header; reply may be
 * NULL). GTT_EINVAL for a request that is not one; GTT_EIO for every answer
 * that is not a success, naming the action and what came back. stats (may
 * be NULL) gets what the exchange met.
 */
int hw_guc_mmio_send_recv(const struct hw_guc_mbox *mb, const uint32_t *req, unsigned n, uint32_t *data0,
			  uint32_t *reply, struct hw_guc_mmio_stats *stats, struct gtt_err *err);

/* A host REQUEST header: action, data0 (12 bits). */
uint32_t hw_guc_request(uint32_t action, uint32_t data0);

#endif
