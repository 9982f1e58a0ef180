/* SPDX-License-Identifier: MIT */
/* The check runner, its reporters and gttlab check. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/version.h"
#include "checks/report.h"
#include "checks/runner.h"
#include "checks/test_faults.h"
#include "hw/ggtt.h"
#include "tests/check_helpers.h"
#include "tests/dom0_helpers.h"
#include "tests/scanout_layout.h"

static uint64_t rogue_index;

/* A check that writes a PTE outside its claim: the helper must refuse and fail it. */
static enum check_status rogue(struct check_ctx *c)
{
	rogue_index = c->claim_gm / 4096 + c->claim_pages;	/* one past the end */
	if (ck_pte_write(c, rogue_index, 0x1001))
		return CHECK_FAIL;
	return CHECK_PASS;
}

Test(runner, a_check_cannot_touch_outside_its_claim)
{
	struct hw_device *dev = t_open("sim:skl");
	static const struct check k = { "rogue", "test", "writes outside its claim", 0, 4, 0, rogue };
	const struct check *sel[1] = { &k };
	struct runner_opts o = { 0 };
	struct check_result r;
	uint64_t before;

	hw_ggtt_read_pte(dev, dev->info.aperture_size / 2 / 4096 + 4, &before, NULL);
	cr_assert_eq(runner_run(dev, sel, 1, &o, &r), 1);
	cr_expect_eq(r.status, CHECK_FAIL);
	cr_expect(strstr(r.reason, "outside its claim") && strstr(r.reason, "PTE index"), "%s", r.reason);
	uint64_t after;
	hw_ggtt_read_pte(dev, rogue_index, &after, NULL);
	cr_expect_eq(after, before, "the refused PTE write reached the device");
	hw_close(dev);
}

Test(runner, the_device_is_restored_whatever_the_outcome)
{
	struct d0 t;
	size_t n1, n2, n;
	const struct check *sel[64];
	struct check_faults f = { .dom0 = { .swap_copy_pair = true, .keep_released_slots = true } };

	t.dev = t_open("sim:hsw");
	t.sim = t_sim(t.dev);
	uint8_t *before = d0_capture(&t, &n1);
	cr_assert_eq(runner_select(NULL, sel, 64, &n, NULL), 0);
	struct check_result *r = calloc(n, sizeof(*r));
	sim_fault_drop_writes(t.sim, 0x101008, 3);	/* some checks fail on their first flushes */
	struct runner_opts o = { .faults = &f };
	cr_assert_eq(runner_run(t.dev, sel, n, &o, r), n);
	struct run_totals tot;
	runner_totals(r, n, n, &tot);
	cr_assert_gt(tot.fail, 0, "nothing failed: the test proves nothing");
	sim_fault_clear(t.sim);
	uint8_t *after = d0_capture(&t, &n2);
	for (size_t i = 0; i < n1; i++)
		cr_assert_eq(after[i], before[i], "byte %zu of GSM+fences differs after %u failing and %u passing checks", i,
			     tot.fail, tot.pass);
	free(r);
	free(before);
	free(after);
	hw_close(t.dev);
}

/* What runner_run reports through its keeping_off callback. */
struct kept {
	unsigned calls;
	size_t n;
	struct runner_exclusion x[RUNNER_MAX_EXCLUDE + RUNNER_MAX_EXTRA];
};

static void note_kept(void *ctx, const struct runner_exclusion *x, size_t n)
{
	struct kept *k = ctx;

	k->calls++;
	k->n = n;
	for (size_t i = 0; i < n && i < sizeof(k->x) / sizeof(k->x[0]); i++)
		k->x[i] = x[i];
}

/*
 * The range kept clear of a linear 1920x1080 plane at 4 bytes a pixel scanning out from
 * GM `surf`, by the rule hw/scanout.h documents: the surface, widened by 1 MiB on either side.
 */
static void plane_range(uint64_t surf, uint64_t *lo, uint64_t *hi)
{
	*lo = surf - (1u << 20);
	*hi = surf + 1920 * 4 * 1080 + (1u << 20);
}

/* No PTE write in the model's trace and no recorded claim lies in [lo, hi); at least one claim. */
static void expect_clear(struct hw_device *dev, struct sim_device *s, const struct check_result *r, size_t k, uint64_t lo,
			 uint64_t hi)
{
	struct sim_trace_entry e;
	unsigned claims = 0;

	for (size_t i = 0; sim_trace_get(s, i, &e); i++) {
		if (e.kind != SIM_MMIO_WRITE || e.addr < dev->info.gsm_offset)
			continue;
		uint64_t gm = (e.addr - dev->info.gsm_offset) / dev->info.pte_size * 4096;
		cr_assert(gm < lo || gm >= hi, "%s: a check wrote the PTE of GM 0x%llx, behind 0x%llx-0x%llx",
			  dev->info.plat->name, (unsigned long long)gm, (unsigned long long)lo, (unsigned long long)hi);
	}
	for (size_t i = 0; i < k; i++) {
		cr_expect_neq(r[i].status, CHECK_FAIL, "%s on %s: %s", r[i].check->name, dev->info.plat->name, r[i].reason);
		cr_expect_neq(r[i].status, CHECK_ABORT, "%s on %s: %s", r[i].check->name, dev->info.plat->name, r[i].reason);
		uint64_t a = r[i].claim_gm, b = a + r[i].claim_pages * 4096ull;
		claims += r[i].claim_pages != 0;
		cr_expect(!r[i].claim_pages || b <= lo || a >= hi, "%s on %s claimed 0x%llx-0x%llx, behind 0x%llx-0x%llx",
			  r[i].check->name, dev->info.plat->name, (unsigned long long)a, (unsigned long long)b,
			  (unsigned long long)lo, (unsigned long long)hi);
		cr_expect(!r[i].claim_pages || b <= dev->info.aperture_size, "%s: claim 0x%llx-0x%llx beyond the aperture",
			  r[i].check->name, (unsigned long long)a, (unsigned long long)b);
	}
	cr_expect_gt(claims, 0, "%s: no check recorded a claim", dev->info.plat->name);
}

Test(runner, claims_keep_off_an_enabled_plane)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	uint64_t mid = dev->info.aperture_size / 2, lo, hi;

	/* a 1920x1080 linear primary plane scanning out from the middle of the aperture */
	sim_mmio_write32(s, 0x70188, 1920 * 4 / 64);		/* PLANE_STRIDE_1_A, 64-byte units */
	sim_mmio_write32(s, 0x70190, (1079u << 16) | 1919u);	/* PLANE_SIZE_1_A */
	sim_mmio_write32(s, 0x7019c, (uint32_t)mid);		/* PLANE_SURF_1_A */
	sim_mmio_write32(s, 0x70180, 1u << 31);			/* PLANE_CTL_1_A: enabled, linear */
	plane_range(mid, &lo, &hi);
	/* the runner finds the plane itself: nothing is passed to it, and it says what it used */
	struct kept kept = { 0 };
	struct runner_opts o = { .keeping_off = note_kept, .ctx = &kept };
	const struct check *sel[16];
	size_t k;
	cr_assert_eq(runner_select("ggtt,aperture,fence", sel, 16, &k, NULL), 0);
	struct check_result r[16];
	cr_assert_eq(sim_trace_start(s, 1 << 20), 0);
	cr_assert_eq(runner_run(dev, sel, k, &o, r), k);
	cr_expect_eq(kept.calls, 1, "keeping_off called %u times in one run", kept.calls);
	cr_assert_eq(kept.n, 1);
	cr_expect(kept.x[0].start == lo && kept.x[0].end == hi && kept.x[0].pipe == 0, "0x%llx-0x%llx pipe %d",
		  (unsigned long long)kept.x[0].start, (unsigned long long)kept.x[0].end, kept.x[0].pipe);
	char line[160], want[160];
	runner_exclusion_text(&kept.x[0], line, sizeof(line));
	snprintf(want, sizeof(want), "keeping off GGTT 0x%llx-0x%llx: primary plane of pipe A is enabled",
		 (unsigned long long)lo, (unsigned long long)hi);
	cr_expect_str_eq(line, want);
	expect_clear(dev, s, r, k, lo, hi);
	/* the Dom0 checks cannot keep off a plane in the guest areas: they skip, saying why */
	cr_assert_eq(runner_select("shadow-copy-switch", sel, 16, &k, NULL), 0);
	runner_run(dev, sel, k, &o, r);
	cr_expect_eq(r[0].status, CHECK_SKIP);
	cr_expect(strstr(r[0].reason, "scanout surface"), "%s", r[0].reason);
	hw_close(dev);
}

Test(runner, no_plane_no_exclusion_and_claims_from_the_middle)
{
	struct hw_device *dev = t_open("sim:skl");
	struct kept kept = { 0 };
	struct runner_opts o = { .keeping_off = note_kept, .ctx = &kept };
	const struct check *sel[16];
	size_t k;
	struct check_result r[16];

	cr_assert_eq(runner_select("ggtt-pte-readback", sel, 16, &k, NULL), 0);
	cr_assert_eq(runner_run(dev, sel, k, &o, r), 1);
	cr_expect_eq(kept.calls, 1);
	cr_expect_eq(kept.n, 0, "the model's planes are off, yet %zu ranges were kept off", kept.n);
	cr_expect_eq(r[0].status, CHECK_PASS, "%s", r[0].reason);
	cr_expect_eq(r[0].claim_gm, dev->info.aperture_size / 2);
	cr_expect_eq(r[0].claim_pages, sel[0]->claim_pages);
	hw_close(dev);
}

/* A front-end's own range (the EFI GOP framebuffer) is kept off too, and said after the planes. */
Test(runner, extra_ranges_of_the_front_end_are_kept_off)
{
	struct hw_device *dev = t_open("sim:skl");
	struct sim_device *s = t_sim(dev);
	uint64_t mid = dev->info.aperture_size / 2, lo, hi;
	struct kept kept = { 0 };
	struct runner_opts o = { .keeping_off = note_kept, .ctx = &kept, .n_extra = 1 };

	/* a cursor on pipe B, low in the aperture, read from the registers */
	sim_mmio_write32(s, 0x71084, 0x400000);			/* CURBASE pipe B */
	sim_mmio_write32(s, 0x71080, 0x27);			/* CURCNTR pipe B: 64x64 ARGB */
	plane_range(mid, &lo, &hi);
	o.extra[0] = (struct runner_exclusion){ lo, hi, "GOP framebuffer", -1 };
	const struct check *sel[16];
	size_t k;
	struct check_result r[16];
	cr_assert_eq(runner_select("ggtt,aperture,fence", sel, 16, &k, NULL), 0);
	cr_assert_eq(sim_trace_start(s, 1 << 20), 0);
	cr_assert_eq(runner_run(dev, sel, k, &o, r), k);
	cr_assert_eq(kept.n, 2);
	cr_expect(kept.x[0].start == 0x300000 && kept.x[0].end == 0x400000 + 256 * 256 * 4 + 0x100000 &&
		  kept.x[0].pipe == 1, "cursor 0x%llx-0x%llx pipe %d", (unsigned long long)kept.x[0].start,
		  (unsigned long long)kept.x[0].end, kept.x[0].pipe);
	cr_expect(kept.x[1].start == lo && kept.x[1].end == hi && kept.x[1].pipe == -1);
	char line[160], want[160];
	runner_exclusion_text(&kept.x[0], line, sizeof(line));
	cr_expect_str_eq(line, "keeping off GGTT 0x300000-0x540000: cursor of pipe B is enabled");
	runner_exclusion_text(&kept.x[1], line, sizeof(line));
	snprintf(want, sizeof(want), "keeping off GGTT 0x%llx-0x%llx: GOP framebuffer", (unsigned long long)lo,
		 (unsigned long long)hi);
	cr_expect_str_eq(line, want);
	expect_clear(dev, s, r, k, lo, hi);
	expect_clear(dev, s, r, k, 0x300000, 0x540000);
	hw_close(dev);
}

/* The test fault every front-end's proof uses: on each platform, the plane is found and kept clear. */
Test(runner, the_plane_fault_is_kept_clear_on_every_platform)
{
	for (size_t p = 0; p < gtt_num_platforms; p++) {
		char spec[32];
		if (!gtt_platform_simulated(&gtt_platforms[p]))
			continue;
		snprintf(spec, sizeof(spec), "sim:%s", gtt_platforms[p].name);
		struct hw_device *dev = t_open(spec);
		struct sim_device *s = t_sim(dev);
		struct gtt_err err = { 0 };
		uint64_t lo, hi;
		cr_assert_eq(test_fault_inject(dev, "plane", &err), 0, "%s: %s", spec, err.msg);
		plane_range(dev->info.aperture_size / 2, &lo, &hi);
		struct kept kept = { 0 };
		struct runner_opts o = { .keeping_off = note_kept, .ctx = &kept };
		const struct check *sel[16];
		size_t k;
		struct check_result r[16];
		cr_assert_eq(runner_select("ggtt,aperture,fence", sel, 16, &k, NULL), 0);
		cr_assert_eq(sim_trace_start(s, 1 << 20), 0);
		cr_assert_eq(runner_run(dev, sel, k, &o, r), k);
		cr_assert_eq(kept.n, 1, "%s: %zu ranges", spec, kept.n);
		cr_expect(kept.x[0].start == lo && kept.x[0].end == hi && kept.x[0].pipe == 0 &&
			  !strcmp(kept.x[0].what, "primary plane"), "%s: %s 0x%llx-0x%llx pipe %d, not 0x%llx-0x%llx", spec,
			  kept.x[0].what, (unsigned long long)kept.x[0].start, (unsigned long long)kept.x[0].end,
			  kept.x[0].pipe, (unsigned long long)lo, (unsigned long long)hi);
		expect_clear(dev, s, r, k, lo, hi);
		hw_close(dev);
	}
}

static void sim_put32(void *ctx, uint32_t off, uint32_t val)
{
	sim_mmio_write32(ctx, off, val);
}

/*
 * Nothing a run did lies in any surface: no recorded claim, no PTE write of
 * the model's trace (by the GGTT address it maps) and no aperture write.
 */
static void expect_outside_every_surface(struct hw_device *dev, struct sim_device *s, const struct check_result *r,
					 size_t k, const struct t_surface *sf, size_t n)
{
	struct sim_trace_entry e;
	unsigned claims = 0;

	for (size_t i = 0; sim_trace_get(s, i, &e); i++) {
		uint64_t a, b;
		if (e.kind == SIM_MMIO_WRITE && e.addr >= dev->info.gsm_offset) {
			a = (e.addr - dev->info.gsm_offset) / dev->info.pte_size * 4096;
			b = a + 4096;
		} else if (e.kind == SIM_APERTURE_WRITE) {
			a = e.addr;
			b = e.addr + e.width;
		} else {
			continue;
		}
		for (size_t j = 0; j < n; j++)
			cr_assert(b <= sf[j].start || a >= sf[j].end, "%s: a %s write at GM 0x%llx lies in the %s of pipe %c (0x%llx-0x%llx)",
				  dev->info.plat->name, e.kind == SIM_APERTURE_WRITE ? "aperture" : "PTE", (unsigned long long)a,
				  sf[j].what, 'A' + sf[j].pipe, (unsigned long long)sf[j].start, (unsigned long long)sf[j].end);
	}
	for (size_t i = 0; i < k; i++) {
		cr_expect(r[i].status == CHECK_PASS || r[i].status == CHECK_SKIP, "%s on %s: %s %s", r[i].check->name,
			  dev->info.plat->name, check_status_name(r[i].status), r[i].reason);
		if (!r[i].claim_pages)
			continue;
		claims++;
		uint64_t a = r[i].claim_gm, b = a + r[i].claim_pages * 4096ull;
		for (size_t j = 0; j < n; j++)
			cr_expect(b <= sf[j].start || a >= sf[j].end, "%s on %s claimed 0x%llx-0x%llx, in the %s of pipe %c",
				  r[i].check->name, dev->info.plat->name, (unsigned long long)a, (unsigned long long)b, sf[j].what,
				  'A' + sf[j].pipe);
	}
	cr_expect_gt(claims, 0, "%s: no check recorded a claim", dev->info.plat->name);
}

/*
 * Issue 23: every primary plane, universal plane, sprite and cursor of each
 * modelled platform enabled at once (32 on Tiger Lake), tiling the aperture
 * above 4 MiB. The runner keeps off every one, in the order it reads them,
 * and nothing any check writes lands in one; a surface left out would be the
 * hole the next claim falls into.
 */
Test(runner, every_surface_of_every_platform_is_kept_off, .timeout = 300)
{
	for (size_t p = 0; p < gtt_num_platforms; p++) {
		char spec[32];
		if (!gtt_platform_simulated(&gtt_platforms[p]))
			continue;
		snprintf(spec, sizeof(spec), "sim:%s", gtt_platforms[p].name);
		struct hw_device *dev = t_open(spec);
		struct sim_device *s = t_sim(dev);
		struct t_surface want[32];
		size_t n = t_enable_every_surface(dev->info.plat, dev->info.aperture_size, sim_put32, s, want);
		cr_expect_eq(n, hw_scanout_max(dev->info.plat), "%s: %zu surfaces enabled", spec, n);
		struct kept kept = { 0 };
		struct runner_opts o = { .keeping_off = note_kept, .ctx = &kept };
		const struct check *sel[16];
		size_t k;
		struct check_result r[16];
		cr_assert_eq(runner_select("ggtt,aperture,fence", sel, 16, &k, NULL), 0);
		cr_assert_eq(sim_trace_start(s, 1 << 20), 0);
		cr_assert_eq(runner_run(dev, sel, k, &o, r), k, "%s: %s", spec, r[0].reason);
		cr_assert_eq(kept.n, n, "%s: %zu ranges kept off, %zu surfaces enabled", spec, kept.n, n);
		for (size_t i = 0; i < n; i++)
			cr_expect(kept.x[i].start == want[i].start && kept.x[i].end == want[i].end &&
				  kept.x[i].pipe == want[i].pipe && !strcmp(kept.x[i].what, want[i].what),
				  "%s: range %zu is %s of pipe %c 0x%llx-0x%llx, not %s of pipe %c 0x%llx-0x%llx", spec, i,
				  kept.x[i].what, 'A' + kept.x[i].pipe, (unsigned long long)kept.x[i].start,
				  (unsigned long long)kept.x[i].end, want[i].what, 'A' + want[i].pipe,
				  (unsigned long long)want[i].start, (unsigned long long)want[i].end);
		expect_outside_every_surface(dev, s, r, k, want, n);
		hw_close(dev);
	}
}

/* A range list the runner cannot hold whole is refused before anything is written, saying why. */
Test(runner, a_run_that_cannot_keep_off_every_range_does_not_start)
{
	struct hw_device *dev = t_open("sim:tgl");
	struct sim_device *s = t_sim(dev);
	struct t_surface want[32];
	struct kept kept = { 0 };
	struct runner_opts o = { .keeping_off = note_kept, .ctx = &kept, .n_extra = RUNNER_MAX_EXTRA + 1 };
	const struct check *sel[16];
	size_t k;
	struct check_result r[16];

	t_enable_every_surface(dev->info.plat, dev->info.aperture_size, sim_put32, s, want);
	for (unsigned i = 0; i < RUNNER_MAX_EXTRA; i++)
		o.extra[i] = (struct runner_exclusion){ i << 20, (i + 1) << 20, "GOP framebuffer", -1 };
	cr_assert_eq(runner_select("ggtt,aperture,fence", sel, 16, &k, NULL), 0);
	uint64_t writes = sim_access_count(s, SIM_MMIO_WRITE) + sim_access_count(s, SIM_APERTURE_WRITE);
	cr_assert_eq(runner_run(dev, sel, k, &o, r), 1);
	cr_expect_eq(r[0].status, CHECK_ABORT);
	cr_expect(strstr(r[0].reason, "no check run") && strstr(r[0].reason, "nothing was written"), "%s", r[0].reason);
	cr_expect_eq(kept.calls, 0, "a refused run said it kept ranges off");
	cr_expect_eq(sim_access_count(s, SIM_MMIO_WRITE) + sim_access_count(s, SIM_APERTURE_WRITE), writes,
		     "a refused run wrote to the device");
	hw_close(dev);
}

Test(runner, selection_by_suite_name_and_glob)
{
	const struct check *sel[64];
	size_t n;
	struct gtt_err err = { 0 };

	cr_assert_eq(runner_select("fence", sel, 64, &n, NULL), 0);
	cr_expect_eq(n, 5);
	cr_assert_eq(runner_select("fence-*", sel, 64, &n, NULL), 0);
	cr_expect_eq(n, 6, "fence-* also matches fence-pool-guest-fence");
	cr_assert_eq(runner_select("ggtt-guard-page,slot-resize", sel, 64, &n, NULL), 0);
	cr_expect_eq(n, 4);
	cr_expect_eq(runner_select("nothing-*", sel, 64, &n, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "nothing-*"), "%s", err.msg);
	cr_expect(runner_glob("*-detile", "fence-y-detile"));
	cr_expect(runner_glob("f?nce*", "fence-readback"));
	cr_expect(!runner_glob("fence", "fence-readback"));
	for (size_t i = 0; i < gtt_check_count(); i++)
		for (const char *p = gtt_check(i)->name; *p; p++)
			cr_expect((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-',
				  "check name %s is not [a-z0-9-]", gtt_check(i)->name);
}

/* ---- reports ---- */

struct buf {
	char *s;
	size_t n, cap;
};

static void buf_write(void *ctx, const char *s, size_t n)
{
	struct buf *b = ctx;
	if (b->n + n + 1 > b->cap) {
		b->cap = (b->n + n + 1) * 2;
		b->s = realloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, s, n);
	b->n += n;
	b->s[b->n] = '\0';
}

/* A strict JSON well-formedness check (RFC 8259 grammar, no extensions). */
static const char *ws(const char *p) { while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t') p++; return p; }
static const char *value(const char *p);
static const char *string(const char *p)
{
	if (*p++ != '"')
		return NULL;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return NULL;
		if (*p == '\\') {
			p++;
			if (*p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
						return NULL;
				p += 4;
			} else if (!strchr("\"\\/bfnrt", *p) || !*p) {
				return NULL;
			}
		}
		p++;
	}
	return *p == '"' ? p + 1 : NULL;
}
static const char *value(const char *p)
{
	p = ws(p);
	if (*p == '"')
		return string(p);
	if (*p == '{' || *p == '[') {
		char close = *p == '{' ? '}' : ']';
		p = ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (close == '}') {
				if (!(p = string(ws(p))) || *(p = ws(p)) != ':')
					return NULL;
				p++;
			}
			if (!(p = value(p)))
				return NULL;
			p = ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
		}
	}
	if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4))
		return p + 4;
	if (!strncmp(p, "false", 5))
		return p + 5;
	const char *q = p;
	if (*q == '-')
		q++;
	if (!(*q >= '0' && *q <= '9'))
		return NULL;
	while ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E' || *q == '+' || *q == '-')
		q++;
	return q;
}

static struct buf report_fw(enum report_format f, struct check_result *r, size_t n, const struct fw_policy *fw)
{
	struct buf b = { 0 };
	struct report_sink s = { buf_write, &b };
	struct report_info in = { "sim:skl", "skl", "simulated", 7, 1700000000, 1700000001, fw, 0 };

	report_write(f, &s, r, n, n, &in);
	return b;
}

static struct buf report(enum report_format f, struct check_result *r, size_t n)
{
	return report_fw(f, r, n, NULL);
}

/* Real hardware is named by where auto found it and its PCI ids, in every format; a run with no pass is SKIP (issue 43). */
Test(runner, reports_name_real_hardware_by_its_slot_and_pci_ids)
{
	struct check_result r[1] = { { .check = gtt_check(0), .status = CHECK_PASS, .reason = "", .ns = 1000 } };
	struct report_info in = { "pci:0000:00:02.0", "skl", "hardware", 0, 0, 0, NULL, 0x1912 };
	static const char *const want[] = {
		[REPORT_HUMAN] = "\nPASS on pci:0000:00:02.0 (skl, hardware, PCI 8086:1912), seed 0",
		[REPORT_TAP] = "# gttlab ",
		[REPORT_JUNIT] = "<property name=\"device.pci\" value=\"8086:1912\"/>",
		[REPORT_IGT_JSON] = "\"device\":\"pci:0000:00:02.0\",\"platform\":\"skl\",\"kind\":\"hardware\",\"pci\":\"8086:1912\"}",
	};
	for (int f = REPORT_HUMAN; f <= REPORT_IGT_JSON; f++) {
		struct buf b = { 0 };
		struct report_sink s = { buf_write, &b };
		report_write((enum report_format)f, &s, r, 1, 1, &in);
		cr_expect(strstr(b.s, want[f]), "format %d lacks '%s':\n%s", f, want[f], b.s);
		if (f == REPORT_TAP)
			cr_expect(strstr(b.s, " on pci:0000:00:02.0 (skl, hardware, PCI 8086:1912)\n"), "%s", b.s);
		free(b.s);
	}
	/* nothing passed, nothing failed: SKIP, not PASS */
	r[0].status = CHECK_SKIP;
	struct buf b = { 0 };
	struct report_sink s = { buf_write, &b };
	report_write(REPORT_HUMAN, &s, r, 1, 1, &in);
	cr_expect(strstr(b.s, "\nSKIP on pci:0000:00:02.0") && !strstr(b.s, "PASS"), "%s", b.s);
	free(b.s);
}

Test(runner, reports_are_well_formed)
{
	struct check_result r[3] = {
		{ .check = gtt_check(0), .status = CHECK_PASS, .reason = "", .seed = 0xabc, .ns = 1234567,
		  .claim_gm = 0x8100000, .claim_pages = 16 },
		{ .check = t_check("fence-x-detile"), .status = CHECK_FAIL,
		  .reason = "fence 0 (FENCE_REG_GEN6_LO_0 = 0x00100001): \"quoted\" & <angled> 'single'\\", .ns = 89 },
		{ .check = t_check("aperture-rw"), .status = CHECK_SKIP, .reason = "needs test pages", .ns = 0 },
	};
	struct buf j = report(REPORT_IGT_JSON, r, 3);
	const char *end = value(j.s);
	cr_assert(end && !*ws(end), "results.json is not valid JSON near: %.80s", end ? end : j.s);
	cr_expect(strstr(j.s, "\"__type__\":\"TestrunResult\",\"results_version\":10"), "%s", j.s);
	cr_expect(strstr(j.s, "\"igt@gtt_ggtt@ggtt-pte-readback\":{\"out\":\"Starting subtest: ggtt-pte-readback\\n"
			      "seed 7 (--seed 7 --run ggtt-pte-readback repeats it; check seed 0x0000000000000abc)\\n"
			      "Subtest ggtt-pte-readback: SUCCESS (0.001s)\\n\""), "%s", j.s);
	cr_expect(strstr(j.s, "\"result\":\"fail\"") && strstr(j.s, "\"result\":\"skip\""));
	cr_expect(strstr(j.s, "\"time\":{\"__type__\":\"TimeAttribute\",\"start\":0.000000,\"end\":0.001234}"), "%s", j.s);
	cr_expect(strstr(j.s, "\"\":{\"crash\":0,\"pass\":1,\"dmesg-fail\":0,\"dmesg-warn\":0,\"skip\":1,\"incomplete\":0,\"abort\":0,\"timeout\":0,\"notrun\":0,\"fail\":1,\"warn\":0}"), "%s", j.s);
	cr_expect(strstr(j.s, "\"root\":{") && strstr(j.s, "\"igt@gtt_fence\":{") && strstr(j.s, "\"runtimes\":{\"igt@gtt_ggtt\":{\"time\""), "%s", j.s);

	struct buf t = report(REPORT_TAP, r, 3);
	char tap_head[256];
	snprintf(tap_head, sizeof(tap_head), "TAP version 13\n1..3\n# gttlab %s on sim:skl (skl, simulated)\n"
		 "# seed 7: --run NAME --seed 7 repeats any check\n"
		 "ok 1 - ggtt-pte-readback\n  ---\n  suite: ggtt\n  seed: 0x0000000000000abc\n", gttlab_version);
	cr_expect(!strncmp(t.s, tap_head, strlen(tap_head)), "%s", t.s);
	/* what the run was taken on, and by which gttlab, in every format */
	cr_expect(strstr(j.s, "\"gttlab\":{\"version\":\"") && strstr(j.s, "\"device\":\"sim:skl\",\"platform\":\"skl\",\"kind\":\"simulated\"}"),
		  "%s", j.s);
	cr_expect(strstr(t.s, "not ok 2 - fence-x-detile\n  ---\n") && strstr(t.s, "  message: 'fence 0 (FENCE_REG_GEN6_LO_0 = 0x00100001): \"quoted\" & <angled> ''single''\\'\n"), "%s", t.s);
	cr_expect(strstr(t.s, "ok 3 - aperture-rw # SKIP needs test pages\n"), "%s", t.s);
	/* where a check worked: in its YAML block, only for a check that claimed pages */
	cr_expect(strstr(t.s, "  duration_ms: 1.234\n  claim: 0x8100000+16 pages\n  ...\n"), "%s", t.s);
	const char *claim = strstr(t.s, "claim:");
	cr_expect(claim && !strstr(claim + 1, "claim:"), "not one claim (check 1's): %s", t.s);

	struct buf x = report(REPORT_JUNIT, r, 3);
	cr_expect(strstr(x.s, "<testsuites name=\"gttlab\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), "%s", x.s);
	cr_expect(strstr(x.s, "<failure message=\"fence 0 (FENCE_REG_GEN6_LO_0 = 0x00100001): &quot;quoted&quot; &amp; &lt;angled&gt; &apos;single&apos;\\\"/>"), "%s", x.s);
	cr_expect(!strstr(x.s, "\"quoted\""), "unescaped quote in XML");
	free(j.s);
	free(t.s);
	free(x.s);
}

/* Every report says the Secure Boot policy it was given, and none says one it was not given. */
Test(runner, reports_say_the_firmware_policy)
{
	struct check_result r[1] = { { .check = gtt_check(0), .status = CHECK_PASS, .reason = "", .ns = 1000 } };
	struct fw_policy on = { 1, 0 };

	struct buf h = report_fw(REPORT_HUMAN, r, 1, &on), t = report_fw(REPORT_TAP, r, 1, &on);
	struct buf x = report_fw(REPORT_JUNIT, r, 1, &on), j = report_fw(REPORT_IGT_JSON, r, 1, &on);
	cr_expect(strstr(h.s, "\nfirmware: Secure Boot enforcing (SecureBoot=1, SetupMode=0)\n"), "%s", h.s);
	cr_expect(strstr(t.s, "\n# firmware: Secure Boot enforcing (SecureBoot=1, SetupMode=0)\nok 1 - "), "%s", t.s);
	cr_expect(strstr(x.s, "<property name=\"firmware\" value=\"enforcing\"/><property name=\"firmware.SecureBoot\" "
			      "value=\"1\"/><property name=\"firmware.SetupMode\" value=\"0\"/></properties>"), "%s", x.s);
	cr_expect(strstr(j.s, ",\"firmware\":{\"secure_boot\":\"enforcing\",\"SecureBoot\":\"1\",\"SetupMode\":\"0\"},"), "%s", j.s);
	const char *end = value(j.s);
	cr_expect(end && !*ws(end), "results.json is not valid JSON near: %.80s", end ? end : j.s);
	free(h.s), free(t.s), free(x.s), free(j.s);
	for (int f = REPORT_HUMAN; f <= REPORT_IGT_JSON; f++) {
		struct buf b = report(f, r, 1);
		cr_expect(!strstr(b.s, "irmware"), "format %d names a policy it was not given: %s", f, b.s);
		free(b.s);
	}
}

Test(runner, the_json_checker_itself_rejects_bad_json)
{
	cr_expect(value("{\"a\":[1,2,{\"b\":\"c\\n\"}],\"d\":true}"));
	cr_expect(!value("{\"a\":1,}"));
	cr_expect(!value("{\"a\":\"x\ny\"}"));
	cr_expect(!value("{a:1}"));
}

/* ---- gttlab check ---- */

Test(runner, gttlab_check_exit_codes_and_formats, .timeout = 120)
{
	char out[1 << 16], dir[64], cmd[512];

	cr_expect_eq(t_run("./build/gttlab check 2>/dev/null", out, sizeof(out)), 0, "%s", out);
	/*
	 * the guest and vf suites skip on a native device, saying it is not a vGPU or a VF, and the pf suite
	 * on Skylake (SR-IOV is gen12's); the rest of the table passes
	 */
	unsigned guest = 0;
	char want[64];
	for (size_t i = 0; i < gtt_check_count(); i++)
		guest += (gtt_check(i)->requires & (REQ_GUEST | REQ_VF)) || !strcmp(gtt_check(i)->suite, "pf");
	cr_assert(guest, "the table has no guest check");
	snprintf(want, sizeof(want), "%zu passed, 0 failed, %u skipped", gtt_check_count() - guest, guest);
	cr_expect(strstr(out, "PASS on sim:skl (skl, simulated)") && strstr(out, want), "not '%s': %s", want, out);
	cr_expect_eq(t_run("./build/gttlab check --device sim:hsw 2>/dev/null", out, sizeof(out)), 0, "%s", out);
	cr_expect_eq(t_run("./build/gttlab check --list", out, sizeof(out)), 0);
	cr_expect(strstr(out, "fence-write-order") && strstr(out, "slot-resize-release"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab check --format yaml 2>&1", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "'yaml'"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab check --run nothing 2>&1", out, sizeof(out)), 2, "%s", out);
	cr_expect_eq(t_run("./build/gttlab check --device sim:zzz 2>&1", out, sizeof(out)), 2, "%s", out);
	t_tmpdir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd), "./build/gttlab check --run ggtt --format igt-json -o %s/results.json && cat %s/results.json", dir, dir);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	const char *end = value(out);
	cr_expect(end && !*ws(end), "results.json is not valid JSON");
	cr_expect(strstr(out, "\"igt@gtt_ggtt@ggtt-invalidate\""), "%s", out);
	/* a machine whose DIMMs are asymmetric but whose fences still swizzle: the detile checks fail, exit 1 */
	uint8_t *snap = calloc(1, 2u << 20);
	uint32_t swz = 1, c0 = 0x0808, c1 = 0x0404, arb = 0x20;
	memcpy(snap + 0x101000, &swz, 4);
	memcpy(snap + 0x145004, &c0, 4);
	memcpy(snap + 0x145008, &c1, 4);
	memcpy(snap + 0x4030, &arb, 4);
	snprintf(cmd, sizeof(cmd), "%s/asym.mmio", dir);
	FILE *f = fopen(cmd, "wb");
	cr_assert(f && fwrite(snap, 1, 2u << 20, f) == 2u << 20 && !fclose(f));
	free(snap);
	snprintf(cmd, sizeof(cmd), "./build/gttlab --device sim:hsw --mmio-seed %s/asym.mmio check --run 'fence-?-detile' --format tap 2>/dev/null", dir);
	cr_expect_eq(t_run(cmd, out, sizeof(out)), 1, "%s", out);
	cr_expect(strstr(out, "not ok 1 - fence-x-detile") && strstr(out, "FENCE_REG_GEN6_LO_0"), "%s", out);
}

/* The documented seed formula, written out here: splitmix64(run seed ^ FNV-1a-64(name)). */
static uint64_t doc_seed(uint64_t run, const char *name)
{
	uint64_t h = 14695981039346656037ull;
	for (; *name; name++) {
		h ^= (unsigned char)*name;
		h *= 1099511628211ull;
	}
	uint64_t z = (run ^ h) + 0x9e3779b97f4a7c15ull;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * A check's seed depends on the run seed and its name only: run alone with
 * --run NAME --seed N it gets the seed the full run gave it (it once depended
 * on the check's position in the selection), and every report says it.
 */
Test(runner, a_check_gets_the_same_seed_alone_as_in_the_full_run)
{
	const struct check *all[64], *one[4];
	size_t n, m;
	struct check_result full[64], alone[4];
	struct runner_opts o = { .seed = 7 };
	struct hw_device *dev = t_open("sim:skl");

	cr_assert_eq(runner_select(NULL, all, 64, &n, NULL), 0);
	cr_assert_eq(runner_select("aperture-rw,fence-y-detile", one, 4, &m, NULL), 0);
	cr_assert_eq(runner_run(dev, all, n, &o, full), n);
	cr_assert_eq(runner_run(dev, one, m, &o, alone), m);
	for (size_t k = 0; k < m; k++) {
		cr_expect_eq(alone[k].seed, doc_seed(7, one[k]->name), "%s", one[k]->name);
		for (size_t i = 0; i < n; i++)
			if (all[i] == one[k])
				cr_expect_eq(full[i].seed, alone[k].seed, "%s: seed 0x%llx in the full run, 0x%llx alone",
					     one[k]->name, (unsigned long long)full[i].seed, (unsigned long long)alone[k].seed);
	}
	hw_close(dev);

	char out[65536], cmd[256];
	cr_assert_eq(t_run("./build/gttlab check --seed 7 --format tap 2>/dev/null", out, sizeof(out)), 0, "%s", out);
	char want[96];
	snprintf(want, sizeof(want), "- aperture-rw\n  ---\n  suite: aperture\n  seed: 0x%016llx\n",
		 (unsigned long long)doc_seed(7, "aperture-rw"));
	cr_expect(strstr(out, "# seed 7:") && strstr(out, want), "the full run's TAP does not show the seeds:\n%s", out);
	snprintf(cmd, sizeof(cmd), "./build/gttlab check --seed 7 --run aperture-rw --format tap 2>/dev/null");
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, want), "alone, aperture-rw shows another seed:\n%s", out);
	cr_assert_eq(t_run("./build/gttlab check --run aperture-rw --format igt-json 2>/dev/null", out, sizeof(out)), 0);
	cr_expect(strstr(out, "seed 0 (--seed 0 --run aperture-rw repeats it"), "the default seed is 0 and said so:\n%s", out);
}

/* ---- abort: a device that cannot be put back ---- */

/* A check that maps a page at its claim, writes it, and then makes its PTE stop taking writes. */
static enum check_status freeze_own_pte(struct check_ctx *c)
{
	struct hw_page *pg;
	if (ck_pages(c, 1, &pg) || ck_map(c, c->claim_gm, pg, 1))
		return ck_fail(c, "setup");
	memcpy(pg->cpu, "still-mapped", 13);
	uint32_t off = c->dev->info.gsm_offset + (uint32_t)(c->claim_gm >> 12) * c->dev->info.pte_size;
	sim_fault_freeze_after(hw_sim_model(c->dev), off, 0);
	sim_fault_freeze_after(hw_sim_model(c->dev), off + 4, 0);
	return CHECK_PASS;
}

/* A check that writes fence 0, freezes it, and skips (or fails). */
static enum check_status freeze_fence_then(struct check_ctx *c, enum check_status st)
{
	/* one X-tiled page at the claim, pitch 512 */
	if (ck_fence_write(c, 0, (c->claim_gm << 32) | c->claim_gm | 3ull << 32 | 1))
		return ck_fail(c, "setup");
	sim_fault_freeze_after(hw_sim_model(c->dev), FENCE_REG_GEN6_LO(0), 0);
	return st == CHECK_SKIP ? ck_skip(c, "the reason it skipped") : ck_fail(c, "the reason it failed");
}
static enum check_status freeze_fence_skip(struct check_ctx *c) { return freeze_fence_then(c, CHECK_SKIP); }
static enum check_status freeze_fence_fail(struct check_ctx *c) { return freeze_fence_then(c, CHECK_FAIL); }

static const struct check probe_pte = { "abort-probe-pte", "ggtt", "freezes its own PTE", REQ_TEST_PAGES, 1, 0, freeze_own_pte };
static const struct check probe_skip = { "abort-probe-skip", "fence", "freezes fence 0, skips", 0, 1, 1, freeze_fence_skip };
static const struct check probe_fail = { "abort-probe-fail", "fence", "freezes fence 0, fails", 0, 1, 1, freeze_fence_fail };

Test(runner, a_restore_that_does_not_read_back_is_an_abort_that_ends_the_run)
{
	struct hw_device *dev = t_open("sim:skl");
	const struct check *sel[] = { &probe_pte, gtt_check(0) };
	struct check_result r[2] = { { .check = sel[0] }, { .check = sel[1] } };
	struct runner_opts o = { 0 };

	cr_expect_eq(runner_run(dev, sel, 2, &o, r), 1, "a check ran on a device that could not be restored");
	cr_expect_eq(r[0].status, CHECK_ABORT);
	cr_expect(strstr(r[0].reason, "device not restored") && strstr(r[0].reason, "PTE ") &&
		  strstr(r[0].reason, "(the check itself: pass)"), "%s", r[0].reason);
	cr_expect_eq(r[0].pages_kept, 1, "the test page was freed while a PTE still names it");
	struct run_totals t;
	runner_totals(r, 2, 1, &t);
	cr_expect(t.abort == 1 && t.notrun == 1 && t.fail == 0, "abort %u notrun %u fail %u", t.abort, t.notrun, t.fail);
	/* what a user reads: ABORT in the verdict, TAP's Bail out!, JUnit's error, IGT's abort */
	struct report_info in = { "sim:skl", "skl", "simulated", 0, 0, 0, NULL, 0 };
	struct buf b = { 0 };
	struct report_sink s = { buf_write, &b };
	report_write(REPORT_HUMAN, &s, r, 2, 1, &in);
	cr_expect(strstr(b.s, "ABORT on sim:skl") && strstr(b.s, "1 aborted"), "%s", b.s);
	free(b.s);
	b = (struct buf){ 0 };
	report_write(REPORT_TAP, &s, r, 2, 1, &in);
	cr_expect(strstr(b.s, "not ok 1 - abort-probe-pte\n") && strstr(b.s, "severity: abort") && strstr(b.s, "\nBail out! device not restored"),
		  "%s", b.s);
	free(b.s);
	b = (struct buf){ 0 };
	report_write(REPORT_JUNIT, &s, r, 2, 1, &in);
	cr_expect(strstr(b.s, "errors=\"1\"") && strstr(b.s, "<error message=\"device not restored"), "%s", b.s);
	free(b.s);
	b = (struct buf){ 0 };
	report_write(REPORT_IGT_JSON, &s, r, 2, 1, &in);
	cr_expect(strstr(b.s, "\"result\":\"abort\"") && strstr(b.s, "\"abort\":1"), "%s", b.s);
	free(b.s);
	hw_close(dev);
}

Test(runner, an_abort_keeps_the_checks_own_skip_or_fail_beside_it)
{
	const struct check *probes[] = { &probe_skip, &probe_fail };
	for (int k = 0; k < 2; k++) {
		struct hw_device *dev = t_open("sim:skl");
		struct check_result r = { 0 };
		struct runner_opts o = { 0 };
		runner_run(dev, &probes[k], 1, &o, &r);
		cr_expect_eq(r.status, CHECK_ABORT, "%s: %s", probes[k]->name, check_status_name(r.status));
		cr_expect(strstr(r.reason, "FENCE_REG_GEN6_LO_0 reads 0x") && strstr(r.reason, "001, not 0x0"), "%s", r.reason);
		cr_expect(strstr(r.reason, k ? "the check itself: fail: the reason it failed" : "the check itself: skip: the reason it skipped"),
			  "%s", r.reason);
		hw_close(dev);
	}
}

/* The IGT binaries exit 112 on an abort (they once matched a string that never came); the test build's. */
Test(runner, igt_binaries_exit_112_when_the_device_is_not_restored)
{
	char out[4096];

	cr_expect_eq(t_run("GTTLAB_DEVICE=sim:skl GTTLAB_TEST_FAULT=freeze-fence ./build/faults/igt/gtt_fence --run-subtest fence-readback 2>&1", out, sizeof(out)),
		     112, "%s", out);
	cr_expect(strstr(out, "device not restored") && strstr(out, "FENCE_REG_GEN6_LO_0"), "%s", out);
	cr_expect_eq(t_run("GTTLAB_DEVICE=sim:skl GTTLAB_TEST_FAULT=freeze-fence ./build/faults/igt/gtt_fence 2>&1", out, sizeof(out)), 112, "%s", out);
	cr_expect(!strstr(out, "Starting subtest: fence-x-detile"), "a subtest ran after the abort:\n%s", out);
	cr_expect_eq(t_run("GTTLAB_DEVICE=sim:skl GTTLAB_TEST_FAULT=nonsense ./build/faults/igt/gtt_fence --run-subtest fence-readback >/dev/null 2>&1", out, sizeof(out)),
		     77, "an unknown test fault leaves no usable device: skip");
}

/* gttlab check: exit 3 on an abort, with the entries named on stderr, whatever the format. */
Test(runner, gttlab_check_exits_3_when_the_device_is_not_restored)
{
	char out[8192];

	cr_expect_eq(t_run("GTTLAB_TEST_FAULT=freeze-fence ./build/faults/gttlab check --run fence --format junit 2>&1 >/dev/null", out,
			   sizeof(out)), 3, "%s", out);
	cr_expect(strstr(out, "gttlab: ABORT after fence-readback: device not restored") && strstr(out, "FENCE_REG_GEN6_LO_0"),
		  "%s", out);
	cr_expect_eq(t_run("GTTLAB_TEST_FAULT=drop-flush ./build/faults/gttlab check --run ggtt-invalidate >/dev/null 2>&1", out,
			   sizeof(out)), 1, "a check that fails is exit 1, not an abort");
	cr_expect_eq(t_run("GTTLAB_TEST_FAULT=nonsense ./build/faults/gttlab check 2>&1", out, sizeof(out)), 2, "%s", out);
}

/* The shipped front-ends have no model fault: the variable is nothing to them, the run is clean. */
Test(runner, shipped_front_ends_ignore_a_test_fault)
{
	char out[8192];

	cr_expect_eq(t_run("GTTLAB_TEST_FAULT=drop-flush ./build/gttlab check --run ggtt-invalidate 2>&1", out, sizeof(out)), 0,
		     "%s", out);
	cr_expect_eq(t_run("GTTLAB_DEVICE=sim:skl GTTLAB_TEST_FAULT=freeze-fence ./build/igt/gtt_fence --run-subtest fence-readback 2>&1", out,
			   sizeof(out)), 0, "%s", out);
	cr_expect(!strstr(out, "GTTLAB_TEST_FAULT"), "%s", out);
}

/* Below the claim, and through every helper: PTE, aperture, fence; each refused with nothing written. */
static int rogue_refused;
static enum check_status rogue_below(struct check_ctx *c)
{
	uint64_t first = c->claim_gm / 4096;
	char b = 'x';
	int refused = (ck_pte_write(c, first - 1, 0x1001) != 0) + (ck_aperture_write(c, c->claim_gm - 1, &b, 1) != 0) +
		      (ck_aperture_write(c, c->claim_gm + c->claim_pages * 4096 - 1, "xy", 2) != 0) +
		      (ck_fence_write(c, c->claim_fence_first + c->claim_fences, 0) != 0);
	rogue_refused = refused;
	return CHECK_FAIL;
}

Test(runner, a_check_cannot_touch_below_its_claim_or_beyond_its_fences)
{
	struct hw_device *dev = t_open("sim:skl");
	static const struct check k = { "rogue-below", "test", "writes below its claim", 0, 4, 1, rogue_below };
	const struct check *sel[1] = { &k };
	struct runner_opts o = { 0 };
	struct check_result r;
	size_t n0, n1;
	uint8_t *before = NULL, *after = NULL;
	struct d0 t = { .dev = dev, .sim = t_sim(dev) };

	before = d0_capture(&t, &n0);
	cr_assert_eq(runner_run(dev, sel, 1, &o, &r), 1);
	cr_expect_eq(rogue_refused, 4, "only %d of 4 writes outside the claim were refused", rogue_refused);
	cr_expect(strstr(r.reason, "outside its claim") && strstr(r.reason, "PTE index 0x"), "%s", r.reason);
	after = d0_capture(&t, &n1);
	cr_expect(!memcmp(before, after, n0), "a refused write reached the GGTT or a fence");
	free(before);
	free(after);
	hw_close(dev);
}

/*
 * A part without an aperture (BAR2 absent: detection leaves aperture_size 0
 * and, as i915 does, no fences) skips every check with the reason; a part
 * whose fences are gone skips the checks that claim fences and runs the rest.
 */
Test(runner, no_aperture_or_no_fences_skips_with_the_reason)
{
	struct hw_device *dev = t_open("sim:tgl");
	const struct check *sel[64];
	struct check_result r[64];
	struct runner_opts o = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < gtt_check_count() && n < 64; i++)
		sel[n++] = gtt_check(i);
	uint64_t ap = dev->info.aperture_size;
	dev->info.aperture_size = 0;
	dev->info.num_fences = 0;
	cr_assert_eq(runner_run(dev, sel, n, &o, r), n);
	/* the vf checks need no aperture: they skip because this is no VF */
	for (size_t i = 0; i < n; i++)
		cr_expect(r[i].status == CHECK_SKIP &&
			  strstr(r[i].reason, sel[i]->requires & REQ_VF ? "not an SR-IOV VF" : "has no aperture (BAR2, GMADR)"),
			  "%s: %d %s", sel[i]->name, r[i].status, r[i].reason);
	dev->info.aperture_size = ap;
	cr_assert_eq(runner_run(dev, sel, n, &o, r), n);
	size_t skipped = 0;
	for (size_t i = 0; i < n; i++) {
		if (sel[i]->claim_fences) {
			skipped++;
			cr_expect(r[i].status == CHECK_SKIP && strstr(r[i].reason, "has no fence registers"), "%s: %d %s",
				  sel[i]->name, r[i].status, r[i].reason);
		} else if (sel[i]->requires & REQ_GUEST) {
			cr_expect(r[i].status == CHECK_SKIP && strstr(r[i].reason, "not a vGPU"), "%s: %d %s", sel[i]->name,
				  r[i].status, r[i].reason);
		} else if (sel[i]->requires & REQ_VF) {
			cr_expect(r[i].status == CHECK_SKIP && strstr(r[i].reason, "not an SR-IOV VF"), "%s: %d %s", sel[i]->name,
				  r[i].status, r[i].reason);
		} else if (!sel[i]->requires || !(sel[i]->requires & REQ_WHOLE_GGTT)) {
			cr_expect_eq(r[i].status, CHECK_PASS, "%s: %d %s", sel[i]->name, r[i].status, r[i].reason);
		}
	}
	size_t claim = 0;	/* the table's own count of the checks that claim fences */
	for (size_t i = 0; i < gtt_check_count(); i++)
		claim += gtt_check(i)->claim_fences != 0;
	cr_expect(claim && skipped == claim, "%zu fence checks skipped, the table has %zu", skipped, claim);
	dev->info.num_fences = 32;
	hw_close(dev);
}
