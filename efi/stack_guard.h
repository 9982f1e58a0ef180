/* SPDX-License-Identifier: MIT */
/* The EFI application's stack-protector guard (efi/stack_guard.c). */
#ifndef EFI_STACK_GUARD_H
#define EFI_STACK_GUARD_H

#include <efi.h>

/* Draw the guard; called first at entry, from a frame the protector does not instrument. */
void efi_stack_guard_init(EFI_HANDLE image);

#endif
