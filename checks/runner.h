/* SPDX-License-Identifier: MIT */
/*
 * The check runner: selects checks, keeps them off live scanout surfaces (the
 * one safety path of every front-end), gives each its claim, runs it, restores
 * the device from the undo log whatever the outcome, and times it.
 * Freestanding; the reporters turn its results into text.
 */
#ifndef CHECKS_RUNNER_H
#define CHECKS_RUNNER_H

#include "checks/check.h"
#include "hw/scanout.h"

struct check_result {
	const struct check *check;
	enum check_status status;
	char reason[256];
	uint64_t seed;			/* the check's own seed: runner_check_seed(run seed, name) */
	uint64_t claim_gm;		/* where it worked: GGTT [claim_gm, + claim_pages * 4 KiB) */
	unsigned claim_pages;
	unsigned pages_kept;		/* test pages left allocated after an abort: PTEs may still name them */
	uint64_t ns;
};

/*
 * Room for every surface the display of any platform in the table can scan
 * out (HW_SCANOUT_MAX: 4 pipes x 8 on Tiger Lake), so none is ever left
 * unprotected, and for the front-end's own ranges.
 */
#define RUNNER_MAX_EXCLUDE HW_SCANOUT_MAX
#define RUNNER_MAX_EXTRA 4
/* In guest mode, the aperture below and above the vGPU's slice (i915's intel_vgt_balloon). */
#define RUNNER_MAX_BALLOON 2

/* A GGTT range no check may claim. */
struct runner_exclusion {
	uint64_t start, end;		/* [start, end) */
	const char *what;		/* "primary plane", "plane", "cursor", or the front-end's ("GOP framebuffer") */
	int pipe;			/* 0 = A ...; -1 when no pipe's */
};

struct runner_opts {
	uint64_t seed;
#ifdef GTTLAB_FAULTS
	const struct check_faults *faults;	/* the test build's mediator bugs (dom0/faults.h) */
#endif
	/* ranges the front-end knows and the registers do not say (the GOP framebuffer); the
	 * runner adds the scanout surfaces it reads itself */
	struct runner_exclusion extra[RUNNER_MAX_EXTRA];
	unsigned n_extra;
	volatile int *cancel;			/* set from a signal handler: stop after the current check */
	/*
	 * Called once by runner_run, before the first check, with every range it keeps the
	 * checks off (n may be 0): the very list it uses, so what a front-end says is what
	 * the run did. runner_exclusion_text() words each the same way for every front-end.
	 */
	void (*keeping_off)(void *ctx, const struct runner_exclusion *x, size_t n);
	/* called before (result NULL) and after each check */
	void (*progress)(void *ctx, size_t index, size_t total, const struct check *c, const struct check_result *r);
	void *ctx;				/* for keeping_off and progress */
	/*
	 * A second device for the checks that need one (migration): a fresh model of the
	 * platform given. NULL: the core's sim backend opens "sim:PLATFORM"; the EFI
	 * application presents a second simulated EFI_PCI_IO_PROTOCOL instance instead.
	 */
	int (*open_peer)(void *peer_ctx, const struct gtt_platform *plat, struct hw_device **out, struct gtt_err *err);
	void *peer_ctx;
};

/*
 * A check's seed: splitmix64(run_seed ^ FNV-1a-64(name)). It depends on the
 * run seed and the check's name only, so `--run NAME --seed N` repeats exactly
 * what a full run with `--seed N` did for NAME.
 */
uint64_t runner_check_seed(uint64_t run_seed, const char *name);

/*
 * Every range the runner keeps the checks off: the scanout surfaces of the
 * enabled planes, sprites and cursors, read from the device's registers
 * (hw_scanout_scan, on every device: the model's planes are off unless a
 * test or an MMIO seed enables one), then the front-end's extra ranges,
 * then in guest mode the aperture outside the vGPU's slice (PVINFO). The
 * same list runner_run uses, for the front-ends to say what they keep off.
 * Returns how many ranges there are; when that is more than max, only max
 * were written and nothing may run (runner_run refuses, saying so).
 */
size_t runner_exclusions(struct hw_device *dev, const struct runner_opts *o, struct runner_exclusion *out, size_t max);

/*
 * One range in words, the same line in every front-end (which prefixes
 * "gttlab: "): "keeping off GGTT 0x7f00000-0x88e9000: primary plane of pipe A
 * is enabled", or for a front-end's own range "keeping off GGTT 0x...-0x...:
 * GOP framebuffer". Truncated to size, always terminated.
 */
void runner_exclusion_text(const struct runner_exclusion *x, char *buf, size_t size);

/* Does a name match a glob of `*` and `?`? */
bool runner_glob(const char *pattern, const char *name);

/*
 * Checks selected by a comma-separated list of suite names, check names and
 * globs (NULL or "" selects all), in table order. Returns how many; a pattern
 * that selects nothing is an error (GTT_EINVAL naming it).
 */
int runner_select(const char *spec, const struct check **out, size_t cap, size_t *n, struct gtt_err *err);

/*
 * Run the selected checks; results[i] for sel[i]. Returns how many ran: all,
 * or fewer after a cancel or an abort (a check after which the device could
 * not be restored: its result is CHECK_ABORT naming what was not restored,
 * its test pages are kept because PTEs may still name them, and nothing more
 * runs on that device). A run that cannot keep off every enabled surface
 * (more than its table holds) does not start: the first check is CHECK_ABORT
 * saying how many surfaces there are and how many it can keep off, nothing
 * is written, and 1 is returned.
 */
size_t runner_run(struct hw_device *dev, const struct check *const *sel, size_t n, const struct runner_opts *o,
		  struct check_result *results);

struct run_totals {
	unsigned pass, fail, skip, abort, notrun;
	uint64_t ns;
};
void runner_totals(const struct check_result *r, size_t n, size_t ran, struct run_totals *t);

const char *check_status_name(enum check_status s);

#endif
