/* SPDX-License-Identifier: MIT */
/*
 * The FAT volumes the application reads gttlab.cfg from and writes its
 * crash journal and reports to. Booted from a disk, that is the volume the
 * image was loaded from; loaded over the network (PXE, iPXE, HTTP boot) the
 * image has no volume, so the results go to the one --volume names, or else
 * the first writable one found, said on the console. No writable volume is
 * a refusal, unless --no-journal asked to run without one.
 */
#ifndef EFI_EFI_VOLUME_H
#define EFI_EFI_VOLUME_H

#include <efi.h>
#include <stdbool.h>
#include <stddef.h>

#define EFI_VOLUMES_MAX 16

struct efi_volume {
	EFI_HANDLE dev;			/* the handle with EFI_SIMPLE_FILE_SYSTEM_PROTOCOL */
	char label[40];			/* its FAT volume label, ASCII ("" when it has none) */
	bool boot;			/* the volume the image was loaded from */
	bool named;			/* chosen by its label (--volume) */
	bool read_only;			/* its file system says so (a read-only medium): nothing is probed by writing */
};

/* Every volume with a file system, the boot volume first: up to EFI_VOLUMES_MAX into V; the count. */
size_t efi_volumes(EFI_HANDLE image, struct efi_volume *v, size_t max);

/*
 * The volume for the journal and reports: the one labelled LABEL when LABEL is not NULL, else the
 * boot volume when writable, else the first writable one. 0 and *OUT; -1 and WHY (N bytes) when there
 * is none.
 */
int efi_volume_choose(EFI_HANDLE image, const char *label, struct efi_volume *out, char *why, size_t n);

/* "GTTLAB (the boot volume)", "RESULTS (the first writable volume; the boot volume is read-only or none)", in BUF. */
const char *efi_volume_text(const struct efi_volume *v, char *buf, size_t n);

#endif
