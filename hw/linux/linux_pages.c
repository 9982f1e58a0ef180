/* SPDX-License-Identifier: MIT */
/* Test pages: mlock'ed memory, physical addresses from /proc/self/pagemap, flushed around device-side accesses. */
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

/* Physical addresses of n mapped, locked pages at m from /proc/self/pagemap. */
static int phys_of(void *m, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (sysconf(_SC_PAGESIZE) != 4096 || fd < 0) {
		if (fd >= 0)
			close(fd);
		return gtt_err_set(err, GTT_EIO, "cannot read /proc/self/pagemap: %s", strerror(errno));
	}
	for (size_t i = 0; i < n; i++) {
		uint64_t ent = 0;
		uintptr_t va = (uintptr_t)m + i * 4096;
		if (pread(fd, &ent, 8, (off_t)(va / 4096 * 8)) != 8 || !(ent >> 63) || !(ent & ((1ull << 55) - 1))) {
			close(fd);
			return gtt_err_set(err, GTT_EPERM, "no physical address for test page %zu in /proc/self/pagemap (needs root)", i);
		}
		pages[i].phys = (ent & ((1ull << 55) - 1)) * 4096;
		pages[i].cpu = (void *)va;
	}
	close(fd);
	return GTT_OK;
}

static int free_slot(struct lx *l, struct gtt_err *err, size_t *slot)
{
	for (*slot = 0; *slot < 64; (*slot)++)
		if (!l->maps[*slot].base)
			return GTT_OK;
	return gtt_err_set(err, GTT_ENOMEM, "linux backend: 64 test-page allocations are outstanding");
}

int lx_adopt_pages(void *ctx, size_t n, void *cpu, struct hw_page *pages, struct gtt_err *err)
{
	struct lx *l = ctx;
	size_t slot;
	int rc;

	if (!n || n > SIZE_MAX / 4096 || (uintptr_t)cpu % 4096)
		return gtt_err_set(err, GTT_EINVAL, "cannot take %zu pages at %p as test pages (4 KiB aligned)", n, cpu);
	if ((rc = free_slot(l, err, &slot)))
		return rc;
	/* resident and locked: the device may reach them at any time, at the addresses said now */
	if (mlock(cpu, n * 4096))
		return gtt_err_set(err, GTT_ENOMEM, "cannot lock %zu pages of the caller's: %s", n, strerror(errno));
	if ((rc = phys_of(cpu, n, pages, err))) {
		munlock(cpu, n * 4096);
		return rc;
	}
	l->maps[slot].base = cpu;
	l->maps[slot].n = n;
	l->maps[slot].adopted = true;
	return GTT_OK;
}

int lx_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	struct lx *l = ctx;
	size_t slot;
	int rc;

	if ((rc = free_slot(l, err, &slot)))
		return rc;
	if (!n || n > SIZE_MAX / 4096)
		return gtt_err_set(err, GTT_EINVAL, "cannot allocate %zu test pages", n);
	void *m = mmap(NULL, n * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_LOCKED, -1, 0);
	if (m == MAP_FAILED)
		return gtt_err_set(err, GTT_ENOMEM, "cannot map %zu locked test pages: %s", n, strerror(errno));
	memset(m, 0, n * 4096);
	if ((rc = phys_of(m, n, pages, err))) {
		munmap(m, n * 4096);
		return rc;
	}
	l->maps[slot].base = m;
	l->maps[slot].n = n;
	return GTT_OK;
}

void lx_free_pages(void *ctx, size_t n, struct hw_page *pages)
{
	struct lx *l = ctx;

	(void)n;
	for (size_t i = 0; i < 64; i++) {
		if (!l->maps[i].base || (pages && pages[0].cpu != l->maps[i].base))
			continue;
		if (l->maps[i].adopted)
			munlock(l->maps[i].base, l->maps[i].n * 4096);	/* the caller's: only the lock was ours */
		else
			munmap(l->maps[i].base, l->maps[i].n * 4096);
		l->maps[i].base = NULL;
		l->maps[i].adopted = false;
	}
}

/*
 * Test pages are ordinary write-back memory; the GGTT maps them uncached, so
 * the GPU side and the aperture reach DRAM and miss what sits in the CPU's
 * caches (i915 clflushes objects it maps uncached for the same reason:
 * drm_clflush_sg). Every line of every test page is flushed (written back
 * and invalidated) around each device-side access.
 */
void lx_cache_sync(void *ctx)
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
