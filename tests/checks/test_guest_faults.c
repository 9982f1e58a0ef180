/* SPDX-License-Identifier: MIT */
/*
 * The mediator fault matrix: every deliberate bug of struct dom0_faults set
 * in the host runtime behind a vgpu: device, and the guest suite run inside
 * it. Each guest-visible fault must make the check docs/guest.md's table names
 * fail, with a reason that names an entry, a register or a peer; with no
 * fault every guest check passes. A fault added to struct dom0_faults without
 * a row here, or a row docs/guest.md does not list, fails the matrix.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "checks/runner.h"
#include "dom0/guest_device.h"
#include "hw/backend_sim.h"
#include "hw/sim/sim.h"
#include "tests/helpers.h"
#include "tests/scanout_layout.h"

struct fault_row {
	const char *name;
	size_t off;			/* the bool in struct dom0_faults */
	const char *caught_by;		/* the check that fails */
	const char *opts;		/* vgpu: options the host needs to show it; a host row's device ("" none: sim:skl) */
};

#define ROW(f, by) { #f, offsetof(struct dom0_faults, f), by, "" }
/* hog=: the host's tenants hold the guest's neighbouring slots and release them one at a time while it waits */
#define ROW_HOG(f, by) { #f, offsetof(struct dom0_faults, f), by, ",hog=8" }
/* move=: the host moves the guest to a spare model and back, onto the guest's own memory */
#define ROW_MOVE(f, by) { #f, offsetof(struct dom0_faults, f), by, ",migrate=0,move=2" }

/* a host row whose check runs on another model: the SR-IOV PF's on a gen12 part */
#define ROW_ON(f, by, dev) { #f, offsetof(struct dom0_faults, f), by, dev }

/* runs=: the guest's slots in two runs, the peers sharing the second */
#define ROW_RUNS(f, by) { #f, offsetof(struct dom0_faults, f), by, ",runs=2,high=3" }

/* Seen from inside the guest: the guest suite through vgpu: catches them. */
static const struct fault_row guest_rows[] = {
	ROW(swap_copy_pair, "guest-data-paths"),
	ROW(keep_released_slots, "guest-resize"),
	ROW(corrupt_pool_pitch, "guest-fences"),
	ROW(no_ladder, "guest-data-paths"),
	ROW(stale_pvinfo_answer, "guest-resize"),
	ROW(unchecked_request_count, "guest-resize"),
	ROW(shared_scratch, "guest-outside"),
	ROW(accept_pte_outside, "guest-outside"),
	ROW(honour_high_fence, "guest-outside"),
	ROW(pvinfo_slot_too_large, "guest-pte-ranges"),
	ROW(pvinfo_of_owner, "guest-pvinfo"),
	ROW(migrate_no_release, "guest-migration"),
	ROW_HOG(run_paused, "guest-resize"),
	ROW_HOG(admit_short, "guest-resize"),
	ROW_MOVE(migrate_skip_copy, "guest-migration"),
	ROW_RUNS(runs_copy_first, "guest-data-paths"),
};

/*
 * Choices among vGPUs (which side to grow, which vGPU to reduce or which
 * waiting request to admit first) need the other vGPUs' state to judge,
 * which no guest sees; a move to another device takes the guest's memory with it,
 * which vgpu: (whose guest pages are the host model's) cannot follow. The
 * host checks named here catch them (tests/checks/test_check_faults.c).
 */
static const struct fault_row host_rows[] = {
	ROW(swap_resize_sides, "slot-resize-algorithm"),
	ROW(policy_ignore_class, "slot-policy-classes"),
	ROW(policy_reduce_busiest, "slot-policy-classes"),
	ROW(admit_newest, "admission-policies"),
	ROW(admit_ignore_held, "admission-policies"),
	ROW(migrate_no_rollback, "migration-device"),
	ROW(migrate_drop_queue, "migration-slots"),
	ROW_ON(pf_overlap, "pf-provision", "sim:adlp"),
	ROW_ON(pf_untagged_last, "pf-provision", "sim:tgl"),
	ROW_ON(pf_keep_released, "pf-provision", "sim:adlp"),
};

#define N_GUEST (sizeof(guest_rows) / sizeof(guest_rows[0]))
#define N_HOST (sizeof(host_rows) / sizeof(host_rows[0]))

/* Run the checks `run` selects on `spec` with the fault (NULL: none); results by check. */
static size_t run_guest(const char *spec, const char *run, const struct dom0_faults *f, struct check_result *r,
			const struct check **sel)
{
	struct hw_open_opts oo = { .host_faults = f };
	struct runner_opts o = { .seed = 7 };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	size_t n = 0;

	cr_assert_eq(runner_select(run, sel, 64, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, &oo, &dev, &err),
		     0, "%s: %s", spec, err.msg);
	cr_assert(dev->info.pvinfo.active, "%s is not in guest mode", spec);
	cr_assert_eq(runner_run(dev, sel, n, &o, r), n);
	hw_close(dev);
	return n;
}

static const struct check_result *result_of(const struct check_result *r, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(r[i].check->name, name))
			return &r[i];
	cr_assert_fail("no check named %s in the guest suite", name);
	return NULL;
}

/* A reason that names what it found: an entry, a register, a PVINFO word, a fence, a peer or a GGTT address. */
static bool names_something(const char *why)
{
	static const char *const words[] = { "PTE index", "GM 0x", "fence", "PVINFO", "STATUS", "peer", "GGTT entry", "avail_rs" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(why, words[i]))
			return true;
	return false;
}

/* Every guest check passes on spec, but `skips` (NULL none), which must skip. */
static void clean_but(const char *spec, const char *skips)
{
	struct check_result r[64];
	const struct check *sel[64];
	size_t n = run_guest(spec, "guest", NULL, r, sel), guest = 0;

	for (size_t i = 0; i < gtt_check_count(); i++)
		guest += !strcmp(gtt_check(i)->suite, "guest");
	cr_assert(guest && n == guest, "%zu guest checks ran, the table has %zu", n, guest);
	for (size_t i = 0; i < n; i++) {
		enum check_status want = skips && !strcmp(r[i].check->name, skips) ? CHECK_SKIP : CHECK_PASS;
		cr_expect_eq(r[i].status, want, "%s on %s: %s %s", r[i].check->name, spec, check_status_name(r[i].status),
			     r[i].reason);
	}
}

static void clean(const char *spec)
{
	clean_but(spec, NULL);
}

Test(guest_faults, every_guest_check_passes_on_a_correct_mediator_skl) { clean("vgpu:sim:skl"); }
Test(guest_faults, every_guest_check_passes_on_a_correct_mediator_hsw) { clean("vgpu:sim:hsw"); }
/* with the host's tenants beside the guest: its expansion waits for admission, then is granted */
Test(guest_faults, every_guest_check_passes_when_the_host_makes_requests_wait) { clean("vgpu:sim:skl,hog=8"); }
/* with the host moving the guest to a spare model and back while it polls EPOCH */
Test(guest_faults, every_guest_check_passes_when_the_host_moves_the_guest_away_and_back) { clean("vgpu:sim:hsw,migrate=0,move=2"); }
/* with the guest's slots in two runs, the peers sharing the second (a migration moves one run: none is made) */
Test(guest_faults, every_guest_check_passes_with_the_guests_slots_in_runs) { clean_but("vgpu:sim:skl,runs=2,high=3", "guest-migration"); }

static void caught(const char *base, const struct fault_row *row)
{
	struct dom0_faults f;
	struct check_result r[64];
	const struct check *sel[64];
	char spec[64];

	snprintf(spec, sizeof(spec), "%s%s", base, row->opts);
	memset(&f, 0, sizeof(f));
	((bool *)&f)[row->off / sizeof(bool)] = true;
	/* the catching check alone: a fault may also leave another check unable to restore (abort) */
	size_t n = run_guest(spec, row->caught_by, &f, r, sel);
	const struct check_result *c = result_of(r, n, row->caught_by);
	cr_expect_eq(c->status, CHECK_FAIL, "fault %s on %s: %s is %s (%s), it must fail", row->name, spec, row->caught_by,
		     check_status_name(c->status), c->reason);
	cr_expect(names_something(c->reason), "fault %s: the reason names no entry or register: %s", row->name, c->reason);
}

Test(guest_faults, every_guest_visible_fault_is_caught_skl)
{
	for (size_t i = 0; i < N_GUEST; i++)
		caught("vgpu:sim:skl", &guest_rows[i]);
}

Test(guest_faults, every_guest_visible_fault_is_caught_hsw)
{
	for (size_t i = 0; i < N_GUEST; i++)
		caught("vgpu:sim:hsw", &guest_rows[i]);
}

/*
 * The host rows: each fault makes the host check named fail on the model
 * (the full reasons are asserted in tests/checks/test_check_faults.c), so
 * no row of the matrix is a claim nobody tests.
 */
Test(guest_faults, every_host_row_is_caught_by_its_host_check, .timeout = 120)
{
	for (size_t i = 0; i < N_HOST; i++) {
		struct check_faults f;
		const struct check *sel[64];
		struct check_result r;
		struct gtt_err err = { 0 };
		size_t n = 0;

		memset(&f, 0, sizeof(f));
		((bool *)&f.dom0)[host_rows[i].off / sizeof(bool)] = true;
		cr_assert_eq(runner_select(host_rows[i].caught_by, sel, 64, &n, &err), 0, "%s", err.msg);
		cr_assert_eq(n, 1);
		struct hw_device *dev = t_open(host_rows[i].opts[0] ? host_rows[i].opts : "sim:skl");
		struct runner_opts o = { .faults = &f };
		cr_assert_eq(runner_run(dev, sel, 1, &o, &r), 1);
		hw_close(dev);
		cr_expect_eq(r.status, CHECK_FAIL, "fault %s: %s is %s (%s), it must fail", host_rows[i].name,
			     host_rows[i].caught_by, check_status_name(r.status), r.reason);
	}
}

/* Every bool of struct dom0_faults has exactly one row, here or in the host list. */
Test(guest_faults, the_matrix_is_complete)
{
	cr_assert_eq(sizeof(struct dom0_faults) % sizeof(bool), 0);
	for (size_t off = 0; off < sizeof(struct dom0_faults); off += sizeof(bool)) {
		unsigned rows = 0;
		for (size_t i = 0; i < N_GUEST; i++)
			rows += guest_rows[i].off == off;
		for (size_t i = 0; i < N_HOST; i++)
			rows += host_rows[i].off == off;
		cr_expect_eq(rows, 1, "the bool at offset %zu of struct dom0_faults has %u rows in the fault matrix", off, rows);
	}
}

/* docs/guest.md's table lists every row with the check that catches it. */
Test(guest_faults, the_documented_table_matches)
{
	FILE *fp = fopen("docs/guest.md", "r");
	char line[512];
	unsigned found[N_GUEST + N_HOST] = { 0 };

	cr_assert(fp, "docs/guest.md not readable from the source root");
	while (fgets(line, sizeof(line), fp)) {
		char want[96];
		for (size_t i = 0; i < N_GUEST + N_HOST; i++) {
			const struct fault_row *row = i < N_GUEST ? &guest_rows[i] : &host_rows[i - N_GUEST];
			snprintf(want, sizeof(want), "| `%s` |", row->name);
			if (strstr(line, want) && strstr(line, row->caught_by))
				found[i]++;
		}
	}
	fclose(fp);
	for (size_t i = 0; i < N_GUEST + N_HOST; i++)
		cr_expect_eq(found[i], 1, "docs/guest.md's fault matrix has %u rows for %s naming %s", found[i],
			     i < N_GUEST ? guest_rows[i].name : host_rows[i - N_GUEST].name,
			     i < N_GUEST ? guest_rows[i].caught_by : host_rows[i - N_GUEST].caught_by);
}

/*
 * The whole table inside a vGPU: the native checks run inside the slice
 * PVINFO gives (the rest kept off as ballooned) and on fences below
 * fence_num, so none fails; the ones that need the whole GPU skip saying so.
 */
static void whole_table(const char *spec, unsigned want_passed)
{
	struct check_result r[64];
	const struct check *sel[64];
	size_t n = run_guest(spec, "*", NULL, r, sel);
	unsigned passed = 0;

	cr_assert_eq(n, gtt_check_count());
	for (size_t i = 0; i < n; i++) {
		cr_expect(r[i].status == CHECK_PASS || r[i].status == CHECK_SKIP, "%s on %s: %s %s", r[i].check->name, spec,
			  check_status_name(r[i].status), r[i].reason);
		if (r[i].check->requires & (REQ_WHOLE_GGTT | REQ_NATIVE))
			cr_expect(r[i].status == CHECK_SKIP && strstr(r[i].reason, "guest mode: needs the whole GPU"), "%s: %s",
				  r[i].check->name, r[i].reason);
		passed += r[i].status == CHECK_PASS;
	}
	cr_expect_eq(passed, want_passed, "%u checks passed on %s", passed, spec);
}

/*
 * How many checks of the table pass inside a vGPU, counted from the table: all but those that need
 * the whole GPU or the GGTT as the hardware has it, a test page above 4 GiB (the vGPU's lie below)
 * or the model's access trace (none behind a vGPU), and the vf suite (a vGPU is no VF); with no fence of its own, the fence suite and
 * guest-fences skip too (guest-outside still runs: it finds every fence foreign).
 */
static unsigned passing_in_a_vgpu(bool fences)
{
	unsigned n = 0;

	for (size_t i = 0; i < gtt_check_count(); i++) {
		const struct check *k = gtt_check(i);
		if (k->requires & (REQ_WHOLE_GGTT | REQ_NATIVE | REQ_PAGE_ABOVE_4G | REQ_MODEL | REQ_VF))
			continue;
		if (!fences && (!strcmp(k->suite, "fence") || !strcmp(k->name, "guest-fences")))
			continue;
		n++;
	}
	return n;
}

Test(guest_faults, the_whole_table_keeps_inside_the_vgpu_skl) { whole_table("vgpu:sim:skl", passing_in_a_vgpu(true)); }
Test(guest_faults, the_whole_table_keeps_inside_the_vgpu_hsw) { whole_table("vgpu:sim:hsw", passing_in_a_vgpu(true)); }
Test(guest_faults, a_vgpu_without_fences_skips_the_fence_checks)
{
	whole_table("vgpu:sim:skl,fences=0", passing_in_a_vgpu(false));
}

/* The front-ends run the same suite inside the same device: the CLI and an IGT binary (GTTLAB_DEVICE). */
static void front_ends(const char *plat)
{
	static char out[1 << 16];
	char cmd[256];

	char want[96];
	unsigned guest = 0;

	for (size_t i = 0; i < gtt_check_count(); i++)
		guest += !strcmp(gtt_check(i)->suite, "guest");
	snprintf(cmd, sizeof(cmd), "./build/gttlab check --device vgpu:sim:%s --run guest 2>&1", plat);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	snprintf(want, sizeof(want), "%u passed, 0 failed, 0 skipped", guest);
	cr_expect(strstr(out, want), "not '%s': %s", want, out);
	snprintf(cmd, sizeof(cmd), "GTTLAB_DEVICE=vgpu:sim:%s ./build/igt/gtt_guest 2>&1", plat);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	for (size_t i = 0; i < gtt_check_count(); i++) {
		if (strcmp(gtt_check(i)->suite, "guest"))
			continue;
		snprintf(want, sizeof(want), "Subtest %s: SUCCESS", gtt_check(i)->name);
		cr_expect(strstr(out, want), "%s missing from:\n%s", want, out);
	}
}

Test(guest_faults, the_cli_and_gtt_guest_run_the_suite_in_vgpu_skl, .timeout = 120) { front_ends("skl"); }
Test(guest_faults, the_cli_and_gtt_guest_run_the_suite_in_vgpu_hsw, .timeout = 120) { front_ends("hsw"); }

static void host_put32(void *ctx, uint32_t off, uint32_t val)
{
	sim_mmio_write32(ctx, off, val);
}

/*
 * A surface the host scans out from inside the guest's slices: the guest
 * checks, which claim the slices whole, skip naming it, and no check writes
 * under any surface or outside the slice (every other check finds no room).
 */
Test(guest_faults, a_surface_in_the_vgpus_slices_keeps_every_check_off_it)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	const struct check *sel[64];
	struct check_result r[64];
	struct runner_opts o = { .seed = 7 };
	struct t_surface want[32];
	size_t n = 0;
	int guest;

	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), "vgpu:sim:skl", gtt_posix_backends, gtt_num_posix_backends, NULL,
			     &dev, &err), 0, "%s", err.msg);
	struct hw_device *host = dom0_device(dom0_guest_device_runtime(dev, &guest));
	t_enable_every_surface(host->info.plat, host->info.aperture_size, host_put32, hw_sim_model(host), want);
	cr_assert_eq(runner_select("*", sel, 64, &n, &err), 0);
	cr_assert_eq(runner_run(dev, sel, n, &o, r), n);
	for (size_t i = 0; i < n; i++) {
		cr_expect_eq(r[i].status, CHECK_SKIP, "%s: %s %s", r[i].check->name, check_status_name(r[i].status), r[i].reason);
		if (r[i].check->requires & REQ_GUEST)
			cr_expect(strstr(r[i].reason, "a surface lies in this vGPU's slices"), "%s: %s", r[i].check->name,
				  r[i].reason);
	}
	hw_close(dev);
}

/* A check that is not a guest check may not make a deliberate write outside its claim, even inside a vGPU. */
static enum check_status not_a_guest_check(struct check_ctx *c)
{
	uint8_t b = 0;

	if (!ck_hostile_pte_write(c, 0, 0x1001) || !ck_hostile_fence_write(c, 0, 0) || !ck_hostile_aperture_write(c, 0, &b, 1))
		return CHECK_PASS;
	return CHECK_FAIL;
}

Test(guest_faults, hostile_writes_are_refused_to_other_checks)
{
	static const struct check k = { "rogue-hostile", "test", "a deliberate write outside its claim", 0, 1, 1,
					not_a_guest_check };
	const struct check *sel[1] = { &k };
	static const char *const specs[] = { "sim:skl", "vgpu:sim:skl" };

	for (size_t i = 0; i < 2; i++) {
		struct hw_device *dev = NULL;
		struct gtt_err err = { 0 };
		struct runner_opts o = { 0 };
		struct check_result r;
		cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), specs[i], gtt_posix_backends, gtt_num_posix_backends, NULL,
				     &dev, &err), 0, "%s", err.msg);
		cr_assert_eq(runner_run(dev, sel, 1, &o, &r), 1);
		cr_expect_eq(r.status, CHECK_FAIL, "%s: %s", specs[i], r.reason);
		cr_expect(strstr(r.reason, "for guest checks on a vGPU or VF checks on a VF only"), "%s: %s", specs[i], r.reason);
		hw_close(dev);
	}
}
