/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "scenario/scenario_parse.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void scen_script_free(struct scen_script *sc)
{
	free(sc->lines);
	free(sc->text);
	*sc = (struct scen_script){ 0 };
}

static int refuse(struct scen_script *sc, FILE *errors, const char *name, int line, const char *rule)
{
	if (line)
		fprintf(errors, "%s:%d: %s\n", name, line, rule);
	else
		fprintf(errors, "%s: %s\n", name, rule);
	scen_script_free(sc);
	return 2;
}

/* Split `buf` (len bytes, owned by sc from now on) into lines of words. */
static int split(const char *name, char *buf, size_t len, struct scen_script *sc, FILE *errors)
{
	int cap = 0, no = 0;

	sc->text = buf;
	if (memchr(buf, '\0', len)) {
		const char *nul = memchr(buf, '\0', len);
		int at = 1;
		for (const char *p = buf; p < nul; p++)
			at += *p == '\n';
		return refuse(sc, errors, name, at, "a NUL byte: a scenario is text");
	}
	buf[len] = '\0';
	for (char *p = buf; p && *p;) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		no++;
		char *hash = strchr(p, '#');
		char dev[sizeof(sc->device)];
		/* `# device: D` before the first command names the device the scenario is written for */
		if (hash && !sc->n && !sc->device[0] && sscanf(hash, "# device: %63s", dev) == 1)
			snprintf(sc->device, sizeof(sc->device), "%s", dev);
		if (hash)
			*hash = '\0';
		struct scen_line l = { .no = no };
		char *save = NULL;
		for (char *tok = strtok_r(p, " \t\r\v\f", &save); tok; tok = strtok_r(NULL, " \t\r\v\f", &save)) {
			if (l.argc == SCENARIO_MAX_WORDS) {
				char rule[64];
				snprintf(rule, sizeof(rule), "more than %d words on one line", SCENARIO_MAX_WORDS);
				return refuse(sc, errors, name, no, rule);
			}
			l.argv[l.argc++] = tok;
		}
		if (l.argc) {
			if (sc->n == cap) {
				cap = cap ? cap * 2 : 64;
				struct scen_line *nls = realloc(sc->lines, sizeof(*nls) * (size_t)cap);
				if (!nls)
					return refuse(sc, errors, name, no, "out of memory for the scenario's lines");
				sc->lines = nls;
			}
			sc->lines[sc->n++] = l;
		}
		p = nl ? nl + 1 : NULL;
	}
	if (!sc->n)
		return refuse(sc, errors, name, 0, "no command in it (an empty scenario)");
	return 0;
}

int scen_split_text(const char *name, const char *text, size_t len, struct scen_script *out, FILE *errors)
{
	*out = (struct scen_script){ 0 };
	if (len > SCENARIO_MAX_BYTES)
		return refuse(out, errors, name, 0, "larger than 16 MiB: not a scenario");
	char *buf = malloc(len + 1);
	if (!buf)
		return refuse(out, errors, name, 0, "out of memory");
	memcpy(buf, text, len);
	return split(name, buf, len, out, errors);
}

int scen_load_file(const char *path, struct scen_script *out, FILE *errors)
{
	struct stat st;
	char rule[160];
	int fd;

	*out = (struct scen_script){ 0 };
	/* O_NONBLOCK: a FIFO must not hang the open; it is refused below */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0) {
		snprintf(rule, sizeof(rule), "cannot open it: %s", strerror(errno));
		return refuse(out, errors, path, 0, rule);
	}
	if (fstat(fd, &st)) {
		snprintf(rule, sizeof(rule), "cannot tell what it is: %s", strerror(errno));
		close(fd);
		return refuse(out, errors, path, 0, rule);
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return refuse(out, errors, path, 0, S_ISDIR(st.st_mode) ? "is a directory, not a scenario file"
									   : "is not a regular file (a scenario is a text file)");
	}
	if ((uint64_t)st.st_size > SCENARIO_MAX_BYTES) {
		close(fd);
		return refuse(out, errors, path, 0, "larger than 16 MiB: not a scenario");
	}
	size_t len = (size_t)st.st_size, got = 0;
	char *buf = malloc(len + 1);
	if (!buf) {
		close(fd);
		return refuse(out, errors, path, 0, "out of memory");
	}
	while (got < len) {
		ssize_t r = read(fd, buf + got, len - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			snprintf(rule, sizeof(rule), "cannot read it: %s", r ? strerror(errno) : "shorter than its size");
			free(buf);
			close(fd);
			return refuse(out, errors, path, 0, rule);
		}
		got += (size_t)r;
	}
	close(fd);
	return split(path, buf, len, out, errors);
}
