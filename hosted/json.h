/* SPDX-License-Identifier: MIT */
/* A minimal streaming JSON writer for --json output. */
#ifndef HOSTED_JSON_H
#define HOSTED_JSON_H

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

#endif
