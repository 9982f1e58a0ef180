/* SPDX-License-Identifier: MIT */
/*
 * The UEFI implementation of the environment interface: AllocatePool, a
 * time counter calibrated against Stall, and logging to ConOut and, when the
 * firmware has one, the serial port.
 */
#ifndef EFI_EFI_ENV_H
#define EFI_EFI_ENV_H

#include <efi.h>

#include "env/env.h"

const struct gtt_env *efi_env_init(void);
/* Text to ConOut and the serial port; "\n" becomes CRLF on the console. */
void efi_print(const char *s);
void efi_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
