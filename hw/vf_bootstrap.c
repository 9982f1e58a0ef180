/* SPDX-License-Identifier: MIT */
/* A VF's bootstrap with GuC over MMIO (hw/vf_bootstrap.h). */
#include "hw/vf_bootstrap.h"

#include "regs/sriov.h"

#define PAGE	4096ull

unsigned hw_vf_min_minor(bool gmd_id)
{
	return gmd_id ? 2 : 1;
}

int hw_vf_ggtt_check(uint64_t start, uint64_t size, uint64_t wopcm, struct gtt_err *err)
{
	if (!size)
		return gtt_err_set(err, GTT_EINVAL, "VF GGTT size 0: GuC gave this VF no range");
	if (start < wopcm)
		return gtt_err_set(err, GTT_EINVAL, "VF GGTT start 0x%llx: below WOPCM's 0x%llx", (unsigned long long)start,
				   (unsigned long long)wopcm);
	if (start > GUC_GGTT_TOP || size > GUC_GGTT_TOP - start)
		return gtt_err_set(err, GTT_EINVAL, "VF GGTT range 0x%llx + 0x%llx: past GUC_GGTT_TOP 0x%llx",
				   (unsigned long long)start, (unsigned long long)size, (unsigned long long)GUC_GGTT_TOP);
	if ((start | size) & (PAGE - 1))
		return gtt_err_set(err, GTT_EINVAL, "VF GGTT range 0x%llx + 0x%llx: not in whole 4 KiB pages",
				   (unsigned long long)start, (unsigned long long)size);
	return GTT_OK;
}

int hw_vf_query_klv(const struct hw_guc_mbox *mb, uint16_t key, unsigned n, uint64_t *value, struct gtt_err *err)
{
	uint32_t req[2] = { hw_guc_request(VF2GUC_QUERY_SINGLE_KLV, 0), key }, reply[GUC_MMIO_MSG_LEN], data0 = 0;
	int rc;

	if (!n || n > 2)
		return gtt_err_set(err, GTT_EINVAL, "KLV 0x%04x of %u dwords: 1 or 2 fit a value", key, n);
	if ((rc = hw_guc_mmio_send_recv(mb, req, 2, &data0, reply, NULL, err)))
		return rc;
	if (data0 & GUC_KLV_REPLY_MBZ_MASK)
		return gtt_err_set(err, GTT_EIO, "KLV 0x%04x: reply 0x%08x sets must-be-zero bits 27:16", key, reply[0]);
	unsigned len = data0 & GUC_KLV_REPLY_LENGTH_MASK;
	if (len != n)
		return gtt_err_set(err, GTT_EIO, "KLV 0x%04x: reply of %u dwords, the key has %u", key, len, n);
	*value = reply[1] | (n > 1 ? (uint64_t)reply[2] << 32 : 0);
	return GTT_OK;
}

int hw_vf_query_ggtt(const struct hw_guc_mbox *mb, uint64_t wopcm, struct hw_vf_ggtt *out, struct gtt_err *err)
{
	struct hw_vf_ggtt g;
	int rc;

	if ((rc = hw_vf_query_klv(mb, GUC_KLV_VF_CFG_GGTT_START, GUC_KLV_VF_CFG_GGTT_LEN, &g.start, err)) ||
	    (rc = hw_vf_query_klv(mb, GUC_KLV_VF_CFG_GGTT_SIZE, GUC_KLV_VF_CFG_GGTT_LEN, &g.size, err)) ||
	    (rc = hw_vf_ggtt_check(g.start, g.size, wopcm, err)))
		return rc;
	*out = g;
	return GTT_OK;
}

/* VF_RESET, sent again while no reply comes. */
static int reset(const struct hw_guc_mbox *mb, unsigned *tries, struct gtt_err *err)
{
	uint32_t req = hw_guc_request(VF2GUC_VF_RESET, 0), data0 = 0;
	struct hw_guc_mmio_stats st;
	int rc = GTT_EIO;

	for (*tries = 1; *tries <= HW_VF_RESET_TRIES; ++*tries) {
		rc = hw_guc_mmio_send_recv(mb, &req, 1, &data0, NULL, &st, err);
		if (!rc && data0)
			return gtt_err_set(err, GTT_EIO, "VF_RESET: success with data 0x%07x, must be zero", data0);
		if (!rc || !st.no_reply)
			return rc;
	}
	--*tries;
	return gtt_err_set(err, GTT_EIO, "VF_RESET: no reply to %u tries of %d ms", *tries, HW_GUC_MMIO_TIMEOUT_MS);
}

static unsigned field(uint32_t v, unsigned shift)
{
	return (v >> shift) & GUC_VERSION_FIELD;
}

/* MATCH_VERSION: branch 0, major 1, at least the minimum minor. */
static int match_version(const struct hw_guc_mbox *mb, unsigned min_minor, struct hw_vf_abi *abi, struct gtt_err *err)
{
	uint32_t req[2] = { hw_guc_request(VF2GUC_MATCH_VERSION, 0),
			    (1u << GUC_VERSION_MAJOR_SHIFT) | (min_minor << GUC_VERSION_MINOR_SHIFT) },
		 reply[GUC_MMIO_MSG_LEN], data0 = 0;
	int rc;

	if ((rc = hw_guc_mmio_send_recv(mb, req, 2, &data0, reply, NULL, err)))
		return rc;
	if (data0)
		return gtt_err_set(err, GTT_EIO, "MATCH_VERSION: success with data 0x%07x, must be zero", data0);
	*abi = (struct hw_vf_abi){ field(reply[1], GUC_VERSION_BRANCH_SHIFT), field(reply[1], GUC_VERSION_MAJOR_SHIFT),
				   field(reply[1], GUC_VERSION_MINOR_SHIFT), field(reply[1], 0) };
	if (abi->branch || abi->major != 1 || abi->minor < min_minor)
		return gtt_err_set(err, GTT_EIO, "MATCH_VERSION: GuC offers VF interface %u.%u.%u (branch %u): this VF needs 1.%u or a later 1.x",
				   abi->major, abi->minor, abi->patch, abi->branch, min_minor);
	return GTT_OK;
}

int hw_vf_bootstrap(const struct hw_guc_mbox *mb, bool gmd_id, uint64_t wopcm, struct hw_vf_boot *out,
		    struct gtt_err *err)
{
	struct hw_vf_boot b = { 0 };
	int rc;

	if ((rc = reset(mb, &b.reset_tries, err)) || (rc = match_version(mb, hw_vf_min_minor(gmd_id), &b.abi, err)) ||
	    (rc = hw_vf_query_ggtt(mb, wopcm, &b.ggtt, err)))
		return rc;
	*out = b;
	return GTT_OK;
}
