/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the linux backend (hw/linux/backend_linux.c) on a
 * hostile sysfs tree. Each input builds a fake tree under a per-process
 * temporary directory, the way tests/hw/test_linux_backend.c does, then opens
 * "auto" or "pci:..." on it with hw_open and closes it. Whatever the tree
 * holds, the open must come back with a device or an error: never a crash,
 * a hang or an exit. libpci's error callback in the backend ends the process
 * with _exit(2); this harness replaces _exit while the backend runs so such
 * an exit aborts instead, and libFuzzer keeps the input that caused it.
 *
 * The input is read as a stream of choices; a zero (or missing) byte always
 * means "as a real Skylake would have it", so short inputs build a working
 * device and every byte that is not zero breaks one thing:
 *
 *   header       bit 0: open pci:... (else auto); bit 1: allow i915;
 *                bits 3:2: driver link (none, i915, xe, vfio-pci);
 *                bit 4: an extra directory entry named by the input
 *   devices      1 to 3, each: its name, what kind of entry it is, and for
 *                vendor, device, class, resource and config a way to break
 *                the file (missing, a directory, a FIFO, raw bytes, 1 KiB or
 *                more, a symlink loop, /dev/null) or values XORed into the
 *                real contents; BAR sizes in the resource file; the sizes of
 *                resource0/resource2 (sparse, at most 16 MiB)
 *   device       for pci:, which entry's name (or raw bytes) to open
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/device.h"
#include "hw/fence.h"
#include "regs/pci_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MiB (1u << 20)

static char base[64];		/* the per-process directory; the tree is base/t */
static char root[80];
static volatile int in_backend;	/* _exit aborts while this is set */

/*
 * The backend's libpci error callback calls _exit(2), which would end the
 * fuzzer without a word. While the backend runs, an _exit is a finding.
 */
void _exit(int status)
{
	if (in_backend) {
		fprintf(stderr, "fuzz_sysfs: the backend tried to end the process (_exit(%d))\n", status);
		abort();
	}
	syscall(SYS_exit_group, status);
	__builtin_unreachable();
}

struct in {
	const uint8_t *p;
	size_t n;
};

static unsigned u8(struct in *in)
{
	if (!in->n)
		return 0;
	in->n--;
	return *in->p++;
}

static unsigned u16(struct in *in)
{
	return u8(in) | u8(in) << 8;
}

static unsigned u24(struct in *in)
{
	return u16(in) | u8(in) << 16;
}

/* Up to max bytes of the input, of a length the input gives. */
static size_t bytes(struct in *in, uint8_t *out, size_t max)
{
	size_t len = u8(in) % (max + 1);

	if (len > in->n)
		len = in->n;
	memcpy(out, in->p, len);
	in->p += len;
	in->n -= len;
	return len;
}

/* O_NONBLOCK: the input may have made this path a FIFO already; building the tree must not wait on it */
static void write_file(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);

	if (fd < 0)
		return;
	if (write(fd, buf, len) != (ssize_t)len)
		fprintf(stderr, "fuzz_sysfs: short write to %s\n", path);
	close(fd);
}

static void sparse_file(const char *path, off_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0644);

	if (fd < 0)
		return;
	if (ftruncate(fd, size))
		fprintf(stderr, "fuzz_sysfs: cannot size %s\n", path);
	close(fd);
}

/*
 * One file of a device: its real contents unless the mode byte says to break
 * it. The real contents are built by the caller into good/good_len.
 */
static void put(struct in *in, const char *dir, const char *name, const void *good, size_t good_len)
{
	char path[512], raw[64];
	static char big[1100];
	size_t len;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	switch (u8(in) % 12) {
	case 1:
		return;					/* missing */
	case 2:
		mkdir(path, 0755);			/* a directory */
		return;
	case 3:
		mkfifo(path, 0644);			/* never written: it would block us */
		return;
	case 4:
		len = bytes(in, (uint8_t *)raw, sizeof(raw));
		write_file(path, raw, len);
		return;
	case 5:
		memset(big, ' ', sizeof(big));	/* 1024 bytes or more: libpci refuses it */
		memcpy(big, good, good_len < sizeof(big) ? good_len : sizeof(big));
		write_file(path, big, sizeof(big) - (u8(in) % 80));
		return;
	case 6:
		if (symlink(name, path))		/* a loop */
			return;
		return;
	case 7:
		if (symlink("/dev/null", path))
			return;
		return;
	case 8:
		write_file(path, good, good_len ? good_len - 1 : 0);	/* truncated */
		return;
	default:
		write_file(path, good, good_len);
	}
}

/* A device entry's name: the kernel's spelling of an address, another spelling, or bytes. */
static void entry_name(struct in *in, char *name, size_t n)
{
	uint8_t raw[24];
	size_t len, k = 0;

	switch (u8(in) % 6) {
	case 1:
		snprintf(name, n, "%04x:%02x:%02x.%d", u8(in) % 3, u8(in), u8(in) % 32, u8(in) % 8);
		return;
	case 2:
		snprintf(name, n, "%x:%x:%x.%x", u8(in), u8(in), u8(in), u8(in));
		return;
	case 3:
		len = bytes(in, raw, sizeof(raw));
		for (size_t i = 0; i < len && k + 1 < n; i++)
			if (raw[i] && raw[i] != '/')
				name[k++] = (char)raw[i];
		name[k] = '\0';
		if (!k || !strcmp(name, ".") || !strcmp(name, ".."))
			snprintf(name, n, "x");
		return;
	default:
		snprintf(name, n, "0000:00:02.0");
	}
}

static uint64_t bar_size(unsigned sel, uint64_t good)
{
	static const uint64_t sizes[] = { 0, 4 * MiB, 16 * MiB, 8 * MiB, 1 * MiB, 2 * MiB, 256 * MiB, 4096, 32 * MiB,
					  12 * MiB, 0x1000001 };
	sel %= sizeof(sizes) / sizeof(sizes[0]) + 1;
	return sel ? sizes[sel - 1] : good;
}

static void build_device(struct in *in, const char *devs, char *name, size_t name_len)
{
	char dir[400], txt[1024], target[400];
	uint8_t cfg[256] = { 0 };

	entry_name(in, name, name_len);
	snprintf(dir, sizeof(dir), "%s/%s", devs, name);
	switch (u8(in) % 6) {
	case 1:
		write_file(dir, "", 0);			/* a file, not a directory */
		return;
	case 2:
		mkfifo(dir, 0644);
		return;
	case 3:
		if (symlink("nowhere", dir))		/* dangling */
			return;
		return;
	case 4:						/* a link to a directory elsewhere, as sysfs has */
		snprintf(target, sizeof(target), "%s/real-%s", root, name);
		if (mkdir(target, 0755) || symlink(target, dir))
			return;
		break;
	default:
		if (mkdir(dir, 0755))
			return;
	}

	uint16_t vendor = 0x8086 ^ u16(in), devid = 0x1912 ^ u16(in);
	uint32_t klass = 0x030000 ^ u24(in);
	snprintf(txt, sizeof(txt), "0x%04x\n", vendor);
	put(in, dir, "vendor", txt, strlen(txt));
	snprintf(txt, sizeof(txt), "0x%04x\n", devid);
	put(in, dir, "device", txt, strlen(txt));
	snprintf(txt, sizeof(txt), "0x%06x\n", klass);
	put(in, dir, "class", txt, strlen(txt));

	uint64_t bar0 = bar_size(u8(in), 16 * MiB), bar2 = bar_size(u8(in), 16 * MiB);
	snprintf(txt, sizeof(txt),
		 "0x00000000f0000000 0x%016llx 0x0000000000140204\n"
		 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		 "0x00000000c0000000 0x%016llx 0x000000000014220c\n"
		 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		 "0x000000000000f000 0x000000000000f03f 0x0000000000040101\n"
		 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		 "0x0000000000000000 0x0000000000000000 0x0000000000000000\n",
		 (unsigned long long)(0xf0000000ull + bar0 - 1), (unsigned long long)(0xc0000000ull + bar2 - 1));
	put(in, dir, "resource", txt, strlen(txt));

	cfg[0] = vendor & 0xff;
	cfg[1] = vendor >> 8;
	cfg[2] = devid & 0xff;
	cfg[3] = devid >> 8;
	cfg[PCI_CFG_COMMAND] = PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER;
	cfg[0x0a] = (klass >> 8) & 0xff;
	cfg[0x0b] = klass >> 16;
	uint32_t b0 = 0xf0000004, b2 = 0xc000000c;
	memcpy(cfg + PCI_CFG_BAR(0), &b0, 4);
	memcpy(cfg + PCI_CFG_BAR(2), &b2, 4);
	cfg[SNB_GMCH_CTRL] = 0xc0;		/* skl: GGMS 3 -> 8 MiB GSM */
	cfg[SNB_GMCH_CTRL + 1] = 0x01;		/* GMS 1 -> 32 MiB stolen */
	for (unsigned i = 0, n = u8(in) % 8; i < n; i++) {
		unsigned off = u8(in);
		cfg[off] ^= (uint8_t)u8(in);
	}
	put(in, dir, "config", cfg, sizeof(cfg));

	/* the BAR files: sparse, never more than 16 MiB; by default as large as the BAR */
	static const off_t file_sizes[] = { 0, 1 * MiB, 4096, 16 * MiB, 4 * MiB, 8 * MiB, 2 * MiB, 16 * MiB - 4096 };
	const char *files[] = { "resource0", "resource2" };
	uint64_t bars[] = { bar0, bar2 };
	for (int i = 0; i < 2; i++) {
		char path[512];
		unsigned sel = u8(in) % (sizeof(file_sizes) / sizeof(file_sizes[0]) + 3);
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		if (sel == 0)
			sparse_file(path, (off_t)(bars[i] <= 16 * MiB ? bars[i] : 16 * MiB));
		else if (sel == 2)
			mkfifo(path, 0644);
		else if (sel > 2)
			sparse_file(path, file_sizes[sel - 3]);
		/* sel == 1: missing */
	}
	if (u8(in) & 1) {			/* resource2_wc, the way a kernel with WC maps has it */
		char path[512];
		snprintf(path, sizeof(path), "%s/resource2_wc", dir);
		sparse_file(path, (off_t)(bar2 <= 16 * MiB ? bar2 : 16 * MiB));
	}
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void cleanup(void)
{
	if (base[0])
		rm_tree(base);
}

static int init(void)
{
	const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(base, sizeof(base), "%s/gttlab-fuzz-sysfs-XXXXXX", tmp);
	if (!mkdtemp(base))
		return -1;
	snprintf(root, sizeof(root), "%s/t", base);
	atexit(cleanup);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct in in = { data, size };
	char devs[256], names[3][32], path[512], spec[64];

	if (!ready) {
		if (init())
			abort();
		ready = true;
	}
	rm_tree(root);
	static const char *const dirs[] = { "", "/bus", "/bus/pci", "/bus/pci/devices", "/bus/pci/drivers" };
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", root, dirs[i]);
		if (mkdir(path, 0755))
			abort();	/* the tree was not cleaned */
	}
	snprintf(devs, sizeof(devs), "%s/bus/pci/devices", root);

	unsigned hdr = u8(&in);
	unsigned ndev = 1 + u8(&in) % 3;
	for (unsigned i = 0; i < ndev; i++)
		build_device(&in, devs, names[i], sizeof(names[i]));
	if (hdr & 0x0c) {
		static const char *const drivers[] = { "", "i915", "xe", "vfio-pci" };
		char link[512], target[128];
		snprintf(link, sizeof(link), "%s/%s/driver", devs, names[0]);
		snprintf(target, sizeof(target), "../../../../bus/pci/drivers/%s", drivers[(hdr >> 2) & 3]);
		if (symlink(target, link)) {
			/* the entry is not a directory: no link, which is fine */
		}
	}
	if (hdr & 0x10) {
		char junk[32];
		entry_name(&in, junk, sizeof(junk));
		snprintf(path, sizeof(path), "%s/%s", devs, junk);
		mkdir(path, 0755);
	}

	if (hdr & 1) {
		unsigned which = u8(&in);
		if (which % 4 == 3) {
			uint8_t raw[24];
			size_t len = bytes(&in, raw, sizeof(raw) - 1);
			raw[len] = '\0';
			snprintf(spec, sizeof(spec), "pci:%s", (char *)raw);
		} else {
			snprintf(spec, sizeof(spec), "pci:%s", names[which % 4 % ndev]);
		}
	} else {
		snprintf(spec, sizeof(spec), "auto");
	}

	struct hw_open_opts o = { .allow_i915 = hdr & 2, .sysfs_root = root };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	uint64_t v;
	in_backend = 1;
	int rc = hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, &o, &dev,
			 &err);
	if (!rc) {
		if (hw_fence_read(dev, 0, &v, &err))
			abort();
		hw_close(dev);
	} else if (!err.msg[0]) {
		fprintf(stderr, "fuzz_sysfs: %s failed (%d) without a reason\n", spec, rc);
		abort();
	}
	in_backend = 0;
	return 0;
}
