/* SPDX-License-Identifier: MIT */
/*
 * What the scenario runner's files share, and nothing outside them includes:
 * the state of one run (struct scen), its limits, and the helpers each file
 * gives the others.
 *
 *   scenario_run.c     the pre-pass and the run over a file, and the entry points
 *   scenario_args.c    reading and checking arguments and vGPU names; the messages
 *   scenario_exec.c    the commands and the table that dispatches them
 *   scenario_guest.c   the guest's commands: guest-pte, guest-fence, guest-write
 *   scenario_expect.c  `expect`: one handler per kind, in a table
 *   scenario_policy.c  gBalloon's policy and the PVINFO request channel:
 *                      policy, steal, request, evict, pvinfo-write and
 *                      their expects (class, request)
 *   scenario_admission.c  admission: notices, `expect paused`, its counters
 *   scenario_migrate.c `device`, `migrate`
 *   scenario_devices.c the scenario's devices, and which of them a line runs on
 *   scenario_history.c the slots of every vGPU over time, as the commands note them
 *   scenario_report.c  the summary, and the slot history it prints
 *
 * The files stand in floors, and call only down: scenario_run.c over the
 * dispatcher (scenario_exec.c: its table, `on` and `fail`, and the commands
 * of vGPUs and the scheduler), over the other commands' files (guest, expect,
 * policy, admission, migrate), over scenario_devices.c, scenario_history.c
 * and scenario_args.c. No command calls the dispatcher or another command's
 * file but expect, which reads the counters of admission and the policy; the
 * summary (scenario_report.c) reads theirs.
 *
 * A file goes through the handlers twice. The pre-pass (s->dry) checks what
 * holds whatever happens at run time: each line's words, the forms and
 * ranges of its arguments, where config and device lines stand, and that a
 * name a line uses is created by some line before it. It keeps no state of
 * the run (which vGPU is alive, where it lives, what a migration did), so it
 * refuses only files that could never run correctly (SCEN_MALFORMED, exit 2,
 * the device untouched) and never decides what runs. The run is the one
 * interpreter: every line executes, and what depends on what ran before (a
 * vGPU destroyed, living on another device, whose create failed; a device
 * that did not start) is judged there, as a line that failed (SCEN_FAILED,
 * reported and counted, exit 1). No handler returns without a verdict.
 */
#ifndef SCENARIO_SCENARIO_INTERNAL_H
#define SCENARIO_SCENARIO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scenario/scenario.h"
#include "scenario/scenario_parse.h"
#include "dom0/dom0.h"

#define MAX_NAMES 1024
#define MAX_HIST 1024
#define MAX_JSON_FAILURES 256
/* `run N`: at most this many quanta in one command (DOM0_QUANTUM_MS each: 1600 s of simulated time) */
#define MAX_RUN_QUANTA 100000
#define MAX_SLOTS DOM0_MAX_SLOTS	/* dom0's limit on slots in high graphics memory */

/*
 * A vGPU name of the file. In the pre-pass only `name` is used: the names
 * some line creates (its table says which names a later line may use). At run
 * time the rest is what the run made of it.
 */
struct name {
	char name[32];
	int id;
	bool alive;
	int line;		/* the line that last created it, failed to, or destroyed it */
	bool create_failed;	/* not alive because that create failed (else: destroyed, or none ran) */
	uint32_t seq;		/* the SEQ word of the vGPU's last request over PVINFO */
	uint32_t evictions;	/* the eviction count it last reported */
	enum dom0_pause paused;	/* as the last command left it */
	uint64_t withdrawn;	/* its pauses taken back, as the last command left them */
	uint64_t expired;	/* its pauses refused at their deadline, as the last command left them */
	int on;			/* the device it lives on: 0 the scenario's, 1 the one `device` declares;
				   set by its create, changed only by a migration that succeeded */
};

/* A device of the scenario and its runtime: [0] the one it runs on, [1] a second a `device` line declares. */
struct scen_device {
	char name[32];			/* "main", or the declared name */
	char spec[64];
	struct hw_device *dev;		/* NULL when only checking, or for [1] until declared */
	const struct hw_info *info;
	struct dom0_runtime *rt;	/* NULL until started, or when it could not start */
};

/* One change of a vGPU's slots, for the summary. */
struct hist {
	int line;
	char name[32];
	const char *what;
	unsigned first, slots;
	unsigned left, right;
};

struct scen {
	const char *path;
	FILE *out, *errors, *trace;
	bool quiet;
	bool dry;			/* the pre-pass: check, keep no state of the run, touch nothing */
	struct hw_device *dev;		/* NULL when only checking */
	/*
	 * The facts of the line's device, for the checks of its arguments. NULL
	 * in the pre-pass when they are known only at run time: a second device
	 * only being checked (scenario_check_text opens none), or a line that
	 * follows a vGPU while a second device is declared (where the vGPU lives
	 * then is the run's to know). Those checks are then made by the run.
	 */
	const struct hw_info *info;
	struct dom0_runtime *rt;
	struct dom0_config cfg;
	struct scen_device devs[2];	/* dev, info and rt above are devs[cur_dev]'s */
	int cur_dev, n_devs;
	int on_dev;			/* the device of the `on D` the line is under; -1 none */
	int depth;			/* scen_exec's nesting: 1 while a line of the file runs, 2 and up inside fail and on */
	bool past_preamble;		/* a command other than config and device has been seen */
	int lines_run;			/* lines of the file the run has executed; all of them at the end */
	bool started;
	bool unrestored;		/* dom0_fini did not read back as found */
	struct gtt_err fini_err;
	struct name names[MAX_NAMES];
	int n_names;
	int cur_line;
	int commands, expects_passed, failures;
	struct dom0_switch_stats last;
	unsigned last_left, last_right;
	uint64_t n_switches;
	struct hist hist[MAX_HIST];
	int n_hist;
	bool json;			/* failures are kept for the JSON document, not printed */
	struct { int line; char msg[256]; } fail[MAX_JSON_FAILURES];
	int n_fail;
	char *json_body;		/* the summary as JSON, written before the runtime ends */
	size_t json_len;
	FILE *svg;			/* --svg: the picture, written before the runtime ends */
	struct dom0_pf *pf;		/* the main device as an SR-IOV PF (scenario_pf.c); NULL until a pf- command */
	struct { int line; uint64_t ptes_written; } *sw;	/* every switch, for the picture */
	size_t n_sw, cap_sw;
};

/*
 * The verdict on one line, what every handler returns. Never a bare 1: a line
 * that did not run is SCEN_FAILED with its message, not a quiet return.
 */
enum scen_rc {
	SCEN_RAN = 0,		/* it ran (an expect: it held); in the pre-pass: it is well formed */
	SCEN_FAILED,		/* it failed, or could not run: reported (FILE:LINE: FAILED: ...) and counted */
	SCEN_MALFORMED,		/* the pre-pass refused it: reported (FILE:LINE: rule); never at run time */
	SCEN_REFUSED,		/* the runtime refused it, `err` says why: only under `fail`, where that is the point */
};

/* ---- scenario_args.c ---- */

/*
 * A rule broken. In the pre-pass: FILE:LINE: rule on the errors stream,
 * SCEN_MALFORMED. At run time (a rule that depends on the line's device, or
 * one the pre-pass should have caught) the line cannot run: FILE:LINE:
 * FAILED: did not run: rule, counted, SCEN_FAILED.
 */
enum scen_rc scen_bad(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A line failed at run time: FILE:LINE: FAILED: ..., counted; SCEN_FAILED. */
enum scen_rc scen_failed(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A runtime call's rc: SCEN_RAN when 0; else SCEN_REFUSED under `fail`, or a failure naming `what`. */
enum scen_rc scen_outcome(struct scen *s, int rc, bool expect_refusal, const struct gtt_err *e, const char *what);
/* A step's line of output, unless dry or quiet. */
void scen_say(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An expect's verdict: "ok: ..." and counted, or a failure "expect ...". */
enum scen_rc scen_check(struct scen *s, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

bool scen_parse_num(const char *t, uint64_t *out);
const char *scen_kv(const struct scen_line *l, int from, const char *key);
enum scen_rc scen_only_keys(struct scen *s, const struct scen_line *l, int from, const char *const *allowed);
enum scen_rc scen_need_num(struct scen *s, const char *what, const char *t, uint64_t *v);
enum scen_rc scen_need_range(struct scen *s, const char *what, const char *t, uint64_t lo, uint64_t hi, const char *rule,
			     uint64_t *v);
enum scen_rc scen_expect_value(struct scen *s, const struct scen_line *l, int at, uint64_t *want);
bool scen_slot_range(const char *t, uint64_t *first, uint64_t *last);

struct name *scen_find_name(struct scen *s, const char *n);
/*
 * The vGPU a line names. Pre-pass: some line before creates the name. Run:
 * it is alive and lives on the line's device, else the line fails ("did not
 * run: ..." saying why); *id is its id on that device.
 */
enum scen_rc scen_vgpu(struct scen *s, const char *n, int *id);
const char *scen_name_of(struct scen *s, int id);
/* A vGPU's slots as the language writes them: "FIRST-LAST", or "none" when it holds none. */
const char *scen_slots_text(const struct dom0_vgpu_info *in, char *buf, size_t n);
bool scen_valid_name(const char *n);

/* ---- scenario_exec.c, scenario_guest.c ---- */

/*
 * One line (or, inside fail and on, the command they hold); `refuse` is set
 * under `fail`. At run time its verdict is never SCEN_MALFORMED, and
 * SCEN_REFUSED only under `fail`.
 */
enum scen_rc scen_exec(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
/* Handlers of scen_exec's table, with its arguments and results. */
enum scen_rc scen_cmd_guest_pte(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_guest_fence(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_guest_write(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);

/* ---- scenario_policy.c ---- */

enum scen_rc scen_cmd_policy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_steal(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_request(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_evict(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_pvinfo_write(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_expect_class(struct scen *s, const struct scen_line *l, const char *usage);
enum scen_rc scen_expect_request(struct scen *s, const struct scen_line *l, const char *usage);
/* policy.KEY for `expect counter` (the keys, NULL-terminated); false when KEY is not one. */
extern const char *const scen_policy_counters[];
bool scen_policy_counter(struct scen *s, const char *key, uint64_t *v);
/* After `run`: a history line for every vGPU whose slots the policy changed. */
void scen_policy_history(struct scen *s);
/* The status word's name in scenarios ("granted", "refused-policy", ...). */
const char *scen_status_word(uint32_t st);
/* The policy's lines of the summary; nothing when no policy is on. */
void scen_policy_summary(struct scen *s);

/* ---- scenario_pf.c ---- */

enum scen_rc scen_cmd_pf_provision(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_pf_release(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_expect_pf_vf(struct scen *s, const struct scen_line *l, const char *usage);
/* Whatever the PF still holds, released (before the runtime ends); 0 or the release's error. */
int scen_pf_end(struct scen *s, struct gtt_err *err);

/* ---- scenario_admission.c ---- */

/* After a command: a line and a history entry for every vGPU paused or admitted by it. */
void scen_admission_notice(struct scen *s);
enum scen_rc scen_expect_paused(struct scen *s, const struct scen_line *l, const char *usage);
extern const char *const scen_admission_counters[];
bool scen_admission_counter(struct scen *s, const char *key, uint64_t *v);
void scen_admission_summary(struct scen *s);

/* ---- scenario_migrate.c ---- */

enum scen_rc scen_cmd_device(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
enum scen_rc scen_cmd_migrate(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);

/* ---- scenario_devices.c ---- */

/* The index of the device a line names (main, or the declared one), -1 for none. */
int scen_device_index(struct scen *s, const char *n);
/* Make device k the current one (dev, info, rt). */
void scen_use_device(struct scen *s, int k);
/*
 * Make the device a line runs on the current one: the device of its `on D`;
 * else, when it acts on a vGPU (`subject`, NULL when none), the device that
 * vGPU lives on; else main. In the pre-pass where the vGPU lives is not
 * known: main, with s->info NULL when a second device is declared.
 */
void scen_use_line_device(struct scen *s, const char *subject);
/* The second device's runtime (started with the first; SCEN_FAILED reported when it cannot) and, at the end, its restore and close. */
enum scen_rc scen_start_second(struct scen *s);
void scen_end_second(struct scen *s);

/* ---- scenario_expect.c ---- */

enum scen_rc scen_expect(struct scen *s, const struct scen_line *l);
/* The vGPU an expect is about and whose device it runs on (`expect slots NAME ...`), or NULL. */
const char *scen_expect_subject(const struct scen_line *l);

/* ---- scenario_history.c ---- */

/* Note a change of a vGPU's slots (id 0: it is gone) at the current line; nothing when dry. */
void scen_history(struct scen *s, const char *name, const char *what, int id, unsigned left, unsigned right);

/* ---- scenario_report.c ---- */

void scen_summary(struct scen *s);
/* --json: the summary as one JSON object (kept in s->json_body until the result is known). */
void scen_summary_json(struct scen *s);
/* --svg: slots over time (from the history and the switches) and the GGTT map at the end. */
void scen_picture(struct scen *s);

#endif
