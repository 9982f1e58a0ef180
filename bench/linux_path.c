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
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/bench.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/raw_access.h"

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
	/*
	 * The floor's own mapping of the same BAR file, as the backend maps it
	 * (MAP_SHARED, the same tmpfs pages): its stores land where the
	 * switch's do, so the two are measured on the same memory.
	 */
	char bar[200];
	snprintf(bar, sizeof(bar), "%s/bus/pci/devices/0000:00:02.0/resource0", root);
	int fd = open(bar, O_RDWR | O_SYNC);
	size_t len = (size_t)b.dev->info.bar0_size;
	void *m = fd < 0 ? MAP_FAILED : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (m == MAP_FAILED)
		bench_die("P3 linux: cannot map %s for the store floor", bar);
	bench_p3_measure(&b, o->quick ? 9 : 41, (volatile uint64_t *)((char *)m + hw_ggtt_pte_offset(b.dev, 0)),
			 &r->p3_linux);
	munmap(m, len);
	close(fd);
	bench_close(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		bench_note("P3 linux: could not remove %s", root);
}
