/* SPDX-License-Identifier: MIT */
/*
 * The model's own description of the formats the hardware evaluates: where a
 * GGTT entry keeps its valid bit and the pieces of the physical address, and
 * how a fence register's 64-bit value is laid out. Written from
 * docs/hardware.md §2 and §4.3 as tables (docs/model.md), deliberately not
 * from the regs/ masks that hw/'s encoders use: a wrong mask in regs/ must
 * make the encoder and the model disagree, not agree.
 */
#ifndef HW_SIM_SIM_FORMAT_H
#define HW_SIM_SIM_FORMAT_H

#include <stdbool.h>
#include <stdint.h>

#include "regs/platform.h"

/* Entry bits [entry_lo, entry_lo + width) hold physical address bits [phys_lo, phys_lo + width). */
struct sim_addr_piece {
	unsigned entry_lo, width, phys_lo;
};

struct sim_pte_format {
	unsigned entry_bytes;		/* 4 or 8 */
	unsigned valid_bit;
	unsigned n_pieces;
	struct sim_addr_piece piece[2];
	uint64_t uncached;		/* the control bits of an uncached entry, as the boot scratch entries carry */
};

/* The format of a platform's GGTT entries. */
const struct sim_pte_format *sim_pte_format_of(enum pte_format f);
/* Physical page an entry names; false when its valid bit is clear. */
bool sim_pte_decode(const struct sim_pte_format *f, uint64_t entry, uint64_t *page);
/* A valid, uncached entry naming `page` (bits of the page no piece holds are dropped). */
uint64_t sim_pte_make(const struct sim_pte_format *f, uint64_t page);

/* Tile geometry (docs/hardware.md §5.2): a tile is 4 KiB; X is 512 bytes x 8 rows; Y is
 * 128 bytes x 32 rows, stored as 16-byte columns of 32 rows each. */
#define SIM_TILE_BYTES	4096u
#define SIM_X_WIDTH	512u
#define SIM_X_ROWS	8u
#define SIM_Y_WIDTH	128u
#define SIM_Y_ROWS	32u
#define SIM_Y_COLUMN	16u

/* A fence as the hardware evaluates it, from the combined value HI << 32 | LO. */
struct sim_fence {
	bool valid, y;
	uint64_t start, end;		/* end: first byte past the fenced range */
	uint64_t pitch;			/* bytes */
};
void sim_fence_decode(uint64_t value, struct sim_fence *f);

#endif
