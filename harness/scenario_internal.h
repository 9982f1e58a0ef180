/* SPDX-License-Identifier: MIT */
/*
 * What the scenario runner's files share, and nothing outside them includes:
 * the state of one run (struct scen), its limits, and the helpers each file
 * gives the others.
 *
 *   scenario.c         the two passes over a file (dry, then for real)
 *   scenario_args.c    reading and checking arguments; the messages
 *   scenario_exec.c    the commands and the table that dispatches them
 *   scenario_guest.c   the guest's commands: guest-pte, guest-fence, guest-write
 *   scenario_expect.c  `expect`: one handler per kind, in a table
 *   scenario_policy.c  gBalloon's policy and the PVINFO request channel:
 *                      policy, steal, request, evict, pvinfo-write and
 *                      their expects (class, request)
 *   scenario_report.c  the summary, and the slot history it prints
 *
 * Every command runs twice through the same code: with s->dry set it parses
 * and checks everything and touches nothing (malformed: scen_bad, exit 2),
 * then for real (a refused step: scen_failed, exit 1).
 */
#ifndef HARNESS_SCENARIO_INTERNAL_H
#define HARNESS_SCENARIO_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "harness/scenario.h"
#include "harness/scenario_parse.h"
#include "dom0/dom0.h"

#define MAX_NAMES 1024
#define MAX_HIST 1024
#define MAX_JSON_FAILURES 256
/* `run N`: at most this many quanta in one command (DOM0_QUANTUM_MS each: 1600 s of simulated time) */
#define MAX_RUN_QUANTA 100000
#define MAX_SLOTS 1024		/* dom0's limit on slots in high graphics memory */

struct name {
	char name[32];
	int id;
	bool alive;
	uint32_t seq;		/* the SEQ word of the vGPU's last request over PVINFO */
	uint32_t evictions;	/* the eviction count it last reported */
	enum dom0_pause paused;	/* as the last command left it */
	int on;			/* the device it lives on: 0 the scenario's, 1 the one `device` declares */
};

/* A device of the scenario and its runtime: [0] the one it runs on, [1] a second a `device` line declares. */
struct scen_device {
	char name[32];			/* "main", or the declared name */
	char spec[64];
	struct hw_device *dev;		/* NULL when only checking, or for [1] until declared */
	const struct hw_info *info;
	struct dom0_runtime *rt;
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
	bool quiet, dry;
	struct hw_device *dev;		/* NULL when only checking */
	const struct hw_info *info;	/* the device's facts, for checks made before anything runs */
	struct dom0_runtime *rt;
	struct dom0_config cfg;
	struct scen_device devs[2];	/* dev, info and rt above are devs[cur_dev]'s */
	int cur_dev, n_devs;
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
	struct { int line; uint64_t ptes_written; } *sw;	/* every switch, for the picture */
	size_t n_sw, cap_sw;
};

/* ---- scenario_args.c ---- */

/* Malformed: name file:line and the rule; only the dry run reports these (2), the real one returns 1. */
int scen_bad(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A failed step at run time: FILE:LINE: FAILED: ..., counted; returns 1. */
int scen_failed(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The runtime refused a step (rc != 0): 1 under `fail`, else a failure naming `what`; 0 when it did not. */
int scen_outcome(struct scen *s, int rc, bool expect_refusal, const struct gtt_err *e, const char *what);
/* A step's line of output, unless dry or quiet. */
void scen_say(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* An expect's verdict: "ok: ..." and counted, or a failure "expect ...". */
int scen_check(struct scen *s, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

bool scen_parse_num(const char *t, uint64_t *out);
const char *scen_kv(const struct scen_line *l, int from, const char *key);
int scen_only_keys(struct scen *s, const struct scen_line *l, int from, const char *const *allowed);
int scen_need_num(struct scen *s, const char *what, const char *t, uint64_t *v);
int scen_need_range(struct scen *s, const char *what, const char *t, uint64_t lo, uint64_t hi, const char *rule,
		    uint64_t *v);
int scen_expect_value(struct scen *s, const struct scen_line *l, int at, uint64_t *want);
bool scen_slot_range(const char *t, uint64_t *first, uint64_t *last);

struct name *scen_find_name(struct scen *s, const char *n);
int scen_vgpu(struct scen *s, const char *n, int *id);
const char *scen_name_of(struct scen *s, int id);
/* A vGPU's slots as the language writes them: "FIRST-LAST", or "none" when it holds none. */
const char *scen_slots_text(const struct dom0_vgpu_info *in, char *buf, size_t n);
bool scen_valid_name(const char *n);

/* ---- scenario_exec.c, scenario_guest.c ---- */

/* One command; `refuse` is set under `fail`. Returns 0, 1 (failed) or 2 (malformed). */
int scen_exec(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
/* Handlers of scen_exec's table, with its arguments and results. */
int scen_cmd_guest_pte(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_guest_fence(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_guest_write(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);

/* ---- scenario_policy.c ---- */

int scen_cmd_policy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_steal(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_request(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_evict(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_pvinfo_write(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_expect_class(struct scen *s, const struct scen_line *l, const char *usage);
int scen_expect_request(struct scen *s, const struct scen_line *l, const char *usage);
/* policy.KEY for `expect counter` (the keys, NULL-terminated); false when KEY is not one. */
extern const char *const scen_policy_counters[];
bool scen_policy_counter(struct scen *s, const char *key, uint64_t *v);
/* After `run`: a history line for every vGPU whose slots the policy changed. */
void scen_policy_history(struct scen *s);
/* The status word's name in scenarios ("granted", "refused-policy", ...). */
const char *scen_status_word(uint32_t st);
/* The policy's lines of the summary; nothing when no policy is on. */
void scen_policy_summary(struct scen *s);

/* ---- scenario_admission.c ---- */

/* After a command: a line and a history entry for every vGPU paused or admitted by it. */
void scen_admission_notice(struct scen *s);
int scen_expect_paused(struct scen *s, const struct scen_line *l, const char *usage);
extern const char *const scen_admission_counters[];
bool scen_admission_counter(struct scen *s, const char *key, uint64_t *v);
void scen_admission_summary(struct scen *s);

/* ---- scenario_migrate.c ---- */

int scen_cmd_device(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_migrate(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
int scen_cmd_on(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
/* Make device k the current one (dev, info, rt). */
void scen_use_device(struct scen *s, int k);
/* The device a command's vGPU lives on (its NAME argument), or the current one. */
int scen_device_of_line(struct scen *s, const struct scen_line *l);
/* The second device's runtime (started with the first) and, at the end, its restore and close. */
int scen_start_second(struct scen *s);
void scen_end_second(struct scen *s);

/* ---- scenario_expect.c ---- */

int scen_expect(struct scen *s, const struct scen_line *l);

/* ---- scenario_report.c ---- */

/* Note a change of a vGPU's slots (id 0: it is gone) at the current line; nothing when dry. */
void scen_history(struct scen *s, const char *name, const char *what, int id, unsigned left, unsigned right);
void scen_summary(struct scen *s);
/* --json: the summary as one JSON object (kept in s->json_body until the result is known). */
void scen_summary_json(struct scen *s);
/* --svg: slots over time (from the history and the switches) and the GGTT map at the end. */
void scen_picture(struct scen *s);

#endif
