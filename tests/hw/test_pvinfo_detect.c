/* SPDX-License-Identifier: MIT */
/*
 * Guest mode detection (hw/detect_pvinfo.h): a GVT-g PVINFO page in BAR0 is
 * read as i915's intel_vgpu_detect and intel_vgt_balloon read it. On a fake
 * sysfs tree (the linux backend) and on the model with an MMIO seed (the sim
 * backend): a well formed page gives every word as written, a device with no
 * magic is native, every malformed page fails the open naming its word, and
 * nothing is ever written (the BAR files are compared byte for byte). The
 * page's offsets are written out here from docs/hardware.md §6.1, not taken
 * from regs/pvinfo.h, so a wrong offset there cannot agree with itself.
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/detect_pvinfo.h"
#include "regs/pci_config.h"
#include "tests/helpers.h"

#define MiB (1ull << 20)
#define PV 0x78000u		/* VGT_PVINFO_PAGE */

/* The words of struct vgt_if gttlab reads, and gttlab's channel words in rsv3. */
struct page {
	uint64_t magic;
	uint16_t major, minor;
	uint32_t vgt_id, caps;
	uint32_t map_base, map_size, high_base, high_size, fence_num;
	uint32_t gm_magic, slot_size;
	uint32_t runs, run_base[8], run_size[8];	/* gttlab's runs extension: 0x124, then base/size pairs from 0x128 */
};

/* A guest of the fake skl (256 MiB aperture, 4 GiB GGTT, 32 fences): 64 MiB at 64 MiB, 512 MiB at 1 GiB, 4 fences. */
static const struct page guest = {
	0x4776544776544776ull, 1, 0, 7, 0x1c,
	64 * MiB, 64 * MiB, 0x40000000, 512 * MiB, 4,
	0x6d4d6767, 64 * MiB, 1, { 0 }, { 0 },
};

static char root[64];
static uint8_t cfg[256];
static uint8_t page_bytes[4096];

static void put_le(uint8_t *b, uint32_t off, uint64_t v, unsigned width)
{
	for (unsigned i = 0; i < width; i++)
		b[off + i] = (uint8_t)(v >> (8 * i));
}

/* The 4 KiB PVINFO page as the host lays it out. */
static void encode(const struct page *p, uint8_t *b)
{
	memset(b, 0, 4096);
	put_le(b, 0x000, p->magic, 8);
	put_le(b, 0x008, p->major, 2);
	put_le(b, 0x00a, p->minor, 2);
	put_le(b, 0x00c, p->vgt_id, 4);
	put_le(b, 0x010, p->caps, 4);
	put_le(b, 0x040, p->map_base, 4);
	put_le(b, 0x044, p->map_size, 4);
	put_le(b, 0x048, p->high_base, 4);
	put_le(b, 0x04c, p->high_size, 4);
	put_le(b, 0x050, p->fence_num, 4);
	put_le(b, 0x100, p->gm_magic, 4);
	put_le(b, 0x11c, p->slot_size, 4);
	put_le(b, 0x124, p->runs, 4);
	for (unsigned i = 1; i < 8; i++) {
		put_le(b, 0x128 + (i - 1) * 8, p->run_base[i], 4);
		put_le(b, 0x12c + (i - 1) * 8, p->run_size[i], 4);
	}
}

static void path_of(char *p, size_t n, const char *file)
{
	snprintf(p, n, "%s/bus/pci/devices/0000:00:02.0/%s", root, file);
}

static void put(const char *file, const void *data, size_t len, off_t off)
{
	char p[512];
	path_of(p, sizeof(p), file);
	int fd = open(p, O_CREAT | O_WRONLY, 0644);
	cr_assert(fd >= 0 && pwrite(fd, data, len, off) == (ssize_t)len && !close(fd), "writing %s", p);
}

static void sized(const char *file, off_t size)
{
	char p[512];
	path_of(p, sizeof(p), file);
	int fd = open(p, O_CREAT | O_RDWR | O_TRUNC, 0644);
	cr_assert(fd >= 0 && !ftruncate(fd, size) && !close(fd));
}

static void cleanup(void)
{
	char cmd[128];

	if (!root[0])
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	cr_expect_eq(system(cmd), 0, "%s", cmd);
	root[0] = '\0';
}

/* A skl at 00:02.0 (the shape of fake_device() in test_linux_backend.c); `pv` NULL: a native GPU. */
static void fake_gpu(const struct page *pv)
{
	char dir[256], cmd[320];
	static const char res[] =
		"0x00000000f0000000 0x00000000f0ffffff 0x0000000000140204\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x00000000c0000000 0x00000000cfffffff 0x000000000014220c\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x000000000000f000 0x000000000000f03f 0x0000000000040101\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n"
		"0x0000000000000000 0x0000000000000000 0x0000000000000000\n";
	uint32_t bar0 = 0xf0000004, bar2 = 0xc000000c;

	cleanup();	/* a test may make several trees, one at a time */
	t_tmpdir(root, sizeof(root));
	snprintf(dir, sizeof(dir), "%s/bus/pci/devices/0000:00:02.0", root);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", dir);
	cr_assert_eq(system(cmd), 0);
	memset(cfg, 0, sizeof(cfg));
	cfg[0] = 0x86; cfg[1] = 0x80; cfg[2] = 0x12; cfg[3] = 0x19;	/* 8086:1912, Skylake GT2 */
	cfg[PCI_CFG_COMMAND] = PCI_CMD_MEM_SPACE | PCI_CMD_BUS_MASTER;
	cfg[0x0b] = 0x03;
	memcpy(cfg + PCI_CFG_BAR(0), &bar0, 4);
	memcpy(cfg + PCI_CFG_BAR(2), &bar2, 4);
	cfg[SNB_GMCH_CTRL] = 0xc0;	/* GGMS 3: 8 MiB GSM, a 4 GiB GGTT */
	cfg[SNB_GMCH_CTRL + 1] = 0x01;
	put("config", cfg, sizeof(cfg), 0);
	put("vendor", "0x8086\n", 7, 0);
	put("device", "0x1912\n", 7, 0);
	put("class", "0x030000\n", 9, 0);
	put("resource", res, strlen(res), 0);
	sized("resource0", 16 * MiB);
	sized("resource2", 256 * MiB);
	memset(page_bytes, 0, sizeof(page_bytes));
	if (pv) {
		encode(pv, page_bytes);
		put("resource0", page_bytes, sizeof(page_bytes), PV);
	}
}


static int lx_open(struct hw_device **dev, struct gtt_err *err)
{
	struct hw_open_opts o = { .sysfs_root = root };
	return hw_open(gtt_env_posix(GTT_LOG_ERROR), "pci:0000:00:02.0", gtt_posix_backends, gtt_num_posix_backends,
		       &o, dev, err);
}

/* Whether a BAR file holds exactly what fake_gpu put there: zeros, and the page at PV in resource0. */
static bool unchanged(const char *file, off_t size, bool with_page)
{
	static uint8_t buf[1 << 20];
	char p[512];
	bool same = true;

	path_of(p, sizeof(p), file);
	int fd = open(p, O_RDONLY);
	cr_assert(fd >= 0);
	struct stat st;
	cr_assert(!fstat(fd, &st));
	if (st.st_size != size)
		same = false;
	for (off_t off = 0; same && off < size; off += (off_t)sizeof(buf)) {
		cr_assert_eq(pread(fd, buf, sizeof(buf), off), (ssize_t)sizeof(buf));
		if (with_page && off <= PV && PV < off + (off_t)sizeof(buf)) {
			same = !memcmp(buf + (PV - off), page_bytes, sizeof(page_bytes));
			memset(buf + (PV - off), 0, sizeof(page_bytes));
		}
		for (size_t i = 0; same && i < sizeof(buf); i += 8)
			same = !*(uint64_t *)(buf + i);
	}
	close(fd);
	return same;
}

/* Nothing was written: the BARs and config space are byte for byte what the tree was made with. */
static void nothing_written(void)
{
	uint8_t now[256];
	char p[512];

	cr_expect(unchanged("resource0", 16 * MiB, true), "resource0 (BAR0) changed");
	cr_expect(unchanged("resource2", 256 * MiB, false), "resource2 (the aperture) changed");
	path_of(p, sizeof(p), "config");
	FILE *f = fopen(p, "rb");
	cr_assert(f && fread(now, 1, sizeof(now), f) == sizeof(now) && !fclose(f));
	cr_expect(!memcmp(now, cfg, sizeof(cfg)), "config space changed");
}

static void expect_page(const struct hw_pvinfo *pv, const struct page *p)
{
	cr_expect(pv->active);
	cr_expect_eq(pv->version_major, p->major);
	cr_expect_eq(pv->version_minor, p->minor);
	cr_expect_eq(pv->vgt_id, p->vgt_id);
	cr_expect_eq(pv->caps, p->caps);
	cr_expect_eq(pv->mappable_base, p->map_base);
	cr_expect_eq(pv->mappable_size, p->map_size);
	cr_expect_eq(pv->nonmappable_base, p->high_base);
	cr_expect_eq(pv->nonmappable_size, p->high_size);
	cr_expect_eq(pv->fence_num, p->fence_num);
	cr_expect_eq(pv->gm_channel, p->gm_magic == 0x6d4d6767);
	cr_expect_eq(pv->slot_size, pv->gm_channel ? p->slot_size : 0);
	unsigned runs = pv->gm_channel && p->runs > 1 ? p->runs : 1;
	cr_expect_eq(pv->high_runs, runs);
	cr_expect(pv->run[0].base == p->high_base && pv->run[0].size == p->high_size);
	for (unsigned i = 1; i < runs; i++)
		cr_expect(pv->run[i].base == p->run_base[i] && pv->run[i].size == p->run_size[i], "run %u", i);
}

/* Open the fake guest made from p; it must open in guest mode with every word as written. */
static void opens_as(const struct page *p)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	fake_gpu(p);
	cr_assert_eq(lx_open(&dev, &err), GTT_OK, "%s", err.msg);
	expect_page(&dev->info.pvinfo, p);
	hw_close(dev);
	nothing_written();
}

/* The fake guest made from p must not open: GTT_EINVAL, one line holding every needle, nothing written. */
static void refused(const struct page *p, const char *word, const char *value, const char *rule)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	fake_gpu(p);
	cr_assert_eq(lx_open(&dev, &err), GTT_EINVAL, "opened: %s", err.msg);
	cr_expect(strstr(err.msg, word) && strstr(err.msg, value) && strstr(err.msg, rule),
		  "'%s' lacks '%s', '%s' or '%s'", err.msg, word, value, rule);
	cr_expect(!strchr(err.msg, '\n'), "one line: %s", err.msg);
	nothing_written();
}

TestSuite(pvinfo_detect, .fini = cleanup);

Test(pvinfo_detect, a_guest_opens_in_guest_mode_with_every_word)
{
	opens_as(&guest);
}

Test(pvinfo_detect, minor_version_and_caps_are_taken_as_they_are)
{
	struct page p = guest;

	p.minor = 3;
	p.caps = 0x80000004;		/* FULL_PPGTT and a bit i915_pvinfo.h does not name */
	p.vgt_id = 0xdeadbeef;
	opens_as(&p);
}

Test(pvinfo_detect, the_slot_size_is_only_read_where_the_channel_is_offered)
{
	struct page p = guest;

	p.gm_magic = 0x6d4d6766;
	opens_as(&p);
}

/* Sizes 0 are a guest without such a range; the edges of the aperture, GGTT and fences are inside. */
Test(pvinfo_detect, empty_ranges_and_the_exact_edges_are_well_formed)
{
	struct page p = guest;

	p.map_base = p.map_size = p.high_base = p.high_size = p.fence_num = 0;
	opens_as(&p);
	p = guest;
	p.map_base = 192 * MiB;		/* ends at the aperture's end */
	p.high_base = 0xc0000000;	/* starts at ... */
	p.high_size = 0x40000000;	/* ... and ends at the 4 GiB GGTT's end */
	p.fence_num = 32;		/* every fence of a skl */
	opens_as(&p);
	p = guest;
	p.map_base = 0;
	p.map_size = 256 * MiB;		/* the whole aperture */
	p.high_base = 256 * MiB;	/* right after it */
	opens_as(&p);
}

Test(pvinfo_detect, a_native_gpu_has_no_magic)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	fake_gpu(NULL);
	cr_assert_eq(lx_open(&dev, &err), GTT_OK, "%s", err.msg);
	cr_expect(!dev->info.pvinfo.active);
	hw_close(dev);
	nothing_written();
}

/* Half a magic is no magic: the 64-bit word is compared whole, as i915's readq. */
Test(pvinfo_detect, half_a_magic_is_a_native_gpu)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct page p = guest;

	for (int half = 0; half < 2; half++) {
		p.magic = guest.magic ^ (1ull << (half ? 40 : 8));
		fake_gpu(&p);
		cr_assert_eq(lx_open(&dev, &err), GTT_OK, "%s", err.msg);
		cr_expect(!dev->info.pvinfo.active, "magic 0x%016llx taken", (unsigned long long)p.magic);
		hw_close(dev);
		nothing_written();
	}
}

Test(pvinfo_detect, every_simulated_platform_is_native)
{
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *p = &gtt_platforms[i];
		char spec[32];
		if (!gtt_platform_simulated(p))
			continue;
		snprintf(spec, sizeof(spec), "sim:%s", p->name);
		struct hw_device *dev = t_open(spec);
		cr_expect(!dev->info.pvinfo.active, "%s is in guest mode", spec);
		hw_close(dev);
	}
}

/* The model booted with a PVINFO page in its MMIO seed: guest mode on the sim backend, by reads alone. */
Test(pvinfo_detect, the_model_with_a_pvinfo_seed_is_a_guest_read_only)
{
	static uint8_t seed[2 << 20];
	struct hw_open_opts o = { .sim_mmio_seed = seed, .sim_mmio_seed_len = sizeof(seed) };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct hw_pvinfo pv = { 0 };
	struct sim_trace_entry e;
	struct page p = guest;

	p.high_base = 512 * MiB;	/* sim:hsw: a 512 MiB aperture, a 2 GiB GGTT */
	encode(&p, seed + PV);
	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), "sim:hsw", gtt_posix_backends, gtt_num_posix_backends,
			     &o, &dev, &err), GTT_OK, "%s", err.msg);
	expect_page(&dev->info.pvinfo, &p);
	struct sim_device *s = t_sim(dev);
	hw_counters_reset(dev);
	cr_assert_eq(sim_trace_start(s, 64), 0);
	cr_assert_eq(hw_detect_pvinfo(dev, &pv, &err), GTT_OK, "%s", err.msg);
	expect_page(&pv, &p);
	cr_expect_eq(dev->counters.mmio_writes + dev->counters.cfg_writes, 0);
	cr_expect_eq(dev->counters.mmio_reads, 12, "magic, version, 7 words, the channel's magic, slot size and GM_RUNS");
	cr_expect_gt(sim_trace_len(s), 0);
	for (size_t i = 0; sim_trace_get(s, i, &e); i++)
		cr_expect(e.kind == SIM_MMIO_READ && e.addr >= PV && e.addr < PV + 0x1000,
			  "access %zu: %s at 0x%llx", i, sim_access_name(e.kind), (unsigned long long)e.addr);
	hw_close(dev);
}

/* Checks read the page again after the host changed it: an out parameter, dev->info untouched. */
Test(pvinfo_detect, a_second_read_sees_a_resize_and_leaves_the_device_info_alone)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct hw_pvinfo pv = { 0 };
	uint32_t grown = 1024 * MiB, beyond = 0xc0001000;	/* 3 GiB + 4 KiB from 1 GiB: one page past the GGTT */

	fake_gpu(&guest);
	cr_assert_eq(lx_open(&dev, &err), GTT_OK, "%s", err.msg);
	put("resource0", &grown, 4, PV + 0x4c);
	cr_assert_eq(hw_detect_pvinfo(dev, &pv, &err), GTT_OK, "%s", err.msg);
	cr_expect_eq(pv.nonmappable_size, grown);
	cr_expect_eq(dev->info.pvinfo.nonmappable_size, guest.high_size, "the open's view changed");
	/* a malformed page on a re-read: an error, and the caller's view as it was */
	put("resource0", &beyond, 4, PV + 0x4c);
	cr_expect_eq(hw_detect_pvinfo(dev, &pv, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "nonmappable_gmadr.size"), "%s", err.msg);
	cr_expect_eq(pv.nonmappable_size, grown);
	hw_close(dev);
}

Test(pvinfo_detect, version_0_is_refused)
{
	struct page p = guest;

	p.major = 0;
	refused(&p, "version_major", "is 0", "i915 refuses a major below 1");
}

Test(pvinfo_detect, version_2_is_refused)
{
	struct page p = guest;

	p.major = 2;
	refused(&p, "version_major", "is 2", "layout 1.x of i915_pvinfo.h only");
}

Test(pvinfo_detect, an_unaligned_mappable_word_is_refused)
{
	struct page p = guest;

	p.map_base += 0x800;
	refused(&p, "mappable_gmadr.base", "0x04000800", "4 KiB");
	p = guest;
	p.map_size -= 1;
	refused(&p, "mappable_gmadr.size", "0x03ffffff", "4 KiB");
}

Test(pvinfo_detect, an_unaligned_nonmappable_word_is_refused)
{
	struct page p = guest;

	p.high_base += 0x10;
	refused(&p, "nonmappable_gmadr.base", "0x40000010", "4 KiB");
	p = guest;
	p.high_size += 0x1;
	refused(&p, "nonmappable_gmadr.size", "0x20000001", "4 KiB");
}

Test(pvinfo_detect, a_mappable_end_beyond_the_aperture_is_refused)
{
	struct page p = guest;

	p.map_base = 224 * MiB;		/* 64 MiB from 224 MiB: 32 MiB past a 256 MiB aperture */
	refused(&p, "mappable_gmadr.size", "0x04000000", "mappable_end > ggtt->mappable_end");
	p.map_base = 256 * MiB;		/* starts at its end */
	refused(&p, "mappable_gmadr.base", "0x10000000", "mappable_end > ggtt->mappable_end");
}

Test(pvinfo_detect, a_nonmappable_base_inside_the_aperture_is_refused)
{
	struct page p = guest;

	p.high_base = 128 * MiB;
	refused(&p, "nonmappable_gmadr.base", "0x08000000", "unmappable_base < ggtt->mappable_end");
}

Test(pvinfo_detect, a_nonmappable_end_beyond_the_ggtt_is_refused)
{
	struct page p = guest;

	p.high_base = 0xf0000000;	/* 512 MiB from 3.75 GiB: past the 4 GiB GGTT */
	refused(&p, "nonmappable_gmadr.size", "0x20000000", "unmappable_end > ggtt end");
}

Test(pvinfo_detect, a_fence_num_beyond_the_platforms_fences_is_refused)
{
	struct page p = guest;

	p.fence_num = 33;
	refused(&p, "fence_num", "is 33", "32 fences");
}

/* gttlab's channel offered with a slot that resizes nothing, or not by whole GGTT pages. */
Test(pvinfo_detect, a_channel_slot_size_of_zero_or_not_page_aligned_is_refused)
{
	struct page p = guest;

	p.slot_size = 0;
	refused(&p, "GM_SLOT_SIZE", "is 0x00000000", "non-zero multiple of 4 KiB");
	p.slot_size = 64 * MiB + 512;
	refused(&p, "GM_SLOT_SIZE", "is 0x04000200", "non-zero multiple of 4 KiB");
}

/* Non-contiguous slots: a high slice in three runs opens with every run; RUNS 0 (an older host) is one run. */
Test(pvinfo_detect, a_high_slice_in_runs_opens_with_every_run)
{
	struct page p = guest;

	p.runs = 3;
	p.run_base[1] = 0x80000000;
	p.run_size[1] = 64 * MiB;
	p.run_base[2] = 0xc0000000;
	p.run_size[2] = 128 * MiB;
	opens_as(&p);
	p.runs = 0;
	opens_as(&p);
}

/* Each rule of the runs: at most 8, each aligned, non-empty, above the aperture, in the GGTT, past the one before. */
Test(pvinfo_detect, malformed_runs_are_refused)
{
	struct page p = guest;

	p.runs = 9;
	refused(&p, "GM_RUNS", "is 9", "1 to 8 runs");
	p.runs = 2;
	p.run_base[1] = 0x80000000 + 512;
	p.run_size[1] = 64 * MiB;
	refused(&p, "GM_RUN_BASE", "0x80000200", "4 KiB page aligned");
	p.run_base[1] = 0x80000000;
	p.run_size[1] = 0;
	refused(&p, "run 1", "0x80000000+0x0", "non-empty range");
	p.run_base[1] = 0x08000000;	/* inside the 256 MiB aperture */
	p.run_size[1] = 64 * MiB;
	refused(&p, "run 1", "0x08000000", "between the aperture's end");
	p.run_base[1] = 0xfc000000;	/* 0xfc000000 + 128 MiB passes the 4 GiB GGTT */
	p.run_size[1] = 128 * MiB;
	refused(&p, "run 1", "0xfc000000", "GGTT's");
	p.run_base[1] = 0x50000000;	/* inside run 0, 1 GiB + 512 MiB */
	p.run_size[1] = 64 * MiB;
	refused(&p, "run 1", "0x50000000", "ascending and apart");
	p.high_size = 0;
	p.run_base[1] = 0x80000000;
	refused(&p, "GM_RUNS", "is 2", "run 0");
}

/* On the model too, and where the GGTT ends below 4 GiB (sim:hsw, 2 GiB) a base can lie past it. */
Test(pvinfo_detect, the_model_refuses_a_nonmappable_base_past_its_ggtt)
{
	static uint8_t seed[2 << 20];
	struct hw_open_opts o = { .sim_mmio_seed = seed, .sim_mmio_seed_len = sizeof(seed) };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	struct page p = guest;

	p.high_base = 0x80000000;
	p.high_size = 4096;
	encode(&p, seed + PV);
	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), "sim:hsw", gtt_posix_backends, gtt_num_posix_backends,
			     &o, &dev, &err), GTT_EINVAL, "opened: %s", err.msg);
	cr_expect(strstr(err.msg, "nonmappable_gmadr.base") && strstr(err.msg, "0x80000000") &&
		  strstr(err.msg, "2147483648-byte GGTT"), "%s", err.msg);
}
