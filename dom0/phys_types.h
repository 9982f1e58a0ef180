/* SPDX-License-Identifier: MIT */
/* The physical GTT mirror's state (dom0/phys.h): what the GTT holds, as found and now, and who owns each entry. */
#ifndef DOM0_PHYS_TYPES_H
#define DOM0_PHYS_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define DOM0_CHUNK	512u		/* PTEs per snapshot chunk: 4 KiB of gen8 GSM */

/* Owned by dom0/phys.c (and phys.h's inline readers); every other part goes through dom0/phys.h. */
struct dom0_phys {
	/* hw's undo log as found; the runtime restores from `chunk`'s first halves instead */
	size_t undo_mark;
	/* the ranges the runtime writes: guest low area and pool, and the slots (PTE indexes [first, end)) */
	uint64_t managed[2][2];
	/*
	 * Per chunk of DOM0_CHUNK PTEs, loaded at its first write: `orig`, the
	 * entries as found (read from the device once), then `cur`, what the
	 * physical GTT holds (written by the runtime only, never read back to
	 * decide). NULL: never touched, so still as found.
	 */
	uint64_t **chunk;
	/*
	 * Per chunk: NULL, or the shadow the switch copied the whole chunk from,
	 * which the GTT holds while `cur` was left behind (dom0_phys_copy_in;
	 * brought level before that shadow changes).
	 */
	const uint64_t **chunk_src;
	/* chunks in the GGTT: n_ptes / DOM0_CHUNK, rounded up */
	uint64_t n_chunks;
	/* per PTE: the vGPU whose entry the physical GTT holds, 0 none */
	uint16_t *owner;
	/* per chunk: the vGPU that holds all of its PTEs, 0 mixed or none */
	uint16_t *chunk_owner;
	/* the render owner: the vGPU switched in, whose shadow the GTT holds; 0 none */
	int render_owner;
};

#endif
