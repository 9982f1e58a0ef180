/* SPDX-License-Identifier: MIT */
/*
 * guest-resize: slot resizing seen from inside (gBalloon §3, over gttlab's
 * request channel in PVINFO, regs/pvinfo.h). A malformed request is refused
 * and changes nothing; an expansion by two slots is answered GRANTED with
 * PVINFO's non-mappable range two slots larger around the old one, whose
 * entries and bytes stay — where the host makes it wait for admission
 * (PAUSED, ConVGPU), the vGPU's GPU work does not run until it is granted;
 * a reduction by two slots gives the range back to
 * its old size, the kept part keeps its bytes, and the released part is out
 * of reach: its entries do not take writes and the GPU side does not reach
 * the guest's pages there. The device's PVINFO view follows the answers.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_guest_common.h"
#include "hw/detect_pvinfo.h"
#include "hw/ggtt.h"
#include "regs/pvinfo.h"

#define POLLS 100000
#define GROW 2		/* slots asked for: more than one release must come before a waiting request fits */

static const char *status_name(uint32_t st)
{
	static const char *const names[] = { "IDLE", "PENDING", "GRANTED", "NOTED", "REFUSED_POLICY", "REFUSED_ROOM",
					     "BAD_CODE", "BAD_COUNT", "BAD_WRITE", "BUSY", "PAUSED", "WITHDRAWN" };

	return st < sizeof(names) / sizeof(names[0]) ? names[st] : "unknown";
}

/*
 * One request: CODE, COUNT and SEQ through the logged write path (the runner
 * puts them back), then the doorbell — unlogged, since putting a doorbell
 * "back" would ring it again — then poll STATUS until ANSWER_SEQ is ours
 * and the answer is final. While the answer is PAUSED, GPU work at `probe`
 * (a page of its own; 0: none) must not run: a read that completes while
 * STATUS still says PAUSED afterwards is recorded in *ran_paused.
 */
static int request(struct check_ctx *c, uint32_t code, uint32_t count, uint64_t probe, bool *ran_paused,
		   uint32_t *status)
{
	struct hw_device *d = c->dev;
	uint32_t seq = hw_mmio_read32(d, GTTLAB_IF_GM_SEQ) + 1;
	struct gtt_err err = { 0 };
	uint8_t buf[64];

	if (!seq)
		seq = 1;
	if (hw_mmio_write32(d, GTTLAB_IF_GM_CODE, code) || hw_mmio_write32(d, GTTLAB_IF_GM_COUNT, count) ||
	    hw_mmio_write32(d, GTTLAB_IF_GM_SEQ, seq)) {
		ck_fail(c, "request channel: writing CODE/COUNT/SEQ at 0x%x refused: %s", GTTLAB_IF_GM_CODE, hw_write_refused(d));
		return GTT_EIO;
	}
	hw_raw_mmio_put(d, VGT_IF_G2V_NOTIFY, 4, GTTLAB_G2V_GM_REQUEST);
	for (unsigned i = 0; i < POLLS; i++) {
		uint32_t st = hw_mmio_read32(d, GTTLAB_IF_GM_STATUS);
		bool ours = hw_mmio_read32(d, GTTLAB_IF_GM_ANSWER_SEQ) == seq;
		if (ours && st != GTTLAB_GM_ST_PENDING && st != GTTLAB_GM_ST_PAUSED) {
			*status = st;
			return GTT_OK;
		}
		if (ours && st == GTTLAB_GM_ST_PAUSED && probe && d->ops->gpu_read && ran_paused && !*ran_paused &&
		    !hw_gpu_read(d, probe, buf, sizeof(buf), &err) && hw_mmio_read32(d, GTTLAB_IF_GM_STATUS) == GTTLAB_GM_ST_PAUSED)
			*ran_paused = true;
	}
	ck_fail(c, "request channel: code %u count %u (SEQ %u) not answered after %u polls of STATUS at 0x%x", code, count,
		seq, POLLS, GTTLAB_IF_GM_STATUS);
	return GTT_EIO;
}

static int reread(struct check_ctx *c, struct hw_pvinfo *pv)
{
	struct gtt_err err = { 0 };
	int rc = hw_detect_pvinfo(c->dev, pv, &err);

	if (rc)
		ck_error(c, "PVINFO re-read", &err);
	return rc;
}

/* The run of pv's high slice that holds gm; -1 none. */
static int run_of(const struct hw_pvinfo *pv, uint64_t gm)
{
	for (unsigned i = 0; i < pv->high_runs && i < GTTLAB_GM_MAX_RUNS; i++)
		if (gm >= pv->run[i].base && gm - pv->run[i].base < pv->run[i].size)
			return (int)i;
	return -1;
}

static bool inside(const struct hw_pvinfo *pv, uint64_t gm)
{
	return run_of(pv, gm) >= 0;
}

/* The high slice's bytes in all its runs. */
static uint64_t high_total(const struct hw_pvinfo *pv)
{
	uint64_t n = 0;

	for (unsigned i = 0; i < pv->high_runs && i < GTTLAB_GM_MAX_RUNS; i++)
		n += pv->run[i].size;
	return n;
}

/* The lowest page of big's high slice that small's does not hold; 0 none. */
static uint64_t first_new(const struct hw_pvinfo *big, const struct hw_pvinfo *small)
{
	for (unsigned i = 0; i < big->high_runs && i < GTTLAB_GM_MAX_RUNS; i++)
		for (uint64_t gm = big->run[i].base; gm < big->run[i].base + big->run[i].size;) {
			int k = run_of(small, gm);
			if (k < 0)
				return gm;
			gm = small->run[k].base + small->run[k].size;
		}
	return 0;
}

/* Tagged pages that are still inside pv's range: same PTE, same bytes GPU-side. */
static enum check_status kept(struct check_ctx *c, const struct hw_pvinfo *pv, const uint64_t *gm, const uint64_t *pte,
			      unsigned n, const char *after)
{
	for (unsigned k = 0; k < n; k++) {
		enum check_status st = inside(pv, gm[k]) ? guest_page_stays(c, gm[k], k, pte[k], after) : CHECK_PASS;
		if (st != CHECK_PASS)
			return st;
	}
	return CHECK_PASS;
}

/* The answer and PVINFO after it: GRANTED, the size as asked, the old range inside the new one when growing. */
static enum check_status answered(struct check_ctx *c, uint32_t code, uint32_t st, const struct hw_pvinfo *was,
				  struct hw_pvinfo *now)
{
	uint64_t slot = GROW * (uint64_t)was->slot_size, want = code == GTTLAB_GM_REQ_EXPAND ? high_total(was) + slot
											: high_total(was) - slot;
	const char *what = code == GTTLAB_GM_REQ_EXPAND ? "an expansion" : "a reduction";

	if (st != GTTLAB_GM_ST_GRANTED)
		return ck_fail(c, "%s by %u slots was answered %s (STATUS %u at 0x%x), not GRANTED", what, GROW, status_name(st), st,
			       GTTLAB_IF_GM_STATUS);
	if (reread(c, now))
		return CHECK_FAIL;
	if (high_total(now) != want)
		return ck_fail(c, "after %s by %u slots GRANTED, PVINFO avail_rs.nonmappable_gmadr.size (0x%x) is 0x%llx%s, not 0x%llx",
			       what, GROW, VGT_IF_NONMAPPABLE_SIZE, (unsigned long long)high_total(now),
			       now->high_runs > 1 ? " over its runs" : "", (unsigned long long)want);
	const struct hw_pvinfo *big = code == GTTLAB_GM_REQ_EXPAND ? now : was, *small = big == now ? was : now;
	uint64_t out = first_new(small, big);
	if (out)
		return ck_fail(c, "after %s, GM 0x%llx is in the smaller of PVINFO's non-mappable ranges (now 0x%llx+0x%llx in %u runs, before 0x%llx+0x%llx in %u) and not in the larger: not one inside the other",
			       what, (unsigned long long)out, (unsigned long long)now->nonmappable_base,
			       (unsigned long long)now->nonmappable_size, now->high_runs, (unsigned long long)was->nonmappable_base,
			       (unsigned long long)was->nonmappable_size, was->high_runs);
	return CHECK_PASS;
}

/* The released part: no write there takes, and the GPU side does not reach the guest's page there. */
static enum check_status released(struct check_ctx *c, const struct hw_pvinfo *big, const struct hw_pvinfo *now,
				  const struct hw_page *pg, uint64_t pte)
{
	return guest_out_of_reach(c, first_new(big, now), pg, pte, "the slots a reduction released");
}

static enum check_status check_guest_resize(struct check_ctx *c)
{
	struct hw_pvinfo was = c->dev->info.pvinfo, big, now;
	uint64_t gm[3], pte[3];
	struct hw_page *pg;
	uint32_t st;
	enum check_status r;

	if (!was.gm_channel || !was.slot_size)
		return ck_skip(c, "the mediator offers no request channel (GTTLAB_IF_GM_MAGIC at 0x%x)", GTTLAB_IF_GM_MAGIC);
	if (was.nonmappable_size < was.slot_size)
		return ck_skip(c, "the vGPU holds no whole slot of high memory to resize");
	if (!was.high_runs || was.high_runs > GTTLAB_GM_MAX_RUNS)	/* detection refuses such a page; its run table is this long */
		return ck_fail(c, "PVINFO names %u runs of high memory: 1 to %d", was.high_runs, GTTLAB_GM_MAX_RUNS);
	if (request(c, GTTLAB_GM_REQ_EXPAND, 0, 0, NULL, &st))
		return CHECK_FAIL;
	if (st != GTTLAB_GM_ST_BAD_COUNT)
		return ck_fail(c, "an expansion by 0 slots was answered %s (STATUS %u), not BAD_COUNT", status_name(st), st);
	if (reread(c, &now))
		return CHECK_FAIL;
	if (now.nonmappable_base != was.nonmappable_base || now.nonmappable_size != was.nonmappable_size ||
	    high_total(&now) != high_total(&was))
		return ck_fail(c, "a refused request moved PVINFO's non-mappable range to 0x%llx+0x%llx (%u runs, 0x%llx in all)",
			       (unsigned long long)now.nonmappable_base, (unsigned long long)now.nonmappable_size, now.high_runs,
			       (unsigned long long)high_total(&now));
	/* tags at both ends of the high range */
	if (ck_pages(c, 3, &pg))
		return CHECK_FAIL;
	gm[0] = was.nonmappable_base;
	gm[1] = was.run[was.high_runs - 1].base + was.run[was.high_runs - 1].size - 4096;	/* the last run's end */
	for (unsigned k = 0; k < 3; k++) {
		guest_fill(c, &pg[k], k);
		if (guest_pte_for(c, &pg[k], &pte[k]) || (k < 2 && ck_map(c, gm[k], &pg[k], 1)))
			return CHECK_FAIL;
	}
	bool ran_paused = false;
	if (request(c, GTTLAB_GM_REQ_EXPAND, GROW, gm[0], &ran_paused, &st))
		return CHECK_FAIL;
	if (ran_paused)
		return ck_fail(c, "GPU work at GM 0x%llx ran while its expansion was PAUSED (STATUS at 0x%x): a waiting vGPU is not scheduled (ConVGPU)",
			       (unsigned long long)gm[0], GTTLAB_IF_GM_STATUS);
	if (st == GTTLAB_GM_ST_REFUSED_ROOM || st == GTTLAB_GM_ST_REFUSED_POLICY)
		return ck_skip(c, "the mediator refused an expansion by %u slots (%s): nothing to resize", GROW, status_name(st));
	if ((r = answered(c, GTTLAB_GM_REQ_EXPAND, st, &was, &big)) != CHECK_PASS ||
	    (r = kept(c, &big, gm, pte, 2, "an expansion")) != CHECK_PASS || (r = guest_audit(c, "an expansion")) != CHECK_PASS)
		return r;
	/* the new slot takes entries and reaches its page */
	ck_claim_high(c, &big);
	gm[2] = first_new(&big, &was);
	if (ck_map(c, gm[2], &pg[2], 1) || (r = kept(c, &big, gm, pte, 3, "mapping the new slot")) != CHECK_PASS)
		return r == CHECK_PASS ? CHECK_FAIL : r;
	if (request(c, GTTLAB_GM_REQ_REDUCE, GROW, 0, NULL, &st))
		return CHECK_FAIL;
	if ((r = answered(c, GTTLAB_GM_REQ_REDUCE, st, &big, &now)) != CHECK_PASS)
		return r;
	/* from here the vGPU's view is the new one, whatever the rest finds */
	c->dev->info.pvinfo = now;
	ck_claim_high(c, &now);
	if ((r = kept(c, &now, gm, pte, 3, "a reduction")) != CHECK_PASS)
		return r;
	return released(c, &big, &now, &pg[0], pte[0]);
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "guest-resize", "guest", "inside a vGPU: over the request channel a slot is granted and given back; PVINFO follows, kept bytes stay, the released slot is out of reach",
	  REQ_GUEST | REQ_TEST_PAGES, 0, 0, check_guest_resize },
};

const struct check_rows checks_guest_resize = { rows, sizeof(rows) / sizeof(rows[0]) };
