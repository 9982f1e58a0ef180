/* SPDX-License-Identifier: MIT */
/* What libpci can read in sysfs, checked before libpci is asked; small sysfs reads of our own. */
#define _GNU_SOURCE
#include "hw/linux/linux_internal.h"
#include "regs/pci_config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pci/pci.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * What libpci 3.9's sysfs method tolerates (lib/sysfs.c): one read() of an
 * attribute into a 1024-byte buffer, a value filling it being an error; the
 * resource file read with fgets into 256 bytes, at most 7 + 6 + 4 + 1 lines,
 * each of which must scan as three hex numbers.
 */
#define LIBPCI_ATTR_BUF		1024
#define LIBPCI_RES_LINE		256
#define LIBPCI_RES_LINES	18

/*
 * Open a sysfs file without blocking (a FIFO would hang libpci's plain open)
 * and insist it is a regular file, which every sysfs attribute is. Returns the
 * descriptor, or -1 with a reason in *why.
 */
int lx_open_attr(const char *path, int flags, const char **why)
{
	struct stat st;
	int fd = open(path, flags | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		*why = "not a regular file";
		close(fd);
		errno = EINVAL;		/* callers tell permission problems by errno */
		return -1;
	}
	return fd;
}

/* Read an attribute the way libpci will; false, with the reason in why, where it would fail. */
bool lx_attr_ok(const char *dir, const char *file, char *why, size_t n)
{
	char p[720], buf[LIBPCI_ATTR_BUF];
	const char *e = NULL;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if ((fd = lx_open_attr(p, O_RDONLY, &e)) >= 0) {
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got < 0)
			e = strerror(errno);
		else if (got >= (ssize_t)sizeof(buf))
			e = "1024 bytes or more, more than any sysfs value";
		close(fd);
	}
	if (e)
		snprintf(why, n, "%s: %s", p, e);
	return !e;
}

/* Parse the resource file the way libpci will; false, with the reason in why, where it would fail. */
static bool resource_ok(const char *dir, char *why, size_t n)
{
	char p[720], line[LIBPCI_RES_LINE];
	unsigned long long start, end, flags;
	const char *e = NULL;
	int fd;
	FILE *f;

	snprintf(p, sizeof(p), "%s/resource", dir);
	if ((fd = lx_open_attr(p, O_RDONLY, &e)) < 0) {
		snprintf(why, n, "%s: %s", p, e);
		return false;
	}
	if (!(f = fdopen(fd, "r"))) {
		snprintf(why, n, "%s: %s", p, strerror(errno));
		close(fd);
		return false;
	}
	for (int i = 0; i < LIBPCI_RES_LINES && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3) {
			snprintf(why, n, "%s: line %d is not 'start end flags' in hex", p, i + 1);
			fclose(f);
			return false;
		}
	}
	fclose(f);
	return true;
}

/*
 * Whether libpci can read what we ask of it about the device at `dir`: its
 * vendor, device and class, and with `resources` its resource file. False,
 * with the reason (naming the file) in why, where libpci would call its
 * error callback.
 */
bool lx_sysfs_entry_ok(const char *dir, bool resources, char *why, size_t n)
{
	return lx_attr_ok(dir, "vendor", why, n) && lx_attr_ok(dir, "device", why, n) && lx_attr_ok(dir, "class", why, n) &&
	       (!resources || resource_ok(dir, why, n));
}

int lx_read_hex_file(const char *dir, const char *file, unsigned long *v)
{
	char p[720], buf[64];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if (!(f = fopen(p, "r")))
		return -1;
	int ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	*v = strtoul(buf, NULL, 0);
	return 0;
}

const char *lx_bound_driver(const char *dir, char *buf, size_t n)
{
	char p[720];
	ssize_t len;

	snprintf(p, sizeof(p), "%s/driver", dir);
	len = readlink(p, buf, n - 1);
	if (len < 0)
		return NULL;
	buf[len] = '\0';
	const char *slash = strrchr(buf, '/');
	return slash ? slash + 1 : buf;
}
