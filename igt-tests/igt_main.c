/* SPDX-License-Identifier: MIT */
/*
 * The main of every gtt_<suite> binary. One program serves every suite of the check table
 * (checks/check_table.c): the Makefile links it once and gives it one name per suite in the
 * test root (hard links), and the name it runs under says its suite, gtt_fence_pool running
 * "fence-pool". So a new suite gets its binary, its test-list.txt entry and its testlist lines
 * without a file of its own, and a change to the library relinks one program, not one per suite.
 * A name that is no gtt_<suite> of the table is refused by igt_frontend_main (exit 79).
 */
#include <stdio.h>
#include <string.h>

#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	const char *name = argc > 0 && argv[0] ? argv[0] : "", *base = strrchr(name, '/');
	char suite[64] = "";

	base = base ? base + 1 : name;
	if (!strncmp(base, "gtt_", 4) && strlen(base + 4) < sizeof(suite))
		for (size_t i = 0; base[4 + i]; i++)
			suite[i] = base[4 + i] == '_' ? '-' : base[4 + i];
	return igt_frontend_main(suite, argc, argv);
}
