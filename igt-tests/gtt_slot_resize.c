/* SPDX-License-Identifier: MIT */
/* gtt_slot_resize: the slot-resize checks as IGT subtests (see igt-tests/igt_frontend.c). */
#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	return igt_frontend_main("slot-resize", argc, argv);
}
