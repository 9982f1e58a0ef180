/* SPDX-License-Identifier: MIT */
/*
 * P3 on the product's own path: the same switch as P3 (two vGPUs on the
 * same 64 MiB low range and five 64 MiB slots, 98,304 entries that differ)
 * through the linux backend, on a fake device whose BAR files lie on tmpfs
 * (/dev/shm; the tree tests/lib/fake_sysfs.sh makes: a Skylake at 0000:00:02.0,
 * 8 MiB of GSM, a 256 MiB aperture). The backend maps resource0 as it would
 * a GPU's, so a PTE store is a store to memory: what is measured is the
 * runtime and the backend, not an emulation. Measured as P3 is
 * (bench_p3_measure).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "env/env_posix.h"
#include "hosted/backends.h"

/* The fake Skylake under root, made by tests/lib/fake_sysfs.sh's fake_device (the bench runs from the tree's top). */
static void fake_tree(const char *root)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "bash -c '. tests/lib/fake_sysfs.sh && fake_device \"$0\" 0000:00:02.0 0x8086 0x1912 0x030000 gpu 256' '%s'", root);
	if (system(cmd))
		bench_die("P3 linux: tests/lib/fake_sysfs.sh could not make the fake device under %s", root);
}

void bench_p3_linux(const struct bench_opts *o, struct bench_results *r)
{
	char root[] = "/dev/shm/gttlab-bench-XXXXXX", cmd[400];
	struct hw_open_opts opts = { .sysfs_root = root };
	struct gtt_err err = { 0 };
	struct bench_dev b = { 0 };

	if (!mkdtemp(root))
		bench_die("P3 linux: no tmpfs directory under /dev/shm");
	fake_tree(root);
	if (hw_open(gtt_env_posix(GTT_LOG_WARN), "pci:0000:00:02.0", gtt_posix_backends, gtt_num_posix_backends, &opts,
		    &b.dev, &err))
		bench_die("P3 linux: opening the fake device: %s", err.msg);
	bench_start_runtime(&b, NULL);
	bench_p3_measure(&b, o->quick ? 9 : 41, &r->p3_linux);
	bench_close(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		bench_note("P3 linux: could not remove %s", root);
}
