/* SPDX-License-Identifier: MIT */
/*
 * vgpu: — a vGPU of our own Dom0 runtime, opened as a device
 * (dom0/guest_device.h). The guest's side is driven through hw/ as any
 * device's is; the host's side is looked at behind it (the runtime, the
 * model and its trace) with the test's own decode of the physical GTT
 * (tests/dom0_helpers.h), not hw/'s.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "env/env_posix.h"
#include "hw/aperture.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"
#include "regs/pvinfo.h"
#include "tests/dom0_helpers.h"

#define MiB (1ull << 20)

static const struct hw_backend_factory *const backends[] = { &hw_sim_backend, &dom0_guest_device_backend };
static const char *const plats[] = { "skl", "hsw" };

struct gdt {
	struct hw_device *dev;		/* the guest's view */
	struct d0 h;			/* behind it: the host device, its model, the runtime */
	int guest;
	int peer[8];
	unsigned n_peers;
	struct dom0_vgpu_info in;	/* the guest's vGPU at open */
};

static int gd_try(const char *spec, const struct dom0_faults *f, struct hw_device **dev, struct gtt_err *err)
{
	struct hw_open_opts o = { .host_faults = f };

	return hw_open(gtt_env_posix(GTT_LOG_ERROR), spec, backends, 2, &o, dev, err);
}

static void gd_open(struct gdt *t, const char *spec, const struct dom0_faults *f)
{
	struct gtt_err err = { 0 };

	memset(t, 0, sizeof(*t));
	cr_assert_eq(gd_try(spec, f, &t->dev, &err), 0, "opening %s: %s", spec, err.msg);
	t->h.rt = dom0_guest_device_runtime(t->dev, &t->guest);
	cr_assert_not_null(t->h.rt, "%s shows no runtime behind it", spec);
	t->h.dev = dom0_device(t->h.rt);
	t->h.sim = hw_sim_model(t->h.dev);
	cr_assert_not_null(t->h.sim, "the host of %s is not the model", spec);
	t->n_peers = dom0_guest_device_peers(t->dev, t->peer, 8);
	cr_assert_eq(dom0_vgpu_info(t->h.rt, t->guest, &t->in), 0);
}

static void gd_openf(struct gdt *t, const struct dom0_faults *f, const char *fmt, const char *plat)
{
	char spec[96];

	snprintf(spec, sizeof(spec), fmt, plat);
	gd_open(t, spec, f);
}

static int gd_audit(struct gdt *t, char *why, size_t n)
{
	why[0] = '\0';
	return t->dev->ops->host_audit(t->dev->ctx, why, n);
}

static void gd_audit_ok(struct gdt *t, const char *after)
{
	char why[256];

	cr_assert_eq(gd_audit(t, why, sizeof(why)), 0, "%s: the host audit failed after %s: %s", t->dev->name, after, why);
}

/* The audit fails, naming `what`. */
static void gd_audit_fails(struct gdt *t, const char *what, const char *after)
{
	char why[256];

	cr_assert_neq(gd_audit(t, why, sizeof(why)), 0, "%s: the host audit passed after %s", t->dev->name, after);
	cr_assert(strstr(why, what), "the audit after %s says '%s', not naming '%s'", after, why, what);
}

static void gd_pages(struct gdt *t, size_t n, struct hw_page *pg)
{
	struct gtt_err err = { 0 };

	cr_assert_eq(hw_alloc_test_pages(t->dev, n, pg, &err), 0, "%s", err.msg);
}

/* The guest's PTE for one of its pages, as its driver encodes it. */
static uint64_t gd_pte(struct gdt *t, const struct hw_page *pg)
{
	struct gtt_err err = { 0 };
	uint64_t pte;

	cr_assert_eq(hw_pte_encode_for(&t->dev->info, pg->phys, HW_CACHE_NONE, &pte, &err), 0, "%s", err.msg);
	return pte;
}

static void gd_map(struct gdt *t, uint64_t index, const struct hw_page *pg)
{
	struct gtt_err err = { 0 };

	cr_assert_eq(hw_ggtt_write_pte(t->dev, index, gd_pte(t, pg), &err), 0, "%s", err.msg);
}

/* The host page behind a guest test page (guest-physical address -> host). */
static uint64_t gd_host_addr(struct gdt *t, const struct hw_page *pg)
{
	struct hw_page hp;

	cr_assert_eq(dom0_guest_page(t->h.rt, t->guest, pg->phys >> 12, &hp), 0);
	return hp.phys;
}

static uint64_t low_index(const struct gdt *t, uint64_t i) { return (t->in.low_base >> 12) + i; }
static uint64_t high_index(const struct gdt *t, uint64_t i) { return (t->in.high_base >> 12) + i; }

Test(guest_device, opens_with_pvinfo_and_the_hosts_identity)
{
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct gdt t;
		gd_openf(&t, NULL, "vgpu:sim:%s", plats[p]);
		const struct hw_info *gi = &t.dev->info, *hi = &t.h.dev->info;
		cr_expect_eq(gi->plat, hi->plat, "%s: the guest sees %s", plats[p], gi->plat->name);
		cr_expect_eq(gi->devid, hi->devid);
		cr_expect_eq(gi->aperture_size, hi->aperture_size, "a GVT-g guest's BAR2 is as large as the host's");
		cr_expect_eq(gi->n_ptes, hi->n_ptes);
		cr_expect_eq(gi->stolen_size, 0, "GVT-g shows its guests no stolen memory: %llu", (unsigned long long)gi->stolen_size);
		/* PVINFO through the guest's own MMIO reads, as i915's intel_vgpu_detect reads it */
		cr_expect_eq(hw_mmio_read64(t.dev, VGT_IF_MAGIC), VGT_MAGIC);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_VERSION) & 0xffff, VGT_VERSION_MAJOR);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_VGT_ID), (uint32_t)t.guest);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_MAPPABLE_BASE), (uint32_t)t.in.low_base);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_MAPPABLE_SIZE), 32 * MiB);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_NONMAPPABLE_BASE), (uint32_t)t.in.high_base);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_NONMAPPABLE_SIZE), (uint32_t)dom0_layout(t.h.rt)->slot_size);
		cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_FENCE_NUM), 4);
		cr_expect_eq(hw_mmio_read32(t.dev, GTTLAB_IF_GM_MAGIC), GTTLAB_GM_MAGIC);
		/* once detection reads PVINFO at open (guest mode), what it found is this vGPU */
		if (gi->pvinfo.active) {
			cr_expect_eq(gi->pvinfo.mappable_base, t.in.low_base);
			cr_expect_eq(gi->pvinfo.mappable_size, t.in.low_size);
			cr_expect_eq(gi->pvinfo.nonmappable_base, t.in.high_base);
			cr_expect_eq(gi->pvinfo.nonmappable_size, t.in.high_size);
			cr_expect_eq(gi->pvinfo.fence_num, 4);
			cr_expect_eq(gi->pvinfo.vgt_id, (uint32_t)t.guest);
		}
		cr_expect_eq(t.n_peers, 2);
		cr_expect_null(hw_sim_model(t.dev), "a guest sees no model");
		cr_expect_null(dom0_guest_device_runtime(t.h.dev, NULL), "the host is no vgpu: device");
		gd_audit_ok(&t, "open");
		hw_close(t.dev);
	}
	struct gdt t;
	gd_open(&t, "vgpu:sim:hsw,peers=3,switch=8", NULL);
	cr_expect_eq(t.n_peers, 3);
	hw_close(t.dev);
	gd_open(&t, "vgpu:sim:skl,edram,low=8,high=2,fences=2,mem=64,peers=0", NULL);
	cr_expect_eq(t.n_peers, 0);
	cr_expect_gt(t.h.dev->info.edram_mb, 0, "'edram' went to the host's spec");
	cr_expect_eq(t.in.low_size, 8 * MiB);
	cr_expect_eq(t.in.slots, 2);
	cr_expect_eq(t.in.fences, 2);
	cr_expect_eq(t.in.mem_pages, 64);
	gd_audit_ok(&t, "open without peers");
	hw_close(t.dev);
}

Test(guest_device, pte_write_reads_back_and_the_aperture_reaches_the_page)
{
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct gdt t;
		struct hw_page pg[2];
		struct gtt_err err = { 0 };
		uint64_t v = 0;
		char got[32];
		static const char msg[] = "through the guest's aperture";

		gd_openf(&t, NULL, "vgpu:sim:%s,switch=0", plats[p]);
		gd_pages(&t, 2, pg);
		gd_map(&t, low_index(&t, 5), &pg[0]);
		gd_map(&t, high_index(&t, 3), &pg[1]);
		cr_assert_eq(hw_ggtt_read_pte(t.dev, low_index(&t, 5), &v, &err), 0);
		cr_expect_eq(v, gd_pte(&t, &pg[0]), "%s: the guest's PTE reads back 0x%llx", plats[p], (unsigned long long)v);
		cr_assert_eq(hw_ggtt_read_pte(t.dev, high_index(&t, 3), &v, &err), 0);
		cr_expect_eq(v, gd_pte(&t, &pg[1]));
		/* the guest owns the render engine: the physical entries name the host pages behind its pages */
		cr_expect_eq(d0_pte_addr(&t.h, d0_phys(&t.h, low_index(&t, 5))), gd_host_addr(&t, &pg[0]));
		cr_expect_eq(d0_pte_addr(&t.h, d0_phys(&t.h, high_index(&t, 3))), gd_host_addr(&t, &pg[1]));
		uint64_t gm = low_index(&t, 5) * 4096 + 100;
		cr_assert_eq(hw_aperture_write(t.dev, gm, msg, sizeof(msg), &err), 0, "%s", err.msg);
		cr_expect_eq(memcmp((uint8_t *)pg[0].cpu + 100, msg, sizeof(msg)), 0, "%s: the bytes are not at the page's CPU pointer", plats[p]);
		cr_assert_eq(hw_aperture_read(t.dev, gm, got, sizeof(msg), &err), 0, "%s", err.msg);
		cr_expect_eq(memcmp(got, msg, sizeof(msg)), 0);
		/* outside its slice: an error, and nothing written anywhere */
		uint8_t before[64], after[64];
		sim_aperture_read(t.h.sim, 4096, before, sizeof(before));
		cr_expect_neq(hw_aperture_write(t.dev, 4096, msg, sizeof(msg), &err), 0, "%s: a write into the host's low range", plats[p]);
		cr_expect_neq(hw_aperture_read(t.dev, t.in.low_base + t.in.low_size, got, 8, &err), 0);
		sim_aperture_read(t.h.sim, 4096, after, sizeof(after));
		cr_expect_eq(memcmp(before, after, sizeof(before)), 0);
		gd_audit_ok(&t, "PTE and aperture writes");
		hw_close(t.dev);
	}
}

Test(guest_device, pte_write_outside_the_ranges_is_dropped)
{
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct gdt t;
		struct hw_page pg;
		struct dom0_vgpu_info pin;
		struct gtt_err err = { 0 };

		gd_openf(&t, NULL, "vgpu:sim:%s,switch=0", plats[p]);
		gd_pages(&t, 1, &pg);
		cr_assert_eq(dom0_vgpu_info(t.h.rt, t.peer[0], &pin), 0);
		const struct dom0_layout *l = dom0_layout(t.h.rt);
		uint64_t idx[] = { 10, l->pool_base >> 12, l->reserved_base >> 12, l->host_high_base >> 12,
				   pin.high_base >> 12, (pin.high_base >> 12) + 1, t.dev->info.n_ptes - 1 };
		for (size_t i = 0; i < sizeof(idx) / sizeof(idx[0]); i++) {
			uint64_t before = d0_phys(&t.h, idx[i]), shadow0 = 0, shadow1 = 0, v = 1;
			bool peers = !dom0_shadow_pte(t.h.rt, t.peer[0], idx[i], &shadow0, NULL);
			/* as GVT-g drops it: the guest's write itself is not refused */
			cr_expect_eq(hw_ggtt_write_pte(t.dev, idx[i], gd_pte(&t, &pg), &err), 0, "%s", err.msg);
			cr_expect_eq(d0_phys(&t.h, idx[i]), before, "%s: host PTE %llu changed to 0x%llx by a guest write outside its ranges",
				     plats[p], (unsigned long long)idx[i], (unsigned long long)d0_phys(&t.h, idx[i]));
			if (peers) {
				dom0_shadow_pte(t.h.rt, t.peer[0], idx[i], &shadow1, NULL);
				cr_expect_eq(shadow1, shadow0, "the peer's shadow entry %llu changed", (unsigned long long)idx[i]);
			}
			cr_assert_eq(hw_ggtt_read_pte(t.dev, idx[i], &v, &err), 0);
			cr_expect_eq(v, 0, "%s: a refused read reads 0x%llx, not 0", plats[p], (unsigned long long)v);
		}
		gd_audit_ok(&t, "writes outside the ranges");
		hw_close(t.dev);
	}
}

Test(guest_device, fence_below_the_count_programs_a_pool_fence)
{
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct gdt t;
		struct gtt_err err = { 0 };
		uint64_t before[32], now[32], val, v = 1;

		gd_openf(&t, NULL, "vgpu:sim:%s,switch=0", plats[p]);
		const struct dom0_layout *l = dom0_layout(t.h.rt);
		unsigned nf = t.h.dev->info.num_fences;
		for (unsigned i = 0; i < nf; i++)
			hw_fence_read(t.h.dev, i, &before[i], NULL);
		struct hw_fence f = { .start = t.in.low_base + MiB, .size = 0x10000, .stride = 4096, .tiling = HW_TILING_X, .valid = true };
		cr_assert_eq(hw_fence_encode(t.dev->info.plat, t.dev->info.aperture_size, &f, &val, &err), 0, "%s", err.msg);
		cr_assert_eq(hw_fence_write(t.dev, 0, val, &err), 0, "%s", err.msg);
		cr_assert_eq(hw_fence_read(t.dev, 0, &v, &err), 0);
		cr_expect_eq(v, val, "%s: fence 0 reads back 0x%llx, written 0x%llx", plats[p], (unsigned long long)v, (unsigned long long)val);
		unsigned changed = 0;
		for (unsigned i = 0; i < nf; i++) {
			hw_fence_read(t.h.dev, i, &now[i], NULL);
			if (now[i] == before[i])
				continue;
			struct hw_fence pf;
			hw_fence_decode(t.h.dev->info.plat, now[i], &pf);
			changed++;
			cr_expect(pf.valid && pf.start >= l->pool_base && pf.start + pf.size <= l->pool_base + l->pool_size,
				  "%s: physical fence %u (0x%llx) is not a fence in the pool", plats[p], i, (unsigned long long)now[i]);
			cr_expect(pf.stride == f.stride && pf.tiling == f.tiling && pf.size == f.size);
		}
		cr_expect_eq(changed, 1, "%s: %u physical fences changed", plats[p], changed);
		/* fence 4 of a vGPU with 4: dropped, reads 0, the host untouched */
		hw_mmio_write32(t.dev, FENCE_REG_GEN6_HI(4), (uint32_t)(val >> 32));
		hw_mmio_write32(t.dev, FENCE_REG_GEN6_LO(4), (uint32_t)val);
		cr_expect_eq(hw_mmio_read32(t.dev, FENCE_REG_GEN6_LO(4)), 0);
		cr_expect_eq(hw_mmio_read64(t.dev, FENCE_REG_GEN6_LO(4)), 0);
		for (unsigned i = 0; i < nf; i++) {
			hw_fence_read(t.h.dev, i, &v, NULL);
			cr_expect_eq(v, now[i], "%s: physical fence %u changed by a write of guest fence 4", plats[p], i);
		}
		gd_audit_ok(&t, "fence writes");
		cr_assert_eq(hw_fence_write(t.dev, 0, 0, &err), 0, "%s", err.msg);
		for (unsigned i = 0; i < nf; i++) {
			hw_fence_read(t.h.dev, i, &v, NULL);
			cr_expect_eq(v, before[i], "%s: physical fence %u not given back after the guest turned its fence off", plats[p], i);
		}
		hw_close(t.dev);
	}
}

Test(guest_device, gpu_side_inside_its_ranges_only)
{
	struct gdt t;
	struct hw_page pg[2];
	struct dom0_vgpu_info pin;
	uint8_t buf[64];
	struct gtt_err err = { 0 };

	gd_open(&t, "vgpu:sim:skl,switch=0", NULL);
	gd_pages(&t, 2, pg);
	memset(pg[0].cpu, 0x5a, 4096);
	memset(pg[1].cpu, 0xa5, 4096);
	gd_map(&t, low_index(&t, 2), &pg[0]);
	gd_map(&t, high_index(&t, 7), &pg[1]);
	/* a peer holds the render engine: the guest's GPU work switches it back in first */
	cr_assert_eq(dom0_switch(t.h.rt, t.peer[0], NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_gpu_read(t.dev, low_index(&t, 2) * 4096, buf, sizeof(buf), &err), 0, "%s", err.msg);
	cr_expect_eq(buf[0], 0x5a);
	cr_expect_eq(buf[63], 0x5a);
	cr_expect_eq(dom0_render_owner(t.h.rt), t.guest);
	cr_assert_eq(dom0_switch(t.h.rt, t.peer[1], NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_gpu_read(t.dev, high_index(&t, 7) * 4096, buf, sizeof(buf), &err), 0, "%s", err.msg);
	cr_expect_eq(buf[0], 0xa5);
	cr_assert_eq(hw_gpu_write(t.dev, high_index(&t, 7) * 4096 + 8, "gpu", 3, &err), 0, "%s", err.msg);
	cr_expect_eq(memcmp((uint8_t *)pg[1].cpu + 8, "gpu", 3), 0);
	/* outside: the host's low range, a peer's high range, across the end of its low range */
	cr_assert_eq(dom0_vgpu_info(t.h.rt, t.peer[1], &pin), 0);
	cr_assert_eq(dom0_switch(t.h.rt, t.peer[1], NULL, &err), 0, "%s", err.msg);
	cr_expect_neq(hw_gpu_read(t.dev, 0, buf, sizeof(buf), &err), 0);
	cr_expect_neq(hw_gpu_read(t.dev, pin.high_base, buf, sizeof(buf), &err), 0);
	cr_expect_neq(hw_gpu_write(t.dev, pin.high_base, "bad", 3, &err), 0);
	cr_expect_neq(hw_gpu_read(t.dev, t.in.low_base + t.in.low_size - 8, buf, 16, &err), 0);
	cr_expect_eq(dom0_render_owner(t.h.rt), t.peer[1], "a refused GPU access switched the guest in");
	gd_audit_ok(&t, "GPU-side accesses");
	hw_close(t.dev);
}

Test(guest_device, audit_names_what_was_damaged_behind_the_runtime)
{
	struct gdt t;
	struct hw_page pg[2], hp;
	struct dom0_vgpu_info pin;
	struct gtt_err err = { 0 };
	char name[32];

	gd_open(&t, "vgpu:sim:skl", NULL);
	/* guest work first, the host switching its render owner every 16 traps */
	gd_pages(&t, 2, pg);
	gd_map(&t, low_index(&t, 0), &pg[0]);
	gd_map(&t, high_index(&t, 0), &pg[1]);
	cr_assert_eq(hw_aperture_write(t.dev, t.in.low_base, "guest", 5, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_gpu_write(t.dev, t.in.high_base, "gpu", 3, &err), 0, "%s", err.msg);
	struct hw_fence f = { .start = t.in.low_base, .size = 0x10000, .stride = 4096, .tiling = HW_TILING_X, .valid = true };
	uint64_t val;
	cr_assert_eq(hw_fence_encode(t.dev->info.plat, t.dev->info.aperture_size, &f, &val, &err), 0);
	cr_assert_eq(hw_fence_write(t.dev, 1, val, &err), 0);
	for (int i = 0; i < 100; i++)
		(void)hw_mmio_read32(t.dev, VGT_IF_VGT_ID);
	int owner = dom0_render_owner(t.h.rt);
	gd_audit_ok(&t, "guest work");
	cr_expect_eq(dom0_render_owner(t.h.rt), owner, "the audit did not put the render owner back");

	/* a byte of a peer's low range */
	snprintf(name, sizeof(name), "peer vGPU %d", t.peer[1]);
	cr_assert_eq(dom0_guest_page(t.h.rt, t.peer[1], 3, &hp), 0);
	((uint8_t *)hp.cpu)[17] ^= 0x40;
	gd_audit_fails(&t, name, "a peer's low-range byte changed");
	((uint8_t *)hp.cpu)[17] ^= 0x40;
	gd_audit_ok(&t, "the byte put back");
	/* a byte of a peer's high pages */
	cr_assert_eq(dom0_vgpu_info(t.h.rt, t.peer[0], &pin), 0);
	snprintf(name, sizeof(name), "peer vGPU %d", t.peer[0]);
	cr_assert_eq(dom0_guest_page(t.h.rt, t.peer[0], (pin.low_size >> 12) + 2, &hp), 0);
	((uint8_t *)hp.cpu)[4095] ^= 1;
	gd_audit_fails(&t, "high range", "a peer's high-range byte changed");
	gd_audit_fails(&t, name, "a peer's high-range byte changed");
	((uint8_t *)hp.cpu)[4095] ^= 1;
	/* a peer's scratch page */
	uint8_t b;
	sim_mem_read(t.h.sim, pin.scratch_phys + 9, &b, 1);
	b ^= 0xff;
	sim_mem_write(t.h.sim, pin.scratch_phys + 9, &b, 1);
	gd_audit_fails(&t, "scratch page", "a peer's scratch byte changed");
	b ^= 0xff;
	sim_mem_write(t.h.sim, pin.scratch_phys + 9, &b, 1);
	/* a physical fence nobody of the guest's holds */
	unsigned last = t.h.dev->info.num_fences - 1;
	uint32_t lo = sim_mmio_read32(t.h.sim, FENCE_REG_GEN6_LO(last));
	sim_mmio_write32(t.h.sim, FENCE_REG_GEN6_LO(last), lo ^ 0x1000);
	snprintf(name, sizeof(name), "physical fence %u", last);
	gd_audit_fails(&t, name, "a physical fence changed");
	sim_mmio_write32(t.h.sim, FENCE_REG_GEN6_LO(last), lo);
	/* a GGTT entry in the host's low range naming a guest page */
	uint64_t stray, old = d0_phys(&t.h, 10);
	cr_assert_eq(hw_pte_encode_for(&t.h.dev->info, gd_host_addr(&t, &pg[0]), HW_CACHE_NONE, &stray, &err), 0);
	sim_mmio_write64(t.h.sim, t.h.dev->info.gsm_offset + 10 * 8, stray);
	gd_audit_fails(&t, "GGTT entry 10 ", "a host entry mapping a guest page");
	sim_mmio_write64(t.h.sim, t.h.dev->info.gsm_offset + 10 * 8, old);
	gd_audit_ok(&t, "everything put back");
	hw_close(t.dev);
}

/* Bytes written through the aperture while the guest runs, read back once a peer owns the render engine. */
static bool survives_a_peer(const struct dom0_faults *f, char *why, size_t n)
{
	struct gdt t;
	struct hw_page pg;
	struct gtt_err err = { 0 };
	char got[16];
	static const char msg[] = "guest's bytes";

	gd_open(&t, "vgpu:sim:skl,switch=0", f);
	gd_pages(&t, 1, &pg);
	gd_map(&t, low_index(&t, 1), &pg);
	cr_assert_eq(hw_aperture_write(t.dev, low_index(&t, 1) * 4096, msg, sizeof(msg), &err), 0, "%s", err.msg);
	cr_assert_eq(hw_aperture_read(t.dev, low_index(&t, 1) * 4096, got, sizeof(msg), &err), 0, "%s", err.msg);
	cr_assert_eq(memcmp(got, msg, sizeof(msg)), 0, "the guest does not read its own bytes while it runs");
	cr_assert_eq(dom0_switch(t.h.rt, t.peer[0], NULL, &err), 0, "%s", err.msg);
	cr_assert_eq(hw_aperture_read(t.dev, low_index(&t, 1) * 4096, got, sizeof(msg), &err), 0, "%s", err.msg);
	bool same = !memcmp(got, msg, sizeof(msg));
	/* and a write while the peer runs: the audit must find the peer damaged, or not */
	cr_assert_eq(hw_aperture_write(t.dev, low_index(&t, 1) * 4096, "XXXXXXXX", 8, &err), 0, "%s", err.msg);
	gd_audit(&t, why, n);
	hw_close(t.dev);
	return same;
}

Test(guest_device, no_ladder_shows_through_the_aperture)
{
	struct dom0_faults f = { .no_ladder = true };
	char why[256], name[32];

	cr_expect(survives_a_peer(NULL, why, sizeof(why)), "without a fault the guest's bytes change when a peer runs");
	cr_expect_eq(why[0], '\0', "without a fault the audit failed: %s", why);
	cr_expect(!survives_a_peer(&f, why, sizeof(why)), "no_ladder: the guest's bytes stayed when a peer ran");
	snprintf(name, sizeof(name), "peer vGPU %d", 2);	/* the first peer: the guest is vGPU 1 */
	cr_expect(strstr(why, name), "no_ladder: a guest write while the peer ran; the audit says '%s'", why);
}

/* A PVINFO request of the guest: CODE, COUNT, SEQ, the doorbell; its STATUS, answered at once. */
static uint32_t gd_request(struct gdt *t, uint32_t code, uint32_t count, uint32_t seq)
{
	hw_mmio_write32(t->dev, GTTLAB_IF_GM_CODE, code);
	hw_mmio_write32(t->dev, GTTLAB_IF_GM_COUNT, count);
	hw_mmio_write32(t->dev, GTTLAB_IF_GM_SEQ, seq);
	hw_raw_mmio_put(t->dev, VGT_IF_G2V_NOTIFY, 4, GTTLAB_G2V_GM_REQUEST);
	cr_expect_eq(hw_mmio_read32(t->dev, GTTLAB_IF_GM_ANSWER_SEQ), seq);
	return hw_mmio_read32(t->dev, GTTLAB_IF_GM_STATUS);
}

/* The guest grows by a slot, maps a page there and runs, gives the slot back; the audit's verdict. */
static int grow_map_shrink(const struct dom0_faults *f, char *why, size_t n)
{
	struct gdt t;
	struct hw_page pg;
	struct gtt_err err = { 0 };
	uint8_t b;

	gd_open(&t, "vgpu:sim:skl", f);
	gd_pages(&t, 1, &pg);
	cr_assert_eq(gd_request(&t, GTTLAB_GM_REQ_EXPAND, 1, 1), GTTLAB_GM_ST_GRANTED);
	uint64_t slot = dom0_layout(t.h.rt)->slot_size, base = hw_mmio_read32(t.dev, VGT_IF_NONMAPPABLE_BASE);
	gd_map(&t, (base + slot) / 4096, &pg);
	cr_assert_eq(hw_gpu_read(t.dev, base + slot, &b, 1, &err), 0, "%s", err.msg);
	cr_assert_eq(gd_request(&t, GTTLAB_GM_REQ_REDUCE, 1, 2), GTTLAB_GM_ST_GRANTED);
	int rc = gd_audit(&t, why, n);
	hw_close(t.dev);
	return rc;
}

/*
 * The mediator's bugs show through the device: a released slot left mapped
 * is found by the audit (the peers sit at the top of high memory, away from
 * the guest's growth, so no peer's switch overwrites the evidence).
 */
Test(guest_device, released_slot_left_mapped_fails_the_audit)
{
	struct dom0_faults keep = { .keep_released_slots = true };
	char why[256];

	cr_expect_eq(grow_map_shrink(NULL, why, sizeof(why)), 0, "a correct mediator's resize failed the audit: %s", why);
	cr_expect_neq(grow_map_shrink(&keep, why, sizeof(why)), 0, "keep_released_slots passed the audit");
	cr_expect(strstr(why, "GGTT entry"), "keep_released_slots: the audit says '%s'", why);
}

Test(guest_device, bad_options_name_the_token)
{
	static const struct { const char *spec, *says; } bad[] = {
		{ "vgpu:sim:skl,low=0", "'low=0'" },
		{ "vgpu:sim:skl,low=abc", "'low=abc'" },
		{ "vgpu:sim:skl,low=", "'low='" },
		{ "vgpu:sim:skl,lo=32", "'lo=32': no such option" },
		{ "vgpu:sim:skl,peers=8", "'peers=8'" },
		{ "vgpu:sim:skl,fences=17", "'fences=17'" },
		{ "vgpu:sim:skl,mem=0", "'mem=0'" },
		{ "vgpu:sim:skl,switch=-1", "'switch=-1'" },
		{ "vgpu:sim:skl,low=32,low=64", "'low=64': low is given twice" },
		{ "vgpu:sim:skl,low=4000", "'low=4000': the guest low area" },
		{ "vgpu:sim:skl,high=60", "'high=60'" },
		{ "vgpu:sim:snb,fences=10,peers=3", "'fences=10'" },
		{ "vgpu:sim:skl,,low=1", "empty token" },
		{ "vgpu:low=32", "'low=32'" },
		{ "vgpu:pci:0000:00:02.0", "vgpu:pci:0000:00:02.0': the host must be the model" },
		{ "vgpu:sim:xyz", "xyz" },
		{ "vgpu:sim:skl,move=x", "'move=x'" },
		{ "vgpu:sim:skl,hog=8,move=2", "hog= and move= together" },
		{ "vgpu:sim:skl,runs=1,high=3", "runs=1 is one run" },
		{ "vgpu:sim:skl,runs=9,high=3", "'runs=9'" },
		{ "vgpu:sim:skl,runs=2", "needs high=2 or more, not 1" },
		{ "vgpu:sim:skl,runs=2,high=3,migrate=4", "a migration moves one run" },
		{ "vgpu:sim:skl,runs=2,high=3,hog=8", "runs= with hog=" },
		{ "vgpu:sim:skl,runs=2,high=59", "'runs=2': high=59 and the tenant" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct hw_device *dev = NULL;
		struct gtt_err err = { 0 };
		int rc = gd_try(bad[i].spec, NULL, &dev, &err);
		cr_expect_eq(rc, GTT_EINVAL, "%s: rc %d (%s)", bad[i].spec, rc, err.msg);
		cr_expect_null(dev, "%s opened", bad[i].spec);
		cr_expect(strstr(err.msg, bad[i].says), "%s: '%s' does not say '%s'", bad[i].spec, err.msg, bad[i].says);
		cr_expect(!strchr(err.msg, '\n'), "%s: more than one line", bad[i].spec);
	}
}

/* Every physical PTE write in the trace lies in the guest's ranges or the fence pool; returns how many there were. */
static size_t trace_ptes_in_ranges(struct gdt *t, const char *plat)
{
	const struct hw_info *hi = &t->h.dev->info;
	const struct dom0_layout *l = dom0_layout(t->h.rt);
	struct dom0_vgpu_info in;
	struct sim_trace_entry e;
	size_t n = 0;

	dom0_vgpu_info(t->h.rt, t->guest, &in);
	for (size_t i = 0; sim_trace_get(t->h.sim, i, &e); i++) {
		if (e.kind == SIM_MMIO_WRITE && e.addr >= FENCE_REG_GEN6_BASE && e.addr < FENCE_REG_GEN6_LO(hi->num_fences))
			cr_expect_geq((e.addr - FENCE_REG_GEN6_BASE) / 8, 4, "%s: the guest's fence reached host fence %llu",
				      plat, (unsigned long long)(e.addr - FENCE_REG_GEN6_BASE) / 8);
		if (e.kind != SIM_MMIO_WRITE || e.addr < hi->gsm_offset || e.addr - hi->gsm_offset >= hi->gsm_size)
			continue;
		uint64_t gm = (e.addr - hi->gsm_offset) / hi->pte_size * 4096;
		bool ok = (gm >= in.low_base && gm < in.low_base + in.low_size) ||
			  (gm >= in.high_base && gm < in.high_base + in.high_size) ||
			  (gm >= l->pool_base && gm < l->pool_base + l->pool_size);
		cr_expect(ok, "%s: physical PTE write at GM 0x%llx, outside the guest's ranges and the pool", plat, (unsigned long long)gm);
		n++;
	}
	return n;
}

Test(guest_device, trace_shows_physical_writes_only_in_the_guests_ranges)
{
	for (size_t p = 0; p < sizeof(plats) / sizeof(plats[0]); p++) {
		struct gdt t;
		struct hw_page pg[4];
		struct gtt_err err = { 0 };
		uint8_t buf[32];
		uint64_t val;

		gd_openf(&t, NULL, "vgpu:sim:%s,switch=0", plats[p]);
		gd_pages(&t, 4, pg);
		cr_assert_eq(sim_trace_start(t.h.sim, 1 << 20), 0);
		for (int i = 0; i < 4; i++) {
			gd_map(&t, low_index(&t, 16 + (uint64_t)i), &pg[i]);
			gd_map(&t, high_index(&t, (uint64_t)i), &pg[i]);
			hw_ggtt_write_pte(t.dev, 20 + (uint64_t)i, gd_pte(&t, &pg[i]), &err);	/* outside: dropped */
			hw_ggtt_write_pte(t.dev, t.dev->info.n_ptes - 1 - (uint64_t)i, gd_pte(&t, &pg[i]), &err);
		}
		hw_ggtt_invalidate(t.dev);
		struct hw_fence f = { .start = t.in.low_base + 16 * 4096, .size = 0x10000, .stride = 4096, .tiling = HW_TILING_X, .valid = true };
		cr_assert_eq(hw_fence_encode(t.dev->info.plat, t.dev->info.aperture_size, &f, &val, &err), 0);
		cr_assert_eq(hw_fence_write(t.dev, 2, val, &err), 0);
		cr_assert_eq(hw_aperture_write(t.dev, t.in.low_base + 16 * 4096, "fenced", 6, &err), 0, "%s", err.msg);
		cr_assert_eq(hw_gpu_read(t.dev, t.in.high_base, buf, sizeof(buf), &err), 0, "%s", err.msg);
		cr_assert_eq(hw_fence_write(t.dev, 2, 0, &err), 0);
		(void)hw_mmio_read32(t.dev, VGT_IF_MAGIC);
		cr_expect_gt(trace_ptes_in_ranges(&t, plats[p]), 0, "%s: no physical PTE write at all in the trace", plats[p]);
		sim_trace_stop(t.h.sim);	/* before the audit, which reads every PTE */
		gd_audit_ok(&t, "the traced guest work");
		hw_close(t.dev);
	}
}

Test(guest_device, switches_round_robin_invisibly)
{
	struct gdt t;
	struct hw_page pg;
	struct gtt_err err = { 0 };
	char got[8];
	uint64_t v;

	gd_open(&t, "vgpu:sim:skl,switch=4", NULL);
	cr_assert_eq(dom0_render_owner(t.h.rt), t.guest, "the guest does not own the render engine at open");
	int want[] = { t.peer[0], t.peer[1], t.guest, t.peer[0] };
	for (int r = 0; r < 4; r++) {
		for (int i = 0; i < 4; i++)
			(void)hw_mmio_read32(t.dev, VGT_IF_VGT_ID);
		cr_expect_eq(dom0_render_owner(t.h.rt), want[r], "after %d trapped reads", 4 * (r + 1));
	}
	/* read-only register reads are no traps: the owner stays */
	for (int i = 0; i < 8; i++)
		(void)hw_mmio_read32(t.dev, HSW_EDRAM_CAP);
	cr_expect_eq(dom0_render_owner(t.h.rt), t.peer[0]);
	/* the guest's view does not change whoever runs */
	gd_pages(&t, 1, &pg);
	gd_map(&t, low_index(&t, 9), &pg);
	cr_assert_eq(hw_aperture_write(t.dev, low_index(&t, 9) * 4096, "abcdefg", 8, &err), 0, "%s", err.msg);
	for (int i = 0; i < 37; i++) {
		cr_assert_eq(hw_ggtt_read_pte(t.dev, low_index(&t, 9), &v, &err), 0);
		cr_expect_eq(v, gd_pte(&t, &pg));
		cr_assert_eq(hw_aperture_read(t.dev, low_index(&t, 9) * 4096, got, 8, &err), 0);
		cr_expect_eq(memcmp(got, "abcdefg", 8), 0);
		cr_assert_eq(hw_gpu_read(t.dev, low_index(&t, 9) * 4096, got, 8, &err), 0, "%s", err.msg);
		cr_expect_eq(memcmp(got, "abcdefg", 8), 0, "GPU side, round %d", i);
	}
	gd_audit_ok(&t, "switches");
	hw_close(t.dev);
}

Test(guest_device, pvinfo_request_is_answered_at_once)
{
	struct gdt t;
	struct hw_page pg;
	struct gtt_err err = { 0 };
	uint64_t slot, v = 0;

	gd_open(&t, "vgpu:sim:skl", NULL);
	slot = dom0_layout(t.h.rt)->slot_size;
	cr_assert_eq(hw_mmio_write32(t.dev, GTTLAB_IF_GM_CODE, GTTLAB_GM_REQ_EXPAND), 0);
	cr_assert_eq(hw_mmio_write32(t.dev, GTTLAB_IF_GM_COUNT, 1), 0);
	cr_assert_eq(hw_mmio_write32(t.dev, GTTLAB_IF_GM_SEQ, 7), 0);
	cr_assert_eq(hw_mmio_write32(t.dev, VGT_IF_G2V_NOTIFY, GTTLAB_G2V_GM_REQUEST), 0);
	cr_expect_eq(hw_mmio_read32(t.dev, GTTLAB_IF_GM_STATUS), GTTLAB_GM_ST_GRANTED);
	cr_expect_eq(hw_mmio_read32(t.dev, GTTLAB_IF_GM_ANSWER_SEQ), 7);
	cr_expect_eq(hw_mmio_read32(t.dev, GTTLAB_IF_GM_SLOTS), 2);
	cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_NONMAPPABLE_SIZE), (uint32_t)(2 * slot));
	/* the new slot is the guest's: a PTE there reads back */
	gd_pages(&t, 1, &pg);
	uint64_t idx = (hw_mmio_read32(t.dev, VGT_IF_NONMAPPABLE_BASE) + slot) / 4096 + 5;
	gd_map(&t, idx, &pg);
	cr_assert_eq(hw_ggtt_read_pte(t.dev, idx, &v, &err), 0);
	cr_expect_eq(v, gd_pte(&t, &pg));
	/* a word the guest may not write: refused, the page unchanged */
	hw_mmio_write32(t.dev, VGT_IF_FENCE_NUM, 16);
	cr_expect_eq(hw_mmio_read32(t.dev, VGT_IF_FENCE_NUM), 4);
	gd_audit_ok(&t, "a granted expansion");
	hw_close(t.dev);
}

Test(guest_device, gen8_pte_halves_merge_before_the_host_sees_them)
{
	struct gdt t;
	struct hw_page pg[2];

	gd_open(&t, "vgpu:sim:skl,switch=0", NULL);
	gd_pages(&t, 2, pg);
	for (int order = 0; order < 2; order++) {
		uint64_t idx = low_index(&t, 40 + (uint64_t)order), pte = gd_pte(&t, &pg[order]);
		uint32_t off = t.dev->info.gsm_offset + (uint32_t)(idx * 8);
		uint64_t host0 = d0_phys(&t.h, idx);
		unsigned first = order ? 4 : 0, second = order ? 0 : 4;
		hw_mmio_write32(t.dev, off + first, (uint32_t)(pte >> (8 * first)));
		cr_expect_eq(d0_phys(&t.h, idx), host0, "one half reached the host (order %d)", order);
		uint64_t half = hw_mmio_read64(t.dev, off);
		cr_expect_eq((uint32_t)(half >> (8 * first)), (uint32_t)(pte >> (8 * first)), "the half written does not read back");
		hw_mmio_write32(t.dev, off + second, (uint32_t)(pte >> (8 * second)));
		cr_expect_eq(hw_mmio_read64(t.dev, off), pte);
		cr_expect_eq(d0_pte_addr(&t.h, d0_phys(&t.h, idx)), gd_host_addr(&t, &pg[order]), "order %d", order);
	}
	gd_audit_ok(&t, "PTEs written in halves");
	hw_close(t.dev);
}

Test(guest_device, config_space_and_registers_stay_with_the_guest)
{
	struct gdt t;
	uint32_t v, lo, hi, host_bar2;

	gd_open(&t, "vgpu:sim:skl,switch=0", NULL);
	hw_cfg_read(t.dev, PCI_CFG_VENDOR_ID, 2, &v);
	cr_expect_eq(v, PCI_VENDOR_ID_INTEL);
	hw_cfg_read(t.dev, SNB_GMCH_CTRL, 2, &v);
	cr_expect_eq(v >> BDW_GMCH_GMS_SHIFT & BDW_GMCH_GMS_MASK, 0, "GMS 0x%x shown to the guest", v >> BDW_GMCH_GMS_SHIFT);
	cr_expect_eq(v >> BDW_GMCH_GGMS_SHIFT & BDW_GMCH_GGMS_MASK, t.h.dev->info.ggms);
	/* BAR2 sized the PCI way reads the host's aperture size; the host's BAR is not touched */
	hw_cfg_read(t.h.dev, PCI_CFG_BAR(2), 4, &host_bar2);
	hw_cfg_read(t.dev, PCI_CFG_BAR(2), 4, &lo);
	hw_cfg_read(t.dev, PCI_CFG_BAR(2) + 4, 4, &hi);
	hw_cfg_write(t.dev, PCI_CFG_BAR(2), 4, 0xffffffffu);
	hw_cfg_write(t.dev, PCI_CFG_BAR(2) + 4, 4, 0xffffffffu);
	hw_cfg_read(t.dev, PCI_CFG_BAR(2), 4, &v);
	uint32_t mhi;
	hw_cfg_read(t.dev, PCI_CFG_BAR(2) + 4, 4, &mhi);
	uint64_t mask = (uint64_t)mhi << 32 | (v & PCI_BAR_MEM_MASK);
	cr_expect_eq(~mask + 1, t.h.dev->info.aperture_size, "BAR2 sizes to 0x%llx", (unsigned long long)(~mask + 1));
	cr_expect_eq(v & 0xf, lo & 0xf, "BAR2's flags changed");
	hw_cfg_write(t.dev, PCI_CFG_BAR(2), 4, lo);
	hw_cfg_write(t.dev, PCI_CFG_BAR(2) + 4, 4, hi);
	hw_cfg_read(t.dev, PCI_CFG_BAR(2), 4, &v);
	cr_expect_eq(v, lo);
	hw_cfg_read(t.h.dev, PCI_CFG_BAR(2), 4, &v);
	cr_expect_eq(v, host_bar2, "the guest's BAR sizing reached the host");
	hw_cfg_write(t.dev, PCI_CFG_VENDOR_ID, 2, 0x1234);
	hw_cfg_read(t.dev, PCI_CFG_VENDOR_ID, 2, &v);
	cr_expect_eq(v, PCI_VENDOR_ID_INTEL, "the vendor id took a write");
	/* a register the guest writes is its own; the host keeps its value */
	uint32_t host_tilectl = sim_mmio_read32(t.h.sim, TILECTL);
	cr_assert_eq(hw_mmio_write32(t.dev, TILECTL, host_tilectl ^ TILECTL_TLBPF), 0);
	cr_expect_eq(hw_mmio_read32(t.dev, TILECTL), host_tilectl ^ TILECTL_TLBPF);
	cr_expect_eq(sim_mmio_read32(t.h.sim, TILECTL), host_tilectl, "the guest's register write reached the host");
	/* other registers read the host's value; the guest's GGTT invalidate never reaches the host */
	cr_expect_eq(hw_mmio_read32(t.dev, HSW_EDRAM_CAP), sim_mmio_read32(t.h.sim, HSW_EDRAM_CAP));
	uint64_t flushes = sim_access_count(t.h.sim, SIM_GGTT_FLUSH);
	hw_ggtt_invalidate(t.dev);
	cr_expect_eq(sim_access_count(t.h.sim, SIM_GGTT_FLUSH), flushes);
	hw_close(t.dev);
}

Test(guest_device, test_pages_come_from_guest_memory)
{
	struct gdt t;
	struct hw_page pg[9], hp;
	struct gtt_err err = { 0 };

	gd_open(&t, "vgpu:sim:skl,mem=8,switch=0", NULL);
	gd_pages(&t, 8, pg);
	for (int i = 0; i < 8; i++) {
		cr_expect_lt(pg[i].phys >> 12, 8, "page %d at 0x%llx is no guest-physical page of mem=8", i, (unsigned long long)pg[i].phys);
		cr_expect_eq(pg[i].phys & 0xfff, 0);
		cr_assert_eq(dom0_guest_page(t.h.rt, t.guest, pg[i].phys >> 12, &hp), 0);
		cr_expect_eq(pg[i].cpu, hp.cpu);
		for (int j = 0; j < i; j++)
			cr_expect_neq(pg[i].phys, pg[j].phys);
	}
	cr_expect_eq(hw_alloc_test_pages(t.dev, 1, &pg[8], &err), GTT_ENOMEM);
	cr_expect(strstr(err.msg, "mem=8"), "'%s' does not name mem=", err.msg);
	hw_free_test_pages(t.dev, 2, pg);
	gd_pages(&t, 2, pg);
	hw_free_test_pages(t.dev, 8, pg);
	hw_close(t.dev);
}

/* As on the model: a narrow write into a BAR, or to status, class or GMCH control, changes no byte of config space. */
Test(guest_device, config_bytes_software_cannot_write_stay)
{
	struct gdt t;
	uint32_t before[64], after[64];

	gd_open(&t, "vgpu:sim:skl", NULL);
	for (unsigned i = 0; i < 64; i++)
		cr_assert_eq(t.dev->ops->cfg_read(t.dev->ctx, i * 4, 4, &before[i]), 0);
	cr_assert_eq(t.dev->ops->cfg_write(t.dev->ctx, PCI_CFG_BAR(0), 1, 0xff), 0);
	cr_assert_eq(t.dev->ops->cfg_write(t.dev->ctx, PCI_CFG_BAR(2) + 2, 2, 0xffff), 0);
	cr_assert_eq(t.dev->ops->cfg_write(t.dev->ctx, PCI_CFG_STATUS, 2, 0xffff), 0);
	cr_assert_eq(t.dev->ops->cfg_write(t.dev->ctx, SNB_GMCH_CTRL, 2, 0), 0);
	cr_expect_neq(t.dev->ops->cfg_write(t.dev->ctx, 0xfffffffcu, 4, 0), 0, "an offset that wraps is refused");
	for (unsigned i = 0; i < 64; i++) {
		cr_assert_eq(t.dev->ops->cfg_read(t.dev->ctx, i * 4, 4, &after[i]), 0);
		cr_expect_eq(after[i], before[i], "config dword 0x%02x: 0x%08x, was 0x%08x", i * 4, after[i], before[i]);
	}
	hw_close(t.dev);
}
