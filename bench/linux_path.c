/* SPDX-License-Identifier: MIT */
/*
 * P3 on the product's own path: the same switch as P3 (two vGPUs on the
 * same 64 MiB low range and five 64 MiB slots, 98,304 entries that differ)
 * through the linux backend, on a fake device whose BAR files lie on tmpfs
 * (/dev/shm; the tree tests/fake_sysfs.sh makes: a Skylake at 0000:00:02.0,
 * 8 MiB of GSM, a 256 MiB aperture). The backend maps resource0 as it would
 * a GPU's, so a PTE store is a store to memory: what is measured is the
 * runtime and the backend, not an emulation. Measured as P3 is
 * (bench_p3_measure).
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "env/env_posix.h"
#include "harness/backends.h"

static void put(const char *dir, const char *file, const void *data, size_t n)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0 || write(fd, data, n) != (ssize_t)n || close(fd))
		bench_die("P3 linux: writing %s", p);
}

static void sized(const char *dir, const char *file, off_t size)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_CREAT | O_RDWR | O_TRUNC, 0644);
	if (fd < 0 || ftruncate(fd, size) || close(fd))
		bench_die("P3 linux: sizing %s", p);
}

/* The fake Skylake (tests/fake_sysfs.sh's fake_device, gpu kind, 256 MiB aperture) under root. */
static void fake_tree(const char *root, char *dev, size_t n)
{
	static const char res[] =
		"0x00000000f0000000 0x00000000f0ffffff 0x0000000000140204\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x00000000c0000000 0x00000000cfffffff 0x000000000014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x000000000000f000 0x000000000000f03f 0x0000000000040101\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	uint8_t cfg[256] = { 0 };
	char p[400];

	snprintf(dev, n, "%s/bus/pci/devices/0000:00:02.0", root);
	snprintf(p, sizeof(p), "mkdir -p '%s'", dev);
	if (system(p))
		bench_die("P3 linux: cannot make %s", dev);
	cfg[0] = 0x86, cfg[1] = 0x80, cfg[2] = 0x12, cfg[3] = 0x19;	/* 8086:1912 */
	cfg[4] = 0x06;
	cfg[10] = 0x00, cfg[11] = 0x03;					/* VGA */
	cfg[16] = 0x04, cfg[19] = 0xf0;					/* BAR0 0xf0000004 */
	cfg[24] = 0x0c, cfg[27] = 0xc0;					/* BAR2 0xc000000c */
	cfg[80] = 0xc0, cfg[81] = 0x01;					/* GGMS 3, GMS 1 */
	put(dev, "config", cfg, sizeof(cfg));
	put(dev, "vendor", "0x8086\n", 7);
	put(dev, "device", "0x1912\n", 7);
	put(dev, "class", "0x030000\n", 9);
	put(dev, "resource", res, sizeof(res) - 1);
	sized(dev, "resource0", 16 << 20);
	sized(dev, "resource2", 256 << 20);
}

void bench_p3_linux(const struct bench_opts *o, struct bench_results *r)
{
	char root[] = "/dev/shm/gttlab-bench-XXXXXX", dev[320], cmd[400];
	struct hw_open_opts opts = { .sysfs_root = root };
	struct gtt_err err = { 0 };
	struct bench_dev b = { 0 };

	if (!mkdtemp(root))
		bench_die("P3 linux: no tmpfs directory under /dev/shm");
	fake_tree(root, dev, sizeof(dev));
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
