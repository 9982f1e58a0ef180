/* SPDX-License-Identifier: MIT */
/*
 * The linux backend: a real GPU through sysfs. Config space and discovery
 * through libpci (pciutils), BAR0 and BAR2 by mmap of the sysfs resource0 and
 * resource2 files, test pages from mlock'ed memory with physical addresses
 * from /proc/self/pagemap. Refuses a device bound to i915 unless told.
 */
#ifndef HW_LINUX_BACKEND_LINUX_H
#define HW_LINUX_BACKEND_LINUX_H

#include "hw/backend.h"

/* "pci:DDDD:BB:DD.F" */
extern const struct hw_backend_factory hw_linux_pci_backend;
/* "auto": the first Intel display-class device, 0000:00:02.0 preferred */
extern const struct hw_backend_factory hw_linux_auto_backend;

#endif
