/* SPDX-License-Identifier: MIT */
/* The guest suite's shared helpers (checks/checks_guest_common.h). */
#include "checks/checks_guest_common.h"
#include "env/fmt.h"
#include "env/siphash.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/pv_transport.h"
#include "regs/pvinfo.h"

unsigned guest_slices(const struct check_ctx *c, struct guest_slice sl[GUEST_MAX_SLICES])
{
	static const char *const run_name[GTTLAB_GM_MAX_RUNS - 1] = {
		"non-mappable run 1", "non-mappable run 2", "non-mappable run 3", "non-mappable run 4",
		"non-mappable run 5", "non-mappable run 6", "non-mappable run 7",
	};
	unsigned n = 0;

	if (c->claim_pages)
		sl[n++] = (struct guest_slice){ "mappable", c->claim_gm / 4096, c->claim_pages };
	if (c->claim_high_pages)
		sl[n++] = (struct guest_slice){ "non-mappable", c->claim_high_gm / 4096, c->claim_high_pages };
	for (unsigned i = 0; i < c->claim_runs && c->claim_high_pages; i++)
		sl[n++] = (struct guest_slice){ run_name[i], c->claim_run[i].gm / 4096, c->claim_run[i].pages };
	return n;
}

int guest_pte_for(struct check_ctx *c, const struct hw_page *page, uint64_t *pte)
{
	struct gtt_err err = { 0 };
	int rc = hw_pte_encode_for(&c->dev->info, page->phys, HW_CACHE_NONE, pte, &err);

	if (rc)
		ck_error(c, "PTE encode", &err);
	return rc;
}

uint8_t guest_tag(const struct check_ctx *c, uint64_t tag, size_t b)
{
	/* the stamp: whose bytes these are, for a host that watches what guests read (dom0 serve) */
	uint64_t who = (uint64_t)c->dev->info.pvinfo.vgt_id | tag << 32;
	uint32_t x = (uint32_t)(tag * 0x9e3779b1u) ^ (uint32_t)b ^ (uint32_t)c->seed;
	uint8_t le[8];

	if (b % 4096 >= PV_STAMP_SIZE)
		return (uint8_t)((x * 2654435761u) >> 24);
	if (b % 4096 < 8)
		return (uint8_t)(PV_TAG_MAGIC >> (8 * (b % 8)));
	if (b % 4096 < 16)
		return (uint8_t)(who >> (8 * (b % 8)));
	/* its keyed tag: only this guest and its host know the key, so no other guest can make this stamp */
	for (unsigned i = 0; i < 8; i++)
		le[i] = (uint8_t)(who >> (8 * i));
	return (uint8_t)(gtt_siphash24(c->dev->info.stamp_key, le, sizeof(le)) >> (8 * (b % 8)));
}

void guest_fill(const struct check_ctx *c, const struct hw_page *page, uint64_t tag)
{
	for (size_t b = 0; b < 4096; b++)
		((uint8_t *)page->cpu)[b] = guest_tag(c, tag, b);
}

void guest_churn(struct check_ctx *c, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		(void)hw_mmio_read32(c->dev, VGT_IF_VGT_ID);
}

enum check_status guest_audit(struct check_ctx *c, const char *after)
{
	char why[200];

	if (!c->dev->ops->host_audit)
		return CHECK_PASS;
	why[0] = '\0';
	if (c->dev->ops->host_audit(c->dev->ctx, why, sizeof(why)))
		return ck_fail(c, "after %s, the host side changed: %s", after, why[0] ? why : "(no reason given)");
	return CHECK_PASS;
}

enum check_status guest_page_stays(struct check_ctx *c, uint64_t gm, uint64_t tag, uint64_t pte, const char *after)
{
	uint8_t buf[4096];
	struct gtt_err err = { 0 };
	uint64_t got;

	if (ck_pte_read(c, gm / 4096, &got))
		return CHECK_FAIL;
	if (got != pte)
		return ck_fail(c, "after %s, PTE index %llu (GM 0x%llx) reads 0x%llx, was 0x%llx", after,
			       (unsigned long long)(gm / 4096), (unsigned long long)gm, (unsigned long long)got,
			       (unsigned long long)pte);
	if (!c->dev->ops->gpu_read)
		return CHECK_PASS;
	if (hw_gpu_read(c->dev, gm, buf, sizeof(buf), &err))
		return ck_error(c, "GPU-side read", &err);
	for (size_t b = 0; b < sizeof(buf); b++)
		if (buf[b] != guest_tag(c, tag, b))
			return ck_fail(c, "after %s, GM 0x%llx byte 0x%zx reads 0x%02x GPU-side, its page holds 0x%02x", after,
				       (unsigned long long)gm, b, buf[b], guest_tag(c, tag, b));
	return CHECK_PASS;
}

enum check_status guest_out_of_reach(struct check_ctx *c, uint64_t gm, const struct hw_page *pg, uint64_t pte,
				     const char *what)
{
	uint8_t buf[4096];
	char after[128];
	struct gtt_err err = { 0 };
	uint64_t got;

	(void)ck_hostile_pte_write(c, gm / 4096, pte);
	(void)hw_ggtt_invalidate(c->dev);
	if (ck_pte_read(c, gm / 4096, &got))
		return CHECK_FAIL;
	if (got == pte)
		return ck_fail(c, "PTE index %llu (GM 0x%llx) in %s took a write (reads 0x%llx)", (unsigned long long)(gm / 4096),
			       (unsigned long long)gm, what, (unsigned long long)got);
	if (c->dev->ops->gpu_read && !hw_gpu_read(c->dev, gm, buf, sizeof(buf), &err) && !gtt_memcmp(buf, pg->cpu, sizeof(buf)))
		return ck_fail(c, "GM 0x%llx in %s still reaches this vGPU's page GPU-side", (unsigned long long)gm, what);
	gtt_snprintf(after, sizeof(after), "giving up %s", what);
	return guest_audit(c, after);
}
