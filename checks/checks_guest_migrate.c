/* SPDX-License-Identifier: MIT */
/*
 * guest-migration: a move of the vGPU's high range that the host makes on
 * its own (VOCL's migration, to other slots or another device and back),
 * seen from inside. A gBalloon-aware guest polls PVINFO's EPOCH for range
 * changes it did not ask for; when EPOCH moves, PVINFO's non-mappable range
 * must keep its size, the guest's entries and bytes must be at the same
 * offsets of the range (moved or not: a device move copies the guest's
 * memory), and an old range left must be out of its reach and no longer
 * map its pages (the host's side, where the device shows it). A host that
 * changes nothing while the check polls makes it skip, saying so.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_guest_common.h"
#include "hw/detect_pvinfo.h"
#include "env/fmt.h"
#include "hw/ggtt.h"
#include "regs/pvinfo.h"

#define POLLS 64
#define TAGGED 3

/* Entries and bytes at the same offsets of the new range as of the old. */
static enum check_status moved_along(struct check_ctx *c, const struct hw_pvinfo *now, const uint64_t *off,
				     const uint64_t *pte, const char *what)
{
	for (unsigned k = 0; k < TAGGED; k++) {
		enum check_status st = guest_page_stays(c, now->nonmappable_base + off[k], k, pte[k], what);
		if (st != CHECK_PASS)
			return st;
	}
	return CHECK_PASS;
}

/* The old range where the new one does not cover it is out of the guest's reach. */
static enum check_status left_behind(struct check_ctx *c, const struct hw_pvinfo *was, const struct hw_pvinfo *now,
				     const struct hw_page *pg, uint64_t pte)
{
	uint64_t gm = was->nonmappable_base;

	if (gm >= now->nonmappable_base && gm < now->nonmappable_base + now->nonmappable_size)
		gm = was->nonmappable_base + was->nonmappable_size - 4096;
	if (gm >= now->nonmappable_base && gm < now->nonmappable_base + now->nonmappable_size)
		return guest_audit(c, "the host moved the non-mappable range");
	return guest_out_of_reach(c, gm, pg, pte, "the range the host moved it away from");
}

/*
 * The entries the check mapped moved with the range, where the undo log
 * (which put back the old places) cannot follow: the check clears them itself,
 * and a clear that does not read back ends the run (ck_unrestored).
 */
static void clear_moved(struct check_ctx *c, const struct hw_pvinfo *now, const uint64_t *off)
{
	struct gtt_err err = { 0 };
	uint64_t zero = 0, got;

	for (unsigned k = 0; k < TAGGED; k++) {
		uint64_t index = (now->nonmappable_base + off[k]) / 4096;
		if (hw_ggtt_write_range_unlogged(c->dev, index, 1, &zero, &err) || hw_ggtt_read_pte(c->dev, index, &got, &err)) {
			ck_unrestored(c, "clearing an entry the host moved", &err);
			return;
		}
		if (got) {
			gtt_snprintf(err.msg, sizeof(err.msg), "PTE index %llu reads 0x%llx after its clear", (unsigned long long)index,
				     (unsigned long long)got);
			ck_unrestored(c, "clearing an entry the host moved", &err);
			return;
		}
	}
	hw_ggtt_invalidate_unlogged(c->dev);
}

static enum check_status migration(struct check_ctx *c, uint64_t *off, struct hw_pvinfo *now);

static enum check_status check_guest_migration(struct check_ctx *c)
{
	struct hw_pvinfo was = c->dev->info.pvinfo, now = was;
	uint64_t off[TAGGED] = { 0, 0, 0 };
	enum check_status st = migration(c, off, &now);

	if (now.nonmappable_base != was.nonmappable_base && now.nonmappable_size == was.nonmappable_size)
		clear_moved(c, &now, off);
	return st;
}

static enum check_status migration(struct check_ctx *c, uint64_t *off, struct hw_pvinfo *out)
{
	struct hw_pvinfo was = c->dev->info.pvinfo, now;
	uint64_t pte[TAGGED];
	struct gtt_err err = { 0 };
	struct hw_page *pg;
	unsigned polls = 0;

	if (!was.gm_channel)
		return ck_skip(c, "the mediator offers no request channel, so no EPOCH to poll (GTTLAB_IF_GM_MAGIC at 0x%x)",
			       GTTLAB_IF_GM_MAGIC);
	if (was.nonmappable_size < 3 * 4096)
		return ck_skip(c, "the vGPU's non-mappable slice has fewer than 3 pages");
	if (ck_pages(c, TAGGED, &pg))
		return CHECK_FAIL;
	off[0] = 0;
	off[1] = was.nonmappable_size / 2;
	off[2] = was.nonmappable_size - 4096;
	for (unsigned k = 0; k < TAGGED; k++) {
		guest_fill(c, &pg[k], k);
		if (guest_pte_for(c, &pg[k], &pte[k]) || ck_map(c, was.nonmappable_base + off[k], &pg[k], 1))
			return CHECK_FAIL;
	}
	uint32_t epoch = hw_mmio_read32(c->dev, GTTLAB_IF_GM_EPOCH);
	while (polls < POLLS && hw_mmio_read32(c->dev, GTTLAB_IF_GM_EPOCH) == epoch)
		polls++;
	if (polls == POLLS)
		return ck_skip(c, "the host changed no range while EPOCH (0x%x) was polled %u times", GTTLAB_IF_GM_EPOCH, POLLS);
	if (hw_detect_pvinfo(c->dev, &now, &err))
		return ck_error(c, "PVINFO re-read", &err);
	/* from here the vGPU's view is the new one, whatever the rest finds */
	c->dev->info.pvinfo = *out = now;
	ck_claim_high(c, &now);
	if (now.nonmappable_size != was.nonmappable_size)
		return ck_fail(c, "EPOCH moved with no request of this vGPU's, and PVINFO avail_rs.nonmappable_gmadr.size (0x%x) went from 0x%llx to 0x%llx",
			       VGT_IF_NONMAPPABLE_SIZE, (unsigned long long)was.nonmappable_size,
			       (unsigned long long)now.nonmappable_size);
	bool stayed = now.nonmappable_base == was.nonmappable_base;
	enum check_status st = moved_along(c, &now, off, pte, stayed ? "the host changed the vGPU (EPOCH), the range stayed"
									: "the host moved the non-mappable range");
	return st != CHECK_PASS || stayed ? st : left_behind(c, &was, &now, &pg[0], pte[0]);
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "guest-migration", "guest", "inside a vGPU: a move of its high range the host makes on its own (EPOCH) keeps the size, entries and bytes at their offsets, and leaves the old range out of reach",
	  REQ_GUEST | REQ_TEST_PAGES, 0, 0, check_guest_migration },
};

const struct check_rows checks_guest_migrate = { rows, sizeof(rows) / sizeof(rows[0]) };
