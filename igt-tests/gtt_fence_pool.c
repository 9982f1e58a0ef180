/* SPDX-License-Identifier: MIT */
/* gtt_fence_pool: the fence-pool checks as IGT subtests (see igt-tests/igt_frontend.c). */
#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	return igt_frontend_main("fence-pool", argc, argv);
}
