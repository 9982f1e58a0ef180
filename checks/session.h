/* SPDX-License-Identifier: MIT */
/*
 * One run of checks on one device, the same for every front-end (gttlab
 * check, the IGT binaries, gttlab.efi): open the device, give the model the
 * test-only fault, start the crash journal, run checks (once, or once per
 * subtest), end the journal and judge it, close the device. A front-end keeps
 * its arguments, its output, and how its environment opens a device and keeps
 * a journal (the hooks); the order and the one unwind path are here: whatever
 * session_open started, session_close ends, whatever happened in between.
 * After an abort (a restore that did not read back) nothing more runs.
 * Freestanding.
 */
#ifndef CHECKS_SESSION_H
#define CHECKS_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "env/err.h"
#include "checks/runner.h"

struct session_hooks {
	/* Open the device with the front-end's backends and options. */
	int (*open)(void *ctx, struct hw_device **dev, struct gtt_err *err);
	/* Before the device's first write: start its crash journal, or decide it keeps none. NULL: none. */
	int (*journal_begin)(void *ctx, struct hw_device *dev, struct gtt_err *err);
	/*
	 * After the last check, before the close: restored says whether every restore read back.
	 * An error means the journal keeps what the device held: the session ends in an abort.
	 * Also called, restored, when session_open fails after the open: a journal the open or
	 * journal_begin started is ended there (a hook with none to end returns GTT_OK).
	 */
	int (*journal_end)(void *ctx, struct hw_device *dev, bool restored, struct gtt_err *err);
	void *ctx;
};

/* How far session_open got: where it failed, or open. */
enum session_stage { SESSION_CLOSED, SESSION_OPEN_FAILED, SESSION_FAULT_FAILED, SESSION_JOURNAL_FAILED, SESSION_OPEN };

/*
 * What only the test build has (-DGTTLAB_FAULTS, build/faults/): the shipped
 * CLI, IGT binaries and gttlab.efi carry no model fault, as i915's
 * I915_SELFTEST_DECLARE compiles its selftests' members away.
 */
#ifdef GTTLAB_FAULTS
#define SESSION_FAULT_DECLARE(x) x
#else
#define SESSION_FAULT_DECLARE(x)
#endif

struct session {
	struct session_hooks hooks;
	SESSION_FAULT_DECLARE(const char *fault;)	/* a model fault (checks/test_faults.c), tests only; NULL or "": none */
	enum session_stage stage;
	struct hw_device *dev;		/* while open */
	struct run_totals totals;	/* every run of the session, added up; abort also counts a failed journal end */
};

/* Open, fault, journal. GTT_OK, or the error with stage naming the step; then nothing is left open. */
int session_open(struct session *s, struct gtt_err *err);

/*
 * The checks sel[0..n) on the open device (runner_run with o), their totals added to the
 * session's. Returns how many ran: 0, every result not run, once an earlier run aborted.
 */
size_t session_run(struct session *s, const struct check *const *sel, size_t n, const struct runner_opts *o,
		   struct check_result *res);

/*
 * End the journal (restored unless a run aborted) and close the device; a no-op unless open.
 * GTT_OK, or the journal's error, counted in totals.abort: the device is not known to be as found.
 */
int session_close(struct session *s, struct gtt_err *err);

#endif
