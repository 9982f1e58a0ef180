/* SPDX-License-Identifier: MIT */
/*
 * IGT's device filters read into gttlab's device string (igt_device_filter.h).
 * The syntax is IGT's (lib/igt_device_scan.c, "Filters"); what it selects is
 * looked up in sysfs the way the linux backend's auto does (vendor, device
 * and class files under bus/pci/devices), and every file read is bounded: a
 * sysfs tree is input, and tests hand it hostile ones.
 */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "igt-tests/igt_device_filter.h"
#include "regs/pci_config.h"

#define MAX_FUNCS 256

struct pci_want {
	long vendor;		/* -1: any */
	long device;		/* -1: any */
	int where;		/* 0 any, 1 integrated (0000:00:02.0), 2 discrete (any other) */
	unsigned card;
};

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* SSSS:BB:DD.F exactly, the form sysfs names a PCI function with. */
static bool is_bdf(const char *s, size_t len)
{
	static const char form[] = "hhhh:hh:hh.d";

	if (len != sizeof(form) - 1)
		return false;
	for (size_t i = 0; i < len; i++) {
		char f = form[i], c = s[i];
		if (f == 'h' ? !is_hex(c) : f == 'd' ? !(c >= '0' && c <= '7') : c != f)
			return false;
	}
	return true;
}

bool igt_filter_is(const char *s)
{
	return !strncmp(s, "sys:", 4) || !strncmp(s, "drm:", 4) || (!strncmp(s, "pci:", 4) && strchr(s, '='));
}

static enum igt_filter_result say(enum igt_filter_result r, char *why, size_t wn, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static enum igt_filter_result say(enum igt_filter_result r, char *why, size_t wn, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, wn, fmt, ap);
	va_end(ap);
	return r;
}

static enum igt_filter_result found(const char *bdf, char *dev, size_t n)
{
	snprintf(dev, n, "pci:%.12s", bdf);
	return IGT_FILTER_FOUND;
}

/* A hex number of 1 to 4 digits, "0x" optional: a PCI vendor or device id. */
static long hex16(const char *s)
{
	if (!strncasecmp(s, "0x", 2))
		s += 2;
	size_t len = strlen(s);
	if (!len || len > 4)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!is_hex(s[i]))
			return -1;
	return strtol(s, NULL, 16);
}

/* One sysfs attribute of DIR holding a hex number ("0x8086\n"); -1 when unreadable or not one. */
static long read_hex_attr(const char *dir, const char *name)
{
	char path[1024], buf[32];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -1;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t k = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (k <= 0)
		return -1;
	buf[k] = '\0';
	char *end;
	errno = 0;
	unsigned long v = strtoul(buf, &end, 16);
	if (errno || end == buf || (*end && *end != '\n') || v > 0xffffff)
		return -1;
	return (long)v;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int bdf_entry(const struct dirent *d)
{
	return is_bdf(d->d_name, strlen(d->d_name));
}

/* pci:[vendor=V][,device=D][,card=N] | pci:slot=BDF, read into W (COPY holds SLOT's text); IGT_FILTER_FOUND when well formed */
static enum igt_filter_result pci_keys(const char *filter, struct pci_want *w, char *copy, size_t cn, const char **slot,
				       char *why, size_t wn)
{
	char *save = NULL;
	bool any_key = false;

	if (strlen(filter + 4) >= cn)
		return say(IGT_FILTER_MALFORMED, why, wn, "longer than %zu bytes", cn - 1);
	strcpy(copy, filter + 4);
	for (char *kv = strtok_r(copy, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
		char *v = strchr(kv, '=');
		if (!v)
			return say(IGT_FILTER_MALFORMED, why, wn, "'%s' is no key=value", kv);
		*v++ = '\0';
		any_key = true;
		if (!strcmp(kv, "vendor")) {
			w->vendor = !strcasecmp(v, "intel") ? PCI_VENDOR_ID_INTEL : !strcasecmp(v, "amd") ? 0x1002 : hex16(v);
			if (w->vendor < 0)
				return say(IGT_FILTER_MALFORMED, why, wn, "vendor=%s: a PCI vendor id in hex, intel or amd", v);
		} else if (!strcmp(kv, "device")) {
			if (!strcmp(v, "integrated"))
				w->where = 1;
			else if (!strcmp(v, "discrete"))
				w->where = 2;
			else if ((w->device = hex16(v)) < 0)
				return say(IGT_FILTER_MALFORMED, why, wn,
					   "device=%s: a PCI device id in hex, integrated or discrete (gttlab reads no codenames)", v);
		} else if (!strcmp(kv, "card")) {
			if (!strcmp(v, "all") || !strcmp(v, "*"))
				return say(IGT_FILTER_MALFORMED, why, wn, "card=%s: gttlab runs on one device at a time; name card=N", v);
			char *end;
			errno = 0;
			unsigned long c = strtoul(v, &end, 10);
			if (!*v || *end || errno || c > 63 || *v == '-' || *v == '+')
				return say(IGT_FILTER_MALFORMED, why, wn, "card=%s: a card number from 0 to 63", v);
			w->card = (unsigned)c;
		} else if (!strcmp(kv, "slot")) {
			if (!is_bdf(v, strlen(v)))
				return say(IGT_FILTER_MALFORMED, why, wn, "slot=%s: a PCI slot SSSS:BB:DD.F", v);
			*slot = v;
		} else {
			return say(IGT_FILTER_MALFORMED, why, wn, "'%s' is not one of vendor, device, card, slot", kv);
		}
	}
	if (!any_key)
		return say(IGT_FILTER_MALFORMED, why, wn, "pci: names no key");
	if (*slot && (w->vendor >= 0 || w->device >= 0 || w->where || w->card))
		return say(IGT_FILTER_MALFORMED, why, wn, "slot= stands alone: it names one function");
	return IGT_FILTER_FOUND;
}

/* pci:[vendor=V][,device=D][,card=N] | pci:slot=BDF */
static enum igt_filter_result pci_filter(const char *filter, const char *root, char *dev, size_t n, char *why, size_t wn)
{
	struct pci_want w = { .vendor = -1, .device = -1 };
	char copy[256];
	const char *slot = NULL;
	enum igt_filter_result r = pci_keys(filter, &w, copy, sizeof(copy), &slot, why, wn);

	if (r != IGT_FILTER_FOUND)
		return r;
	if (slot)
		return found(slot, dev, n);

	char dir[640];
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices", root);
	struct dirent **names;
	int k = scandir(dir, &names, bdf_entry, by_name);
	if (k < 0)
		return say(IGT_FILTER_NO_DEVICE, why, wn, "cannot list %s: %s", dir, strerror(errno));
	unsigned matched = 0, display = 0;
	r = IGT_FILTER_NO_DEVICE;
	for (int i = 0; i < k && i < MAX_FUNCS; i++) {
		char fn[1024];
		const char *bdf = names[i]->d_name;
		snprintf(fn, sizeof(fn), "%s/%s", dir, bdf);
		long cls = read_hex_attr(fn, "class"), ven = read_hex_attr(fn, "vendor"), did = read_hex_attr(fn, "device");
		if (cls < 0 || ven < 0 || did < 0 || (cls >> 16) != PCI_BASE_CLASS_DISPLAY)
			continue;
		display++;
		bool integrated = !strcmp(bdf, "0000:00:02.0");
		if ((w.vendor >= 0 && ven != w.vendor) || (w.device >= 0 && did != w.device) ||
		    (w.where == 1 && !integrated) || (w.where == 2 && integrated))
			continue;
		if (matched++ != w.card)
			continue;
		if (ven != PCI_VENDOR_ID_INTEL) {
			say(IGT_FILTER_NO_DEVICE, why, wn, "it selects %s, vendor 0x%04lx: not an Intel GPU", bdf, ven);
		} else {
			found(bdf, dev, n);
			r = IGT_FILTER_FOUND;
		}
		break;
	}
	if (r == IGT_FILTER_NO_DEVICE && matched <= w.card)
		say(r, why, wn, "%u of the %u display devices under %s match; card=%u is not among them", matched, display,
		    dir, w.card);
	for (int i = 0; i < k; i++)
		free(names[i]);
	free(names);
	return r;
}

enum igt_filter_result igt_filter_resolve(const char *filter, const char *sysfs_root, char *dev, size_t n,
					  char *why, size_t wn)
{
	const char *root = sysfs_root && *sysfs_root ? sysfs_root : "/sys";

	if (!strncmp(filter, "pci:", 4))
		return pci_filter(filter, root, dev, n, why, wn);
	if (!strncmp(filter, "sys:", 4)) {
		/* the last component that names a PCI function: .../0000:00:02.0 or .../0000:00:02.0/drm/card0 */
		const char *p = filter + 4, *hit = NULL;
		while (*p) {
			size_t len = strcspn(p, "/");
			if (is_bdf(p, len))
				hit = p;
			p += len + (p[len] == '/');
		}
		if (!hit)
			return say(IGT_FILTER_MALFORMED, why, wn, "no PCI function (SSSS:BB:DD.F) in the path");
		return found(hit, dev, n);
	}
	if (!strncmp(filter, "drm:", 4)) {
		const char *node = filter + 4;
		if (strncmp(node, "/dev/dri/", 9) || !node[9] || strchr(node + 9, '/') || strlen(node + 9) > 32)
			return say(IGT_FILTER_MALFORMED, why, wn, "a DRM node /dev/dri/NAME");
		char link[700], target[512];
		snprintf(link, sizeof(link), "%s/class/drm/%s/device", root, node + 9);
		ssize_t k = readlink(link, target, sizeof(target) - 1);
		if (k <= 0)
			return say(IGT_FILTER_NO_DEVICE, why, wn, "no DRM node %s here (%s: %s)", node + 9, link,
				   k < 0 ? strerror(errno) : "empty");
		target[k] = '\0';
		const char *base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
		if (!is_bdf(base, strlen(base)))
			return say(IGT_FILTER_NO_DEVICE, why, wn, "%s is no PCI function", node + 9);
		return found(base, dev, n);
	}
	return say(IGT_FILTER_MALFORMED, why, wn, "not a filter: sys:PATH, pci:KEY=VALUE,... or drm:/dev/dri/NAME");
}
