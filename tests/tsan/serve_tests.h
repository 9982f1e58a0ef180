/* SPDX-License-Identifier: MIT */
/*
 * The hosted service's tests (tests/test_dom0_serve.c) as a table of plain
 * functions. Criterion runs each through a thin Test() wrapper; the
 * ThreadSanitizer runner (tests/tsan/serve_main.c, make tsan) walks the table
 * itself, because Criterion's runner does not start under TSan. Both come
 * from one list in the test file, so neither can miss a test.
 */
#ifndef TESTS_TSAN_SERVE_TESTS_H
#define TESTS_TSAN_SERVE_TESTS_H

#include <stddef.h>

struct serve_test {
	const char *suite, *name;
	void (*run)(void);
	unsigned timeout_s;		/* Criterion's .timeout, the runner's alarm; 0: none */
};

extern const struct serve_test serve_tests[];
extern const size_t serve_num_tests;

#endif
