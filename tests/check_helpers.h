/* SPDX-License-Identifier: MIT */
/* Helpers of the tests that read the check table: a check by its name (never by its index). */
#ifndef TESTS_CHECK_HELPERS_H
#define TESTS_CHECK_HELPERS_H

#include "checks/check.h"

/* The check of the table with this name; fails the test when there is none. */
const struct check *t_check(const char *name);

#endif
