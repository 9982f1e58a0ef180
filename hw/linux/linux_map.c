/* SPDX-License-Identifier: MIT */
/* Mapping BAR0 and BAR2 through their sysfs resource files. */
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
 * Map BARn through its sysfs resource file. The file must cover the whole BAR
 * as the resource file gives it: a shorter one (a broken or fake tree) would
 * swallow every access past its end, so it is refused before anything is
 * written.
 */
int lx_map_bar(struct lx *l, unsigned bar, volatile uint8_t **out, size_t *len, struct gtt_err *err)
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
		fd = lx_open_attr(p, O_RDWR, &why);
	}
	if (fd < 0) {
		snprintf(p, sizeof(p), "%s/resource%u", l->dir, bar);
		fd = lx_open_attr(p, O_RDWR | O_SYNC, &why);
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
