/* SPDX-License-Identifier: MIT */
/* Finding the device (pci:DDDD:BB:DD.F or auto, by libpci scan), checking it and opening it; the factories. */
#define _GNU_SOURCE
#include "hw/linux/backend_linux.h"
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
 * libpci declares its error callback noreturn. Every path that can reach it
 * (an unreadable devices/ directory, an entry name it cannot parse, a vendor,
 * device, class or resource file it cannot read or parse, an unaligned config
 * access) is checked before libpci is asked, so this only runs if sysfs
 * changes under us between the check and libpci's own read.
 */
static void lx_pci_error(char *msg, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void lx_pci_error(char *msg, ...)
{
	va_list ap;

	va_start(ap, msg);
	fputs("gttlab: libpci: ", stderr);
	vfprintf(stderr, msg, ap);
	fputc('\n', stderr);
	va_end(ap);
	_exit(2);
}

static void lx_pci_quiet(char *msg, ...)
{
	(void)msg;
}

/* 1..max_digits hex digits at *s (no sign, blanks or 0x); -1 when there are none or too many. */
static long long hex_field(const char **s, unsigned max_digits)
{
	long long v = 0;
	unsigned n = 0;

	for (;; n++, (*s)++) {
		char c = **s;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			break;
		if (n == max_digits)
			return -1;
		v = v * 16 + d;
	}
	return n ? v : -1;
}

/*
 * "DDDD:BB:DD.F" in hex, each field in its range; libpci keeps the domain in
 * an int. Strict, so that no spelling wraps or is read as another address.
 */
static int parse_bdf(const char *s, int *dom, int *bus, int *dev, int *fn)
{
	long long v[4];
	static const unsigned digits[4] = { 8, 2, 2, 1 };
	static const long long max[4] = { 0x7fffffff, 0xff, 0x1f, 7 };
	static const char sep[4] = { ':', ':', '.', '\0' };

	for (int i = 0; i < 4; i++) {
		v[i] = hex_field(&s, digits[i]);
		if (v[i] < 0 || v[i] > max[i] || *s++ != sep[i])
			return -1;
	}
	*dom = (int)v[0];
	*bus = (int)v[1];
	*dev = (int)v[2];
	*fn = (int)v[3];
	return 0;
}

/* A directory entry is a device only in the kernel's spelling, "%04x:%02x:%02x.%d". */
static bool is_device_entry(const char *name)
{
	char canon[32];
	int d, b, s, f;

	if (parse_bdf(name, &d, &b, &s, &f))
		return false;
	snprintf(canon, sizeof(canon), "%04x:%02x:%02x.%d", d, b, s, f);
	return !strcmp(canon, name);
}

static struct pci_access *new_access(const char *pci_root)
{
	struct pci_access *a = pci_alloc();

	a->method = PCI_ACCESS_SYS_BUS_PCI;
	a->error = lx_pci_error;
	a->warning = lx_pci_quiet;
	a->debug = lx_pci_quiet;
	pci_set_param(a, "sysfs.path", (char *)pci_root);
	pci_init(a);
	return a;
}

/* Find the first Intel display-class device, 0000:00:02.0 first, by libpci scan. */
static int discover(struct lx *l, const char *pci_root, int *d, int *b, int *s, int *f, struct gtt_err *err)
{
	char devs[560];
	DIR *dir;
	struct dirent *de;

	snprintf(devs, sizeof(devs), "%s/devices", pci_root);
	if (!(dir = opendir(devs)))
		return gtt_err_set(err, GTT_ENODEV, "auto: cannot list PCI devices in %s: %s", devs, strerror(errno));
	/* libpci's scan calls its error callback on an entry it cannot parse: refuse those first */
	while ((de = readdir(dir))) {
		if (de->d_name[0] != '.' && !is_device_entry(de->d_name)) {
			char name[256];	/* d_name lives in the DIR, which closedir frees */
			snprintf(name, sizeof(name), "%s", de->d_name);
			closedir(dir);
			return gtt_err_set(err, GTT_ENODEV, "auto: unexpected entry '%s' in %s", name, devs);
		}
	}
	closedir(dir);
	pci_scan_bus(l->pacc);
	struct pci_dev *best = NULL;
	for (struct pci_dev *p = l->pacc->devices; p; p = p->next) {
		char dirp[720], why[800];
		snprintf(dirp, sizeof(dirp), "%s/%04x:%02x:%02x.%d", devs, p->domain, p->bus, p->dev, p->func);
		if (!lx_sysfs_entry_ok(dirp, false, why, sizeof(why)))
			continue;	/* not a device libpci can read: not the one we want */
		pci_fill_info(p, PCI_FILL_IDENT | PCI_FILL_CLASS);
		if (p->vendor_id != PCI_VENDOR_ID_INTEL || (p->device_class >> 8) != PCI_BASE_CLASS_DISPLAY)
			continue;
		if (!best || (p->domain == 0 && p->bus == 0 && p->dev == 2 && p->func == 0))
			best = p;
	}
	if (!best)
		return gtt_err_set(err, GTT_ENODEV, "auto: no Intel display device (vendor 0x8086, class 0x03) under %s; use --device sim",
				   devs);
	*d = best->domain;
	*b = best->bus;
	*s = best->dev;
	*f = best->func;
	return GTT_OK;
}

static int lx_open_common(const struct gtt_env *env, const char *arg, bool autodetect,
			  const struct hw_open_opts *opts, const struct hw_backend_ops **ops, void **ctx,
			  struct gtt_err *err)
{
	char pci_root[PCI_ROOT_MAX], drvbuf[512], why[800];
	int d, b, s, f, rc;
	struct lx *l;
	struct stat st;

	if (!autodetect && parse_bdf(arg, &d, &b, &s, &f))
		return gtt_err_set(err, GTT_EINVAL, "device 'pci:%s' is not of the form pci:DDDD:BB:DD.F (hex)", arg);
	const char *sysfs = opts->sysfs_root ? opts->sysfs_root : "/sys";
	if (strlen(sysfs) + strlen("/bus/pci") >= PCI_ROOT_MAX)
		return gtt_err_set(err, GTT_EINVAL, "sysfs root is too long (%zu bytes; at most %zu)", strlen(sysfs),
				   (size_t)PCI_ROOT_MAX - 1 - strlen("/bus/pci"));
	snprintf(pci_root, sizeof(pci_root), "%s/bus/pci", sysfs);
	if (!(l = calloc(1, sizeof(*l))))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory");
	l->env = env;
	l->pacc = new_access(pci_root);
	if (autodetect && (rc = discover(l, pci_root, &d, &b, &s, &f, err)))
		goto fail;
	snprintf(l->bdf, sizeof(l->bdf), "%04x:%02x:%02x.%x", d, b, s, f);
	snprintf(l->dir, sizeof(l->dir), "%s/devices/%s", pci_root, l->bdf);
	if (stat(l->dir, &st) || !S_ISDIR(st.st_mode)) {
		rc = gtt_err_set(err, GTT_ENODEV, "no PCI device %s (nothing readable at %s)", l->bdf, l->dir);
		goto fail;
	}
	/* config too: libpci opens it without O_NONBLOCK on the first access */
	if (!lx_sysfs_entry_ok(l->dir, true, why, sizeof(why)) || !lx_attr_ok(l->dir, "config", why, sizeof(why))) {
		rc = gtt_err_set(err, GTT_ENODEV, "%s: cannot use %s", l->bdf, why);
		goto fail;
	}
	const char *drv = lx_bound_driver(l->dir, drvbuf, sizeof(drvbuf));
	if (drv && (!strcmp(drv, "i915") || !strcmp(drv, "xe")) && !opts->allow_i915) {
		rc = gtt_err_set(err, GTT_EBUSY,
				 "%s is bound to %s, which owns the GGTT; unbind it first "
				 "(echo %s > /sys/bus/pci/drivers/%s/unbind) or pass --allow-i915",
				 l->bdf, drv, l->bdf, drv);
		goto fail;
	}
	l->pdev = pci_get_dev(l->pacc, d, b, s, f);
	pci_fill_info(l->pdev, PCI_FILL_IDENT | PCI_FILL_CLASS | PCI_FILL_BASES | PCI_FILL_SIZES);
	for (unsigned i = 0; i < 6; i++) {
		l->base[i] = l->pdev->base_addr[i] & PCI_ADDR_MEM_MASK;
		l->size[i] = l->pdev->size[i];
	}
	unsigned long vendor = 0, klass = 0;
	lx_read_hex_file(l->dir, "vendor", &vendor);
	lx_read_hex_file(l->dir, "class", &klass);
	if (vendor != PCI_VENDOR_ID_INTEL || (klass >> 16) != PCI_BASE_CLASS_DISPLAY) {
		rc = gtt_err_set(err, GTT_ENODEV, "%s is vendor 0x%04lx class 0x%06lx, not an Intel display device",
				 l->bdf, vendor, klass);
		goto fail;
	}
	if ((rc = lx_map_bar(l, GTTMMADR_BAR, &l->bar0, &l->bar0_len, err)) ||
	    (rc = lx_map_bar(l, GFXMEM_BAR, &l->bar2, &l->bar2_len, err)))
		goto fail;
	*ops = &lx_linux_ops;
	*ctx = l;
	return GTT_OK;
fail:
	lx_close(l);
	return rc;
}

static int lx_open_pci(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		       const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	return lx_open_common(env, spec->target, false, opts, ops, ctx, err);
}

/* auto takes no argument: the grammar refuses one (hw/device_spec.h) */
static int lx_open_auto(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
			const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	return lx_open_common(env, spec->target, true, opts, ops, ctx, err);
}

const struct hw_backend_factory hw_linux_pci_backend = {
	.scheme = "pci",
	.usage = "pci:DDDD:BB:DD.F",
	.open = lx_open_pci,
};

const struct hw_backend_factory hw_linux_auto_backend = {
	.scheme = "auto",
	.usage = "auto",
	.open = lx_open_auto,
};
