/* SPDX-License-Identifier: MIT */
/*
 * IGT's device filters (igt-gpu-tools lib/igt_device_scan.c, the IGT_DEVICE
 * variable and --device), read into gttlab's device string, so that a lab
 * selects the GPU of a gttlab binary the way it selects every other IGT
 * test's:
 *
 *   sys:/sys/devices/pci0000:00/0000:00:02.0[/drm/card0]   the PCI function in the path
 *   pci:slot=0000:00:02.0                                    that PCI function
 *   pci:[vendor=8086|intel][,device=ID|integrated|discrete][,card=N]
 *                                  the Nth display-class PCI function (0 first, in PCI order) with
 *                                  that vendor and device id; integrated is 0000:00:02.0
 *   drm:/dev/dri/cardN             the PCI function behind that DRM node
 *
 * Everything is read from sysfs under a root (GTTLAB_SYSFS_ROOT in tests), never from a device.
 * gttlab runs on one device: card=all is refused, as are IGT's codenames (use the PCI id).
 */
#ifndef IGT_TESTS_IGT_DEVICE_FILTER_H
#define IGT_TESTS_IGT_DEVICE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

enum igt_filter_result {
	IGT_FILTER_FOUND,	/* DEV holds "pci:SSSS:BB:DD.F" */
	IGT_FILTER_NO_DEVICE,	/* a valid filter that no Intel GPU here matches: a requirement not met (skip) */
	IGT_FILTER_MALFORMED,	/* not a filter IGT or gttlab reads: the lab's configuration error (fail) */
};

/* Whether S is written in IGT's filter syntax (sys:, drm:, or pci: with key=value) rather than gttlab's. */
bool igt_filter_is(const char *s);

/*
 * FILTER resolved against the sysfs tree at SYSFS_ROOT (NULL: /sys) into DEV (N bytes). On
 * anything but IGT_FILTER_FOUND, WHY (WN bytes) says what was wrong or what was looked at.
 */
enum igt_filter_result igt_filter_resolve(const char *filter, const char *sysfs_root, char *dev, size_t n,
					  char *why, size_t wn);

#endif
