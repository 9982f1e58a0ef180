/* SPDX-License-Identifier: MIT */
#include "checks/runner.h"
#include "env/fmt.h"
#include "hw/backend_sim.h"
#include "hw/fence.h"
#include "hw/scanout.h"
#include "regs/pvinfo.h"

const char *check_status_name(enum check_status s)
{
	return s == CHECK_PASS ? "pass" : s == CHECK_FAIL ? "fail" : s == CHECK_SKIP ? "skip" : "abort";
}

bool runner_glob(const char *p, const char *n)
{
	/* iterative matcher with one backtrack point for the last `*` */
	const char *star = NULL, *mark = NULL;

	while (*n) {
		if (*p == '*') {
			star = p++;
			mark = n;
		} else if (*p == '?' || *p == *n) {
			p++;
			n++;
		} else if (star) {
			p = star + 1;
			n = ++mark;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return !*p;
}

int runner_select(const char *spec, const struct check **out, size_t cap, size_t *n, struct gtt_err *err)
{
	bool chosen[64] = { false };
	char pat[96];

	*n = 0;
	if (gtt_check_count() > 64)
		return gtt_err_set(err, GTT_EINVAL, "the check table has more than 64 checks");
	if (!spec || !*spec) {
		for (size_t i = 0; i < gtt_check_count(); i++)
			chosen[i] = true;
	} else {
		for (const char *s = spec; *s;) {
			size_t len = 0;
			while (s[len] && s[len] != ',')
				len++;
			if (!len || len >= sizeof(pat))
				return gtt_err_set(err, GTT_EINVAL, "'%s': empty or overlong pattern in the --run list", spec);
			gtt_memcpy(pat, s, len);
			pat[len] = '\0';
			bool any = false;
			for (size_t i = 0; i < gtt_check_count(); i++)
				if (!gtt_strcmp(pat, gtt_check(i)->suite) || runner_glob(pat, gtt_check(i)->name))
					chosen[i] = any = true;
			if (!any)
				return gtt_err_set(err, GTT_EINVAL, "'%s' names no check or suite (gttlab check --list shows them)", pat);
			s += len;
			if (*s == ',')
				s++;
		}
	}
	for (size_t i = 0; i < gtt_check_count() && *n < cap; i++)
		if (chosen[i])
			out[(*n)++] = gtt_check(i);
	return GTT_OK;
}

/*
 * Guest mode: the aperture below and above the vGPU's slice belongs to others,
 * as i915's intel_vgt_balloon reserves it. Written from out[at]; returns how many.
 */
static size_t ballooned(const struct hw_device *dev, struct runner_exclusion *out, size_t at, size_t max)
{
	const struct hw_pvinfo *pv = &dev->info.pvinfo;
	uint64_t end = pv->mappable_base + pv->mappable_size, ap = dev->info.aperture_size;
	size_t n = 0;

	if (!pv->active)
		return 0;
	if (pv->mappable_base) {
		if (at + n < max)
			out[at + n] = (struct runner_exclusion){ 0, pv->mappable_base, "ballooned (PVINFO: not this vGPU's aperture slice)", -1 };
		n++;
	}
	if (end < ap) {
		if (at + n < max)
			out[at + n] = (struct runner_exclusion){ end, ap, "ballooned (PVINFO: not this vGPU's aperture slice)", -1 };
		n++;
	}
	return n;
}

size_t runner_exclusions(struct hw_device *dev, const struct runner_opts *o, struct runner_exclusion *out, size_t max)
{
	struct hw_scanout sc[HW_SCANOUT_MAX];
	size_t found = 0, n = hw_scanout_scan(dev, sc, HW_SCANOUT_MAX, &found), total;

	/* more surfaces than any platform has: whatever max is, say more than it, so the caller refuses */
	if (found > n)
		return found + o->n_extra > max ? found + o->n_extra : max + 1;
	total = n + o->n_extra;
	for (size_t i = 0; i < n && i < max; i++)
		out[i] = (struct runner_exclusion){ sc[i].start, sc[i].end, sc[i].what, (int)sc[i].pipe };
	for (unsigned i = 0; i < o->n_extra && i < RUNNER_MAX_EXTRA && n + i < max; i++)
		out[n + i] = o->extra[i];
	return total + ballooned(dev, out, total, max);
}

void runner_exclusion_text(const struct runner_exclusion *x, char *buf, size_t size)
{
	if (x->pipe >= 0)
		gtt_snprintf(buf, size, "keeping off GGTT 0x%llx-0x%llx: %s of pipe %c is enabled", (unsigned long long)x->start,
			     (unsigned long long)x->end, x->what, 'A' + x->pipe);
	else
		gtt_snprintf(buf, size, "keeping off GGTT 0x%llx-0x%llx: %s", (unsigned long long)x->start,
			     (unsigned long long)x->end, x->what);
}

struct keep_off {
	struct runner_exclusion r[RUNNER_MAX_EXCLUDE + RUNNER_MAX_EXTRA + RUNNER_MAX_BALLOON];
	size_t n;
};

static bool overlaps(const struct keep_off *k, uint64_t a, uint64_t b)
{
	for (size_t i = 0; i < k->n; i++)
		if (a < k->r[i].end && k->r[i].start < b)
			return true;
	return false;
}

/* A claim window inside the aperture, clear of excluded ranges, from the middle up then down. */
static bool place_claim(struct hw_device *dev, const struct keep_off *o, uint64_t pages, uint64_t *gm)
{
	uint64_t ap = dev->info.aperture_size, len = pages * 4096, step = 1ull << 20;

	if (!pages) {
		*gm = ap / 2;
		return true;
	}
	for (uint64_t at = ap / 2; at + len <= ap; at += step)
		if (!overlaps(o, at, at + len)) {
			*gm = at;
			return true;
		}
	for (uint64_t at = ap / 2; at >= step; at -= step)
		if (!overlaps(o, at - step, at - step + len)) {
			*gm = at - step;
			return true;
		}
	return false;
}

static enum check_status unmet(struct hw_device *dev, const struct check *k, const struct keep_off *o,
			       struct check_ctx *c)
{
	const struct hw_vf *vf = &dev->info.vf;
	if ((k->requires & REQ_VF) && !vf->active)
		return ck_skip(c, "not an SR-IOV VF: %s", dev->info.plat->gen < 120 ? "VFs are gen12's" : "VF_CAP_REG bit 0 reads 0");
	if (vf->active && !(k->requires & REQ_VF))
		return ck_skip(c, "SR-IOV VF: the check needs the whole GPU (its aperture, fences or all of the GGTT); this VF has GGTT 0x%llx+0x%llx from GuC and no aperture",
			       (unsigned long long)vf->ggtt_start, (unsigned long long)vf->ggtt_size);
	if (vf->active && (k->requires & REQ_MODEL) && !hw_sim_model(dev))
		return ck_skip(c, "needs the simulated device's GSM as the PF sees it (the %s backend has none)", dev->ops->name);
	if (vf->active)
		return CHECK_PASS;
	if (!dev->info.aperture_size)
		return ck_skip(c, "%s has no aperture (BAR2, GMADR): every check reaches its GGTT pages through it",
			       dev->name);
	if (k->claim_fences && !dev->info.num_fences)
		return ck_skip(c, "%s has no fence registers (i915 gives a part without an aperture none)", dev->name);
	/* the guest checks say themselves what they do without fences (guest-outside: all are foreign) */
	if (k->claim_fences && dev->info.pvinfo.active && !dev->info.pvinfo.fence_num && !(k->requires & REQ_GUEST))
		return ck_skip(c, "guest mode: PVINFO gives this vGPU no fences (avail_rs.fence_num is 0)");
	if (dev->info.pvinfo.active && (k->requires & (REQ_NATIVE | REQ_WHOLE_GGTT)))
		return ck_skip(c, "guest mode: needs the whole GPU, and this vGPU has GM 0x%llx+0x%llx and 0x%llx+0x%llx, %u fences (PVINFO)",
			       (unsigned long long)dev->info.pvinfo.mappable_base, (unsigned long long)dev->info.pvinfo.mappable_size,
			       (unsigned long long)dev->info.pvinfo.nonmappable_base,
			       (unsigned long long)dev->info.pvinfo.nonmappable_size, dev->info.pvinfo.fence_num);
	if ((k->requires & REQ_GUEST) && !dev->info.pvinfo.active)
		return ck_skip(c, "not a vGPU: %s has no PVINFO page at 0x%x (VGT_MAGIC absent)", dev->name, VGT_PVINFO_PAGE);
	if ((k->requires & (REQ_GPU_ACCESS | REQ_MODEL)) && !hw_sim_model(dev))
		return ck_skip(c, "needs the simulated device's %s (the %s backend has none)",
			       k->requires & REQ_MODEL ? "access trace" : "GPU-side accessor", dev->ops->name);
	if ((k->requires & REQ_TEST_PAGES) && !dev->ops->alloc_pages)
		return ck_skip(c, "the %s backend cannot allocate test pages", dev->ops->name);
	if (k->requires & REQ_WHOLE_GGTT) {
		/* the runtime keeps the host's low range (from 0) away from guests */
		uint64_t host_low = dom0_default_host_low(dev->info.aperture_size);
		for (size_t i = 0; i < o->n; i++)
			if (o->r[i].end > host_low) {
				char what[160];
				runner_exclusion_text(&o->r[i], what, sizeof(what));
				return ck_skip(c, "a scanout surface lies in the Dom0 runtime's guest areas (from GM 0x%llx; %s)",
					       (unsigned long long)host_low, what);
			}
	}
	return CHECK_PASS;
}

uint64_t runner_check_seed(uint64_t run_seed, const char *name)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a 64 */

	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	uint64_t z = run_seed ^ h;		/* splitmix64's finalizer */
	z += 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A guest check claims the vGPU's slices whole (PVINFO): its aperture slice
 * and its non-mappable slice, where no scanout surface may lie.
 */
static enum check_status claim_slices(struct hw_device *dev, const struct keep_off *keep, struct check_ctx *c)
{
	const struct hw_pvinfo *pv = &dev->info.pvinfo;
	uint64_t lo = pv->mappable_base, lo_end = lo + pv->mappable_size;
	uint64_t hi = pv->nonmappable_base, hi_end = hi + pv->nonmappable_size;

	for (size_t i = 0; i < keep->n; i++) {
		const struct runner_exclusion *x = &keep->r[i];
		bool in_run = false;
		for (unsigned k = 1; k < pv->high_runs && k < GTTLAB_GM_MAX_RUNS; k++)
			in_run |= x->start < pv->run[k].base + pv->run[k].size && pv->run[k].base < x->end;
		if ((x->start < lo_end && lo < x->end) || (x->start < hi_end && hi < x->end) || in_run) {
			char what[160];
			runner_exclusion_text(x, what, sizeof(what));
			return ck_skip(c, "a surface lies in this vGPU's slices (%s)", what);
		}
	}
	c->claim_gm = lo;
	c->claim_pages = pv->mappable_size / 4096;
	ck_claim_high(c, pv);
	return CHECK_PASS;
}

/* Checks the requirements, places the claim clear of the surfaces kept off, runs the check. */
static enum check_status run_claimed(struct hw_device *dev, const struct check *k, const struct keep_off *keep,
				     struct check_ctx *c, struct check_result *r)
{
	enum check_status st = unmet(dev, k, keep, c);
	if (st != CHECK_PASS)
		return st;
	unsigned fences = dev->info.pvinfo.active ? dev->info.pvinfo.fence_num : dev->info.num_fences;
	c->claim_pages = k->claim_pages;
	c->claim_fence_first = 0;
	c->claim_fences = k->claim_fences == ~0u ? fences : k->claim_fences < fences ? k->claim_fences : fences;
	if (k->requires & REQ_VF) {
		/* the range GuC gave (none when the bootstrap failed: the checks say so themselves) */
		c->claim_gm = dev->info.vf.ggtt_start;
		c->claim_pages = dev->info.vf.ggtt_size / 4096;
	} else if (k->requires & REQ_GUEST)
		st = claim_slices(dev, keep, c);
	else if (!place_claim(dev, keep, k->claim_pages, &c->claim_gm))
		st = ck_skip(c, "no %u-page window of the aperture is clear of the scanout surfaces", k->claim_pages);
	if (st != CHECK_PASS)
		return st;
	r->claim_gm = c->claim_gm;
	r->claim_pages = (unsigned)c->claim_pages;
	return k->run(c);
}

/* Restores the device to the mark and writes the result; returns whether it was put back. */
static bool settle(struct hw_device *dev, struct check_ctx *c, size_t mark, enum check_status st,
		   struct check_result *r)
{
	struct gtt_err err = { 0 };
	char why[GTT_ERR_MSG_MAX];

	if (dev->ops->lost && dev->ops->lost(dev->ctx, why, sizeof(why))) {
		/* nothing answers any more: no verdict, and nothing can be put back there */
		r->status = CHECK_ABORT;
		gtt_snprintf(r->reason, sizeof(r->reason), "device lost: %s (the check itself: %s%s%s)", why,
			     check_status_name(st), st == CHECK_PASS ? "" : ": ", st == CHECK_PASS ? "" : c->reason);
		return false;
	}
	bool restored = !hw_undo_restore_to(dev, mark, &err);
	if (!restored && dev->ops->lost && dev->ops->lost(dev->ctx, why, sizeof(why))) {
		/* lost while being put back: that is why nothing read back */
		r->status = CHECK_ABORT;
		gtt_snprintf(r->reason, sizeof(r->reason), "device lost: %s (while restoring after the check: %s%s%s)", why,
			     check_status_name(st), st == CHECK_PASS ? "" : ": ", st == CHECK_PASS ? "" : c->reason);
		return false;
	}
	if (c->unrestored[0]) {
		/* a restore the check made itself (the Dom0 runtime's) did not read back */
		if (restored)
			gtt_snprintf(err.msg, sizeof(err.msg), "%s", c->unrestored);
		restored = false;
	}
	if (st != CHECK_PASS && !c->reason[0])
		gtt_snprintf(c->reason, sizeof(c->reason), "%s without a reason", check_status_name(st));
	if (restored) {
		for (unsigned a = 0; a < c->n_allocs; a++) {
			hw_free_test_pages(dev, c->allocs[a].n, c->allocs[a].pages);
			dev->env->free(dev->env, c->allocs[a].pages);
		}
		r->status = st;
		gtt_snprintf(r->reason, sizeof(r->reason), "%s", st == CHECK_PASS ? "" : c->reason);
	} else {
		/* the check's own outcome is kept beside what could not be restored; its
		 * test pages stay allocated, since PTEs may still name them */
		r->status = CHECK_ABORT;
		for (unsigned a = 0; a < c->n_allocs; a++)
			r->pages_kept += (unsigned)c->allocs[a].n;
		gtt_snprintf(r->reason, sizeof(r->reason), "device not restored: %s (the check itself: %s%s%s)%s",
			     err.msg, check_status_name(st), st == CHECK_PASS ? "" : ": ", st == CHECK_PASS ? "" : c->reason,
			     c->n_allocs ? "; its test pages are kept" : "");
	}
	return restored;
}

size_t runner_run(struct hw_device *dev, const struct check *const *sel, size_t n, const struct runner_opts *o,
		  struct check_result *results)
{
	struct keep_off keep;
	size_t i;

	size_t cap = sizeof(keep.r) / sizeof(keep.r[0]);
	keep.n = runner_exclusions(dev, o, keep.r, cap);
	if (keep.n > cap || o->n_extra > RUNNER_MAX_EXTRA) {
		/* a surface left out would be a surface a check may overwrite: run nothing */
		if (!n)
			return 0;
		results[0] = (struct check_result){ .check = sel[0], .status = CHECK_ABORT,
						    .seed = runner_check_seed(o->seed, sel[0]->name) };
		gtt_snprintf(results[0].reason, sizeof(results[0].reason),
			     "no check run: %zu scanout surfaces and front-end ranges to keep off, more than the %zu the runner holds; nothing was written",
			     keep.n, cap);
		return 1;
	}
	if (o->keeping_off)
		o->keeping_off(o->ctx, keep.r, keep.n);
	for (i = 0; i < n; i++) {
		const struct check *k = sel[i];
		struct check_result *r = &results[i];
		struct check_ctx c = { .dev = dev, .check = k, .seed = runner_check_seed(o->seed, k->name),
				       .open_peer = o->open_peer, .peer_ctx = o->peer_ctx };
#ifdef GTTLAB_FAULTS
		c.faults = o->faults;
#endif
		if (o->cancel && *o->cancel)
			break;
		if (o->progress)
			o->progress(o->ctx, i, n, k, NULL);
		r->check = k;
		r->seed = c.seed;
		r->claim_gm = 0;
		r->claim_pages = 0;
		r->pages_kept = 0;
		uint64_t t0 = dev->env->now_ns(dev->env);
		size_t mark = hw_undo_mark(dev);
		enum check_status st = run_claimed(dev, k, &keep, &c, r);
		bool restored = settle(dev, &c, mark, st, r);
		r->ns = dev->env->now_ns(dev->env) - t0;
		if (o->progress)
			o->progress(o->ctx, i, n, k, r);
		if (!restored)
			return i + 1;	/* nothing more runs on a device that could not be put back */
	}
	return i;
}

void runner_totals(const struct check_result *r, size_t n, size_t ran, struct run_totals *t)
{
	*t = (struct run_totals){ 0 };
	for (size_t i = 0; i < n; i++) {
		if (i >= ran) {
			t->notrun++;
			continue;
		}
		t->pass += r[i].status == CHECK_PASS;
		t->fail += r[i].status == CHECK_FAIL;
		t->skip += r[i].status == CHECK_SKIP;
		t->abort += r[i].status == CHECK_ABORT;
		t->ns += r[i].ns;
	}
}
