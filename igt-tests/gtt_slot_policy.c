/* SPDX-License-Identifier: MIT */
/* gtt_slot_policy: the slot-policy checks as IGT subtests (see igt-tests/igt_frontend.c). */
#include "igt-tests/igt_frontend.h"

int main(int argc, char **argv)
{
	return igt_frontend_main("slot-policy", argc, argv);
}
