/* SPDX-License-Identifier: MIT */
#include "tests/check_helpers.h"

#include <criterion/criterion.h>
#include <string.h>

const struct check *t_check(const char *name)
{
	for (size_t i = 0; i < gtt_check_count(); i++)
		if (!strcmp(gtt_check(i)->name, name))
			return gtt_check(i);
	cr_assert_fail("no check named %s in the table", name);
	return NULL;
}
