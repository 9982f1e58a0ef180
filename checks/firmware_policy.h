/* SPDX-License-Identifier: MIT */
/*
 * The firmware policy a run was taken under: UEFI Secure Boot as the
 * SecureBoot and SetupMode variables of EFI_GLOBAL_VARIABLE say it (UEFI 2.x,
 * "Globally Defined Variables": each one byte, 1 or 0; SecureBoot is 1 only
 * when the firmware verifies every image it loads, SetupMode is 1 while no
 * Platform Key is enrolled). Each front-end reads them its own way (the EFI
 * application with GetVariable, the CLI from efivarfs); the reports print them.
 * Freestanding.
 */
#ifndef CHECKS_FIRMWARE_POLICY_H
#define CHECKS_FIRMWARE_POLICY_H

#include <stddef.h>
#include <stdint.h>

/* A variable's value: its byte (0..255), or one of these. */
#define FW_VAR_ABSENT	 (-1)	/* the firmware has no such variable */
#define FW_VAR_UNREAD	 (-2)	/* it could not be read (not a UEFI boot, no access) */
#define FW_VAR_MALFORMED (-3)	/* it is not one byte */

struct fw_policy {
	int secure_boot, setup_mode;
};

/* A variable's value from its data: the byte, or FW_VAR_MALFORMED when size is not 1. */
int fw_var_value(const uint8_t *data, size_t size);

/*
 * The policy in one word: "enforcing" (SecureBoot 1), "setup-mode" (SecureBoot 0, SetupMode 1:
 * no Platform Key, nothing is verified), "off" (SecureBoot 0, keys enrolled), "unsupported"
 * (no SecureBoot variable) or "unknown" (unread or malformed).
 */
const char *fw_policy_word(const struct fw_policy *p);

/* A value as the reports write it: "0", "1", any other byte, "absent", "unread", "malformed". */
void fw_var_text(int v, char *buf, size_t n);

/* "Secure Boot enforcing (SecureBoot=1, SetupMode=0)" */
void fw_policy_text(const struct fw_policy *p, char *buf, size_t n);

#endif
