/* SPDX-License-Identifier: MIT */
/*
 * The IGT test-binary protocol (docs: ../shared/docs/igt-protocol.md) over the
 * shared check table: each gtt_<suite> binary is this front-end for one
 * suite. Subtests are the suite's checks on the chosen device, plus
 * "platforms", whose dynamic subtests run the suite on each simulated
 * platform.
 */
#ifndef IGT_TESTS_IGT_FRONTEND_H
#define IGT_TESTS_IGT_FRONTEND_H

/* Exit codes of lib/igt_core.h. */
#define IGT_EXIT_SUCCESS	0
#define IGT_EXIT_SKIP		77
#define IGT_EXIT_INVALID	79
#define IGT_EXIT_FAILURE	98
#define IGT_EXIT_ABORT		112

int igt_frontend_main(const char *suite, int argc, char **argv);

#endif
