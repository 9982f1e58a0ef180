/* SPDX-License-Identifier: MIT */
/* A minimal streaming JSON writer for --json output. */
#ifndef HARNESS_JSON_H
#define HARNESS_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool need_comma[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
/* key is NULL inside arrays and for the top-level value. */
void json_object_begin(struct json *j, const char *key);
void json_object_end(struct json *j);
void json_array_begin(struct json *j, const char *key);
void json_array_end(struct json *j);
void json_str(struct json *j, const char *key, const char *v);
void json_u64(struct json *j, const char *key, uint64_t v);
/* A number as a "0x..." string, zero-padded to `digits`. */
void json_hex(struct json *j, const char *key, uint64_t v, int digits);
void json_bool(struct json *j, const char *key, bool v);
/* Ends the document with a newline. */
void json_finish(struct json *j);

/*
 * The files the CLI writes its reports, traces and snapshots to. They live
 * here, with the writer, because every command that writes a file needs the
 * same two rules: opening never blocks (a FIFO with no reader is refused with
 * ENXIO instead of hanging before the device is even opened), and closing
 * reports a write that failed at any point, not only at the last flush.
 *
 * output_open() creates or truncates `path` for writing and returns NULL with
 * errno set when it cannot. output_close() flushes and closes `f` (also when
 * it fails) and returns 0, or -1 with errno set when anything written to `f`
 * was lost.
 */
FILE *output_open(const char *path);
int output_close(FILE *f);

#endif
