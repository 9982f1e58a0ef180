/* SPDX-License-Identifier: MIT */
/*
 * The main of every gtt_<suite> binary. One program serves every suite of the check table
 * (checks/check_table.c): the Makefile links it once and gives it one name per suite in the
 * test root (hard links), and the file it runs from says its suite, gtt_fence_pool running
 * "fence-pool". So a new suite gets its binary, its test-list.txt entry and its testlist lines
 * without a file of its own, and a change to the library relinks one program, not one per suite.
 * The file is the kernel's /proc/self/exe (the link it was executed through), not argv[0], which
 * the caller chooses: a program started under any argv[0] runs its file's suite. A file that is
 * no gtt_<suite> of the table is refused by igt_frontend_main (exit 79).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	char exe[4096], suite[64] = "";
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	const char *name = n > 0 ? exe : argc > 0 && argv[0] ? argv[0] : "", *base;

	if (n > 0)
		exe[n] = '\0';
	base = strrchr(name, '/');
	base = base ? base + 1 : name;
	if (!strncmp(base, "gtt_", 4) && strlen(base + 4) < sizeof(suite))
		for (size_t i = 0; base[4 + i]; i++)
			suite[i] = base[4 + i] == '_' ? '-' : base[4 + i];
	return igt_frontend_main(suite, argc, argv);
}
