/* SPDX-License-Identifier: MIT */
/* The reporters' types (checks/report.h): the sink they write through, what a report says of its run, the formats. */
#ifndef CHECKS_REPORT_TYPES_H
#define CHECKS_REPORT_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "checks/firmware_policy.h"

struct report_sink {
	void (*write)(void *ctx, const char *s, size_t n);
	void *ctx;
};

struct report_info {
	const char *device;		/* where the run was: the device string, or what auto found (pci:SSSS:BB:DD.F) */
	const char *platform;		/* short platform name */
	const char *kind;		/* what the device is: simulated, a vGPU, a pv guest, hardware (hw_device_kind) */
	uint64_t seed;
	uint64_t start_s, end_s;	/* wall-clock seconds of the run, 0 when unknown */
	const struct fw_policy *firmware;	/* the Secure Boot policy the run was taken under; NULL: not read */
	uint16_t pci_device;		/* real hardware's PCI device id (vendor 0x8086); 0 for the model and vGPUs */
};

enum report_format { REPORT_HUMAN, REPORT_TAP, REPORT_JUNIT, REPORT_IGT_JSON };

#endif
