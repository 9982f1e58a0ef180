/* SPDX-License-Identifier: MIT */
/* The Secure Boot policy of the firmware the application runs under. */
#ifndef EFI_SECURE_BOOT_H
#define EFI_SECURE_BOOT_H

#include "checks/firmware_policy.h"

/* SecureBoot and SetupMode of EFI_GLOBAL_VARIABLE, read with GetVariable. */
void efi_secure_boot_read(struct fw_policy *p);

#endif
