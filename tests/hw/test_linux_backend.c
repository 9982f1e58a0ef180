/* SPDX-License-Identifier: MIT */
/*
 * The linux backend on a fake sysfs tree: plain files for config, vendor,
 * device, class and resource, and regular files standing in for the BARs'
 * resource0/resource2, so every register write can be checked in the file.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hosted/journal_file.h"
#include "checks/runner.h"
#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/journal.h"
#include "hw/pte.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"
#include "tests/helpers.h"
#include "tests/scanout_layout.h"

static char root[64];

static void put(const char *dir, const char *file, const void *data, size_t len)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	FILE *f = fopen(p, "wb");
	cr_assert(f && fwrite(data, 1, len, f) == len && !fclose(f), "writing %s", p);
}

static void sized(const char *dir, const char *file, off_t size)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", dir, file);
	int fd = open(p, O_CREAT | O_RDWR | O_TRUNC, 0644);
	cr_assert(fd >= 0 && !ftruncate(fd, size) && !close(fd));
}

/* A device directory; an Intel GPU gets GMCH, BARs and resource files. */
static void fake_device(const char *bdf, uint16_t vendor, uint16_t devid, uint32_t klass, bool gpu)
{
	char dir[256], txt[320];
	uint8_t cfg[256] = { 0 };

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", root, bdf);
	snprintf(txt, sizeof(txt), "mkdir -p %s", dir);
	cr_assert_eq(system(txt), 0);
	cfg[0] = vendor & 0xff; cfg[1] = vendor >> 8;
	cfg[2] = devid & 0xff; cfg[3] = devid >> 8;
	cfg[PCI_CFG_COMMAND] = PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER;
	cfg[0x0a] = (klass >> 8) & 0xff; cfg[0x0b] = klass >> 16;
	snprintf(txt, sizeof(txt), "0x%04x\n", vendor); put(dir, "vendor", txt, strlen(txt));
	snprintf(txt, sizeof(txt), "0x%04x\n", devid); put(dir, "device", txt, strlen(txt));
	snprintf(txt, sizeof(txt), "0x%06x\n", klass); put(dir, "class", txt, strlen(txt));
	if (!gpu) {
		put(dir, "config", cfg, sizeof(cfg));
		put(dir, "resource", "", 0);
		return;
	}
	uint32_t bar0 = 0xf0000004, bar2 = 0xc000000c;
	memcpy(cfg + PCI_CFG_BAR(0), &bar0, 4);
	memcpy(cfg + PCI_CFG_BAR(2), &bar2, 4);
	cfg[SNB_GMCH_CTRL] = 0xc0;	/* skl: GGMS 3 (bits 7:6) -> 8 MiB GSM */
	cfg[SNB_GMCH_CTRL + 1] = 0x01;	/* GMS 1 (bits 15:8) -> 32 MiB stolen */
	put(dir, "config", cfg, sizeof(cfg));
	const char *res =
		"0x00000000f0000000 0x00000000f0ffffff 0x0000000000140204\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x00000000c0000000 0x00000000cfffffff 0x000000000014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x000000000000f000 0x000000000000f03f 0x0000000000040101\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	put(dir, "resource", res, strlen(res));
	sized(dir, "resource0", 16 << 20);
	sized(dir, "resource2", 256 << 20);
}

static void make_tree(void)
{
	t_tmpdir(root, sizeof(root));
	fake_device("0000:00:01.0", 0x10de, 0x1c82, 0x030000, false);	/* another vendor's GPU first */
	fake_device("0000:00:02.0", 0x8086, 0x1912, 0x030000, true);
	fake_device("0000:00:1f.0", 0x8086, 0xa149, 0x060100, false);	/* Intel, not display */
}

static void cleanup(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	cr_expect_eq(system(cmd), 0, "%s", cmd);
}

static int lx_open(const char *spec, bool allow, struct hw_device **dev, struct gtt_err *err)
{
	struct hw_open_opts o = { .allow_i915 = allow, .sysfs_root = root };
	return hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, &o, dev, err);
}

static uint64_t file_u64(const char *file, off_t off, int width)
{
	char p[512];
	uint64_t v = 0;
	snprintf(p, sizeof(p), "%s/bus/pci/devices/0000:00:02.0/%s", root, file);
	int fd = open(p, O_RDONLY);
	cr_assert(fd >= 0 && pread(fd, &v, (size_t)width, off) == width && !close(fd));
	return v;
}

TestSuite(linux_backend, .init = make_tree, .fini = cleanup);

Test(linux_backend, detects_the_device_from_sysfs)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_expect_str_eq(dev->ops->name, "linux");
	cr_expect_eq(dev->info.devid, 0x1912);
	cr_expect_str_eq(dev->info.plat->name, "skl");
	cr_expect_eq(dev->info.gsm_size, 8u << 20);
	cr_expect_eq(dev->info.n_ptes, 1048576);
	cr_expect_eq(dev->info.aperture_size, 256u << 20, "aperture from the resource file");
	cr_expect_eq(dev->info.bar0_base, 0xf0000000u);
	cr_expect_eq(dev->info.stolen_size, 32u << 20);
	hw_close(dev);
}

Test(linux_backend, register_writes_land_in_the_bar_files_and_undo_restores_them)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct hw_fence f = { 0x100000, 0x10000, 2048, HW_TILING_X, true };
	uint64_t fv;

	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_ggtt_write_pte(dev, 5, 0x123456789000ull | 1, &err), 0);
	cr_expect_eq(file_u64("resource0", (8 << 20) + 5 * 8, 8), 0x123456789001ull, "PTE 5 at BAR0 + 8 MiB + 40");
	cr_assert_eq(hw_fence_encode(dev->info.plat, 0, &f, &fv, &err), 0);
	cr_assert_eq(hw_fence_write(dev, 3, fv, &err), 0);
	cr_expect_eq(file_u64("resource0", FENCE_REG_GEN6_LO(3), 8), fv, "fence 3 in the register file");
	cr_assert_eq(hw_aperture_write(dev, 0x1000, "gtt", 3, &err), 0);
	cr_expect_eq(file_u64("resource2", 0x1000, 3), 0x747467, "aperture bytes in resource2");
	cr_assert_eq(hw_cfg_write(dev, PCI_CFG_COMMAND, 2, PCI_CMD_MEM_SPACE), 0);
	cr_expect_eq(file_u64("config", PCI_CFG_COMMAND, 2), PCI_CMD_MEM_SPACE, "config write through libpci");

	cr_assert_eq(hw_undo_restore(dev, &err), 0);
	cr_expect_eq(file_u64("resource0", (8 << 20) + 5 * 8, 8), 0);
	cr_expect_eq(file_u64("resource0", FENCE_REG_GEN6_LO(3), 8), 0);
	cr_expect_eq(file_u64("resource2", 0x1000, 3), 0);
	cr_expect_eq(file_u64("config", PCI_CFG_COMMAND, 2), PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER);
	cr_expect_eq(file_u64("resource0", GFX_FLSH_CNTL_GEN6, 4), GFX_FLSH_CNTL_EN, "restore ends with an invalidate");
	hw_close(dev);
}

struct file_sink {
	uint8_t buf[1 << 20];
	size_t len;
};

static int file_sink_append(void *ctx, const void *b, size_t n, struct gtt_err *err)
{
	struct file_sink *fs = ctx;

	if (fs->len + n > sizeof(fs->buf))
		return gtt_err_set(err, GTT_ENOMEM, "test sink full");
	memcpy(fs->buf + fs->len, b, n);
	fs->len += n;
	return GTT_OK;
}

/*
 * Where the aperture is storage (a resource2 file), a page written first
 * through the original translation and then through a test page gttlab
 * mapped holds, after a crash and a replay, the bytes it had before either:
 * the replay goes newest first, so the oldest original is written last.
 */
Test(linux_backend, a_journal_replay_puts_every_bar_byte_back)
{
	static struct file_sink fs;
	struct hw_journal_sink sink = { file_sink_append, &fs };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct hw_journal_info info;
	struct hw_page pg;
	struct hw_open_opts o = { .sysfs_root = root };
	uint64_t pte, fv;
	struct hw_fence f = { 0x100000, 0x10000, 2048, HW_TILING_X, true };

	fs.len = 0;
	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_journal_attach(dev, &sink, &o, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_aperture_write(dev, 0x3000, "first", 5, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_alloc_test_pages(dev, 1, &pg, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_pte_encode(dev->info.plat, pg.phys, HW_CACHE_NONE, &pte, &err), 0);
	cr_assert_eq(hw_ggtt_write_pte(dev, 3, pte, &err), 0);
	cr_assert_eq(hw_ggtt_invalidate(dev), 0);
	cr_assert_eq(hw_aperture_write(dev, 0x3002, "second", 6, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_fence_encode(dev->info.plat, 0, &f, &fv, &err), 0);
	cr_assert_eq(hw_fence_write(dev, 5, fv, &err), 0);
	cr_assert_eq(hw_cfg_write(dev, 0x44, 4, 0x5a5a5a5a), 0);
	/* the crash: only the journal is left */
	hw_free_test_pages(dev, 1, &pg);
	hw_undo_forget(dev);
	hw_close(dev);

	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_journal_replay(dev, fs.buf, fs.len, &info, &err), 0, "%s", err.msg);
	cr_expect_eq(info.ap_orig, 1);
	cr_expect_eq(info.ap_own, 1);
	cr_expect_eq(file_u64("resource2", 0x3000, 8), 0, "aperture page 3 in resource2");
	cr_expect_eq(file_u64("resource0", (8 << 20) + 3 * 8, 8), 0, "PTE 3");
	cr_expect_eq(file_u64("resource0", FENCE_REG_GEN6_LO(5), 8), 0, "fence 5");
	cr_expect_eq(file_u64("resource0", GFX_FLSH_CNTL_GEN6, 4), 0, "GFX_FLSH_CNTL_GEN6 as found");
	cr_expect_eq(file_u64("config", 0x44, 4), 0, "config 0x44");
	hw_close(dev);
}

static void (*real_sync)(void *ctx);
static int syncs;
static void counting_sync(void *ctx)
{
	syncs++;
	real_sync(ctx);
}

/* Test pages are write-back memory the GGTT maps uncached: every aperture access is bracketed by a flush. */
Test(linux_backend, test_pages_are_flushed_around_every_aperture_access)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct hw_page pg;
	char buf[8];

	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_assert(dev->ops->cache_sync, "the linux backend flushes test pages");
	struct hw_backend_ops ops = *dev->ops;
	real_sync = ops.cache_sync;
	ops.cache_sync = counting_sync;
	dev->ops = &ops;
	cr_assert_eq(hw_alloc_test_pages(dev, 1, &pg, &err), 0, "%s", err.msg);
	syncs = 0;
	cr_assert_eq(hw_aperture_write(dev, 0x2000, "abc", 3, &err), 0);
	cr_expect_eq(syncs, 2, "a write: before (CPU writes reach memory) and after (no stale lines)");
	cr_assert_eq(hw_aperture_read(dev, 0x2000, buf, 3, &err), 0);
	cr_expect_eq(syncs, 3, "a read: before");
	hw_undo_restore(dev, &err);
	hw_free_test_pages(dev, 1, &pg);
	hw_close(dev);
}

/* The end of a run: restored, the journal is replayed and removed; not restored, it stays, said so. */
Test(linux_backend, a_run_ends_its_journal_removed_or_kept)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct journal_file jf;
	struct hw_open_opts o = { .sysfs_root = root };
	char path[128];
	bool kept = true;

	snprintf(path, sizeof(path), "%s/run.journal", root);
	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_assert_eq(journal_begin(dev, path, &o, &jf, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_ggtt_write_pte(dev, 9, 0x9001, &err), 0);
	cr_assert_eq(hw_undo_restore(dev, &err), 0, "%s", err.msg);
	cr_assert_eq(journal_end(dev, &jf, true, &kept, &err), 0, "%s", err.msg);
	cr_expect(!kept);
	cr_expect_neq(access(path, F_OK), 0, "a restored run removes its journal");

	cr_assert_eq(journal_begin(dev, path, &o, &jf, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_ggtt_write_pte(dev, 9, 0x9001, &err), 0);
	cr_assert_eq(journal_end(dev, &jf, false, &kept, &err), GTT_EIO);
	cr_expect(kept);
	cr_expect(strstr(err.msg, "not restored") && strstr(err.msg, "gttlab restore --journal"), "%s", err.msg);
	cr_expect_eq(access(path, F_OK), 0, "an unrestored run keeps its journal");
	/* and the next run refuses to start over it */
	cr_assert_eq(journal_begin(dev, path, &o, &jf, &err), GTT_EBUSY);
	cr_expect(strstr(err.msg, "gttlab restore"), "%s", err.msg);
	hw_undo_restore(dev, NULL);
	hw_close(dev);
}

Test(linux_backend, refuses_a_device_bound_to_i915)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char link[256];

	snprintf(link, sizeof(link), "%s/bus/pci/devices/0000:00:02.0/driver", root);
	cr_assert_eq(symlink("../../../../bus/pci/drivers/i915", link), 0);
	cr_expect_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), GTT_EBUSY);
	cr_expect(strstr(err.msg, "i915") && strstr(err.msg, "unbind") && strstr(err.msg, "--allow-i915"), "%s", err.msg);
	cr_expect_eq(file_u64("resource0", GFX_FLSH_CNTL_GEN6, 4), 0, "a refused device was written");
	cr_assert_eq(lx_open("pci:0000:00:02.0", true, &dev, &err), 0, "%s", err.msg);
	hw_close(dev);
}

Test(linux_backend, auto_finds_the_intel_display_device)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	cr_assert_eq(lx_open("auto", false, &dev, &err), 0, "%s", err.msg);
	cr_expect_str_eq(dev->name, "auto");
	cr_expect_eq(dev->info.devid, 0x1912);
	hw_close(dev);
}

Test(linux_backend, clear_errors)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	cr_expect_eq(lx_open("pci:0000:00:03.0", false, &dev, &err), GTT_ENODEV);
	cr_expect(strstr(err.msg, "0000:00:03.0"), "%s", err.msg);
	cr_expect_eq(lx_open("pci:00:02", false, &dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "pci:DDDD:BB:DD.F"), "%s", err.msg);
	cr_expect_eq(lx_open("pci:0000:00:1f.0", false, &dev, &err), GTT_ENODEV);
	cr_expect(strstr(err.msg, "not an Intel display device"), "%s", err.msg);
}

Test(linux_backend, test_pages_have_physical_addresses)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct hw_page pg[4];

	if (geteuid() != 0)
		cr_skip_test("pagemap gives physical addresses to root only");
	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_alloc_test_pages(dev, 4, pg, &err), 0, "%s", err.msg);
	for (int i = 0; i < 4; i++) {
		cr_expect_neq(pg[i].phys, 0);
		cr_expect_eq(pg[i].phys % 4096, 0);
	}
	hw_free_test_pages(dev, 4, pg);
	hw_close(dev);
}

Test(linux_backend, cli_on_the_fake_tree)
{
	char cmd[256], out[4096];

	snprintf(cmd, sizeof(cmd), "./build/gttlab --sysfs-root %s --device pci:0000:00:02.0 info 2>&1", root);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "linux backend") && strstr(out, "0x1912") && strstr(out, "1048576"), "%s", out);
	snprintf(cmd, sizeof(cmd), "./build/gttlab --sysfs-root %s --device auto dump fences | head -1", root);
	cr_assert_eq(t_run(cmd, out, sizeof(out)), 0, "%s", out);
	cr_expect(strstr(out, "fence  0: 0x0000000000000000 disabled"), "%s", out);
}

/* A path inside the fake GPU's directory. */
static void gpu_path(char *p, size_t n, const char *file)
{
	snprintf(p, n, "%s/bus/pci/devices/0000:00:02.0/%s", root, file);
}

/* Whether every byte of a file in the fake GPU's directory is zero. */
static bool file_all_zero(const char *file)
{
	char p[512];
	static uint8_t buf[1 << 16];
	ssize_t n;
	bool zero = true;

	gpu_path(p, sizeof(p), file);
	int fd = open(p, O_RDONLY);
	cr_assert(fd >= 0, "open %s", p);
	while (zero && (n = read(fd, buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++)
			zero &= !buf[i];
	close(fd);
	return zero;
}

static void file_bytes(const char *file, uint8_t *buf, size_t n)
{
	char p[512];

	gpu_path(p, sizeof(p), file);
	int fd = open(p, O_RDONLY);
	cr_assert(fd >= 0 && read(fd, buf, n) == (ssize_t)n && !close(fd), "reading %s", p);
}

/* The entry's name used to be read from the DIR after closedir (AddressSanitizer sees it). */
Test(linux_backend, auto_names_a_junk_entry_under_devices)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char p[512];

	snprintf(p, sizeof(p), "%s/bus/pci/devices/not-a-device", root);
	cr_assert_eq(mkdir(p, 0755), 0);
	cr_expect_eq(lx_open("auto", false, &dev, &err), GTT_ENODEV);
	cr_expect(strstr(err.msg, "'not-a-device'") && strstr(err.msg, "unexpected entry"), "%s", err.msg);
}

/* Only the kernel's own spelling of an address is a device entry (libpci would parse others differently). */
Test(linux_backend, auto_refuses_entries_not_in_the_kernels_form)
{
	static const char *const junk[] = { "0:0:2.0", "0000:00:02.0x", "0000:00:02.8", "ffffffff:00:02.0",
					    "0000:00:20.0", " 0000:00:02.0", "0000:00:02.0 ", "-0000:00:02.0" };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char p[512];

	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++) {
		snprintf(p, sizeof(p), "%s/bus/pci/devices/%s", root, junk[i]);
		cr_assert_eq(mkdir(p, 0755), 0, "%s", p);
		cr_expect_eq(lx_open("auto", false, &dev, &err), GTT_ENODEV, "entry '%s'", junk[i]);
		cr_expect(strstr(err.msg, junk[i]) && strstr(err.msg, "unexpected entry"), "%s", err.msg);
		cr_assert_eq(rmdir(p), 0);
	}
	cr_assert_eq(lx_open("auto", false, &dev, &err), 0, "%s", err.msg);
	hw_close(dev);
}

/* A resource file smaller than its BAR was mapped and the writes past its end were lost. */
Test(linux_backend, refuses_a_resource_file_smaller_than_its_bar)
{
	static const struct { const char *file; unsigned bar; const char *bar_size; } cases[] = {
		{ "resource2", 2, "268435456" }, { "resource0", 0, "16777216" },
	};
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	uint8_t cfg_before[256], cfg_after[256];
	char dir[256], want[64];

	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/0000:00:02.0", root);
	file_bytes("config", cfg_before, sizeof(cfg_before));
	for (size_t i = 0; i < 2; i++) {
		sized(dir, cases[i].file, 1 << 20);
		cr_expect_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), GTT_EIO, "%s", cases[i].file);
		snprintf(want, sizeof(want), "BAR%u", cases[i].bar);
		cr_expect(strstr(err.msg, cases[i].file) && strstr(err.msg, "1048576") && strstr(err.msg, want) &&
			  strstr(err.msg, cases[i].bar_size), "%s", err.msg);
		cr_expect(file_all_zero("resource0") && file_all_zero("resource2"), "a refused device was written");
		file_bytes("config", cfg_after, sizeof(cfg_after));
		cr_expect_arr_eq(cfg_before, cfg_after, sizeof(cfg_before), "config space was written");
		sized(dir, cases[i].file, cases[i].bar ? 256 << 20 : 16 << 20);
	}
	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	hw_close(dev);
}

/*
 * The pci_dev from pci_get_dev was never freed. LeakSanitizer sees it in the
 * ASan build; here the heap glibc reports must not grow over 50 opens. The
 * count includes chunks parked in malloc's per-thread cache, which fills
 * during the first few rounds, so those are not measured.
 */
Test(linux_backend, open_and_close_leave_nothing_allocated)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	const int warmup = 16, rounds = 50;
	size_t before = 0;

	for (int i = 0; i < warmup + rounds; i++) {
		if (i == warmup)
			before = mallinfo2().uordblks;
		cr_assert_eq(lx_open(i % 2 ? "auto" : "pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
		hw_close(dev);
	}
	size_t after = mallinfo2().uordblks;
	cr_expect(after <= before + 256, "the heap grew by %zu bytes over %d opens", after - before, rounds);
}

/* An offset near 4 GiB wrapped the 32-bit bounds check into a read far past the mapping. */
Test(linux_backend, mmio_outside_bar0_or_misaligned_is_refused)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	for (uint32_t off = 0xfffffff8u; off; off += 4)
		cr_expect_eq(dev->ops->mmio_read32(dev->ctx, off), 0xffffffffu, "read32 0x%x", off);
	cr_expect_eq(dev->ops->mmio_read64(dev->ctx, 0xfffffff8u), ~0ull);
	dev->ops->mmio_write32(dev->ctx, 0xfffffffcu, 1);
	dev->ops->mmio_write64(dev->ctx, 0xfffffff8u, 1);
	uint64_t ptes[2] = { 1, 1 };
	dev->ops->pte_write_bulk(dev->ctx, 0xfffffff8u, ptes, 2, 8);
	cr_expect_eq(dev->ops->mmio_read32(dev->ctx, 0x100002), 0xffffffffu, "misaligned read32");
	dev->ops->mmio_write32(dev->ctx, 0x100002, 0x12345678);
	cr_expect_eq(file_u64("resource0", 0x100000, 8), 0, "a misaligned write landed");
	cr_expect_eq(dev->ops->mmio_read32(dev->ctx, (16 << 20) - 4), 0, "the last dword is in range");
	cr_expect_eq(dev->ops->mmio_read32(dev->ctx, 16 << 20), 0xffffffffu, "the first dword past BAR0 is refused");
	cr_expect_eq(dev->ops->mmio_read64(dev->ctx, (16 << 20) - 4), ~0ull, "a qword straddling the end is refused");
	hw_close(dev);
}

/* libpci's error callback (which exits) fires on an unaligned config access. */
Test(linux_backend, config_access_misaligned_or_beyond_4k_is_refused)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	uint32_t v;

	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	cr_expect_eq(dev->ops->cfg_read(dev->ctx, 1, 2, &v), GTT_EINVAL);
	cr_expect_eq(dev->ops->cfg_read(dev->ctx, 2, 4, &v), GTT_EINVAL);
	cr_expect_eq(dev->ops->cfg_write(dev->ctx, 3, 2, 0), GTT_EINVAL);
	cr_expect_eq(dev->ops->cfg_read(dev->ctx, 4096, 4, &v), GTT_EINVAL);
	cr_expect_eq(dev->ops->cfg_read(dev->ctx, 0, 3, &v), GTT_EINVAL);
	cr_expect_eq(dev->ops->cfg_read(dev->ctx, 2, 2, &v), 0);
	cr_expect_eq(v, 0x1912);
	hw_close(dev);
}

/*
 * Files libpci reads and would die on (its error callback exits): a
 * directory, a value of 1024 bytes or more, a resource line it cannot parse.
 * Each is a normal error naming the file.
 */
Test(linux_backend, broken_attribute_files_are_errors_not_exits)
{
	static const struct { const char *file; const char *content; bool as_dir; } cases[] = {
		{ "vendor", NULL, true },
		{ "device", NULL, true },
		{ "class", NULL, true },
		{ "resource", NULL, true },
		{ "config", NULL, true },
		{ "device", "long", false },
		{ "resource", "0x0 0x1\n", false },
		{ "resource", "junk\n", false },
	};
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char dir[256], p[512], saved[530];
	static char big[1500];

	memset(big, ' ', sizeof(big) - 2);
	big[0] = '1';
	big[sizeof(big) - 2] = '\n';
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/0000:00:02.0", root);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		gpu_path(p, sizeof(p), cases[i].file);
		snprintf(saved, sizeof(saved), "%s.saved", p);
		cr_assert_eq(rename(p, saved), 0);
		if (cases[i].as_dir)
			cr_assert_eq(mkdir(p, 0755), 0);
		else if (!strcmp(cases[i].content, "long"))
			put(dir, cases[i].file, big, strlen(big));
		else
			put(dir, cases[i].file, cases[i].content, strlen(cases[i].content));
		for (int a = 0; a < 2; a++) {
			int rc = lx_open(a ? "auto" : "pci:0000:00:02.0", false, &dev, &err);
			cr_expect_eq(rc, GTT_ENODEV, "%s %s: %d %s", cases[i].file, a ? "auto" : "pci", rc, err.msg);
			if (!a)
				cr_expect(strstr(err.msg, p), "%s", err.msg);
		}
		if (cases[i].as_dir)
			cr_assert_eq(rmdir(p), 0);
		cr_assert_eq(rename(saved, p), 0);
	}
	cr_assert_eq(lx_open("pci:0000:00:02.0", false, &dev, &err), 0, "%s", err.msg);
	hw_close(dev);
}

/* A FIFO blocked open() forever (libpci reads config and the attributes without O_NONBLOCK). */
Test(linux_backend, a_fifo_in_the_tree_does_not_hang, .timeout = 20)
{
	static const char *const files[] = { "vendor", "class", "config", "resource", "resource2" };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char p[512], saved[530];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		gpu_path(p, sizeof(p), files[i]);
		snprintf(saved, sizeof(saved), "%s.saved", p);
		cr_assert_eq(rename(p, saved), 0);
		cr_assert_eq(mkfifo(p, 0644), 0);
		int rc = lx_open("pci:0000:00:02.0", false, &dev, &err);
		cr_expect(rc == GTT_ENODEV || rc == GTT_EIO, "%s: %d", files[i], rc);
		cr_expect(strstr(err.msg, files[i]), "%s", err.msg);
		cr_assert_eq(unlink(p), 0);
		cr_assert_eq(rename(saved, p), 0);
	}
}

/* Device strings and roots that used to be read loosely (a wrapped domain, a truncated root). */
Test(linux_backend, device_strings_and_roots_are_read_strictly)
{
	static const char *const bad[] = { "pci:100000000:00:02.0", "pci:0000:00:02.0x", "pci:0000:100:02.0",
					   "pci:-1:00:02.0", "pci: 0:00:02.0", "pci:0000:00:02.8", "pci:80000000:00:02.0" };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char longroot[700];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_expect_eq(lx_open(bad[i], false, &dev, &err), GTT_EINVAL, "%s", bad[i]);
		cr_expect(strstr(err.msg, "pci:DDDD:BB:DD.F"), "%s", err.msg);
	}
	cr_assert_eq(lx_open("pci:0:0:2.0", false, &dev, &err), 0, "%s", err.msg);
	hw_close(dev);

	memset(longroot, 'a', sizeof(longroot) - 1);
	longroot[0] = '/';
	longroot[sizeof(longroot) - 1] = '\0';
	struct hw_open_opts o = { .sysfs_root = longroot };
	cr_expect_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), "auto", gtt_posix_backends, gtt_num_posix_backends, &o,
			     &dev, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "too long"), "%s", err.msg);
}

/*
 * A journal has its name only with its header durable: a run killed between
 * creating the file and its first append (before any device write) leaves
 * no journal at all, never a file `gttlab restore` cannot read.
 */
Test(linux_backend, a_journal_takes_its_name_only_with_its_header)
{
	struct journal_file jf;
	struct gtt_err err = { 0 };
	char path[128];
	struct stat st;

	snprintf(path, sizeof(path), "%s/named.journal", root);
	unlink(path);
	cr_assert_eq(journal_file_create(&jf, path, &err), 0, "%s", err.msg);
	cr_expect_neq(access(path, F_OK), 0, "created, not yet published: no file by the journal's name");
	cr_assert_eq(jf.sink.append(jf.sink.ctx, "0123456789", 10, &err), 0, "%s", err.msg);
	cr_assert_eq(journal_file_publish(&jf, &err), 0, "%s", err.msg);
	cr_assert_eq(stat(path, &st), 0, "published: %s", path);
	cr_expect_eq(st.st_size, 10, "the name holds what was written before it");
	/* a second run finds it (and its holder) at once */
	struct journal_file other;
	cr_expect_eq(journal_file_create(&other, path, &err), GTT_EBUSY);
	cr_expect(strstr(err.msg, "in use") || strstr(err.msg, "gttlab restore"), "%s", err.msg);
	cr_assert_eq(journal_file_close(&jf, true, &err), 0, "%s", err.msg);
	cr_expect_neq(access(path, F_OK), 0, "removed");
	/* one never published leaves nothing behind, whatever its close says */
	cr_assert_eq(journal_file_create(&jf, path, &err), 0, "%s", err.msg);
	cr_assert_eq(journal_file_close(&jf, false, &err), 0, "%s", err.msg);
	cr_expect_neq(access(path, F_OK), 0);
}

static void patch_cfg(const char *bdf, unsigned off, uint32_t v)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/bus/pci/devices/%s/config", root, bdf);
	int fd = open(p, O_RDWR);
	cr_assert(fd >= 0 && pwrite(fd, &v, 4, off) == 4 && !close(fd));
}

/* A Tiger Lake: GMCH 0xfec0 (8 MiB GSM, GMS 0xfe = 60 MiB) and the 64-bit BDSM at 0xc0/0xc4, 0x5c ignored. */
Test(linux_backend, a_tiger_lake_reads_its_64_bit_bdsm)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	fake_device("0000:00:04.0", 0x8086, 0x9a49, 0x030000, true);
	patch_cfg("0000:00:04.0", SNB_GMCH_CTRL, 0xfec0);
	patch_cfg("0000:00:04.0", INTEL_BSM, 0xdea00001);
	patch_cfg("0000:00:04.0", INTEL_GEN11_BSM_DW0, 0x7b800001);
	patch_cfg("0000:00:04.0", INTEL_GEN11_BSM_DW1, 0x1);
	cr_assert_eq(lx_open("pci:0000:00:04.0", false, &dev, &err), 0, "%s", err.msg);
	cr_expect_str_eq(dev->info.plat->name, "tgl");
	cr_expect_eq(dev->info.gsm_size, 8u << 20);
	cr_expect_eq(dev->info.stolen_size, 60u << 20);
	cr_expect_eq(dev->info.stolen_base, 0x17b800000ull, "stolen at 0x%llx", (unsigned long long)dev->info.stolen_base);
	cr_expect_eq(dev->info.num_fences, 32u);
	hw_close(dev);
}

/* A part whose BAR2 has no size is refused at open, with the reason. */
Test(linux_backend, a_part_without_an_aperture_is_refused_with_the_reason)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	char dir[256];

	fake_device("0000:00:05.0", 0x8086, 0x9a49, 0x030000, true);
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/0000:00:05.0", root);
	const char *res =
		"0x00000000f0000000 0x00000000f0ffffff 0x0000000000140204\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	put(dir, "resource", res, strlen(res));
	cr_expect_neq(lx_open("pci:0000:00:05.0", false, &dev, &err), 0);
	cr_expect(strstr(err.msg, "0000:00:05.0 has no aperture") && strstr(err.msg, "GMADR"), "%s", err.msg);
	cr_expect_null(dev);
}

/*
 * A GPU of the given id and generation at bdf: BAR0 4 MiB with GMCH GGMS 2 in
 * bits 9:8 (a 2 MiB GSM) below gen8, 16 MiB with GGMS 3 in bits 7:6 (8 MiB)
 * from gen8 (docs/hardware.md §1.2, §1.3); a 256 MiB aperture.
 */
static void fake_gpu(const char *bdf, uint16_t devid, unsigned gen)
{
	char dir[256];

	fake_device(bdf, 0x8086, devid, 0x030000, true);
	if (gen >= 80)
		return;
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/%s", root, bdf);
	const char *res =
		"0x00000000f0000000 0x00000000f03fffff 0x0000000000140204\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x00000000c0000000 0x00000000cfffffff 0x000000000014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x000000000000f000 0x000000000000f03f 0x0000000000040101\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	put(dir, "resource", res, strlen(res));
	sized(dir, "resource0", 4 << 20);
	patch_cfg(bdf, SNB_GMCH_CTRL, 0x0208);	/* GGMS 2 (bits 9:8), GMS 1 (bits 7:3) */
}

/* A dword into a fake GPU's resource0: a register as the device would hold it. */
static void resource0_put32(void *ctx, uint32_t off, uint32_t val)
{
	char p[512];

	snprintf(p, sizeof(p), "%s/bus/pci/devices/%s/resource0", root, (const char *)ctx);
	int fd = open(p, O_RDWR);
	cr_assert(fd >= 0 && pwrite(fd, &val, 4, off) == 4 && !close(fd), "writing %s at 0x%x", p, off);
}

/* eDRAM is read from HSW_EDRAM_CAP (0x120010, bit 0) on Haswell and later, not from the id; never on Ivy Bridge. */
Test(linux_backend, edram_is_read_from_hsw_edram_cap)
{
	static const struct { const char *bdf; uint16_t devid; unsigned gen; uint32_t cap; unsigned mb; } v[] = {
		{ "0000:00:06.0", 0x0412, 75, 0x1, 128 },	/* Haswell: 128 MiB whatever the size bits say */
		{ "0000:00:07.0", 0x0d22, 75, 0x0, 0 },		/* a CRW id without the bit: no eDRAM */
		{ "0000:00:08.0", 0x1622, 80, 0x1, 128 },
		{ "0000:00:09.0", 0x193b, 90, 0x1 | 4 << 1 | 1 << 5 | 2 << 8, 64 },	/* 4 banks x 8 ways x 2 sets */
		{ "0000:00:0a.0", 0x0162, 70, 0x1, 0 },		/* Ivy Bridge: i915 does not read it */
	};
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct hw_device *dev = NULL;
		struct gtt_err err = { 0 };
		char spec[32];
		fake_gpu(v[i].bdf, v[i].devid, v[i].gen);
		resource0_put32((void *)v[i].bdf, 0x120010, v[i].cap);
		snprintf(spec, sizeof(spec), "pci:%s", v[i].bdf);
		cr_assert_eq(lx_open(spec, false, &dev, &err), 0, "%s: %s", spec, err.msg);
		cr_expect_eq(dev->info.edram_mb, v[i].mb, "0x%04x with HSW_EDRAM_CAP 0x%x: %u MiB", v[i].devid, v[i].cap,
			     dev->info.edram_mb);
		hw_close(dev);
	}
}

/* What the runner's checks write on a fake tree, judged against the surfaces as it happens. */
static struct recorder {
	const struct hw_backend_ops *real;
	const struct t_surface *sf;
	size_t n;
	uint32_t gsm_offset;
	unsigned pte_size;
	unsigned hits;
	char first[256];
} rec;

static void rec_gm(uint64_t a, uint64_t b, const char *kind)
{
	for (size_t j = 0; j < rec.n; j++)
		if (a < rec.sf[j].end && rec.sf[j].start < b && !rec.hits++)
			snprintf(rec.first, sizeof(rec.first), "a %s write at GM 0x%llx in the %s of pipe %c", kind,
				 (unsigned long long)a, rec.sf[j].what, 'A' + rec.sf[j].pipe);
}

static void rec_mmio(uint32_t off, size_t n)
{
	if (off < rec.gsm_offset)
		return;
	uint64_t first = (off - rec.gsm_offset) / rec.pte_size, last = (off + n - 1 - rec.gsm_offset) / rec.pte_size;
	rec_gm(first * 4096, (last + 1) * 4096, "PTE");
}

static void rec_write32(void *ctx, uint32_t off, uint32_t v)
{
	rec_mmio(off, 4);
	rec.real->mmio_write32(ctx, off, v);
}

static void rec_write64(void *ctx, uint32_t off, uint64_t v)
{
	rec_mmio(off, 8);
	rec.real->mmio_write64(ctx, off, v);
}

static void rec_pte_bulk(void *ctx, uint32_t off, const uint64_t *ptes, size_t n, unsigned size)
{
	rec_mmio(off, n * size);
	rec.real->pte_write_bulk(ctx, off, ptes, n, size);
}

static int rec_ap_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	rec_gm(off, off + len, "aperture");
	return rec.real->aperture_write(ctx, off, buf, len);
}

static void kept_off(void *ctx, const struct runner_exclusion *x, size_t n)
{
	struct runner_exclusion *k = ctx;

	cr_assert_leq(n, 32);
	memcpy(k, x, n * sizeof(*x));
	k[32].start = n;	/* the count, in the spare entry */
}

/*
 * Issue 23 on the real-device path: for every platform of the table, a fake
 * GPU of its first id with every plane, sprite and cursor enabled in
 * resource0, tiling the aperture above 4 MiB (tests/scanout_layout.c). The
 * runner keeps off each one, and no PTE or aperture write of any check
 * lands in one (a fake tree has no translation, so data-path checks may fail:
 * only where they write is judged).
 */
Test(linux_backend, every_surface_of_every_platform_is_kept_off_on_a_fake_tree, .timeout = 600)
{
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *p = &gtt_platforms[i];
		char bdf[32], spec[48];
		struct hw_device *dev = NULL;
		struct gtt_err err = { 0 };
		struct t_surface want[32];
		struct runner_exclusion kept[33] = { { 0 } };

		snprintf(bdf, sizeof(bdf), "0000:00:%02x.0", (unsigned)(0x06 + i) & 0x1f);
		fake_gpu(bdf, p->devids[0], p->gen);
		size_t n = t_enable_every_surface(p, 256u << 20, resource0_put32, bdf, want);
		snprintf(spec, sizeof(spec), "pci:%s", bdf);
		cr_assert_eq(lx_open(spec, false, &dev, &err), 0, "%s: %s", spec, err.msg);
		cr_assert_eq(dev->info.plat, p, "%s: 0x%04x detected as %s", p->name, p->devids[0], dev->info.plat->name);
		struct hw_backend_ops ops = *dev->ops;
		rec = (struct recorder){ .real = dev->ops, .sf = want, .n = n, .gsm_offset = dev->info.gsm_offset,
				     .pte_size = dev->info.pte_size };
		ops.mmio_write32 = rec_write32;
		ops.mmio_write64 = rec_write64;
		if (ops.pte_write_bulk)
			ops.pte_write_bulk = rec_pte_bulk;
		ops.aperture_write = rec_ap_write;
		dev->ops = &ops;
		const struct check *sel[16];
		struct check_result r[16];
		size_t k;
		struct runner_opts o = { .keeping_off = kept_off, .ctx = kept };
		cr_assert_eq(runner_select("ggtt,aperture,fence", sel, 16, &k, NULL), 0);
		cr_assert_eq(runner_run(dev, sel, k, &o, r), k, "%s: %s", p->name, r[0].reason);
		cr_assert_eq(kept[32].start, n, "%s: %llu ranges kept off, %zu surfaces enabled", p->name,
			     (unsigned long long)kept[32].start, n);
		for (size_t j = 0; j < n; j++)
			cr_expect(kept[j].start == want[j].start && kept[j].end == want[j].end && kept[j].pipe == want[j].pipe &&
				  !strcmp(kept[j].what, want[j].what), "%s: range %zu is %s of pipe %c 0x%llx-0x%llx, not %s of pipe %c",
				  p->name, j, kept[j].what, 'A' + kept[j].pipe, (unsigned long long)kept[j].start,
				  (unsigned long long)kept[j].end, want[j].what, 'A' + want[j].pipe);
		cr_expect_eq(rec.hits, 0, "%s: %u writes in a surface, first %s", p->name, rec.hits, rec.first);
		unsigned claims = 0;
		for (size_t c = 0; c < k; c++) {
			cr_expect_neq(r[c].status, CHECK_ABORT, "%s on %s: %s", r[c].check->name, p->name, r[c].reason);
			if (!r[c].claim_pages)
				continue;
			claims++;
			uint64_t a = r[c].claim_gm, b = a + r[c].claim_pages * 4096ull;
			for (size_t j = 0; j < n; j++)
				cr_expect(b <= want[j].start || a >= want[j].end, "%s on %s claimed 0x%llx-0x%llx, in the %s of pipe %c",
					  r[c].check->name, p->name, (unsigned long long)a, (unsigned long long)b, want[j].what,
					  'A' + want[j].pipe);
		}
		cr_expect_gt(claims, 0, "%s: no claim", p->name);
		dev->ops = rec.real;
		hw_close(dev);
	}
}

/*
 * hw_ggtt_write_changed through the linux backend's one-pass store: of a run
 * that starts off a group of four and mixes equal and differing entries (runs
 * of both, single ones), only the differing ones reach the BAR file (each
 * equal entry keeps a sentinel that is in neither array), the mirror ends
 * equal to the run, and the count is exact. 8-byte PTEs on the Skylake,
 * 4-byte on a Haswell.
 */
static void changed_entries_alone(const char *bdf)
{
	enum { N = 203, FIRST = 1001 };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	uint64_t held[N], ptes[N], written = 0, want = 0, seed = 0x9e3779b97f4a7c15ull;
	char spec[32], p[512];

	snprintf(spec, sizeof(spec), "pci:%s", bdf);
	cr_assert_eq(lx_open(spec, false, &dev, &err), 0, "%s: %s", spec, err.msg);
	unsigned sz = dev->info.pte_size;
	snprintf(p, sizeof(p), "%s/bus/pci/devices/%s/resource0", root, bdf);
	int fd = open(p, O_RDWR);
	cr_assert(fd >= 0);
	for (unsigned i = 0; i < N; i++) {
		uint64_t sentinel = 0x5e000000u | i;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		held[i] = (seed >> 33) & 0xfffff000u;
		ptes[i] = (i / 7) % 3 == 0 || (seed >> 20) % 5 == 0 ? held[i] : held[i] | 0x1;
		want += ptes[i] != held[i];
		cr_assert(pwrite(fd, &sentinel, sz, (off_t)(dev->info.gsm_offset + (FIRST + i) * sz)) == (ssize_t)sz);
	}
	uint64_t was[N];
	memcpy(was, held, sizeof(was));
	cr_assert_eq(hw_ggtt_write_changed(dev, FIRST, N, ptes, held, &written, &err), 0, "%s", err.msg);
	cr_expect_eq(written, want, "%s: %llu entries stored, %llu differ", spec, (unsigned long long)written,
		     (unsigned long long)want);
	for (unsigned i = 0; i < N; i++) {
		uint64_t got = 0, expect = ptes[i] != was[i] ? ptes[i] : (0x5e000000u | i);
		cr_assert(pread(fd, &got, sz, (off_t)(dev->info.gsm_offset + (FIRST + i) * sz)) == (ssize_t)sz);
		cr_expect_eq(got, expect, "%s: PTE %u reads 0x%llx in resource0, want 0x%llx (%s)", spec, FIRST + i,
			     (unsigned long long)got, (unsigned long long)expect,
			     ptes[i] != was[i] ? "it differs" : "it is equal: never stored");
		cr_expect_eq(held[i], ptes[i], "%s: the mirror of PTE %u is 0x%llx", spec, FIRST + i,
			     (unsigned long long)held[i]);
	}
	close(fd);
	hw_close(dev);
}

Test(linux_backend, only_changed_entries_reach_the_bar_file_skl) { changed_entries_alone("0000:00:02.0"); }
Test(linux_backend, only_changed_entries_reach_the_bar_file_hsw)
{
	fake_gpu("0000:00:0b.0", 0x0412, 75);
	changed_entries_alone("0000:00:0b.0");
}
