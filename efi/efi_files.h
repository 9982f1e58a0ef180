/* SPDX-License-Identifier: MIT */
/*
 * Files on a FAT volume, named by the handle of its file system (efi/efi_volume.h: the boot
 * volume, or the one chosen for the results); a NULL volume has no files and every call fails.
 */
#ifndef EFI_EFI_FILES_H
#define EFI_EFI_FILES_H

#include <efi.h>
#include <stddef.h>

/* Read a whole file (ASCII path, '\\' separators) into a new NUL-terminated buffer; NULL if absent. */
char *efi_read_file(EFI_HANDLE volume, const char *path, size_t *len);
/* Create or replace a file, creating its directory if needed; 0 on success. */
int efi_write_file(EFI_HANDLE volume, const char *dir, const char *name, const void *data, size_t len);

/* Open a file for appending, creating it and its directory; NULL on failure. */
EFI_FILE_HANDLE efi_open_append(EFI_HANDLE volume, const char *dir, const char *name);
/* Append and flush to the medium; 0 on success. */
int efi_append(EFI_FILE_HANDLE f, const void *data, size_t len);
/* Delete a file (ASCII path); 0 when it is gone or was never there. */
int efi_delete_file(EFI_HANDLE volume, const char *path);

#endif
