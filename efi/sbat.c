/* SPDX-License-Identifier: MIT */
/*
 * The application's SBAT metadata: the .sbat section shim (15.3 and later)
 * requires of every second stage it starts under Secure Boot, and refuses
 * one without (shim's SBAT.md). Two CSV lines: the format's own record, and
 * gttlab's component with its generation and this build's version. The
 * generation rises when a security fix must revoke every earlier gttlab.efi
 * through an SbatLevel update; the text ends in NUL, as the other gnu-efi
 * second stages shim starts carry it. The Makefile keeps the section in the
 * PE image (objcopy -j .sbat).
 */
#include "gttlab_version.h"

#define GTTLAB_SBAT_GENERATION "1"

static const char sbat[] __attribute__((section(".sbat"), used, aligned(1))) =
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"
	"gttlab," GTTLAB_SBAT_GENERATION ",gttlab,gttlab," GTTLAB_VERSION ",https://gttlab.invalid/\n";
