/* SPDX-License-Identifier: MIT */
/*
 * make bench: the costs of the Dom0 runtime and of the front-ends, measured
 * on the model through the public APIs only (dom0/dom0.h,
 * dom0/slots_select.h, hw/, hw/sim/sim.h). Every timing is a ratio against a
 * reference taken in the same run (memcpy, the firmware floor, the papers'
 * layouts) or a median of repetitions; counts are exact. Nothing here
 * asserts a timing: a benchmark fails only when what it measures did not
 * happen (a refused operation, a physical GTT that does not match).
 */
#ifndef BENCH_BENCH_H
#define BENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

#include "bench/admission_result.h"
#include "bench/balance_result.h"
#include "bench/balloon_result.h"
#include "bench/boundary_result.h"
#include "bench/neighbours_result.h"
#include "bench/ladder_result.h"
#include "bench/migration_result.h"
#include "bench/request_wait_result.h"
#include "dom0/dom0.h"
#include "hw/sim/sim.h"

#define BENCH_PLATFORMS 6

struct bench_opts {
	bool quick;			/* the small version: seconds, not minutes */
	uint64_t seed;			/* the random layout and workload of P1 */
	const char *gttlab;		/* the CLI, for P5 */
	const char *efi_app;		/* build/efi/gttlab.efi */
	const char *efi_floor;		/* the application that only powers off */
	const char *efi_runner;		/* bench/run-efi.sh */
	const char *attack;		/* build/tests/pv_attack: the hostile neighbours */
	const char *work;		/* scratch directory for the EFI boots */
	const char *json;		/* where results.json goes */
	const char *markdown;		/* where the generated report goes (NULL: none) */
	const char *tree;		/* the tree measured, as the caller names it (git describe) */
};

/* P1 for one layout: writes seen on the model's trace against entries whose value changed. */
struct bench_writes {
	uint64_t switches;
	uint64_t trace_writes;		/* PTE writes inside switches, from the model's trace */
	uint64_t changed;		/* entries whose value differs after a switch, summed over switches */
	uint64_t runtime_written;	/* the runtime's own dom0_counters.ptes_written, for comparison */
	uint64_t runtime_skipped;
	double ratio;
};

struct bench_growth_point {
	double x, ns;
};

struct bench_growth {
	const char *name, *unit, *cost;
	struct bench_growth_point pt[3];
	double slope;			/* least-squares slope of log(ns) against log(x) */
};

/* The parts, in the order they run; --only picks some (the report leaves out the others). */
enum bench_part {
	PART_WRITES, PART_SWITCH, PART_SCALE, PART_RESIZE, PART_GROWTH, PART_BALLOON, PART_WAIT, PART_ADMISSION,
	PART_MIGRATION, PART_BALANCE, PART_BOUNDARY, PART_NEIGHBOURS, PART_LADDER, PART_FRONTENDS,
	BENCH_PARTS
};

/* P3's measurement on the runtime b runs: two vGPUs switched back and forth, each switch between two memcpys. */
struct bench_p3 {
	double ratio, memcpy_ns_per_8b, switch_ns_per_pte;
	double ratio_lo, ratio_hi;		/* the per-repetition ratios' range (`ratio` is the medians' ratio) */
	double store_ns_per_pte;		/* the same PTEs as 8-byte volatile stores alone: the floor */
	double floor_over_switch;		/* median over the repetitions of floor / switch: 1 is a switch at the floor */
	double floor_ratio_lo, floor_ratio_hi;	/* their range */
	bool floor_in_place;			/* the floor stored into the GSM mapping the switch writes (linux path) */
	uint64_t ptes;
};

struct bench_results {
	bool ran[BENCH_PARTS];		/* the part ran to its end: its figures are in */
	bool failed[BENCH_PARTS];	/* the part was asked for and did not end well: none of its figures are */
	char failure[BENCH_PARTS][96];	/* how it ended (exit status, signal, time limit) */
	const char *part_name[BENCH_PARTS];	/* its name for --only, as main gives it */
	struct bench_writes p1_gscale, p1_random;
	uint64_t p1_probe_writes, p1_probe_counted, p1_probe_changed;	/* the method's own check */

	double p2_share_pct, p2_one_slot_pct;
	double p2_switch_ns, p2_one_slot_ns;
	uint64_t p2_ptes, p2_one_slot_ptes;	/* PTEs one steady switch writes (runtime stats) */
	double p2_cold_ns, p2_one_slot_cold_ns, p2_cold_pct, p2_one_slot_cold_ratio;	/* caches as a quantum leaves them */
	double p2_cold_ratio_lo, p2_cold_ratio_hi;	/* the interleaved cold pairs' ratios: their range (the ratio is their median) */
	double p2_lo_ns, p2_hi_ns, p2_cold_lo_ns, p2_cold_hi_ns;	/* the quanta's range */

	/* the scheduler's fairness in gScale's layout with vm4 busy in vm1's slot (counts, exact) */
	unsigned sched_worst_wait, sched_bound, sched_quanta[3];
	double sched_fairness;			/* Jain's index over the busy vGPUs' quanta, 1 = equal */
	uint64_t sched_ptes, sched_rr_ptes;	/* PTEs written over the run: slot-aware, plain round robin */

	struct bench_p3 p3, p3_linux;		/* on the model; through the linux backend, BARs on tmpfs */

	unsigned p4_max_vgpus;
	bool p4_capped;			/* create never refused before the cap */
	char p4_refusal[GTT_ERR_MSG_MAX];
	uint64_t p4_switches, p4_entries_checked;
	double p4_rss_kib_per_vgpu, p4_bytes_per_entry;	/* resident memory the vGPUs cost */

	const char *p5_platforms[BENCH_PLATFORMS];
	double p5_cpu_s[BENCH_PLATFORMS];
	double p5_efi_s, p5_floor_s, p5_efi_over_floor;
	double p5_efi_pool_s;			/* time gttlab.efi spent inside the firmware's memory calls, its own count */

	double p6_occupancy_ns, p6_algorithm1_ns;
	char p6_occupancy_case[96], p6_algorithm1_case[96];
	unsigned p6_cases;
	double p6_call_worst_ns, p6_call_p99_ns, p6_call_median_ns, p6_call_max_ns;	/* single calls, shuffled */
	char p6_call_case[96];
	size_t p6_calls;

	struct bench_growth growth[3];

	struct bench_balloon balloon;
	struct bench_request_wait wait;
	struct bench_admission admission;
	struct bench_migration migration;
	struct bench_balance balance;
	struct bench_boundary boundary;
	struct bench_neighbours neighbours;
	struct bench_ladder ladder;
};

/* The parts, one per file. Each fills its fields or exits with a one-line reason. */
void bench_writes(const struct bench_opts *o, struct bench_results *r);		/* P1 */
void bench_switch_time(const struct bench_opts *o, struct bench_results *r);	/* P2, P3 */
void bench_p3_sim(const struct bench_opts *o, struct bench_results *r);	/* P3 on the model */
void bench_p3_linux(const struct bench_opts *o, struct bench_results *r);	/* P3 through the linux backend */
/* P3's measurement on the runtime b runs (the model, or the linux backend). */
struct bench_dev;
void bench_p3_measure(struct bench_dev *b, unsigned reps, volatile uint64_t *gsm, struct bench_p3 *out);
void bench_scale(const struct bench_opts *o, struct bench_results *r);		/* P4 */
void bench_frontends(const struct bench_opts *o, struct bench_results *r);	/* P5 */
void bench_resize(const struct bench_opts *o, struct bench_results *r);		/* P6 */
void bench_growth(const struct bench_opts *o, struct bench_results *r);		/* growth */
void bench_balloon(const struct bench_opts *o, struct bench_results *r);	/* balloon */
void bench_request_wait(const struct bench_opts *o, struct bench_results *r);	/* table1 */
void bench_admission(const struct bench_opts *o, struct bench_results *r);	/* admission */
void bench_migration(const struct bench_opts *o, struct bench_results *r);	/* migration */
void bench_balance(const struct bench_opts *o, struct bench_results *r);	/* balance */
void bench_boundary(const struct bench_opts *o, struct bench_results *r);	/* boundary */
void bench_neighbours(const struct bench_opts *o, struct bench_results *r);	/* neighbours */
void bench_ladder(const struct bench_opts *o, struct bench_results *r);		/* table2 */
void bench_report(const struct bench_opts *o, const struct bench_results *r);	/* table + JSON */

/* ---- results.json (bench/json_out.c), written key by key ---- */

struct bench_json {
	FILE *f;
	int depth;
	bool first;
};
void bench_json_key(struct bench_json *j, const char *k);
void bench_json_num(FILE *f, double v);	/* %.6g, or a whole number from 1e5, or null */
void bench_json_knum(struct bench_json *j, const char *k, double v);
void bench_json_kint(struct bench_json *j, const char *k, uint64_t v);
void bench_json_kstr(struct bench_json *j, const char *k, const char *v);
void bench_json_open(struct bench_json *j, const char *k);	/* k NULL: the top level */
void bench_json_close(struct bench_json *j);

/* ---- shared helpers (bench/util.c) ---- */

/* Print "bench: REASON" on stderr and exit 1. */
void bench_die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* Progress on stderr. */
void bench_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t bench_now_ns(void);
/*
 * Waits until helper process pid has written a line holding `what` to the
 * file at path (dom0 serve's "listening on", printed after listen()): a
 * helper's readiness is a line it prints, never a file that exists. Returns
 * true when it has; false when ms of the clock passed first, or the helper
 * ended first (why says which, with its exit status).
 */
bool bench_wait_line(pid_t pid, const char *path, const char *what, unsigned ms, char *why, size_t n);
/* The machine's CPU time as /proc/stat counts it, to measure the idle cores over an interval. */
struct bench_cpu_mark {
	unsigned long long idle, total;	/* idle and iowait, and all states, summed over the CPUs (clock ticks) */
};
void bench_cpu_mark(struct bench_cpu_mark *m);
/* Cores online, and how many of them were idle on average from a to b (-1 when /proc/stat was not readable). */
unsigned bench_cores_online(void);
double bench_idle_cores(const struct bench_cpu_mark *a, const struct bench_cpu_mark *b);
/* The reason the idle cores measured support: fewer than one idle, or at least one; unknown (-1) says so. */
const char *bench_idle_says(double idle_cores, const char *no_core_free, const char *a_core_free);
/* The median of n values (reorders them). */
double bench_median(double *v, size_t n);
/* A deterministic generator (splitmix64). */
uint64_t bench_rand(uint64_t *state);
/* Uniform in [lo, hi]. */
uint64_t bench_range(uint64_t *state, uint64_t lo, uint64_t hi);

/* A device and, on it, a Dom0 runtime. spec: "sim:PLATFORM", or "sim:PLATFORM:GGMS" for another GSM size. */
struct bench_dev {
	struct hw_device *dev;
	struct sim_device *sim;
	struct dom0_runtime *rt;
};
void bench_open(struct bench_dev *b, const char *spec, const struct dom0_config *cfg);
/* The two halves of bench_open: the device alone, then dom0_init on it. */
void bench_open_device(struct bench_dev *b, const char *spec);
void bench_start_runtime(struct bench_dev *b, const struct dom0_config *cfg);
/* dom0_fini, which must find the device as it was. */
void bench_stop_runtime(struct bench_dev *b);
/* dom0_fini (when the runtime is still there) and close. */
void bench_close(struct bench_dev *b);
/* Create a vGPU or exit naming the reason. */
int bench_create(struct bench_dev *b, const struct dom0_vgpu_params *p);
/* A guest PTE naming guest frame gfn, in the platform's format. */
uint64_t bench_guest_pte(const struct bench_dev *b, uint64_t gfn);
/* Guest writes of n PTEs from GGTT index first naming frames gfn, gfn + 1, ... */
void bench_map(struct bench_dev *b, int id, uint64_t first, uint64_t gfn, unsigned n);
struct dom0_vgpu_info bench_info(const struct bench_dev *b, int id);
void bench_switch(struct bench_dev *b, int to, struct dom0_switch_stats *st);
void bench_busy(struct bench_dev *b, int id, bool busy);
/*
 * The whole GSM as the model holds it, one entry per PTE (n = the device's
 * PTE count), through the model's bulk read (the same as one MMIO read per
 * entry); the trace must not be armed.
 */
void bench_read_gsm(const struct bench_dev *b, uint64_t *ptes);

/* The gScale layout of scenarios/gscale-15-vgpus.scn on sim:hsw; one_slot puts vm1-vm3 in slot 0. */
struct bench_gscale {
	struct bench_dev b;
	int vm[15];
};
void bench_gscale_start(struct bench_gscale *g, bool one_slot, bool slot_aware);

#endif
