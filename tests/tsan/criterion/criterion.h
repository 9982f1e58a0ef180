/* SPDX-License-Identifier: MIT */
/*
 * The part of Criterion's assertion API that the hosted service's tests and
 * their helpers use (tests/test_dom0_serve.c, tests/helpers.c,
 * tests/dom0_helpers.c), for the ThreadSanitizer runner
 * (tests/tsan/serve_main.c). Criterion's runner does not start under TSan
 * (its sandbox's "Could not initialize inheritable arena", or a report from
 * inside Criterion itself), so make tsan compiles those three files with
 * this directory ahead of the system headers, unchanged.
 *
 * Same meanings as Criterion's: cr_assert* end the test, cr_expect* mark it
 * failed and go on, the message arguments are optional and start with a
 * string literal. Test() is deliberately missing: the runner finds the tests
 * in serve_tests[] (tests/tsan/serve_tests.h), never by registration.
 */
#ifndef TESTS_TSAN_CRITERION_SHIM_H
#define TESTS_TSAN_CRITERION_SHIM_H

#include <stddef.h>

/* In tests/tsan/serve_main.c. The message always starts with a space: an empty format is a warning. */
_Noreturn void tsan_cr_assert_failed(const char *file, int line, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void tsan_cr_expect_failed(const char *file, int line, const char *what, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
_Noreturn void tsan_cr_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define TSAN_CR_CHECK(failed, cond, what, ...)                                      \
	do {                                                                        \
		if (!(cond))                                                        \
			failed(__FILE__, __LINE__, what, " " __VA_ARGS__);          \
	} while (0)

#define cr_assert(c, ...)		TSAN_CR_CHECK(tsan_cr_assert_failed, (c), #c, __VA_ARGS__)
#define cr_expect(c, ...)		TSAN_CR_CHECK(tsan_cr_expect_failed, (c), #c, __VA_ARGS__)
#define cr_assert_eq(a, b, ...)		TSAN_CR_CHECK(tsan_cr_assert_failed, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_expect_eq(a, b, ...)		TSAN_CR_CHECK(tsan_cr_expect_failed, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...)	TSAN_CR_CHECK(tsan_cr_assert_failed, (a) != (b), #a " != " #b, __VA_ARGS__)
#define cr_expect_neq(a, b, ...)	TSAN_CR_CHECK(tsan_cr_expect_failed, (a) != (b), #a " != " #b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...)		TSAN_CR_CHECK(tsan_cr_assert_failed, (a) > (b), #a " > " #b, __VA_ARGS__)
#define cr_expect_gt(a, b, ...)		TSAN_CR_CHECK(tsan_cr_expect_failed, (a) > (b), #a " > " #b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...)	TSAN_CR_CHECK(tsan_cr_assert_failed, (a) >= (b), #a " >= " #b, __VA_ARGS__)
#define cr_expect_geq(a, b, ...)	TSAN_CR_CHECK(tsan_cr_expect_failed, (a) >= (b), #a " >= " #b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...)		TSAN_CR_CHECK(tsan_cr_assert_failed, (a) < (b), #a " < " #b, __VA_ARGS__)
#define cr_expect_lt(a, b, ...)		TSAN_CR_CHECK(tsan_cr_expect_failed, (a) < (b), #a " < " #b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...)	TSAN_CR_CHECK(tsan_cr_assert_failed, (a) <= (b), #a " <= " #b, __VA_ARGS__)
#define cr_expect_leq(a, b, ...)	TSAN_CR_CHECK(tsan_cr_expect_failed, (a) <= (b), #a " <= " #b, __VA_ARGS__)
#define cr_assert_null(p, ...)		TSAN_CR_CHECK(tsan_cr_assert_failed, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_expect_null(p, ...)		TSAN_CR_CHECK(tsan_cr_expect_failed, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...)	TSAN_CR_CHECK(tsan_cr_assert_failed, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_expect_not_null(p, ...)	TSAN_CR_CHECK(tsan_cr_expect_failed, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_fail(...)		tsan_cr_assert_failed(__FILE__, __LINE__, "cr_assert_fail", " " __VA_ARGS__)
#define cr_skip_test(...)		tsan_cr_skip(" " __VA_ARGS__)

#endif
