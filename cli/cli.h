/* SPDX-License-Identifier: MIT */
/*
 * Shared pieces of the gttlab CLI: the global options, argument parsing
 * helpers with the one-line error rule (name the value and the rule, exit 2),
 * and opening the device.
 */
#ifndef CLI_CLI_H
#define CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "env/env.h"
#include "hw/device.h"
#include "hosted/json.h"
#include "hosted/journal_file.h"
#include "checks/session.h"

#define EXIT_OK		0
#define EXIT_FAIL	1
#define EXIT_USAGE	2	/* bad input or an unusable device; nothing was written */
#define EXIT_ABORT	3	/* the device could not be restored (check, dom0 run, restore) */
#define EXIT_SKIP	77	/* nothing ran: every check skipped (IGT's skip status) */

struct cli {
	const struct gtt_env *env;
	const char *device;		/* the device string: spec.text */
	struct hw_device_spec spec;	/* --device, parsed once (hw/device_spec.h); default HW_DEVICE_DEFAULT */
	bool device_given;		/* --device was on the command line (not the default) */
	bool device_default;		/* the device is HW_DEVICE_DEFAULT: said on stderr after every run on it */
	bool opened;			/* a device was opened (cli_open, a session) */
	bool json;			/* --json */
	bool help;			/* --help anywhere on the line */
	struct hw_open_opts opts;
	void *seed;			/* --mmio-seed contents */
	const char *journal;		/* --journal FILE: where a real device's crash journal goes */
};

/*
 * The model is the newcomer's default, never a lab's surprise: a run that opened it because no
 * device was named says so on stderr at its end (not after bad input, which gets its one line).
 */
void cli_say_default(const struct cli *c);
/* Print "gttlab: <message>" to stderr; returns EXIT_USAGE. */
int cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Report a library error; returns EXIT_USAGE. */
int cli_report(const struct gtt_err *err);

/* Numbers: decimal, 0x hex, with an optional K, M or G suffix (powers of 1024). */
int cli_parse_u64(const char *what, const char *s, uint64_t *out);

/*
 * Match option `name` at argv[*i]: "--name VALUE" or "--name=VALUE". Returns
 * 1 and sets *val on a match, 0 if argv[*i] is another option, -1 (after
 * printing the error) if the value is missing.
 */
int cli_opt(int argc, char **argv, int *i, const char *name, const char **val);

/* An option given a second time: a mistake more likely than an override. `first` NULL for a flag. */
int cli_twice(const char *opt, const char *first, const char *second);

/*
 * The files the CLI writes its reports, traces and snapshots to. Every
 * command that writes a file needs the same two rules: opening never blocks (a FIFO with no reader is refused with
 * ENXIO instead of hanging before the device is even opened), and closing
 * reports a write that failed at any point, not only at the last flush.
 *
 * output_open() opens `path` for writing, creating it, and returns NULL with
 * errno set when it cannot; a file that was there keeps its bytes until
 * output_close(), which cuts it to what was written, flushes and closes `f`
 * (also when it fails) and returns 0, or -1 with errno set when anything
 * written to `f` was lost. output_drop() closes `f` of a run refused before
 * it wrote: a file output_open created is removed, one that was there is as
 * it was.
 */
FILE *output_open(const char *path);
int output_close(FILE *f);
void output_drop(FILE *f);

/* The device string S parsed into c->spec (every command reads that); EXIT_USAGE after its one line. */
int cli_set_device(struct cli *c, const char *s);
/* The platform named by --platform; when NULL, the model's when the device is one (sim:, vgpu:), else the default. */
const struct gtt_platform *cli_platform(const struct cli *c, const char *name);

int cli_open(struct cli *c, struct hw_device **dev);
void cli_close(struct hw_device *dev);

/*
 * Before the first write to a device that is not the model: root, and the
 * crash journal (--journal FILE or the device's default under
 * /var/lib/gttlab), refused when one is left from a run that did not
 * restore. On the model nothing is journaled (jf->fd stays -1). Returns 0 or
 * EXIT_USAGE after printing the one line.
 */
int cli_journal_begin(struct cli *c, struct hw_device *dev, struct journal_file *jf);
/*
 * After the run, before the device is closed. When the run restored the
 * device, the journal is replayed too (what the undo log does not hold goes
 * back: aperture bytes the Dom0 runtime wrote, GFX_FLSH_CNTL_GEN6) and then
 * removed; when not, or when the replay does not read back, it is kept and
 * stderr says to run gttlab restore. Returns 0, EXIT_ABORT (kept after a
 * failed replay) or EXIT_USAGE (it could not be removed).
 */
int cli_journal_end(struct hw_device *dev, struct journal_file *jf, bool restored);

/*
 * A check run's session (checks/session.h) on c's device: opened as cli_open does, journaled
 * as cli_journal_begin does, with the model fault `fault` (tests only; NULL none). The errors
 * are the session's, said by the caller.
 */
struct cli_session {
	struct session s;
	struct cli *c;
	struct journal_file jf;
};
void cli_session_init(struct cli_session *cs, struct cli *c, const char *fault);

/* "4 GiB", "256 MiB", "12 KiB", "100 bytes". */
const char *cli_size(uint64_t bytes, char *buf, size_t n);
/* "9", "7.5" */
const char *cli_gen(unsigned gen, char *buf, size_t n);

int cmd_info(struct cli *c, int argc, char **argv);
int cmd_encode(struct cli *c, int argc, char **argv);
int cmd_decode(struct cli *c, int argc, char **argv);
int cmd_dump(struct cli *c, int argc, char **argv);
int cmd_snapshot(struct cli *c, int argc, char **argv);
int cmd_dom0(struct cli *c, int argc, char **argv);
int cmd_dom0_serve(struct cli *c, int argc, char **argv);
int cmd_check(struct cli *c, int argc, char **argv);
int cmd_restore(struct cli *c, int argc, char **argv);

#endif
