/* SPDX-License-Identifier: MIT */
/*
 * A hostile guest inside vgpu:, at volume: seeded random accesses of any
 * width, offset and value to everything a guest can reach — its BAR0 (the
 * PVINFO page and the request channel, the PTE window over the whole GGTT,
 * every fence register, any other register), its aperture, the GPU side and
 * its config space — with the host's audit as the independent oracle:
 * after every batch the peers' bytes, the GGTT outside the guest, the
 * physical fences and the peers' scratch pages must be as the mediator
 * promises, and the runtime must still serve the guest. A failure names the
 * seed and the operation count, so `SEED` reproduces it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "dom0/dom0.h"
#include "dom0/guest_device.h"
#include "env/env_posix.h"
#include "hw/aperture.h"
#include "hw/backend_sim.h"
#include "regs/fence_reg.h"
#include "regs/pvinfo.h"
#include "tests/helpers.h"

#define OPS 6000
#define BATCH 300

static const struct hw_backend_factory *const backends[] = { &hw_sim_backend, &dom0_guest_device_backend };

/* An offset a guest would aim at: mostly where the traps are, sometimes anywhere in BAR0. */
static uint32_t target(struct hw_device *dev, uint64_t *rs)
{
	uint64_t r = t_rand(rs);
	uint32_t bar0 = (uint32_t)dev->info.bar0_size;

	switch (r % 6) {
	case 0:
	case 1:
		return VGT_PVINFO_PAGE + (uint32_t)((r >> 8) % VGT_PVINFO_SIZE);
	case 2:
	case 3:
		return dev->info.gsm_offset + (uint32_t)(((r >> 8) % dev->info.n_ptes) * dev->info.pte_size);
	case 4:
		return FENCE_REG_GEN6_LO(0) + (uint32_t)((r >> 8) % (I915_MAX_NUM_FENCES * 8));
	default:
		return (uint32_t)((r >> 8) % bar0);
	}
}

/* A value worth writing: a PTE naming a guest page (in or beyond its memory), a channel code, or anything. */
static uint64_t value(uint64_t *rs)
{
	uint64_t r = t_rand(rs);

	switch (r % 5) {
	case 0:
		return ((t_rand(rs) % 2048) << 12) | 1;
	case 1:
		return r % 16;
	case 2:
		return GTTLAB_G2V_GM_REQUEST;
	default:
		return t_rand(rs);
	}
}

static void one_op(struct hw_device *dev, uint64_t *rs, uint8_t *buf)
{
	const struct hw_backend_ops *o = dev->ops;
	uint64_t r = t_rand(rs), v = value(rs);
	uint32_t off = target(dev, rs);
	uint64_t gm = t_rand(rs) % dev->info.ggtt_size;
	size_t len = 1 + (size_t)(t_rand(rs) % 4096);

	switch (r % 8) {
	case 0:
	case 1:
		o->mmio_write32(dev->ctx, off & ~3u, (uint32_t)v);
		break;
	case 2:
		o->mmio_write64(dev->ctx, off & ~7u, v);
		break;
	case 3:
		/* half of the reads poll EPOCH, where a migrate= host moves the guest's high range */
		(void)o->mmio_read32(dev->ctx, v & 1 ? GTTLAB_IF_GM_EPOCH : off & ~3u);
		break;
	case 4:
		memset(buf, (int)(v & 0xff), len);
		(void)o->aperture_write(dev->ctx, gm % dev->info.aperture_size, buf,
					len > dev->info.aperture_size - gm % dev->info.aperture_size ? 1 : len);
		break;
	case 5:
		(void)o->gpu_write(dev->ctx, gm & ~0xfffull, buf, 4096);
		break;
	case 6:
		(void)o->gpu_read(dev->ctx, gm & ~0xfffull, buf, 4096);
		break;
	default:
		(void)o->cfg_write(dev->ctx, (unsigned)(t_rand(rs) % 64) * 4, 4, (uint32_t)v);
		break;
	}
}

/*
 * OPS random operations on `spec` (with the host's deliberate bugs f, or
 * none), the audit after every BATCH: true when every audit passed and the
 * guest is still served; otherwise false with why (naming seed and count).
 */
static uint64_t moves;	/* the host's moves in the last run (migrate=: slots, move=: devices) */

static bool hostile(const char *spec, const struct dom0_faults *f, uint64_t seed, char *why, size_t n)
{
	struct hw_open_opts oo = { .host_faults = f };
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	static uint8_t buf[4096];
	uint64_t rs = seed;
	char audit[200];
	bool ok = true;
	int guest;

	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, backends, 2, &oo, &dev, &err), 0, "%s: %s", spec, err.msg);
	struct dom0_runtime *rt = dom0_guest_device_runtime(dev, &guest);
	cr_assert_not_null(rt);
	for (unsigned i = 1; ok && i <= OPS; i++) {
		one_op(dev, &rs, buf);
		if (i % BATCH)
			continue;
		audit[0] = '\0';
		if (dev->ops->host_audit(dev->ctx, audit, sizeof(audit))) {
			snprintf(why, n, "%s, seed %llu, after %u operations: %s", spec, (unsigned long long)seed, i, audit);
			ok = false;
		} else if (!dom0_vgpu_exists(rt, guest)) {
			snprintf(why, n, "%s, seed %llu: the guest's vGPU is gone after %u operations", spec,
				 (unsigned long long)seed, i);
			ok = false;
		}
	}
	/* still a guest the runtime serves: PVINFO answers with the magic */
	if (ok && dev->ops->mmio_read64(dev->ctx, VGT_IF_MAGIC) != VGT_MAGIC) {
		snprintf(why, n, "%s, seed %llu: PVINFO no longer holds VGT_MAGIC", spec, (unsigned long long)seed);
		ok = false;
	}
	moves = dom0_counters(rt)->migrations;
	hw_close(dev);
	return ok;
}

Test(guest_device_hostile, random_guest_writes_reach_no_one_else_skl, .timeout = 300)
{
	char why[320];

	/* the host takes the guest to a spare model and back every 5 EPOCH reads: the stream follows it */
	for (uint64_t seed = 1; seed <= 3; seed++) {
		cr_expect(hostile("vgpu:sim:skl,migrate=0,move=5", NULL, seed * 0x9e3779b97f4a7c15ull, why, sizeof(why)), "%s",
			  why);
		cr_expect_gt(moves, 0, "seed %llu: the host never moved the guest to the spare model", (unsigned long long)seed);
	}
}

Test(guest_device_hostile, random_guest_writes_reach_no_one_else_hsw, .timeout = 300)
{
	char why[320];

	for (uint64_t seed = 1; seed <= 3; seed++) {
		cr_expect(hostile("vgpu:sim:hsw,switch=7,migrate=3", NULL, seed * 0xbf58476d1ce4e5b9ull, why, sizeof(why)),
			  "%s", why);
		cr_expect_gt(moves, 0, "seed %llu: the host never moved the guest's high range", (unsigned long long)seed);
	}
}

/*
 * The oracle bites: the same stream against a mediator that forgot a range
 * check on PTEs, or gives every vGPU one scratch page, damages someone else.
 */
Test(guest_device_hostile, the_audit_catches_a_mediator_bug_in_the_stream, .timeout = 300)
{
	struct dom0_faults outside = { .accept_pte_outside = true }, scratch = { .shared_scratch = true };
	char why[320];

	cr_expect(!hostile("vgpu:sim:skl", &outside, 0x9e3779b97f4a7c15ull, why, sizeof(why)), "accept_pte_outside went unseen");
	cr_expect(strstr(why, "GGTT entry"), "%s", why);
	cr_expect(!hostile("vgpu:sim:skl", &scratch, 0x9e3779b97f4a7c15ull, why, sizeof(why)), "shared_scratch went unseen");
	cr_expect(strstr(why, "scratch page"), "%s", why);
}
