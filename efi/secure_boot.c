/* SPDX-License-Identifier: MIT */
/*
 * SecureBoot and SetupMode through the runtime service GetVariable: a variable
 * the firmware does not have (EFI_NOT_FOUND) is absent; one longer than the
 * byte the specification gives it is malformed; any other error, unread.
 */
#include <efi.h>
#include <efilib.h>

#include "efi/secure_boot.h"

static int read_var(CHAR16 *name)
{
	uint8_t data[8];
	UINTN size = sizeof(data);
	UINT32 attr;
	EFI_STATUS st = RT->GetVariable(name, &EfiGlobalVariable, &attr, &size, data);

	if (st == EFI_NOT_FOUND)
		return FW_VAR_ABSENT;
	if (st == EFI_BUFFER_TOO_SMALL)
		return FW_VAR_MALFORMED;
	if (st != EFI_SUCCESS)
		return FW_VAR_UNREAD;
	return fw_var_value(data, size);
}

void efi_secure_boot_read(struct fw_policy *p)
{
	p->secure_boot = read_var(L"SecureBoot");
	p->setup_mode = read_var(L"SetupMode");
}
