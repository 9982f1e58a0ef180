/* SPDX-License-Identifier: MIT */
/*
 * What a migration costs (bench/migration.c): slot to slot and device to
 * device on the model, in exact counts (PTEs put back, PTEs written at the
 * next switch, guest PTEs mapped again, bytes copied) and in time against
 * references taken in the same run.
 */
#ifndef BENCH_MIGRATION_RESULT_H
#define BENCH_MIGRATION_RESULT_H

#include <stdint.h>

struct bench_json;
struct bench_opts;

#define BENCH_MIGRATE_SIZES 3		/* 1, 4, 16 slots of 64 MiB */

struct bench_migrate_row {
	unsigned slots, mem_pages;
	/* slot to slot */
	uint64_t released, next_switch_written;	/* source PTEs put back; PTEs the next switch writes */
	double slot_ns, slot_switch_ns, slot_over_switch;	/* medians; the reference: a switch that copies the range */
	/* device to device */
	uint64_t mapped, bytes;
	double dev_ns, memcpy_ns, dev_over_memcpy;	/* the reference: memcpy of the guest's bytes */
	double dev_step_ns[7];		/* each of VOCL's steps of the device move, median (Figure 8's breakdown) */
};

struct bench_migration {
	struct bench_migrate_row row[BENCH_MIGRATE_SIZES];
	unsigned reps;
};

void bench_migration_table(const struct bench_opts *o, const struct bench_migration *m);
void bench_migration_json(struct bench_json *j, const struct bench_migration *m);
struct bench_claim;
/* The paper's claims judged on m (bench/papers.h), at most max into c; returns how many. */
unsigned bench_migration_claims(const struct bench_migration *m, struct bench_claim *c, unsigned max);

#endif
