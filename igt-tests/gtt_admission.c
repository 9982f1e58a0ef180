/* SPDX-License-Identifier: MIT */
/* gtt_admission: the admission checks as IGT subtests (see igt-tests/igt_frontend.c). */
#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	return igt_frontend_main("admission", argc, argv);
}
