/* SPDX-License-Identifier: MIT */
/*
 * gtt_guest: the guest suite as IGT subtests (see igt-tests/igt_frontend.c),
 * run inside a vGPU: GTTLAB_DEVICE=vgpu:sim:skl in CI, a GVT-g guest's
 * device in a lab. On a native device every subtest skips, saying why.
 */
#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	return igt_frontend_main("guest", argc, argv);
}
