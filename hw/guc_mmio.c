/* SPDX-License-Identifier: MIT */
/* A VF's MMIO channel to GuC (hw/guc_mmio.h). */
#include "hw/guc_mmio.h"

#include <stdbool.h>

#include "regs/sriov.h"

static unsigned type_of(uint32_t hdr)
{
	return (hdr & GUC_HXG_TYPE_MASK) >> GUC_HXG_TYPE_SHIFT;
}

static bool from_guc(uint32_t hdr)
{
	return hdr & GUC_HXG_ORIGIN_GUC;
}

/* A final answer after BUSY: a failure or a success, from GuC. */
static bool final(uint32_t hdr)
{
	return from_guc(hdr) &&
	       (type_of(hdr) == GUC_HXG_TYPE_RESPONSE_FAILURE || type_of(hdr) == GUC_HXG_TYPE_RESPONSE_SUCCESS);
}

/*
 * Poll the flag until done(hdr) holds, for at most limit_ms of the clock and
 * HW_GUC_MMIO_MAX_POLLS reads; *hdr the last read. Whether it held.
 */
static bool wait_for(const struct hw_guc_mbox *mb, uint64_t limit_ms, bool (*done)(uint32_t), uint32_t *hdr,
		     struct hw_guc_mmio_stats *st)
{
	uint64_t t0 = mb->env->now_ns(mb->env), limit = limit_ms * 1000000ull;

	for (unsigned i = 0; i < HW_GUC_MMIO_MAX_POLLS; i++) {
		*hdr = mb->read32(mb->ctx, mb->flag0);
		st->polls++;
		if (done(*hdr))
			return true;
		if (mb->env->now_ns(mb->env) - t0 > limit)
			return false;
	}
	return false;
}

/* The request's dwords into the flags, a posting read, the doorbell; a refused write stops it, named. */
static int send(const struct hw_guc_mbox *mb, const uint32_t *req, unsigned n, struct hw_guc_mmio_stats *st,
		struct gtt_err *err)
{
	for (unsigned i = 0; i < n; i++)
		if (mb->write32(mb->ctx, mb->flag0 + 4 * i, req[i]))
			return gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: the write of flag %u (0x%x) was refused",
					   req[0] & GUC_HXG_REQUEST_ACTION_MASK, i, mb->flag0 + 4 * i);
	(void)mb->read32(mb->ctx, mb->flag0 + 4 * (GUC_MMIO_MSG_LEN - 1));
	if (mb->write32(mb->ctx, mb->doorbell, 0))
		return gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: the doorbell write (0x%x) was refused",
				   req[0] & GUC_HXG_REQUEST_ACTION_MASK, mb->doorbell);
	st->sends++;
	return GTT_OK;
}

uint32_t hw_guc_request(uint32_t action, uint32_t data0)
{
	return (GUC_HXG_TYPE_REQUEST << GUC_HXG_TYPE_SHIFT) |
	       ((data0 << GUC_HXG_REQUEST_DATA0_SHIFT) & GUC_HXG_REQUEST_DATA0_MASK) | (action & GUC_HXG_REQUEST_ACTION_MASK);
}

/* The answer after a success: data0 and the reply's dwords. */
static int success(const struct hw_guc_mbox *mb, uint32_t hdr, uint32_t *data0, uint32_t *reply)
{
	*data0 = hdr & GUC_HXG_DATA0_MASK;
	if (reply) {
		reply[0] = hdr;
		for (unsigned i = 1; i < GUC_MMIO_MSG_LEN; i++)
			reply[i] = mb->read32(mb->ctx, mb->flag0 + 4 * i);
	}
	return GTT_OK;
}

int hw_guc_mmio_send_recv(const struct hw_guc_mbox *mb, const uint32_t *req, unsigned n, uint32_t *data0,
			  uint32_t *reply, struct hw_guc_mmio_stats *stats, struct gtt_err *err)
{
	struct hw_guc_mmio_stats st = { 0 };
	bool resent_lost = false;
	uint32_t hdr = 0, action;
	int rc = GTT_EIO;

	if (!n || n > GUC_MMIO_MSG_LEN)
		return gtt_err_set(err, GTT_EINVAL, "GuC MMIO request of %u dwords: 1 to %d", n, GUC_MMIO_MSG_LEN);
	action = req[0] & GUC_HXG_REQUEST_ACTION_MASK;
	if (from_guc(req[0]) || type_of(req[0]) != GUC_HXG_TYPE_REQUEST)
		return gtt_err_set(err, GTT_EINVAL, "GuC MMIO request header 0x%08x: not a host REQUEST (bits 31:28 zero)",
				   req[0]);
	if ((rc = send(mb, req, n, &st, err)))
		goto out;
	for (;;) {
		if (!wait_for(mb, HW_GUC_MMIO_TIMEOUT_MS, from_guc, &hdr, &st)) {
			if (hdr == 0 && !resent_lost) {
				/* a function reset clears the scratch registers: the request may be lost, not refused */
				resent_lost = true;
				if ((rc = send(mb, req, n, &st, err)))
					break;
				continue;
			}
			rc = gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: no reply within %d ms (VF_SW_FLAG0 reads 0x%08x)",
					 action, HW_GUC_MMIO_TIMEOUT_MS, hdr);
			st.no_reply = true;
			break;
		}
		unsigned type = type_of(hdr);
		if (type == GUC_HXG_TYPE_NO_RESPONSE_BUSY) {
			st.busy++;
			if (!wait_for(mb, HW_GUC_MMIO_BUSY_MS, final, &hdr, &st)) {
				rc = type_of(hdr) == GUC_HXG_TYPE_NO_RESPONSE_BUSY && from_guc(hdr)
					     ? gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: still busy (counter %u) after %u reads, no answer within %d ms",
							   action, hdr & GUC_HXG_DATA0_MASK, st.polls, HW_GUC_MMIO_BUSY_MS)
					     : gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: answered 0x%08x after BUSY: not a "
							   "failure or a success", action, hdr);
				break;
			}
			type = type_of(hdr);
		}
		if (type == GUC_HXG_TYPE_NO_RESPONSE_RETRY) {
			if (st.retries == HW_GUC_MMIO_RETRIES) {
				rc = gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: asked to retry %d times (reason %u): given up",
						 action, HW_GUC_MMIO_RETRIES + 1, hdr & GUC_HXG_DATA0_MASK);
				break;
			}
			st.retries++;
			if ((rc = send(mb, req, n, &st, err)))
				break;
			continue;
		}
		if (type == GUC_HXG_TYPE_RESPONSE_FAILURE)
			rc = gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: failed, hint 0x%03x error 0x%04x", action,
					 (hdr & GUC_HXG_FAILURE_HINT_MASK) >> GUC_HXG_FAILURE_HINT_SHIFT,
					 hdr & GUC_HXG_FAILURE_ERROR_MASK);
		else if (type == GUC_HXG_TYPE_RESPONSE_SUCCESS)
			rc = success(mb, hdr, data0, reply);
		else
			rc = gtt_err_set(err, GTT_EIO, "GuC action 0x%04x: answered 0x%08x: type %u is no answer to a request",
					 action, hdr, type);
		break;
	}
out:
	if (stats)
		*stats = st;
	return rc;
}
