/* SPDX-License-Identifier: MIT */
/*
 * The raw-BAR check: write a GGTT-shaped pattern (the PTEs that would map
 * pages 0x100000000 + i * 4096, in the gen8 format) into the BAR2 of a QEMU
 * ivshmem-plain device through the efi backend's BAR path, and read it back.
 * The host then finds the same bytes in the file behind the shared memory:
 * proof from outside the guest that the application writes what it claims.
 */
#ifndef EFI_IVSHMEM_CHECK_H
#define EFI_IVSHMEM_CHECK_H

#include <stddef.h>
#include <stdint.h>

#define IVSHMEM_VENDOR		0x1af4
#define IVSHMEM_DEVICE		0x1110
#define IVSHMEM_BAR		2
#define IVSHMEM_PTES		4096	/* 32 KiB of 8-byte entries */

/* The pattern's entry i (the host script computes the same: (0x100000 + i) << 12 | 1). */
uint64_t ivshmem_pattern(size_t i);

/* 0 when written and read back; otherwise -1 with a reason. */
int ivshmem_check(char *reason, size_t n);

#endif
