/* SPDX-License-Identifier: MIT */
/*
 * The register-level checks: one table, shared by `gttlab check`, the EFI
 * application and the IGT binaries. A check is a function over an open device
 * that returns pass, fail or skip with a one-line reason. It touches only what
 * it claims (a GGTT range inside the aperture, some fences) through the
 * helpers below, which refuse anything else; the runner restores everything
 * the check wrote, whatever the outcome. Freestanding.
 */
#ifndef CHECKS_CHECK_H
#define CHECKS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dom0/dom0.h"
#include "hw/device.h"

/*
 * CHECK_ABORT is the runner's, never a check's: the device could not be put
 * back after the check (an entry did not read back as restored). It is its
 * own result, never folded into fail, and it ends the run.
 */
enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_SKIP, CHECK_ABORT };

/* What a check needs from the device; unmet -> skip with the reason. */
enum check_req {
	REQ_TEST_PAGES = 1 << 0,	/* physical test pages */
	REQ_GPU_ACCESS = 1 << 1,	/* a GPU-side accessor (the model) */
	REQ_MODEL = 1 << 2,		/* the model's access trace */
	REQ_WHOLE_GGTT = 1 << 3,	/* runs the Dom0 runtime over the guest areas */
	REQ_PAGE_ABOVE_4G = 1 << 4,	/* a test page above 4 GiB */
	REQ_NATIVE = 1 << 5,		/* the GGTT as the hardware has it, not a vGPU's slice of it (guest mode skips) */
	REQ_GUEST = 1 << 6,		/* runs inside a vGPU: a PVINFO page (guest mode); claims its whole slices */
	REQ_VF = 1 << 7,		/* runs inside an SR-IOV VF: claims the GGTT range GuC gave it (no aperture needed) */
	/* every other check reaches the GGTT through the aperture: a part without one skips them all */
};

#ifdef GTTLAB_FAULTS
/* Faults a test injects into the Dom0 runtime to prove a check can fail (the test build only). */
struct check_faults {
	struct dom0_faults dom0;
};
#endif

struct check_ctx;

struct check {
	const char *name;		/* [a-z0-9-], unique */
	const char *suite;		/* ggtt, fence, aperture, shadow-copy, fence-pool, slot-resize, guest, vf, ... */
	const char *description;	/* one line */
	unsigned requires;		/* enum check_req */
	unsigned claim_pages;		/* GGTT pages (inside the aperture) it may touch */
	unsigned claim_fences;		/* fence registers it may touch; ~0u: all */
	enum check_status (*run)(struct check_ctx *c);
};

struct check_ctx {
	struct hw_device *dev;
	const struct check *check;
	uint64_t seed;
	uint64_t claim_gm;		/* first claimed GGTT address */
	uint64_t claim_pages;
	uint64_t claim_high_gm, claim_high_pages;	/* REQ_GUEST: the vGPU's non-mappable slice too */
	/* REQ_GUEST with non-contiguous slots: the slice's runs after the first (hw_pvinfo.run[1..]) */
	struct ck_run { uint64_t gm, pages; } claim_run[GTTLAB_GM_MAX_RUNS - 1];
	unsigned claim_runs;
	unsigned claim_fence_first, claim_fences;
#ifdef GTTLAB_FAULTS
	const struct check_faults *faults;
#endif
	int (*open_peer)(void *peer_ctx, const struct gtt_platform *plat, struct hw_device **out, struct gtt_err *err);
	void *peer_ctx;
	char reason[256];
	char unrestored[GTT_ERR_MSG_MAX];	/* what a check's own restore could not put back: the runner aborts */
	struct { struct hw_page *pages; size_t n; } allocs[4];	/* test pages, freed by the runner */
	unsigned n_allocs;
};

/* A row's claim of every fence register. */
#define ALL_FENCES (~0u)

/* A file's rows of the check table. */
struct check_rows {
	const struct check *rows;
	size_t n;
};

/* The check table: how many checks, and check i (NULL past the end), files in check_table.c's order. */
size_t gtt_check_count(void);
const struct check *gtt_check(size_t i);

/* Record why the check failed (or is skipped) and return status. */
enum check_status ck_fail(struct check_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
enum check_status ck_skip(struct check_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A restore the check made itself (the Dom0 runtime's) did not read back: the run ends in abort. */
void ck_unrestored(struct check_ctx *c, const char *what, const struct gtt_err *err);
/* Record a library error as the failure reason. */
enum check_status ck_error(struct check_ctx *c, const char *what, const struct gtt_err *err);

/* Claimed access: anything outside the claim is refused (and fails the check). */
/* Claim the vGPU's non-mappable slice as pv says it is now: every run of it. */
void ck_claim_high(struct check_ctx *c, const struct hw_pvinfo *pv);
int ck_pte_write(struct check_ctx *c, uint64_t index, uint64_t pte);
int ck_pte_read(struct check_ctx *c, uint64_t index, uint64_t *pte);
int ck_fence_write(struct check_ctx *c, unsigned fence, uint64_t val);
int ck_aperture_read(struct check_ctx *c, uint64_t gm, void *buf, size_t len);
int ck_aperture_write(struct check_ctx *c, uint64_t gm, const void *buf, size_t len);
/*
 * Guest checks only (REQ_GUEST): a write a guest must not be able to make
 * land — a PTE outside its slices, a fence at or above fence_num, aperture
 * bytes outside its slice; and a VF's checks (REQ_VF), a PTE outside the
 * range GuC gave it. It goes through the undo log like any other, is
 * refused (GTT_EPERM, failing the check) outside those modes, and returns the
 * device's answer without failing the check: the mediator may refuse it or
 * drop it, and the check looks at what it changed.
 */
int ck_hostile_pte_write(struct check_ctx *c, uint64_t index, uint64_t pte);
int ck_hostile_fence_write(struct check_ctx *c, unsigned fence, uint64_t val);
int ck_hostile_aperture_write(struct check_ctx *c, uint64_t gm, const void *buf, size_t len);
/*
 * A second device of the same platform (the front-end's, or a model from the
 * core's sim backend), for checks that move state between two; close it with
 * hw_close. GTT_OK, or the check's failure recorded.
 */
int ck_open_peer(struct check_ctx *c, struct hw_device **out);

/* n test pages, freed by the runner (at most four allocations per check). */
int ck_pages(struct check_ctx *c, size_t n, struct hw_page **pages);
/* Map pages at GGTT address gm (inside the claim) and invalidate. */
int ck_map(struct check_ctx *c, uint64_t gm, const struct hw_page *pages, size_t n);
uint64_t ck_rand(struct check_ctx *c);
/* i915's bit-6 swizzle for a tiling (1 X, 2 Y) as the registers say (detect_bit_6_swizzle). */
int ck_swizzle_mode(struct check_ctx *c, int tiling);
/* Where linear byte `lin` of a tiled surface of the given pitch lives in its pages (docs/hardware.md §4.6, §4.7). */
size_t ck_tiled_offset(size_t lin, uint32_t pitch, bool y, int swz);

#endif
