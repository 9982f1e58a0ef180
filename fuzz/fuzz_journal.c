/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the crash journal's reader and replay
 * (hw/journal.h): the input is a journal file as `gttlab restore` would read
 * it. hw_journal_scan must accept or refuse it without reading outside it;
 * what it accepts is replayed onto a simulated Skylake (given a location, as
 * a real device has), which must not crash whatever the records hold
 * (offsets beyond the BARs, the GSM or the aperture, widths, lengths). The
 * device is opened afresh every 64 inputs so the model's sparse memory,
 * which hostile PTEs grow, stays bounded.
 *
 * Invariants: the scan is the same twice; the bytes it counts are within
 * the input; a journal it refuses is not replayed (replay refuses it too,
 * with the same code).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/device.h"
#include "hw/journal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int location(void *ctx, char *spec, size_t n)
{
	(void)ctx;
	return snprintf(spec, n, "pci:0000:00:02.0") >= (int)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct hw_device *dev;
	static struct hw_backend_ops ops;
	static unsigned uses;
	struct hw_journal_info a, b;
	struct gtt_err err = { 0 };

	if (!dev || ++uses % 64 == 0) {
		hw_close(dev);
		dev = NULL;
		if (hw_open(gtt_env_posix(GTT_LOG_ERROR), "sim:skl", gtt_posix_backends, gtt_num_posix_backends, NULL, &dev,
			    &err)) {
			fprintf(stderr, "fuzz_journal: cannot open sim:skl: %s\n", err.msg);
			abort();
		}
		ops = *dev->ops;
		ops.location = location;
		dev->ops = &ops;
	}
	int rc = hw_journal_scan(data, size, &a, &err);
	if (hw_journal_scan(data, size, &b, &err) != rc)
		abort();
	if (!rc && (a.bytes > size || a.records != b.records || a.records < 1))
		abort();
	int r2 = hw_journal_replay(dev, data, size, &b, &err);
	if (rc && r2 != rc)
		abort();
	return 0;
}
