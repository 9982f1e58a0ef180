/* SPDX-License-Identifier: MIT */
/* The Secure Boot policy of the firmware Linux was booted by, from efivarfs (hosted). */
#ifndef CLI_FIRMWARE_EFIVARFS_H
#define CLI_FIRMWARE_EFIVARFS_H

#include "checks/firmware_policy.h"

/* Where Linux mounts efivarfs. */
#define EFIVARFS_DIR "/sys/firmware/efi/efivars"

/*
 * SecureBoot and SetupMode of EFI_GLOBAL_VARIABLE from the efivarfs directory `dir`: each file
 * holds the variable's 4-byte attributes, then its data. No directory (a machine not booted
 * through UEFI): both unread; a variable without its file: absent.
 */
void fw_policy_read_efivarfs(const char *dir, struct fw_policy *p);

#endif
