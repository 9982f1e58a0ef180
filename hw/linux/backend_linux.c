/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "hw/linux/backend_linux.h"
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

struct lx {
	const struct gtt_env *env;
	struct pci_access *pacc;
	struct pci_dev *pdev;
	char dir[640];			/* .../devices/DDDD:BB:DD.F */
	char bdf[16];
	volatile uint8_t *bar0;
	size_t bar0_len;
	volatile uint8_t *bar2;
	size_t bar2_len;
	uint64_t base[6], size[6];
	struct { void *base; size_t n; } maps[64];	/* test-page allocations: mlock'ed mappings */
};

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

/*
 * What libpci 3.9's sysfs method tolerates (lib/sysfs.c): one read() of an
 * attribute into a 1024-byte buffer, a value filling it being an error; the
 * resource file read with fgets into 256 bytes, at most 7 + 6 + 4 + 1 lines,
 * each of which must scan as three hex numbers.
 */
#define LIBPCI_ATTR_BUF		1024
#define LIBPCI_RES_LINE		256
#define LIBPCI_RES_LINES	18
/* libpci builds "ROOT/devices/BDF/FILE" in 1024 bytes; leave room for BDF and FILE. */
#define PCI_ROOT_MAX		512

/*
 * Open a sysfs file without blocking (a FIFO would hang libpci's plain open)
 * and insist it is a regular file, which every sysfs attribute is. Returns the
 * descriptor, or -1 with a reason in *why.
 */
static int open_attr(const char *path, int flags, const char **why)
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
static bool attr_ok(const char *dir, const char *file, char *why, size_t n)
{
	char p[720], buf[LIBPCI_ATTR_BUF];
	const char *e = NULL;
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, file);
	if ((fd = open_attr(p, O_RDONLY, &e)) >= 0) {
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
	if ((fd = open_attr(p, O_RDONLY, &e)) < 0) {
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
static bool sysfs_entry_ok(const char *dir, bool resources, char *why, size_t n)
{
	return attr_ok(dir, "vendor", why, n) && attr_ok(dir, "device", why, n) && attr_ok(dir, "class", why, n) &&
	       (!resources || resource_ok(dir, why, n));
}

static int read_hex_file(const char *dir, const char *file, unsigned long *v)
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

static const char *bound_driver(const char *dir, char *buf, size_t n)
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

/*
 * Map BARn through its sysfs resource file. The file must cover the whole BAR
 * as the resource file gives it: a shorter one (a broken or fake tree) would
 * swallow every access past its end, so it is refused before anything is
 * written.
 */
static int map_bar(struct lx *l, unsigned bar, volatile uint8_t **out, size_t *len, struct gtt_err *err)
{
	char p[720];
	const char *why = NULL;
	struct stat st;
	int fd = -1;
	uint64_t size = l->size[bar];

	if (!size && bar == GFXMEM_BAR)
		return gtt_err_set(err, GTT_ENODEV, "%s has no aperture (%s/resource gives BAR2, GMADR, no size): "
				   "every gttlab check reaches the GGTT through it", l->bdf, l->dir);
	if (!size)
		return gtt_err_set(err, GTT_EIO, "%s: %s/resource gives BAR%u no size", l->bdf, l->dir, bar);
	/* the aperture is prefetchable: prefer the write-combining mapping, as i915 does */
	if (bar == GFXMEM_BAR) {
		snprintf(p, sizeof(p), "%s/resource%u_wc", l->dir, bar);
		fd = open_attr(p, O_RDWR, &why);
	}
	if (fd < 0) {
		snprintf(p, sizeof(p), "%s/resource%u", l->dir, bar);
		fd = open_attr(p, O_RDWR | O_SYNC, &why);
	}
	if (fd < 0) {
		int e = errno;
		if (e == EACCES || e == EPERM)
			return gtt_err_set(err, GTT_EPERM, "%s needs root: cannot open %s (%s); run gttlab as root",
					   l->bdf, p, why);
		return gtt_err_set(err, GTT_ENODEV, "cannot open %s: %s", p, why);
	}
	if (fstat(fd, &st) || st.st_size < 0) {
		close(fd);
		return gtt_err_set(err, GTT_EIO, "%s: cannot tell the size of BAR%u", p, bar);
	}
	if ((uint64_t)st.st_size < size) {
		close(fd);
		return gtt_err_set(err, GTT_EIO, "%s is %llu bytes, smaller than BAR%u (%llu bytes): accesses past its end would be lost",
				   p, (unsigned long long)st.st_size, bar, (unsigned long long)size);
	}
	if (size > SIZE_MAX) {
		close(fd);
		return gtt_err_set(err, GTT_EIO, "BAR%u (%llu bytes) does not fit the address space", bar,
				   (unsigned long long)size);
	}
	void *m = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int e = errno;
	close(fd);
	if (m == MAP_FAILED)
		return gtt_err_set(err, e == EACCES || e == EPERM ? GTT_EPERM : GTT_EIO,
				   "cannot mmap %s: %s", p, strerror(e));
	*out = m;
	*len = (size_t)size;
	return GTT_OK;
}

/* libpci calls its error callback on an unaligned access; PCIe config space is 4 KiB. */
static bool cfg_access_ok(unsigned off, unsigned width)
{
	return (width == 1 || width == 2 || width == 4) && off % width == 0 && off <= 4096 - width;
}

static int lx_cfg_read(void *ctx, unsigned off, unsigned width, uint32_t *val)
{
	struct lx *l = ctx;

	if (!cfg_access_ok(off, width))
		return GTT_EINVAL;
	switch (width) {
	case 1: *val = pci_read_byte(l->pdev, (int)off); return GTT_OK;
	case 2: *val = pci_read_word(l->pdev, (int)off); return GTT_OK;
	case 4: *val = pci_read_long(l->pdev, (int)off); return GTT_OK;
	}
	return GTT_EINVAL;
}

static int lx_cfg_write(void *ctx, unsigned off, unsigned width, uint32_t val)
{
	struct lx *l = ctx;
	int ok = 0;

	if (!cfg_access_ok(off, width))
		return GTT_EINVAL;
	switch (width) {
	case 1: ok = pci_write_byte(l->pdev, (int)off, (u8)val); break;
	case 2: ok = pci_write_word(l->pdev, (int)off, (u16)val); break;
	case 4: ok = pci_write_long(l->pdev, (int)off, val); break;
	}
	return ok ? GTT_OK : GTT_EIO;
}

/*
 * Whether a naturally aligned access of `width` bytes at `off` lies inside
 * BAR0. The sum is taken in 64 bits: off + 4 in 32 bits wraps near 4 GiB
 * and would pass. The hardware decodes only aligned dwords and qwords, and a
 * misaligned access through the mapping is undefined in C, so those are out too.
 */
static bool mmio_ok(const struct lx *l, uint32_t off, uint64_t width)
{
	return off % width == 0 && (uint64_t)off + width <= l->bar0_len;
}

static uint32_t lx_read32(void *ctx, uint32_t off)
{
	struct lx *l = ctx;

	if (!mmio_ok(l, off, 4))
		return 0xffffffffu;
	return *(volatile uint32_t *)(l->bar0 + off);
}

static void lx_write32(void *ctx, uint32_t off, uint32_t v)
{
	struct lx *l = ctx;

	if (mmio_ok(l, off, 4))
		*(volatile uint32_t *)(l->bar0 + off) = v;
}

static uint64_t lx_read64(void *ctx, uint32_t off)
{
	struct lx *l = ctx;

	if (!mmio_ok(l, off, 8))
		return ~0ull;
	return *(volatile uint64_t *)(l->bar0 + off);
}

static void lx_write64(void *ctx, uint32_t off, uint64_t v)
{
	struct lx *l = ctx;

	if (mmio_ok(l, off, 8))
		*(volatile uint64_t *)(l->bar0 + off) = v;	/* one writeq, as gen8_set_pte */
}

static void lx_pte_bulk(void *ctx, uint32_t off, const uint64_t *ptes, size_t n, unsigned pte_size)
{
	struct lx *l = ctx;

	if ((pte_size != 4 && pte_size != 8) || !mmio_ok(l, off, pte_size) ||
	    n > (l->bar0_len - off) / pte_size)
		return;
	for (size_t i = 0; i < n; i++, off += pte_size) {
		if (pte_size == 8)
			*(volatile uint64_t *)(l->bar0 + off) = ptes[i];
		else
			*(volatile uint32_t *)(l->bar0 + off) = (uint32_t)ptes[i];
	}
}

static void lx_pte_read_bulk(void *ctx, uint32_t off, uint64_t *ptes, size_t n, unsigned pte_size)
{
	struct lx *l = ctx;
	bool ok = (pte_size == 4 || pte_size == 8) && mmio_ok(l, off, pte_size) && n <= (l->bar0_len - off) / pte_size;

	for (size_t i = 0; i < n; i++, off += pte_size) {
		if (!ok)
			ptes[i] = pte_size == 8 ? ~0ull : 0xffffffffu;
		else if (pte_size == 8)
			ptes[i] = *(volatile uint64_t *)(l->bar0 + off);
		else
			ptes[i] = *(volatile uint32_t *)(l->bar0 + off);
	}
}

static int lx_ap_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct lx *l = ctx;

	if (off > l->bar2_len || len > l->bar2_len - off)
		return GTT_ERANGE;
	for (size_t i = 0; i < len; i++)
		((uint8_t *)buf)[i] = l->bar2[off + i];
	return GTT_OK;
}

static int lx_ap_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct lx *l = ctx;

	if (off > l->bar2_len || len > l->bar2_len - off)
		return GTT_ERANGE;
	for (size_t i = 0; i < len; i++)
		l->bar2[off + i] = ((const uint8_t *)buf)[i];
	__sync_synchronize();
	return GTT_OK;
}

static int lx_bar_info(void *ctx, unsigned bar, uint64_t *base, uint64_t *size)
{
	struct lx *l = ctx;

	if (bar >= 6 || !l->size[bar])
		return GTT_ENODEV;
	*base = l->base[bar];
	*size = l->size[bar];
	return GTT_OK;
}

static int lx_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	struct lx *l = ctx;
	long psz = sysconf(_SC_PAGESIZE);
	int fd;

	size_t slot = 0;
	while (slot < 64 && l->maps[slot].base)
		slot++;
	if (slot == 64)
		return gtt_err_set(err, GTT_ENOMEM, "linux backend: 64 test-page allocations are outstanding");
	if (!n || n > SIZE_MAX / 4096)
		return gtt_err_set(err, GTT_EINVAL, "cannot allocate %zu test pages", n);
	void *m = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	if (m == MAP_FAILED)
		return gtt_err_set(err, GTT_ENOMEM, "cannot map %zu locked test pages: %s", n, strerror(errno));
	memset(m, 0, n * 4096);
	if (psz != 4096 || (fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC)) < 0) {
		munmap(m, n * 4096);
		return gtt_err_set(err, GTT_EIO, "cannot read /proc/self/pagemap: %s", strerror(errno));
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t ent = 0;
		uintptr_t va = (uintptr_t)m + i * 4096;
		if (pread(fd, &ent, 8, (off_t)(va / 4096 * 8)) != 8 || !(ent >> 63) || !(ent & ((1ull << 55) - 1))) {
			close(fd);
			munmap(m, n * 4096);
			return gtt_err_set(err, GTT_EPERM, "no physical address for test page %zu in /proc/self/pagemap (needs root)", i);
		}
		pages[i].phys = (ent & ((1ull << 55) - 1)) * 4096;
		pages[i].cpu = (void *)va;
	}
	close(fd);
	l->maps[slot].base = m;
	l->maps[slot].n = n;
	return GTT_OK;
}

static void lx_free_pages(void *ctx, size_t n, struct hw_page *pages)
{
	struct lx *l = ctx;

	(void)n;
	for (size_t i = 0; i < 64; i++) {
		if (!l->maps[i].base || (pages && pages[0].cpu != l->maps[i].base))
			continue;
		munmap(l->maps[i].base, l->maps[i].n * 4096);
		l->maps[i].base = NULL;
	}
}

/*
 * Test pages are ordinary write-back memory; the GGTT maps them uncached, so
 * the GPU side and the aperture reach DRAM and miss what sits in the CPU's
 * caches (i915 clflushes objects it maps uncached for the same reason:
 * drm_clflush_sg). Every line of every test page is flushed (written back
 * and invalidated) around each device-side access.
 */
static void lx_cache_sync(void *ctx)
{
	struct lx *l = ctx;

#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("mfence" ::: "memory");
	for (size_t i = 0; i < 64; i++)
		for (size_t off = 0; l->maps[i].base && off < l->maps[i].n * 4096; off += 64)
			__asm__ volatile("clflush %0" : "+m"(*(volatile char *)((char *)l->maps[i].base + off)));
	__asm__ volatile("mfence" ::: "memory");
#else
	(void)l;
	__sync_synchronize();
#endif
}

static void lx_close(void *ctx)
{
	struct lx *l = ctx;

	lx_free_pages(l, 0, NULL);
	if (l->bar0)
		munmap((void *)l->bar0, l->bar0_len);
	if (l->bar2)
		munmap((void *)l->bar2, l->bar2_len);
	/* pci_get_dev's device is not on the access's list, so pci_cleanup would not free it */
	if (l->pdev)
		pci_free_dev(l->pdev);
	if (l->pacc)
		pci_cleanup(l->pacc);
	free(l);
}

static int lx_location(void *ctx, char *spec, size_t n)
{
	struct lx *l = ctx;
	int len = snprintf(spec, n, "pci:%s", l->bdf);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

static const struct hw_backend_ops linux_ops = {
	.name = "linux",
	.cfg_read = lx_cfg_read,
	.cfg_write = lx_cfg_write,
	.mmio_read32 = lx_read32,
	.mmio_write32 = lx_write32,
	.mmio_read64 = lx_read64,
	.mmio_write64 = lx_write64,
	.pte_write_bulk = lx_pte_bulk,
	.pte_read_bulk = lx_pte_read_bulk,
	.aperture_read = lx_ap_read,
	.aperture_write = lx_ap_write,
	.bar_info = lx_bar_info,
	.alloc_pages = lx_alloc_pages,
	.free_pages = lx_free_pages,
	.cache_sync = lx_cache_sync,
	.location = lx_location,
	.close = lx_close,
};

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
		if (!sysfs_entry_ok(dirp, false, why, sizeof(why)))
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
	if (!sysfs_entry_ok(l->dir, true, why, sizeof(why)) || !attr_ok(l->dir, "config", why, sizeof(why))) {
		rc = gtt_err_set(err, GTT_ENODEV, "%s: cannot use %s", l->bdf, why);
		goto fail;
	}
	const char *drv = bound_driver(l->dir, drvbuf, sizeof(drvbuf));
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
	read_hex_file(l->dir, "vendor", &vendor);
	read_hex_file(l->dir, "class", &klass);
	if (vendor != PCI_VENDOR_ID_INTEL || (klass >> 16) != PCI_BASE_CLASS_DISPLAY) {
		rc = gtt_err_set(err, GTT_ENODEV, "%s is vendor 0x%04lx class 0x%06lx, not an Intel display device",
				 l->bdf, vendor, klass);
		goto fail;
	}
	if ((rc = map_bar(l, GTTMMADR_BAR, &l->bar0, &l->bar0_len, err)) ||
	    (rc = map_bar(l, GFXMEM_BAR, &l->bar2, &l->bar2_len, err)))
		goto fail;
	*ops = &linux_ops;
	*ctx = l;
	return GTT_OK;
fail:
	lx_close(l);
	return rc;
}

static int lx_open_pci(const struct gtt_env *env, const char *arg, const struct hw_open_opts *opts,
		       const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	return lx_open_common(env, arg, false, opts, ops, ctx, err);
}

static int lx_open_auto(const struct gtt_env *env, const char *arg, const struct hw_open_opts *opts,
			const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	if (*arg)
		return gtt_err_set(err, GTT_EINVAL, "device 'auto:%s': auto takes no argument", arg);
	return lx_open_common(env, arg, true, opts, ops, ctx, err);
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
