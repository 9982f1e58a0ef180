/* SPDX-License-Identifier: MIT */
/*
 * Reading a scenario: the file (a regular file of at most SCENARIO_MAX_BYTES,
 * text without NUL bytes) split into lines of blank-separated words, with
 * comments and empty lines dropped. What the words mean is scenario_run.c's.
 */
#ifndef SCENARIO_SCENARIO_PARSE_H
#define SCENARIO_SCENARIO_PARSE_H

#include <stddef.h>
#include <stdio.h>

#define SCENARIO_MAX_WORDS	24
#define SCENARIO_MAX_BYTES	(16u << 20)

struct scen_line {
	int no;				/* line number in the file, from 1 */
	int argc;
	char *argv[SCENARIO_MAX_WORDS];
};

struct scen_script {
	char *text;			/* the file's bytes; argv points into it */
	struct scen_line *lines;
	int n;
	char device[64];		/* a `# device: D` comment before the first command; "" none */
};

/*
 * Read and split a file. Returns 0, or 2 after one line on `errors` naming
 * the file (and line) and the rule: not a regular file, too large, a NUL
 * byte, too many words on a line, no command at all.
 */
int scen_load_file(const char *path, struct scen_script *out, FILE *errors);
/* The same for text already in memory (`len` bytes, NUL bytes refused); `name` names it in errors. */
int scen_split_text(const char *name, const char *text, size_t len, struct scen_script *out, FILE *errors);
void scen_script_free(struct scen_script *sc);

#endif
