/* SPDX-License-Identifier: MIT */
/*
 * The main of every gtt_<suite> binary: the Makefile compiles it once per suite of the check
 * table (checks/check_table.c), with IGT_SUITE the suite's name, so a new suite gets its
 * binary, its test-list.txt entry and its testlist lines without a file of its own.
 */
#include "igt-tests/igt_frontend.h"

#ifndef IGT_SUITE
#error "IGT_SUITE names the binary's suite (the Makefile's -DIGT_SUITE=...)"
#endif

int main(int argc, char **argv)
{
	return igt_frontend_main(IGT_SUITE, argc, argv);
}
