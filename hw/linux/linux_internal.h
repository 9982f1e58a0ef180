/* SPDX-License-Identifier: MIT */
/*
 * The linux backend's own parts, shared by its files: the open device's
 * state and the functions one file gives another. Discovery and opening
 * (linux_discover.c), the checks of what libpci can read in sysfs
 * (linux_sysfs.c), mapping the BARs (linux_map.c), test pages
 * (linux_pages.c) and the operations table (backend_linux.c).
 */
#ifndef HW_LINUX_LINUX_INTERNAL_H
#define HW_LINUX_LINUX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hw/backend.h"

/* libpci builds "ROOT/devices/BDF/FILE" in 1024 bytes; leave room for BDF and FILE. */
#define PCI_ROOT_MAX		512

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
	struct { void *base; size_t n; bool adopted; } maps[64];	/* test pages: mlock'ed mappings (adopted: the caller's) */
};

/* linux_sysfs.c */
int lx_open_attr(const char *path, int flags, const char **why);
bool lx_attr_ok(const char *dir, const char *file, char *why, size_t n);
bool lx_sysfs_entry_ok(const char *dir, bool resources, char *why, size_t n);
int lx_read_hex_file(const char *dir, const char *file, unsigned long *v);
const char *lx_bound_driver(const char *dir, char *buf, size_t n);

/* linux_map.c */
int lx_map_bar(struct lx *l, unsigned bar, volatile uint8_t **out, size_t *len, struct gtt_err *err);

/* linux_pages.c */
int lx_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err);
void lx_free_pages(void *ctx, size_t n, struct hw_page *pages);
int lx_adopt_pages(void *ctx, size_t n, void *cpu, struct hw_page *pages, struct gtt_err *err);
void lx_cache_sync(void *ctx);

/* backend_linux.c */
extern const struct hw_backend_ops lx_linux_ops;
void lx_close(void *ctx);

#endif
