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

int lx_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
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

void lx_free_pages(void *ctx, size_t n, struct hw_page *pages)
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
