/* SPDX-License-Identifier: MIT */
/* What the guest suite's checks share: the vGPU's slices, page tags, churn, the host's audit. */
#ifndef CHECKS_CHECKS_GUEST_COMMON_H
#define CHECKS_CHECKS_GUEST_COMMON_H

#include "checks/check.h"

/* One of the vGPU's slices as the check claims it (PVINFO's ranges), in GGTT pages. */
struct guest_slice {
	const char *name;		/* "mappable", "non-mappable", "non-mappable run 1".. */
	uint64_t first, pages;
};

#define GUEST_MAX_SLICES	(1 + GTTLAB_GM_MAX_RUNS)	/* the mappable slice and the non-mappable one's runs */

/* The claimed slices with pages in them, mappable first, then each run of the non-mappable; returns how many. */
unsigned guest_slices(const struct check_ctx *c, struct guest_slice sl[GUEST_MAX_SLICES]);
/* A valid, uncached PTE naming the page (hw_pte_encode_for); nonzero with the failure recorded. */
int guest_pte_for(struct check_ctx *c, const struct hw_page *page, uint64_t *pte);
/*
 * Byte b of the page tagged `tag`: what fill writes and the checks expect.
 * Its first PV_STAMP_SIZE bytes are a stamp: PV_TAG_MAGIC, the vGPU's vgt_id
 * and the tag, and their keyed tag under the device's stamp key
 * (regs/pv_transport.h): whose bytes they are, for a host that watches what
 * each guest reads; the rest depends on the tag and the seed.
 */
uint8_t guest_tag(const struct check_ctx *c, uint64_t tag, size_t b);
void guest_fill(const struct check_ctx *c, const struct hw_page *page, uint64_t tag);
/*
 * n harmless trapped accesses (PVINFO vgt_id reads): a mediator that switches
 * its vGPUs by time or by traps gets its turn to switch the peers in between.
 */
void guest_churn(struct check_ctx *c, unsigned n);
/*
 * A page the guest mapped, tagged `tag`, still where it should be: PTE index
 * gm / 4 KiB reads `pte`, and (where the device has a GPU side) its bytes
 * read there. `after` says what moved around it, for the failure.
 */
enum check_status guest_page_stays(struct check_ctx *c, uint64_t gm, uint64_t tag, uint64_t pte, const char *after);
/*
 * GM gm, which the guest gave up (`what` says how), is out of its reach: a
 * write of `pte` there does not take, and the GPU side does not reach the
 * guest's page `pg` there; then the host's side must agree (guest_audit).
 */
enum check_status guest_out_of_reach(struct check_ctx *c, uint64_t gm, const struct hw_page *pg, uint64_t pte,
				     const char *what);
/*
 * The host's side of a vgpu: device (hw_backend_ops.host_audit): CHECK_PASS
 * when everything outside this guest is as the mediator promises, or where
 * the device shows no host side; otherwise the failure naming what changed.
 */
enum check_status guest_audit(struct check_ctx *c, const char *after);

#endif
