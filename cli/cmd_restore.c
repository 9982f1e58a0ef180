/* SPDX-License-Identifier: MIT */
/*
 * gttlab restore: put a device back from the crash journal a run left
 * behind (killed, powered off, or ended in abort), then remove the journal.
 * The journal names its device; nothing else is opened.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "hosted/backends.h"
#include "hosted/text_escape.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
	"usage: gttlab restore [--journal FILE]\n"
	"Put a real device back from the crash journal of a run that did not restore it\n"
	"(killed, powered off, or ended in abort), then remove the journal. Without\n"
	"--journal, every journal in " JOURNAL_DIR " is restored. Each journal names its\n"
	"device (and the sysfs root it was found under); --device is not needed.\n"
	"Exit 0 when everything was put back (or there was nothing to restore), 2 for a\n"
	"journal that cannot be read or a device that cannot be opened (nothing written),\n"
	"3 when entries did not read back as restored (named; the journal is kept).\n";

/*
 * A line on stdout naming a journal's path or the device string the journal
 * holds: both are text from outside (an argument, a file), escaped so that a
 * control byte can neither drive the terminal nor start a line of its own.
 */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	text_vfprintf_escaped(stdout, fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* Restore from one journal; returns an exit status. */
static int restore_one(struct cli *c, const char *path)
{
	struct journal_file jf;
	struct hw_journal_info info;
	struct gtt_err err = { 0 };
	struct hw_device *dev = NULL;
	void *buf;
	size_t len;

	if (journal_file_load(&jf, path, &buf, &len, &err)) {
		if (err.code == GTT_ENODEV) {
			say("nothing to restore: no journal at %s", path);
			return EXIT_OK;
		}
		return cli_report(&err);
	}
	if (hw_journal_scan(buf, len, &info, &err)) {
		free(buf);
		journal_file_close(&jf, false, NULL);
		return cli_error("%s: %s", path, err.msg);
	}
	struct hw_open_opts o = { .allow_i915 = info.allow_i915,
				  .sysfs_root = info.sysfs_root[0] ? info.sysfs_root : NULL };
	if (hw_open(c->env, info.spec, gtt_posix_backends, gtt_num_posix_backends, &o, &dev, &err)) {
		free(buf);
		journal_file_close(&jf, false, NULL);
		return cli_error("%s: cannot open its device %s: %s", path, info.spec, err.msg);
	}
	int rc = hw_journal_replay(dev, buf, len, &info, &err);
	hw_close(dev);
	free(buf);
	if (rc) {
		journal_file_close(&jf, false, NULL);
		cli_error("ABORT: %s: not everything went back: %s; the journal is kept", path, err.msg);
		return EXIT_ABORT;
	}
	if (journal_file_close(&jf, true, &err))
		return cli_report(&err);
	say("restored %s from %s: %u config, %u register, %u PTE chunk and %u aperture page record%s%s", info.spec, path,
	    info.cfg, info.mmio + info.flush_reg, info.pte_chunks, info.ap_orig + info.ap_own, info.records == 2 ? "" : "s",
	    info.torn ? " (its last record was cut short by the crash: that write never happened)" : "");
	return EXIT_OK;
}

int cmd_restore(struct cli *c, int argc, char **argv)
{
	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc > 1)
		return cli_error("restore: unexpected '%s'; the journal is --journal FILE (gttlab restore --help)", argv[1]);
	if (geteuid() != 0)
		return cli_error("restore writes the device back and needs root");
	if (c->journal) {
		if (!c->journal[0])
			return cli_error("--journal: the file name is empty");
		return restore_one(c, c->journal);
	}
	DIR *d = opendir(JOURNAL_DIR);
	if (!d) {
		if (errno == ENOENT) {
			printf("nothing to restore: no journal in %s\n", JOURNAL_DIR);
			return EXIT_OK;
		}
		return cli_error("cannot read %s: %s", JOURNAL_DIR, strerror(errno));
	}
	int worst = EXIT_OK, found = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char path[1024];
		if (n <= 8 || strcmp(e->d_name + n - 8, ".journal"))
			continue;
		found++;
		snprintf(path, sizeof(path), "%s/%s", JOURNAL_DIR, e->d_name);
		int rc = restore_one(c, path);
		if (rc > worst)
			worst = rc;
	}
	closedir(d);
	if (!found)
		printf("nothing to restore: no journal in %s\n", JOURNAL_DIR);
	return worst;
}
