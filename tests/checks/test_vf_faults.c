/* SPDX-License-Identifier: MIT */
/*
 * The VF fault matrix: every fault of the model as an SR-IOV VF (enum
 * sim_vf_fault), and the vf suite run inside it. Each fault must make the
 * checks its row names fail, with a reason that names the entry, the
 * register or the KLV it found wrong; with no fault every vf check passes on
 * each gen12 model, and every other check skips saying the VF has no whole
 * GPU. A fault added to the enum without a row here, or a row
 * docs/sriov.md's table does not list, fails the matrix.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "checks/runner.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/sim/sim.h"
#include "hw/undo.h"
#include "tests/helpers.h"

struct vf_row {
	enum sim_vf_fault fault;
	const char *caught_by[2];	/* the checks that must fail (the second may be NULL) */
	const char *names;		/* what the first one's reason must name */
};

static const struct vf_row rows[] = {
	{ SIM_VF_OVERLAP, { "vf-own-ptes" }, "PTE 131072 (GGTT 0x20000000)" },
	{ SIM_VF_TAG, { "vf-own-ptes" }, "PTE 98311 (GGTT 0x18007000)" },
	{ SIM_VF_NEIGHBOUR, { "vf-neighbours", "vf-pf-view" }, "PTE 131072 (GGTT 0x20000000), the page just after" },
	{ SIM_VF_VALID, { "vf-own-ptes", "vf-pf-view" }, "a VF cannot change VALID" },
	{ SIM_VF_BUSY, { "vf-bootstrap", "vf-range" }, "GuC action 0x5507: still busy" },
	{ SIM_VF_LOST, { "vf-bootstrap", "vf-range" }, "GuC action 0x5509: no reply within 50 ms (VF_SW_FLAG0" },
	{ SIM_VF_PAST_TOP, { "vf-bootstrap", "vf-range" }, "past GUC_GGTT_TOP 0xfee00000" },
	{ SIM_VF_DRIFT, { "vf-stable" }, "GGTT_SIZE 0xffff000; the bootstrap read" },
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

static size_t run_on(const char *spec, const char *run, struct check_result *r)
{
	const struct check *sel[64];
	struct runner_opts o = { .seed = 11 };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	size_t n = 0;

	cr_assert_eq(runner_select(run, sel, 64, &n, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &dev, &err),
		     0, "%s: %s", spec, err.msg);
	cr_assert(dev->info.vf.active, "%s is not a VF", spec);
	cr_assert_eq(runner_run(dev, sel, n, &o, r), n, "%s: a check could not be put back", spec);
	cr_assert_eq(hw_undo_restore(dev, &err), 0, "%s: the bootstrap's flags not put back: %s", spec, err.msg);
	hw_close(dev);
	return n;
}

static void clean(const char *spec)
{
	struct check_result r[64];
	size_t n = run_on(spec, "*", r), vf = 0;

	cr_assert_eq(n, gtt_check_count());
	for (size_t i = 0; i < n; i++) {
		bool is_vf = !strcmp(r[i].check->suite, "vf");
		vf += is_vf;
		cr_expect_eq(r[i].status, is_vf ? CHECK_PASS : CHECK_SKIP, "%s on %s: %s %s", r[i].check->name, spec,
			     check_status_name(r[i].status), r[i].reason);
		if (!is_vf)
			cr_expect(strstr(r[i].reason, "SR-IOV VF: the check needs the whole GPU"), "%s: %s", r[i].check->name,
				  r[i].reason);
	}
	cr_expect_eq(vf, 6, "the vf suite has %zu checks", vf);
}

Test(vf_faults, every_vf_check_passes_on_a_correct_pf_adlp) { clean("sim:adlp,vf"); }
Test(vf_faults, every_vf_check_passes_on_a_correct_pf_tgl) { clean("sim:tgl,vf"); }

Test(vf_faults, every_fault_is_caught, .timeout = 60)
{
	for (size_t i = 0; i < N_ROWS; i++) {
		char spec[64];
		struct check_result r[16];
		snprintf(spec, sizeof(spec), "sim:adlp,vf,fault=%s", sim_vf_fault_name(rows[i].fault));
		size_t n = run_on(spec, "vf", r);
		for (unsigned k = 0; k < 2 && rows[i].caught_by[k]; k++) {
			const struct check_result *hit = NULL;
			for (size_t j = 0; j < n; j++)
				if (!strcmp(r[j].check->name, rows[i].caught_by[k]))
					hit = &r[j];
			cr_assert(hit, "no check %s", rows[i].caught_by[k]);
			cr_expect_eq(hit->status, CHECK_FAIL, "%s: %s is %s (%s); it must fail", spec, hit->check->name,
				     check_status_name(hit->status), hit->reason);
			if (!k)
				cr_expect(strstr(hit->reason, rows[i].names), "%s: %s says '%s', not naming '%s'", spec,
					  hit->check->name, hit->reason, rows[i].names);
		}
	}
}

Test(vf_faults, the_matrix_is_complete)
{
	for (unsigned f = SIM_VF_OK + 1; f < SIM_VF_FAULTS; f++) {
		unsigned n = 0;
		for (size_t i = 0; i < N_ROWS; i++)
			n += rows[i].fault == (enum sim_vf_fault)f;
		cr_expect_eq(n, 1, "fault %s has %u rows in the VF fault matrix", sim_vf_fault_name((enum sim_vf_fault)f), n);
	}
	/* and every vf check is some row's catcher, so none is without a fault that shows it can fail */
	for (size_t c = 0; c < gtt_check_count(); c++) {
		if (strcmp(gtt_check(c)->suite, "vf") || !strcmp(gtt_check(c)->name, "vf-bootstrap"))
			continue;
		unsigned n = 0;
		for (size_t i = 0; i < N_ROWS; i++)
			for (unsigned k = 0; k < 2; k++)
				n += rows[i].caught_by[k] && !strcmp(rows[i].caught_by[k], gtt_check(c)->name);
		cr_expect(n, "%s catches no fault of the matrix", gtt_check(c)->name);
	}
}

/* docs/sriov.md's table lists every fault with the check that catches it. */
Test(vf_faults, the_documented_table_matches)
{
	FILE *fp = fopen("docs/sriov.md", "r");
	char line[512];
	unsigned found[N_ROWS] = { 0 };

	cr_assert(fp, "docs/sriov.md not readable from the source root");
	while (fgets(line, sizeof(line), fp))
		for (size_t i = 0; i < N_ROWS; i++) {
			char want[64];
			snprintf(want, sizeof(want), "| `fault=%s` |", sim_vf_fault_name(rows[i].fault));
			if (strstr(line, want) && strstr(line, rows[i].caught_by[0]))
				found[i]++;
		}
	fclose(fp);
	for (size_t i = 0; i < N_ROWS; i++)
		cr_expect_eq(found[i], 1, "docs/sriov.md's fault table has %u rows for fault=%s naming %s", found[i],
			     sim_vf_fault_name(rows[i].fault), rows[i].caught_by[0]);
}

/* The front-ends run the vf suite on the same device: the CLI, and gtt_vf under GTTLAB_DEVICE, faults too. */
Test(vf_faults, the_cli_and_gtt_vf_run_the_suite_in_a_vf, .timeout = 60)
{
	static char out[1 << 16];

	cr_assert_eq(t_run("./build/gttlab check --device sim:adlp,vf --run vf 2>&1", out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "PASS on sim:adlp,vf (adlp, simulated), seed 0: 6 passed, 0 failed, 0 skipped"), "%s", out);
	cr_assert_eq(t_run("GTTLAB_DEVICE=sim:adlp,vf ./build/igt/gtt_vf 2>&1", out, sizeof(out)), 0, "%s", out);
	for (size_t i = 0; i < gtt_check_count(); i++) {
		char want[96];
		if (strcmp(gtt_check(i)->suite, "vf"))
			continue;
		snprintf(want, sizeof(want), "Subtest %s: SUCCESS", gtt_check(i)->name);
		cr_expect(strstr(out, want), "%s missing from:\n%s", want, out);
	}
	cr_expect(strstr(out, "Dynamic subtest adlp: SUCCESS") && strstr(out, "Dynamic subtest tgl: SUCCESS"), "%s", out);
	cr_assert_eq(t_run("GTTLAB_DEVICE=sim:adlp,vf,fault=neighbour ./build/igt/gtt_vf --run-subtest vf-neighbours 2>&1",
			   out, sizeof(out)), 98, "IGT's failure exit: %s", out);
	cr_expect(strstr(out, "Subtest vf-neighbours: FAIL") && strstr(out, "the page just after the range"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab check --device sim:adlp,vf,fault=drift --run vf-stable 2>&1", out, sizeof(out)), 1,
		     "%s", out);
	cr_expect(strstr(out, "fail") && strstr(out, "GGTT_SIZE"), "%s", out);
	cr_expect_eq(t_run("./build/gttlab info --device sim:skl,vf 2>&1", out, sizeof(out)), 2, "%s", out);
	cr_expect(strstr(out, "SR-IOV VFs are gen12's"), "%s", out);
}
