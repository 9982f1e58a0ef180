/* SPDX-License-Identifier: MIT */
/* gtt_migration: the migration checks as IGT subtests (see igt-tests/igt_frontend.c). */
#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	return igt_frontend_main("migration", argc, argv);
}
