/* SPDX-License-Identifier: MIT */
/*
 * The check table: the rows each file of checks exports beside its checks
 * (name, suite, description, requirements, claims, function), in the order
 * of the files below. A new file of checks adds its line here; a new check
 * is only its function and its row, in its file (docs/adding.md).
 */
#include "checks/check.h"
#include "checks/check_suites.h"

static const struct check_rows *const files[] = {
	&checks_ggtt,
	&checks_fence,
	&checks_dom0,
	&checks_slot_runs,
	&checks_policy,
	&checks_admission,
	&checks_migration,
	&checks_guest,
	&checks_guest_outside,
	&checks_guest_resize,
	&checks_guest_migrate,
	&checks_vf,
	&checks_pf,
};

size_t gtt_check_count(void)
{
	size_t n = 0;

	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); f++)
		n += files[f]->n;
	return n;
}

const struct check *gtt_check(size_t i)
{
	for (size_t f = 0; f < sizeof(files) / sizeof(files[0]); i -= files[f]->n, f++)
		if (i < files[f]->n)
			return &files[f]->rows[i];
	return NULL;
}
