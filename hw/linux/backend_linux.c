/* SPDX-License-Identifier: MIT */
/* The linux backend's operations table: config space through libpci, BAR0 and BAR2 through their mappings. */
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

/*
 * One pass over the entries and the mirror: four entries compared a branch,
 * and where all four differ (a switch between two vGPUs, where every entry
 * does) four 8-byte stores; otherwise one entry at a time. Each store to the
 * BAR is one access of the PTE's size, as lx_pte_bulk's: never a wider burst
 * (i915 found 64-byte write-combined bursts to lose PTE writes on gen9 LP
 * and gen10+). The loop stores only to the BAR: held is the caller's to
 * bring level (hw/ggtt.c).
 */
static size_t lx_pte_changed(void *ctx, uint32_t off, const uint64_t *p, const uint64_t *held, size_t n,
			     unsigned pte_size)
{
	struct lx *l = ctx;
	size_t k = 0, w = 0;

	if ((pte_size != 4 && pte_size != 8) || !mmio_ok(l, off, pte_size) || n > (l->bar0_len - off) / pte_size)
		return 0;
	if (pte_size == 8) {
		volatile uint64_t *g = (volatile uint64_t *)(l->bar0 + off);
		for (; k + 4 <= n; k += 4) {
			uint64_t a0 = p[k], a1 = p[k + 1], a2 = p[k + 2], a3 = p[k + 3];
			if ((a0 != held[k]) & (a1 != held[k + 1]) & (a2 != held[k + 2]) & (a3 != held[k + 3])) {
				g[k] = a0, g[k + 1] = a1, g[k + 2] = a2, g[k + 3] = a3;
				w += 4;
				continue;
			}
			for (size_t j = k; j < k + 4; j++)
				if (p[j] != held[j])
					g[j] = p[j], w++;
		}
		for (; k < n; k++)
			if (p[k] != held[k])
				g[k] = p[k], w++;
	} else {
		volatile uint32_t *g = (volatile uint32_t *)(l->bar0 + off);
		for (; k < n; k++)
			if (p[k] != held[k])
				g[k] = (uint32_t)p[k], w++;
	}
	return w;
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

void lx_close(void *ctx)
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

const struct hw_backend_ops lx_linux_ops = {
	.name = "linux",
	.cfg_read = lx_cfg_read,
	.cfg_write = lx_cfg_write,
	.mmio_read32 = lx_read32,
	.mmio_write32 = lx_write32,
	.mmio_read64 = lx_read64,
	.mmio_write64 = lx_write64,
	.pte_write_bulk = lx_pte_bulk,
	.pte_read_bulk = lx_pte_read_bulk,
	.pte_write_changed = lx_pte_changed,
	.aperture_read = lx_ap_read,
	.aperture_write = lx_ap_write,
	.bar_info = lx_bar_info,
	.alloc_pages = lx_alloc_pages,
	.free_pages = lx_free_pages,
	.adopt_pages = lx_adopt_pages,
	.cache_sync = lx_cache_sync,
	.location = lx_location,
	.close = lx_close,
};
