/* SPDX-License-Identifier: MIT */
/*
 * An allocator over one region of memory the environment took once: the EFI
 * application's memory (efi/efi_env.c), so that the thousands of allocations
 * a run makes never reach the firmware's pool (issue 45: AllocatePool and
 * FreePool were 60-75% of the application's time above the firmware floor
 * under QEMU). Blocks of up to 64 KiB, headers included, come from
 * power-of-two free lists; larger ones from an address-ordered list of free
 * extents, first fit, merged on free with their neighbours and with the
 * unused top. Freestanding; not thread-safe (nor is anything the EFI
 * application runs).
 */
#ifndef ENV_ARENA_H
#define ENV_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GTT_ARENA_CLASSES	12	/* small blocks of 32 B .. 64 KiB */

struct gtt_arena_ext;

struct gtt_arena {
	uint8_t *base, *bump, *end;	/* the region; bump: the first byte never handed out */
	void *small[GTT_ARENA_CLASSES];	/* free small blocks, each linked through its payload */
	struct gtt_arena_ext *large;	/* free extents in address order */
	uint64_t in_use;		/* bytes handed out now, headers included */
	uint64_t peak;			/* the most in_use has been */
	uint64_t allocs, frees;		/* calls served from the region */
	uint64_t bad_frees;		/* frees inside the region of a block not handed out: left alone */
};

/* The region [base, base + size): base 16-byte aligned. */
void gtt_arena_init(struct gtt_arena *a, void *base, size_t size);
/* size bytes, 16-byte aligned, contents undefined; NULL when the region has no room (the caller may look elsewhere). */
void *gtt_arena_alloc(struct gtt_arena *a, size_t size);
/* Whether p lies in the region: then it is taken back (or, not being a live block, counted in bad_frees). */
bool gtt_arena_free(struct gtt_arena *a, void *p);

#endif
