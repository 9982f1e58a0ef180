/* SPDX-License-Identifier: MIT */
/*
 * The UEFI implementation of the environment interface: memory from one
 * region taken from the firmware once (env/arena.h), a time counter calibrated against Stall, and logging to ConOut and, when the
 * firmware has one, the serial port.
 */
#ifndef EFI_EFI_ENV_H
#define EFI_EFI_ENV_H

#include <efi.h>

#include "env/env.h"

/* What the run took from the firmware's memory services. */
struct efi_memory_stats {
	uint64_t region_bytes;		/* the region taken at the start (0: none; everything from the pool) */
	uint64_t peak_bytes;		/* the most of it in use at once */
	uint64_t allocs;		/* allocations made, from the region or the pool */
	uint64_t pool_allocs;		/* of those, from AllocatePool (the region had no room) */
	uint64_t calls, ns;		/* AllocatePages/AllocatePool/FreePool calls, and the time inside them */
	uint64_t bad_frees;		/* frees of a pointer in the region that was no live block: ignored */
};

const struct gtt_env *efi_env_init(void);
void efi_memory_stats(struct efi_memory_stats *out);
/* The region back to the firmware, before the application returns to its caller: nothing allocated is used after. */
void efi_env_fini(void);
/* Text to ConOut and the serial port; "\n" becomes CRLF on the console. */
void efi_print(const char *s);
void efi_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
