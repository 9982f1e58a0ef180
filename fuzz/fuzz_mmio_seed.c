/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for booting the simulated device from an MMIO seed
 * (hw_open_opts.sim_mmio_seed, loaded by hw/sim/sim_snapshot.c) and for
 * everything that then reads MMIO: the fence registers and their decoding,
 * the scanout scan of the display planes and cursors, GGTT PTE reads, and
 * CPU reads through the aperture, which the model translates through the
 * fence registers the seed set.
 *
 * A seed is exactly 2 MiB, far more than a fuzzer input, so the input is a
 * list of patches to an all-zero seed:
 *
 *   byte 0     bits 2:0 pick the platform (sim:snb, sim:ivb, ...)
 *   byte 1     how the seed reaches the device:
 *                0xfe  hw_open with the seed (a fresh boot)
 *                0xff  hw_open with the input's own length as the seed's
 *                      length, which must be refused unless it is 2 MiB
 *                else  the platform's device, booted once, takes the seed
 *                      through the same loader (sim_snapshot_load) that
 *                      hw_open calls right after booting
 *   then       7-byte records: a 3-byte little-endian register offset
 *              (dword aligned, within 2 MiB) and a 4-byte value
 *
 * so a few bytes reach any register, and seeds in the corpus name the
 * interesting ones (fences, planes, cursors, the flush register). Booting
 * builds the whole GGTT (about 0.1 s under the sanitizers), which would hold
 * the harness to ten inputs a second; the exercise below only reads, and the
 * loader replaces every register, so a reused device is in the state a fresh
 * boot with the same seed gives. Hence the budget: at most one input in 64
 * boots (0xfe and 0xff beyond it take the reused device); the first input
 * always may, so an input saved by libFuzzer reproduces on its own.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/aperture.h"
#include "hw/backend_sim.h"
#include "hw/device.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/scanout.h"
#include "hw/sim/sim.h"
#include "regs/mmio.h"
#include "regs/platform.h"
#include "regs/pvinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REC 7
#define MAX_PATCHES 512

static void broken(const char *spec, const char *what)
{
	fprintf(stderr, "fuzz_mmio_seed: %s: %s\n", spec, what);
	abort();
}

/*
 * A boot that failed: allowed only when the seed put VGT_MAGIC in the PVINFO
 * page and the page it made is malformed, which detection must refuse with
 * one line naming the PVINFO word (hw/detect_pvinfo.h), never take.
 */
static void boot_refused(const char *spec, const uint8_t *seed, int rc, const struct gtt_err *err)
{
	uint64_t magic;

	memcpy(&magic, seed + VGT_PVINFO_PAGE, sizeof(magic));
	if (magic != VGT_MAGIC || rc != GTT_EINVAL || strncmp(err->msg, "PVINFO ", 7) || strchr(err->msg, '\n'))
		broken(spec, err->msg);
}

/* The registers-only checks: nothing here may fail on any seed. */
static void exercise(struct hw_device *dev, const char *spec, const uint8_t *data, size_t size)
{
	const struct hw_info *in = &dev->info;
	struct gtt_err err = { 0 };
	struct hw_scanout sc[HW_SCANOUT_MAX];
	uint8_t buf[64];
	uint64_t v;

	if (!in->plat || !in->n_ptes || in->n_ptes * in->pte_size != in->gsm_size ||
	    in->gsm_offset + in->gsm_size > in->bar0_size || in->aperture_size > in->ggtt_size)
		broken(spec, "inconsistent device facts");
	for (unsigned i = 0; i < in->num_fences; i++) {
		struct hw_fence f;
		if (hw_fence_read(dev, i, &v, &err))
			broken(spec, err.msg);
		hw_fence_decode(in->plat, v, &f);
		if (!f.valid || hw_fence_validate(in->plat, in->aperture_size, &f, &err))
			continue;
		/* through the fence, where the model detiles: its first and last bytes */
		hw_aperture_read(dev, f.start, buf, sizeof(buf), &err);
		hw_aperture_read(dev, f.start + f.size - sizeof(buf), buf, sizeof(buf), &err);
	}
	size_t n = hw_scanout_ranges(dev, sc, sizeof(sc) / sizeof(sc[0]));
	if (n > sizeof(sc) / sizeof(sc[0]))
		broken(spec, "hw_scanout_ranges filled more ranges than asked");
	for (size_t i = 0; i < n; i++)
		if (sc[i].start >= sc[i].end || !sc[i].what)
			broken(spec, "a scanout range is empty or unnamed");
	uint64_t idx[4] = { 0, in->n_ptes - 1, 0, 0 };
	if (size >= 8) {
		memcpy(&idx[2], data + size - 8, 4);
		memcpy(&idx[3], data + size - 4, 4);
	}
	for (size_t i = 0; i < 4; i++) {
		uint64_t pte;
		if (hw_ggtt_read_pte(dev, idx[i] % in->n_ptes, &pte, &err))
			broken(spec, err.msg);
		hw_aperture_read(dev, (idx[i] % in->n_ptes) * 4096 % in->aperture_size, buf, 16, &err);
	}
	if (!hw_ggtt_read_pte(dev, in->n_ptes, &v, &err))
		broken(spec, "a PTE beyond the GGTT was read");
}

static int boot(const char *spec, const void *seed, size_t len, struct hw_device **dev, struct gtt_err *err)
{
	struct hw_open_opts o = { .sim_mmio_seed = seed, .sim_mmio_seed_len = len };

	return hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, gtt_posix_backends, gtt_num_posix_backends, &o, dev, err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* one booted device per platform, kept for the whole run */
	static struct hw_device *cached[32];
	static uint8_t seed[GTT_MMIO_SIZE];
	uint32_t patched[MAX_PATCHES];
	size_t n_patched = 0;
	char spec[32];

	if (size < 2)
		return 0;
	const struct gtt_platform *sims[32];
	size_t n_sims = 0;
	for (size_t i = 0; i < gtt_num_platforms && n_sims < 32; i++)
		if (gtt_platform_simulated(&gtt_platforms[i]))
			sims[n_sims++] = &gtt_platforms[i];
	size_t k = (data[0] & 15) % n_sims;
	const struct gtt_platform *p = sims[k];
	static unsigned long runs, boots;
	bool may_boot = boots * 64 <= runs++;
	bool fresh = may_boot && data[1] == 0xfe, raw_len = may_boot && data[1] == 0xff;
	boots += fresh || raw_len;
	snprintf(spec, sizeof(spec), "sim:%s", p->name);
	for (size_t off = 2; off + REC <= size && n_patched < MAX_PATCHES; off += REC) {
		uint32_t reg = (data[off] | data[off + 1] << 8 | (uint32_t)data[off + 2] << 16) & (GTT_MMIO_SIZE - 4);
		memcpy(seed + reg, data + off + 3, 4);
		patched[n_patched++] = reg;
	}

	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	if (raw_len) {
		int rc = boot(spec, seed, size, &dev, &err);
		if (size != sizeof(seed) && rc != GTT_EINVAL)
			broken(spec, "a seed of the wrong length was not refused");
		if (!rc)
			hw_close(dev);
	} else if (fresh) {
		int rc = boot(spec, seed, sizeof(seed), &dev, &err);
		if (rc) {
			boot_refused(spec, seed, rc, &err);
		} else {
			exercise(dev, spec, data, size);
			hw_close(dev);
		}
	} else {
		int rc = cached[k] ? GTT_OK : boot(spec, seed, sizeof(seed), &cached[k], &err);
		if (rc) {
			boot_refused(spec, seed, rc, &err);
			for (size_t i = 0; i < n_patched; i++)
				memset(seed + patched[i], 0, 4);
			return 0;
		}
		dev = cached[k];
		/* the size check without a boot, when the budget denied one */
		if (data[1] == 0xff && sim_snapshot_load(hw_sim_model(dev), seed, size, &err) != GTT_EINVAL)
			broken(spec, "the loader took a seed of the wrong length");
		if (sim_snapshot_load(hw_sim_model(dev), seed, sizeof(seed), &err))
			broken(spec, err.msg);
		exercise(dev, spec, data, size);
	}
	for (size_t i = 0; i < n_patched; i++)
		memset(seed + patched[i], 0, 4);
	return 0;
}
