/* SPDX-License-Identifier: MIT */
/*
 * Pictures of graphics memory as SVG, self-contained (no external assets,
 * no script): the GGTT as a map (`gttlab dump ggtt --svg`, and the end state
 * of a scenario), and a scenario's slots over time (`gttlab dom0 run --svg`).
 * Every labelled part is a <text> element with a class naming what it is,
 * so a reader of the DOM (tests/vm/svg-render.sh) finds it.
 */
#ifndef HOSTED_PICTURE_H
#define HOSTED_PICTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dom0/dom0.h"
#include "hw/scanout.h"

#define PICTURE_BUCKETS 512		/* columns of the GGTT map */

enum picture_class { PIC_NOT_PRESENT, PIC_SCRATCH, PIC_MAPPED };

struct picture_region {
	char label[32];			/* "host low", "guest low", "fence pool", "reserved", "host high", "slot 3" */
	uint64_t start, end;		/* GGTT [start, end) */
};

/* The GGTT of one device, summarized in PICTURE_BUCKETS columns. */
struct picture_map {
	char title[256];
	uint64_t ggtt_size, aperture_size;
	struct picture_region region[1100];
	size_t n_regions;
	uint32_t count[PICTURE_BUCKETS][3];	/* PTEs of each class in the column */
	uint16_t owner[PICTURE_BUCKETS];	/* the vGPU whose entries fill most of the column, 0 none */
	uint32_t owner_votes[PICTURE_BUCKETS];	/* picture_map_add's majority vote (Boyer-Moore) */
	const char *owner_name[64];		/* by owner id (only the first 63 are named) */
	struct hw_scanout scanout[HW_SCANOUT_MAX];
	size_t n_scanout;
};

/* One vGPU holding slots [first, first + slots) from line `from` to line `to` (exclusive). */
struct picture_hold {
	char name[32];
	int vgpu;			/* colour index */
	int from, to;
	unsigned first, slots;
};

/* Something that happened at a line: "expanded", "reduced", "migrated", "paused", "admitted", ... */
struct picture_event {
	char name[32], what[40];
	int line;
};

struct picture_switch {
	int line;
	uint64_t ptes_written;
};

struct picture_slots {
	char title[256];
	unsigned num_slots;
	int last_line;
	const struct picture_hold *hold;
	size_t n_hold;
	const struct picture_event *event;
	size_t n_event;
	const struct picture_switch *sw;
	size_t n_sw;
};

/* A whole SVG document: the GGTT map. */
void picture_ggtt_svg(FILE *f, const struct picture_map *m);
/* A whole SVG document: slots over time, switches below them, and the map at the end (m may be NULL). */
void picture_slots_svg(FILE *f, const struct picture_slots *s, const struct picture_map *m);

/*
 * The map of a device as it is now: the regions of the Dom0 layout `l`, every
 * PTE read back and classed (not present; scratch: the page of the longest
 * run of identical entries, or a vGPU's own scratch page; mapped), whose
 * entries they are when a runtime is given (rt may be NULL), and the
 * surfaces the display scans out. Reads only. names[id] names vGPU id (id < 64).
 */
int picture_map_from_device(struct hw_device *dev, const struct dom0_runtime *rt, const struct dom0_layout *l,
			    const char *const *names, struct picture_map *m, struct gtt_err *err);

/* Add PTE index i of class c (and its owner) to the map's columns. */
void picture_map_add(struct picture_map *m, uint64_t n_ptes, uint64_t i, enum picture_class c, int owner);
/* After every picture_map_add: each column's owner is the one holding most of its entries. */
void picture_map_finish(struct picture_map *m);

#endif
