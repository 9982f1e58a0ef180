/* SPDX-License-Identifier: MIT */
/*
 * Proof that every check can fail: each runs against the model with the fault
 * it exists to catch injected (a dropped flush, a stuck or dropped register
 * write, a corrupted fence pitch, a half-written fence, a mediator that swaps
 * two PTEs of a switch copy, ignores the ladder map, corrupts the pool fence,
 * resizes on the wrong side or leaves a released slot mapped) and must fail
 * with a reason naming the register or the entry. Without the fault it passes.
 */
#include <criterion/criterion.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks/runner.h"
#include "regs/mmio.h"
#include "tests/dom0_helpers.h"

typedef void (*inject_fn)(struct hw_device *dev, struct sim_device *sim, uint64_t claim_index);

static const struct check *find(const char *name)
{
	for (size_t i = 0; i < gtt_check_count(); i++)
		if (!strcmp(gtt_check(i)->name, name))
			return gtt_check(i);
	cr_assert_fail("no check %s", name);
	return NULL;
}

static struct check_result run_one(const char *spec, const char *name, inject_fn inject, const struct check_faults *f)
{
	struct hw_device *dev = t_open(spec);
	struct sim_device *sim = t_sim(dev);
	const struct check *sel[1] = { find(name) };
	struct runner_opts o = { .faults = f };
	struct check_result r = { 0 };

	/* with no scanout to avoid, the runner claims from the middle of the aperture */
	if (inject)
		inject(dev, sim, dev->info.aperture_size / 2 / 4096);
	cr_assert_eq(runner_run(dev, sel, 1, &o, &r), 1);
	hw_close(dev);
	return r;
}

/* Passes without the fault, fails with it, and the reason names `needle`. */
static bool caught(const char *spec, const char *name, inject_fn inject, const struct check_faults *f, const char *needle)
{
	struct check_result clean = run_one(spec, name, NULL, NULL);
	cr_assert_eq(clean.status, CHECK_PASS, "%s on %s without a fault: %s", name, spec, clean.reason);
	struct check_result r = run_one(spec, name, inject, f);
	if (r.status != CHECK_FAIL || !strstr(r.reason, needle)) {
		cr_log_error("%s on %s: %s with reason '%s'; wanted a failure naming '%s'", name, spec,
			     check_status_name(r.status), r.reason, needle);
		return false;
	}
	return true;
}

static uint32_t pte_off(struct hw_device *dev, uint64_t index)
{
	return dev->info.gsm_offset + (uint32_t)(index * dev->info.pte_size);
}

static void stick_claim_pte(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	sim_fault_stick(sim, pte_off(dev, idx), 0x7ffff001);
}

static void stick_pte_5(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	sim_fault_stick(sim, pte_off(dev, idx + 5), 0);
}

static void drop_claim_pte(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	/* the PTE write is lost: the old (scratch) entry stays */
	sim_fault_drop_writes(sim, pte_off(dev, idx), -1);
	if (dev->info.pte_size == 8)
		sim_fault_drop_writes(sim, pte_off(dev, idx) + 4, -1);
}

/* The second alias's PTE write is lost (the claim's last of 4 pages): it keeps the scratch page. */
static void drop_alias_pte(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	drop_claim_pte(dev, sim, idx + 3);
}

static void drop_flush(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)dev;
	(void)idx;
	sim_fault_drop_writes(sim, GFX_FLSH_CNTL_GEN6, -1);
}

static void guard_invalid(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)idx;
	sim_fault_stick(sim, pte_off(dev, dev->info.n_ptes - 1), 0);
}

static void stick_fence_3(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)dev;
	(void)idx;
	sim_fault_stick(sim, FENCE_REG_GEN6_LO(3), 0);
}

/* The fence's HI word with its pitch field off by one: a corrupted pitch. */
static void corrupt_pitch_x(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)dev;
	uint32_t end = (uint32_t)(idx * 4096 + 16 * 4096 - 4096);
	sim_fault_stick(sim, FENCE_REG_GEN6_HI(0), end | (2048 / 128 - 1 - 1));
}

static void corrupt_pitch_y(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)dev;
	uint32_t end = (uint32_t)(idx * 4096 + 16 * 4096 - 4096);
	sim_fault_stick(sim, FENCE_REG_GEN6_HI(0), end | (512 / 128 - 1 - 1));
}

/* Disabling never lands: fence 0 stays as programmed. */
static void fence_stuck_on(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)dev;
	uint32_t start = (uint32_t)(idx * 4096), end = start + 16 * 4096 - 4096;
	sim_fault_stick(sim, FENCE_REG_GEN6_LO(0), start | 1);
	sim_fault_stick(sim, FENCE_REG_GEN6_HI(0), end | (2048 / 128 - 1));
}

/* The LO=0 step is lost: the old valid LO meets the new HI. */
static void half_write(struct hw_device *dev, struct sim_device *sim, uint64_t idx)
{
	(void)dev;
	sim_fault_stick(sim, FENCE_REG_GEN6_LO(0), (uint32_t)(idx * 4096) | 1);
}

Test(check_faults, ggtt_pte_readback_stuck_pte) { cr_expect(caught("sim:skl", "ggtt-pte-readback", stick_claim_pte, NULL, "PTE ")); }
Test(check_faults, ggtt_high_address_bits_dropped_pte) { cr_expect(caught("sim:skl", "ggtt-high-address-bits", drop_claim_pte, NULL, "PTE ")); }
Test(check_faults, ggtt_invalidate_dropped_flush) { cr_expect(caught("sim:skl", "ggtt-invalidate", drop_flush, NULL, "GFX_FLSH_CNTL_GEN6")); }
Test(check_faults, ggtt_invalidate_dropped_flush_hsw) { cr_expect(caught("sim:hsw", "ggtt-invalidate", drop_flush, NULL, "GFX_FLSH_CNTL_GEN6")); }
Test(check_faults, ggtt_scratch_fill_stuck_pte) { cr_expect(caught("sim:hsw", "ggtt-scratch-fill", stick_pte_5, NULL, "PTE ")); }
Test(check_faults, ggtt_guard_page_invalid) { cr_expect(caught("sim:skl", "ggtt-guard-page", guard_invalid, NULL, "PTE 1048575")); }
Test(check_faults, fence_readback_stuck_register) { cr_expect(caught("sim:skl", "fence-readback", stick_fence_3, NULL, "FENCE_REG_GEN6_LO/HI at 0x100018")); }
Test(check_faults, fence_x_detile_corrupt_pitch) { cr_expect(caught("sim:skl", "fence-x-detile", corrupt_pitch_x, NULL, "FENCE_REG_GEN6_LO_0")); }
Test(check_faults, fence_y_detile_corrupt_pitch) { cr_expect(caught("sim:hsw", "fence-y-detile", corrupt_pitch_y, NULL, "FENCE_REG_GEN6_LO_0")); }
Test(check_faults, fence_disable_linear_stuck_on) { cr_expect(caught("sim:skl", "fence-disable-linear", fence_stuck_on, NULL, "FENCE_REG_GEN6_LO_0")); }
Test(check_faults, fence_write_order_half_written) { cr_expect(caught("sim:skl", "fence-write-order", half_write, NULL, "FENCE_REG_GEN6_HI_0")); }
Test(check_faults, aperture_rw_stuck_pte) { cr_expect(caught("sim:skl", "aperture-rw", stick_pte_5, NULL, "PTE ")); }
Test(check_faults, aperture_alias_lost_pte) { cr_expect(caught("sim:skl", "aperture-alias", drop_alias_pte, NULL, "PTE ")); }
Test(check_faults, aperture_alias_lost_pte_hsw) { cr_expect(caught("sim:hsw", "aperture-alias", drop_alias_pte, NULL, "PTE ")); }

Test(check_faults, shadow_copy_switch_swapped_copy)
{
	struct check_faults f = { .dom0 = { .swap_copy_pair = true } };
	cr_expect(caught("sim:skl", "shadow-copy-switch", NULL, &f, "physical PTE"));
}

Test(check_faults, shadow_copy_ladder_ignored)
{
	struct check_faults f = { .dom0 = { .no_ladder = true } };
	cr_expect(caught("sim:hsw", "shadow-copy-ladder", NULL, &f, "PTE "));
}

Test(check_faults, fence_pool_corrupt_pitch)
{
	struct check_faults f = { .dom0 = { .corrupt_pool_pitch = true } };
	cr_expect(caught("sim:skl", "fence-pool-guest-fence", NULL, &f, "FENCE_REG_GEN6_LO_4"));
}

Test(check_faults, slot_resize_algorithm_wrong_side)
{
	struct check_faults f = { .dom0 = { .swap_resize_sides = true } };
	cr_expect(caught("sim:skl", "slot-resize-algorithm", NULL, &f, "slots"));
}

Test(check_faults, slot_resize_release_left_mapped, .timeout = 60)
{
	struct check_faults f = { .dom0 = { .keep_released_slots = true } };
	cr_expect(caught("sim:hsw", "slot-resize-release", NULL, &f, "PTE "));
}

Test(check_faults, slot_policy_classes_ignored)
{
	struct check_faults f = { .dom0 = { .policy_ignore_class = true } };
	cr_expect(caught("sim:skl", "slot-policy-classes", NULL, &f, "status (0x78110) GRANTED, expected REFUSED_POLICY"));
}

Test(check_faults, slot_policy_classes_reduces_the_busiest)
{
	struct check_faults f = { .dom0 = { .policy_reduce_busiest = true } };
	cr_expect(caught("sim:hsw", "slot-policy-classes", NULL, &f, "class mid: after the period"));
}

Test(check_faults, slot_policy_channel_stale_answer)
{
	struct check_faults f = { .dom0 = { .stale_pvinfo_answer = true } };
	cr_expect(caught("sim:skl", "slot-policy-channel", NULL, &f, "0x7804c"));
}

Test(check_faults, slot_policy_channel_unchecked_count)
{
	struct check_faults f = { .dom0 = { .unchecked_request_count = true } };
	cr_expect(caught("sim:skl", "slot-policy-channel", NULL, &f, "REFUSED_ROOM, expected BAD_COUNT"));
}

Test(check_faults, slot_policy_channel_swapped_copy)
{
	struct check_faults f = { .dom0 = { .swap_copy_pair = true } };
	cr_expect(caught("sim:bdw", "slot-policy-channel", NULL, &f, "its shadow entry"));
}

Test(check_faults, admission_policies_fifo_admits_the_newest)
{
	struct check_faults f = { .dom0 = { .admit_newest = true } };
	/* B, the newest, is admitted onto the slot the older A holds */
	cr_expect(caught("sim:skl", "admission-policies", NULL, &f, "is admitted at slot 0; slot 0, which A holds"));
}

Test(check_faults, migration_slots_queue_dropped)
{
	struct check_faults f = { .dom0 = { .migrate_drop_queue = true } };
	cr_expect(caught("sim:skl", "migration-slots", NULL, &f, "0 queued writes forwarded at the unlock"));
}

/* The SR-IOV PF's bugs, each named by the scan pf-provision makes of the GSM. */
Test(check_faults, pf_provision_overlap)
{
	struct check_faults f = { .dom0 = { .pf_overlap = true } };
	cr_expect(caught("sim:adlp", "pf-provision", NULL, &f, "3 VFs provisioned: VF 1's run is GGTT 0x800000+0x3ffff000"));
}

Test(check_faults, pf_provision_untagged_last)
{
	struct check_faults f = { .dom0 = { .pf_untagged_last = true } };
	cr_expect(caught("sim:tgl", "pf-provision", NULL, &f, "VF 1's range are not its tag 0x5: PTE 264191 (GGTT 0x407ff000) reads 0x0000000000000004"));
}

Test(check_faults, pf_provision_keep_released)
{
	struct check_faults f = { .dom0 = { .pf_keep_released = true } };
	cr_expect(caught("sim:adlp", "pf-provision", NULL, &f, "VF 2 released: GGTT 0x40800000+0x40000000 is tagged VF 2, which holds no range"));
}

Test(check_faults, migration_device_queue_dropped)
{
	struct check_faults f = { .dom0 = { .migrate_drop_queue = true } };
	cr_expect(caught("sim:kbl", "migration-device", NULL, &f, "0 forwarded to the target"));
}

Test(check_faults, admission_policies_held_slot_taken)
{
	struct check_faults f = { .dom0 = { .admit_ignore_held = true } };
	cr_expect(caught("sim:skl", "admission-policies", NULL, &f, "which A holds"));
}

Test(check_faults, admission_policies_admitted_before_it_fits)
{
	struct check_faults f = { .dom0 = { .admit_short = true } };
	/* A runs on one free slot of the two it asked for */
	cr_expect(caught("sim:hsw", "admission-policies", NULL, &f, "must wait with one slot free"));
}

Test(check_faults, admission_channel_paused_vgpu_runs)
{
	struct check_faults f = { .dom0 = { .run_paused = true } };
	cr_expect(caught("sim:skl", "admission-channel", NULL, &f, "was switched in while its expand is paused"));
}

Test(check_faults, admission_channel_stale_answer)
{
	struct check_faults f = { .dom0 = { .stale_pvinfo_answer = true } };
	cr_expect(caught("sim:bdw", "admission-channel", NULL, &f, "0x7804c"));
}

Test(check_faults, migration_slots_source_left_mapped)
{
	struct check_faults f = { .dom0 = { .migrate_no_release = true } };
	cr_expect(caught("sim:skl", "migration-slots", NULL, &f, "of the released slots reads"));
}

Test(check_faults, migration_slots_stale_copy)
{
	struct check_faults f = { .dom0 = { .swap_copy_pair = true } };
	cr_expect(caught("sim:hsw", "migration-slots", NULL, &f, "its shadow entry"));
}

Test(check_faults, migration_device_pages_not_copied)
{
	struct check_faults f = { .dom0 = { .migrate_skip_copy = true } };
	cr_expect(caught("sim:skl", "migration-device", NULL, &f, "through its aperture; it wrote"));
}

Test(check_faults, migration_device_no_rollback)
{
	struct check_faults f = { .dom0 = { .migrate_no_rollback = true } };
	cr_expect(caught("sim:kbl", "migration-device", NULL, &f, "after a migration that failed"));
}

/*
 * Every check of the table has a fault test: a caught() call naming it in this file, or, for the
 * guest suite, a row of the mediator fault matrix naming it in tests/checks/test_guest_faults.c,
 * for the vf suite a row of the VF fault matrix in tests/checks/test_vf_faults.c.
 * Read from the sources, so that adding a check and its test is the whole of it (docs/adding.md).
 */
static char *source(const char *path)
{
	FILE *f = fopen(path, "r");
	char *b = calloc(1, 1 << 20);
	cr_assert(f && b, "%s is not readable from the source root", path);
	b[fread(b, 1, (1 << 20) - 1, f)] = '\0';
	fclose(f);
	return b;
}

Test(check_faults, every_check_has_a_fault_test)
{
	char *self = source("tests/checks/test_check_faults.c"), *guest = source("tests/checks/test_guest_faults.c");
	char *vf = source("tests/checks/test_vf_faults.c");

	for (size_t i = 0; i < gtt_check_count(); i++) {
		char quoted[80];
		bool found = false;
		snprintf(quoted, sizeof(quoted), "\"%s\"", gtt_check(i)->name);
		if (!strcmp(gtt_check(i)->suite, "guest")) {
			found = strstr(guest, quoted) != NULL;
		} else if (!strcmp(gtt_check(i)->suite, "vf")) {
			/* a row of the matrix: { SIM_VF_..., { "check"[, "check"] }, ... } */
			for (const char *p = vf; (p = strstr(p, "{ SIM_VF_")) && !found; p++) {
				const char *end = strchr(p, '\n');
				const char *at = strstr(p, quoted);
				found = at && end && at < end;
			}
		} else {
			for (const char *p = self; (p = strstr(p, "caught(")) && !found; p++) {
				const char *end = strchr(p, ';');
				const char *at = strstr(p, quoted);
				found = at && end && at < end;
			}
		}
		cr_expect(found, "check %s has no fault-injection test", gtt_check(i)->name);
	}
	free(self);
	free(guest);
	free(vf);
}

static void freeze_pool_fence(struct hw_device *dev, struct sim_device *sim, uint64_t claim_index)
{
	(void)dev;
	(void)claim_index;
	/* the runtime's first pool fence is the first after the host's four: its LO takes the
	 * check's two writes (LO = 0, LO = value), then nothing, so dom0_fini cannot put it back */
	cr_assert_eq(sim_fault_freeze_after(sim, FENCE_REG_GEN6_LO(4), 2), 0);
}

/* A Dom0 check's runtime restore that does not read back ends the run in abort, naming the fence. */
Test(check_faults, a_dom0_check_whose_runtime_cannot_restore_aborts)
{
	struct check_result r = run_one("sim:skl", "fence-pool-guest-fence", freeze_pool_fence, NULL);

	cr_expect_eq(r.status, CHECK_ABORT, "%s: %s", check_status_name(r.status), r.reason);
	cr_expect(strstr(r.reason, "Dom0 runtime's restore") && strstr(r.reason, "fence 4 reads"), "%s", r.reason);
}

Test(check_faults, slot_resize_runs_second_run_not_copied)
{
	struct check_faults f = { .dom0 = { .runs_copy_first = true } };
	cr_expect(caught("sim:skl", "slot-resize-runs", NULL, &f, "after its switch: PTE"));
}

Test(check_faults, slot_resize_runs_admitted_before_two_slots_free)
{
	struct check_faults f = { .dom0 = { .admit_short = true } };
	cr_expect(caught("sim:skl", "slot-resize-runs", NULL, &f, "ran with one slot free"));
}
