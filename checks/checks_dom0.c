/* SPDX-License-Identifier: MIT */
/*
 * The shadow-copy, fence-pool and slot-resize suites: the Dom0 runtime's
 * mechanisms judged from outside, through the registers (physical PTEs and
 * fences read back through hw/) and the data path (bytes through the
 * aperture). Each starts its own runtime over the guest areas and ends it,
 * which puts the GGTT and fences back as found.
 */
#include "checks/check.h"
#include "checks/check_suites.h"
#include "checks/checks_dom0_common.h"
#include "dom0/pvinfo.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/backend_sim.h"
#include "hw/pte.h"
#include "regs/pvinfo.h"

#define MiB (1ull << 20)

/* The physical PTEs of two ranges ([first, +n) each), one after the other, in bulk reads. */
static int phys_ranges(struct check_ctx *c, uint64_t ranges[2][2], uint64_t *out)
{
	for (int g = 0; g < 2; g++) {
		if (ranges[g][1] && hw_ggtt_read_range(c->dev, ranges[g][0], (size_t)ranges[g][1], out, NULL))
			return -1;
		out += ranges[g][1];
	}
	return 0;
}

/* Fill a vGPU's ranges with entries naming its frames, distinctly per vGPU. */
static int fill(struct check_ctx *c, struct dck_rt *r, int id)
{
	struct dom0_vgpu_info in;

	dom0_vgpu_info(r->rt, id, &in);
	for (uint64_t i = 0; i < in.low_size / 4096; i += 3)
		if (dom0_guest_pte_write(r->rt, id, in.low_base / 4096 + i, dck_guest_pte(c, (i + (uint64_t)id) % 32), &r->err))
			return ck_error(c, "guest PTE write", &r->err), -1;
	for (uint64_t i = 0; i < in.high_size / 4096; i += 251)
		if (dom0_guest_pte_write(r->rt, id, in.high_base / 4096 + i, dck_guest_pte(c, (i * 7 + (uint64_t)id) % 32), &r->err))
			return ck_error(c, "guest PTE write", &r->err), -1;
	return 0;
}

/*
 * On the model, the switch's writes as the device saw them (its access
 * trace): every PTE written must be one whose physical value differed from
 * the incoming shadow before the switch, and every one that differed must be
 * written. `before` holds the physical entries of the ranges, read before.
 */
static enum check_status value_minimal(struct check_ctx *c, struct dck_rt *r, int v, size_t k, uint64_t ranges[2][2],
				       const uint64_t *before, uint64_t differ)
{
	struct sim_device *sim = hw_sim_model(c->dev);
	struct sim_trace_entry e;
	uint64_t written = 0, last = ~0ull;
	unsigned ps = c->dev->info.pte_size;

	for (size_t i = 0; sim_trace_get(sim, i, &e); i++) {
		if (e.kind != SIM_MMIO_WRITE || e.addr < c->dev->info.gsm_offset)
			continue;
		uint64_t idx = (e.addr - c->dev->info.gsm_offset) / ps, sh;
		if (idx == last)
			continue;	/* the high half of a 64-bit PTE */
		last = idx;
		written++;
		size_t at = idx >= ranges[0][0] && idx < ranges[0][0] + ranges[0][1] ? (size_t)(idx - ranges[0][0])
			  : idx >= ranges[1][0] && idx < ranges[1][0] + ranges[1][1] ? (size_t)(ranges[0][1] + idx - ranges[1][0])
			  : SIZE_MAX;
		if (at == SIZE_MAX)
			return ck_fail(c, "switch %zu to vGPU %d wrote PTE %llu, outside its ranges", k, v, (unsigned long long)idx);
		dom0_shadow_pte(r->rt, v, idx, &sh, NULL);
		if (before[at] == sh)
			return ck_fail(c, "switch %zu to vGPU %d wrote PTE %llu, which already held 0x%llx (not value-minimal)", k, v,
				       (unsigned long long)idx, (unsigned long long)sh);
	}
	if (written != differ)
		return ck_fail(c, "switch %zu to vGPU %d wrote %llu PTEs (the model's trace); %llu differed from its shadow", k, v,
			       (unsigned long long)written, (unsigned long long)differ);
	return CHECK_PASS;
}

/* Up to 512 of vGPU v's shadow entries from PTE i, not past end, into sh: one call a block. */
static int shadow_block(struct dck_rt *r, int v, uint64_t i, uint64_t end, uint64_t *sh)
{
	return dom0_entries_range(r->rt, v, i, end - i < 512 ? end - i : 512, sh, NULL, &r->err);
}

/* After a switch to v: the physical PTEs of its ranges, read back into `buf`, equal its shadow. */
static enum check_status phys_is_shadow(struct check_ctx *c, struct dck_rt *r, int v, size_t k, uint64_t ranges[2][2],
					uint64_t *buf)
{
	if (phys_ranges(c, ranges, buf))
		return ck_fail(c, "the GTT cannot be read after switch %zu", k);
	uint64_t sh[512];
	for (int g = 0, at = 0; g < 2; g++)
		for (uint64_t i = ranges[g][0]; i < ranges[g][0] + ranges[g][1]; i++, at++) {
			uint64_t j = (i - ranges[g][0]) % 512, ph = buf[at];
			if (!j && shadow_block(r, v, i, ranges[g][0] + ranges[g][1], sh))
				return ck_error(c, "reading the shadow", &r->err);
			if (ph != sh[j])
				return ck_fail(c, "switch %zu to vGPU %d: physical PTE %llu is 0x%llx, its shadow holds 0x%llx", k, v,
					       (unsigned long long)i, (unsigned long long)ph, (unsigned long long)sh[j]);
		}
	return CHECK_PASS;
}

/* Data: after a switch to v, the first mapped low page reads as the vGPU's frame through the aperture. */
static enum check_status reads_own_page(struct check_ctx *c, struct dck_rt *r, int v, const struct dom0_vgpu_info *in)
{
	uint64_t g;
	struct hw_page pg;
	uint8_t b = 0;
	dom0_guest_pte_read(r->rt, v, in->low_base / 4096, &g, NULL);
	struct hw_pte d;
	hw_pte_decode(c->dev->info.plat, g, &d);
	dom0_guest_page(r->rt, v, d.addr >> 12, &pg);
	((uint8_t *)pg.cpu)[9] = (uint8_t)(0x40 + v);
	if (ck_aperture_read(c, in->low_base + 9, &b, 1))
		return CHECK_FAIL;
	if (b != (uint8_t)(0x40 + v))
		return ck_fail(c, "after switching to vGPU %d, GM 0x%llx (PTE %llu) reads 0x%02x, not its page's 0x%02x", v,
			       (unsigned long long)(in->low_base + 9), (unsigned long long)(in->low_base / 4096), b,
			       (uint8_t)(0x40 + v));
	return CHECK_PASS;
}

/* what a switch must leave as found: the host's first low and high PTEs */
struct host_ptes {
	uint64_t low_idx, high_idx, low, high;
};

/*
 * Switch k, to vGPU v: count what must change (from the check's own account `holder` of whose
 * entry each physical PTE holds, and from the physical values), switch, and judge it.
 */
static enum check_status switch_once(struct check_ctx *c, struct dck_rt *r, int v, size_t k, int *holder,
				     const struct host_ptes *h)
{
	struct dom0_vgpu_info in;
	struct dom0_switch_stats s;
	enum check_status st = CHECK_PASS;
	dom0_vgpu_info(r->rt, v, &in);
	uint64_t want = 0, total = (in.low_size + in.high_size) / 4096;
	uint64_t ranges[2][2] = { { in.low_base / 4096, in.low_size / 4096 }, { in.high_base / 4096, in.high_size / 4096 } };
	uint64_t differ = 0, *before = gtt_calloc(c->dev->env, (size_t)total, sizeof(uint64_t));
	struct sim_device *sim = hw_sim_model(c->dev);
	if (!before || phys_ranges(c, ranges, before)) {
		c->dev->env->free(c->dev->env, before);
		return ck_fail(c, "out of memory, or the GTT cannot be read");
	}
	uint64_t sh[512];
	for (int g = 0, at = 0; g < 2; g++)
		for (uint64_t i = ranges[g][0]; i < ranges[g][0] + ranges[g][1]; i++, at++) {
			uint64_t j = (i - ranges[g][0]) % 512;
			if (!j && shadow_block(r, v, i, ranges[g][0] + ranges[g][1], sh)) {
				c->dev->env->free(c->dev->env, before);
				return ck_error(c, "reading the shadow", &r->err);
			}
			want += holder[i] != v, holder[i] = v;
			differ += before[at] != sh[j];
		}
	/* room for the halves of every write and of the first-touch reads of the runtime's snapshot */
	if (sim && sim_trace_start(sim, (size_t)total * 4 + 256)) {
		c->dev->env->free(c->dev->env, before);
		return ck_fail(c, "out of memory for the model's trace");
	}
	int src = dom0_switch(r->rt, v, &s, &r->err);
	if (!src && sim)
		st = value_minimal(c, r, v, k, ranges, before, differ);
	if (sim)
		sim_trace_stop(sim);
	if (src) {
		c->dev->env->free(c->dev->env, before);
		return ck_error(c, "switch", &r->err);
	}
	/* the physical GTT after the switch, read back the same way */
	if (!st)
		st = phys_is_shadow(c, r, v, k, ranges, before);
	c->dev->env->free(c->dev->env, before);
	if (st)
		return st;
	if (s.ptes_written != want || s.ptes_skipped != total - want)
		return ck_fail(c, "switch %zu to vGPU %d wrote %llu PTEs and skipped %llu; the GTT lacked exactly %llu of its %llu entries",
			       k, v, (unsigned long long)s.ptes_written, (unsigned long long)s.ptes_skipped,
			       (unsigned long long)want, (unsigned long long)total);
	if (dck_phys_pte(c, h->low_idx) != h->low || dck_phys_pte(c, h->high_idx) != h->high)
		return ck_fail(c, "switch %zu: the host's PTE %llu or %llu changed", k, (unsigned long long)h->low_idx,
			       (unsigned long long)h->high_idx);
	return reads_own_page(c, r, v, &in);
}

/*
 * N vGPUs, two per slot, switched in an order with repeats. After every
 * switch: the physical GTT in the incoming ranges equals its shadow, the
 * host's ranges are as found, the aperture shows the incoming vGPU's page,
 * the PTE writes are exactly the entries the GTT did not hold for it, and
 * (on the model, from its trace) exactly those whose value differed.
 */
static enum check_status check_shadow_copy_switch(struct check_ctx *c)
{
	struct dom0_config cfg = { 0 };
	struct dck_rt r = { 0 };
	int id[4];
	static const int order[] = { 0, 1, 0, 1, 2, 3, 3, 1, 2, 0 };
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	const struct dom0_layout *l = dom0_layout(r.rt);
	struct host_ptes h = { .low_idx = l->host_low_base / 4096, .high_idx = l->host_high_base / 4096 };
	h.low = dck_phys_pte(c, h.low_idx);
	h.high = dck_phys_pte(c, h.high_idx);
	for (int i = 0; i < 4; i++)
		/* low ranges of 1 and 3 MiB: 256 and 768 entries, so switches take parts of 512-entry chunks */
		if (dck_create(c, &r, (uint64_t)(1 + 2 * (i % 2)) * MiB, 1, 0, i / 2, &id[i]) || fill(c, &r, id[i]))
			return dck_stop(c, &r, CHECK_FAIL);
	/* the check's own account of whose entry each physical PTE holds */
	int *holder = gtt_calloc(c->dev->env, c->dev->info.n_ptes, sizeof(int));
	if (!holder)
		return dck_stop(c, &r, ck_fail(c, "out of memory"));
	for (size_t k = 0; k < sizeof(order) / sizeof(order[0]) && !st; k++)
		st = switch_once(c, &r, id[order[k]], k, holder, &h);
	c->dev->env->free(c->dev->env, holder);
	return dck_stop(c, &r, st);
}

/* Ladder mapping: a guest reads its own data through its aperture while another vGPU owns the GTT. */
static enum check_status check_shadow_copy_ladder(struct check_ctx *c)
{
	struct dom0_config cfg = { 0 };
	struct dck_rt r = { 0 };
	int a, b;
	char buf[16] = { 0 };
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	if (dck_create(c, &r, 4 * MiB, 1, 0, -1, &a) || dck_create(c, &r, 4 * MiB, 1, 0, -1, &b))
		return dck_stop(c, &r, CHECK_FAIL);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(r.rt, a, &in);
	uint64_t gm = in.low_base + 5 * 4096;
	if (dom0_guest_pte_write(r.rt, a, gm / 4096, dck_guest_pte(c, 3), &r.err) ||
	    dom0_guest_pte_write(r.rt, b, gm / 4096, dck_guest_pte(c, 3), &r.err) || dom0_switch(r.rt, b, NULL, &r.err) ||
	    dom0_guest_aperture_write(r.rt, a, gm + 8, "vgpu-a-data", 12, &r.err) ||
	    dom0_guest_aperture_read(r.rt, a, gm + 8, buf, 12, &r.err))
		return dck_stop(c, &r, ck_error(c, "guest operation", &r.err));
	struct hw_page pa;
	dom0_guest_page(r.rt, a, 3, &pa);
	if (gtt_memcmp(buf, "vgpu-a-data", 12) || gtt_memcmp((uint8_t *)pa.cpu + 8, "vgpu-a-data", 12))
		return dck_stop(c, &r, ck_fail(c, "vGPU %d wrote through its aperture at GM 0x%llx while vGPU %d owned PTE %llu; its frame 3 at 0x%llx does not hold the data",
					a, (unsigned long long)gm, b, (unsigned long long)(gm / 4096), (unsigned long long)pa.phys));
	char seen[12];
	if (ck_aperture_read(c, gm + 8, seen, 12))
		return dck_stop(c, &r, CHECK_FAIL);
	if (!gtt_memcmp(seen, "vgpu-a-data", 12))
		return dck_stop(c, &r, ck_fail(c, "the real aperture at GM 0x%llx shows vGPU %d's data while vGPU %d owns PTE %llu",
					(unsigned long long)gm, a, b, (unsigned long long)(gm / 4096)));
	return dck_stop(c, &r, CHECK_PASS);
}

/* A guest fence lands in the pool; update and disable give it back. */
static enum check_status check_fence_pool_guest_fence(struct check_ctx *c)
{
	struct dom0_config cfg = { 0 };
	struct dck_rt r = { 0 };
	int a;
	enum check_status st = dck_start(c, &cfg, &r);

	if (st)
		return st;
	const struct dom0_layout *l = dom0_layout(r.rt);
	if (dck_create(c, &r, 8 * MiB, 1, 2, -1, &a))
		return dck_stop(c, &r, CHECK_FAIL);
	struct dom0_vgpu_info in;
	dom0_vgpu_info(r.rt, a, &in);
	uint64_t start_gm = in.low_base + 16 * 4096, size = 8 * 4096;
	uint32_t pitch = 1024;
	for (uint64_t i = 0; i < 8; i++)
		if (dom0_guest_pte_write(r.rt, a, start_gm / 4096 + i, dck_guest_pte(c, 8 + i), &r.err))
			return dck_stop(c, &r, ck_error(c, "guest PTE write", &r.err));
	/* the guest's own value: docs/hardware.md §4.3 */
	uint64_t gval = ((start_gm + size - 4096) << 32) | start_gm | ((uint64_t)(pitch / 128 - 1) << 32) | 1;
	if (dom0_guest_fence_write(r.rt, a, 1, gval, &r.err))
		return dck_stop(c, &r, ck_error(c, "guest fence write", &r.err));
	uint64_t want = ((l->pool_base + size - 4096) << 32) | l->pool_base | ((uint64_t)(pitch / 128 - 1) << 32) | 1;
	int phys = -1;
	for (unsigned i = 0; i < c->dev->info.num_fences; i++) {
		uint64_t v = 0;
		hw_fence_read(c->dev, i, &v, NULL);
		if ((v & 1) && (v & 0xfffff000) == l->pool_base) {
			phys = (int)i;
			if (v != want)
				return dck_stop(c, &r, ck_fail(c, "fence %u (FENCE_REG_GEN6_LO_%u) holds 0x%016llx for the pool; the guest's pitch and tiling on the pool range give 0x%016llx",
							i, i, (unsigned long long)v, (unsigned long long)want));
		}
	}
	if (phys < 0)
		return dck_stop(c, &r, ck_fail(c, "no fence register holds the pool range 0x%llx after the guest's fence write",
					(unsigned long long)l->pool_base));
	for (uint64_t i = 0; i < 8; i++) {
		uint64_t sh;
		dom0_shadow_pte(r.rt, a, start_gm / 4096 + i, &sh, NULL);
		if (dck_phys_pte(c, l->pool_base / 4096 + i) != sh)
			return dck_stop(c, &r, ck_fail(c, "pool PTE %llu is 0x%llx, the guest's entry %llu is 0x%llx",
						(unsigned long long)(l->pool_base / 4096 + i),
						(unsigned long long)dck_phys_pte(c, l->pool_base / 4096 + i),
						(unsigned long long)(start_gm / 4096 + i), (unsigned long long)sh));
	}
	/* data: linear bytes through the guest's view land X-tiled in its frames */
	uint8_t line[1024];
	for (unsigned k = 0; k < sizeof(line); k++)
		line[k] = (uint8_t)(k * 13 + 7);
	for (unsigned row = 0; row < 32; row++)
		if (dom0_guest_aperture_write(r.rt, a, start_gm + row * pitch, line, sizeof(line), &r.err))
			return dck_stop(c, &r, ck_error(c, "guest aperture write", &r.err));
	int swz = ck_swizzle_mode(c, 1);
	for (unsigned row = 0; row < 32; row++)
		for (unsigned col = 0; col < pitch; col++) {
			uint64_t t = ck_tiled_offset(row * pitch + col, pitch, false, swz);
			struct hw_page pg;
			dom0_guest_page(r.rt, a, 8 + t / 4096, &pg);
			if (((uint8_t *)pg.cpu)[t % 4096] != line[col])
				return dck_stop(c, &r, ck_fail(c, "row %u col %u written through the guest's fenced view is not at X-tiled offset 0x%llx of its frames (pool fence %d)",
							row, col, (unsigned long long)t, phys));
		}
	/* disable: the physical fence and the pool's PTEs as they were */
	if (dom0_guest_fence_write(r.rt, a, 1, 0, &r.err))
		return dck_stop(c, &r, ck_error(c, "guest fence disable", &r.err));
	uint64_t v = 0;
	hw_fence_read(c->dev, (unsigned)phys, &v, NULL);
	if (v & 1)
		return dck_stop(c, &r, ck_fail(c, "fence %d is still valid (0x%016llx) after the guest disabled its fence", phys, (unsigned long long)v));
	if (dom0_counters(r.rt)->pool_pages_used)
		return dck_stop(c, &r, ck_fail(c, "%llu pool pages still in use after the guest disabled its fence",
					(unsigned long long)dom0_counters(r.rt)->pool_pages_used));
	return dck_stop(c, &r, CHECK_PASS);
}

/* gBalloon Figure 4 on five slots, the PVINFO and shadow after resizes, and the error cases. */
static enum check_status figure4(struct check_ctx *c, struct dck_rt *r, int id[4])
{
	static const unsigned P[] = { 0, 2, 3, 2 }, S[] = { 2, 2, 2, 1 };
	uint64_t high = c->dev->info.ggtt_size - c->dev->info.aperture_size - 64 * MiB;
	struct dom0_config cfg = { .host_high_size = 64 * MiB, .slot_size = (high / 5) & ~(MiB - 1) };
	enum check_status st = dck_start(c, &cfg, r);

	if (st)
		return st;
	for (int i = 0; i < 4; i++)
		if (dck_create(c, r, 4 * MiB, S[i], 0, (int)P[i], &id[i]))
			return CHECK_FAIL;
	return CHECK_PASS;
}

static enum check_status check_slot_resize_algorithm(struct check_ctx *c)
{
	struct dck_rt r = { 0 };
	int id[4];
	unsigned L, R;
	enum check_status st = figure4(c, &r, id);

	if (st)
		return r.rt ? dck_stop(c, &r, st) : st;
	if (dom0_expand(r.rt, id[3], 2, &L, &R, &r.err))
		return dck_stop(c, &r, ck_error(c, "expand", &r.err));
	struct dom0_vgpu_info in;
	dom0_vgpu_info(r.rt, id[3], &in);
	if (L != 2 || R != 0 || in.first_slot != 0 || in.slots != 3)
		return dck_stop(c, &r, ck_fail(c, "vGPU4 of Figure 4 grew by %u left and %u right to slots %u-%u; Algorithm 1 puts both left (slots 0-2)",
					L, R, in.first_slot, in.first_slot + in.slots - 1));
	uint32_t base = 0, size = 0;
	dom0_pvinfo_read(r.rt, id[3], VGT_IF_NONMAPPABLE_BASE - VGT_PVINFO_PAGE, &base, NULL);
	dom0_pvinfo_read(r.rt, id[3], VGT_IF_NONMAPPABLE_SIZE - VGT_PVINFO_PAGE, &size, NULL);
	if (base != in.high_base || size != in.high_size)
		return dck_stop(c, &r, ck_fail(c, "PVINFO non-mappable base/size (0x78048/0x7804c) read 0x%x/0x%x after the expansion, the range is 0x%llx/0x%llx",
					base, size, (unsigned long long)in.high_base, (unsigned long long)in.high_size));
	/* the physical GTT takes the new range at the next switch */
	if (dom0_guest_pte_write(r.rt, id[3], in.high_base / 4096, dck_guest_pte(c, 5), &r.err) || dom0_switch(r.rt, id[3], NULL, &r.err))
		return dck_stop(c, &r, ck_error(c, "guest operation", &r.err));
	uint64_t sh;
	dom0_shadow_pte(r.rt, id[3], in.high_base / 4096, &sh, NULL);
	if (dck_phys_pte(c, in.high_base / 4096) != sh)
		return dck_stop(c, &r, ck_fail(c, "after vGPU4's switch, PTE %llu in its new slot 0 is 0x%llx, its shadow 0x%llx",
					(unsigned long long)(in.high_base / 4096), (unsigned long long)dck_phys_pte(c, in.high_base / 4096),
					(unsigned long long)sh));
	if (dom0_reduce(r.rt, id[2], 1, &L, &R, &r.err))
		return dck_stop(c, &r, ck_error(c, "reduce", &r.err));
	dom0_vgpu_info(r.rt, id[2], &in);
	if (L != 1 || R != 0 || in.first_slot != 4)
		return dck_stop(c, &r, ck_fail(c, "vGPU3 of Figure 4 shrank by %u left and %u right to slots %u-%u; Algorithm 1 gives up its shared slot 3",
					L, R, in.first_slot, in.first_slot + in.slots - 1));
	/* impossible requests are refused and change nothing */
	if (!dom0_expand(r.rt, id[0], 4, &L, &R, NULL) || !dom0_reduce(r.rt, id[2], 2, &L, &R, NULL))
		return dck_stop(c, &r, ck_fail(c, "an impossible resize (2+4 of 5 slots, or 2 from 1) was accepted"));
	dom0_vgpu_info(r.rt, id[0], &in);
	if (in.first_slot != 0 || in.slots != 2)
		return dck_stop(c, &r, ck_fail(c, "a refused expansion moved vGPU1 to slots %u-%u", in.first_slot, in.first_slot + in.slots - 1));
	return dck_stop(c, &r, CHECK_PASS);
}

/* Slots a vGPU gives up are no longer mapped for it, at once and after its next switch. */
static enum check_status check_slot_resize_release(struct check_ctx *c)
{
	struct dck_rt r = { 0 };
	int id[4];
	unsigned L, R;
	enum check_status st = figure4(c, &r, id);

	if (st)
		return r.rt ? dck_stop(c, &r, st) : st;
	struct dom0_vgpu_info before, after;
	dom0_vgpu_info(r.rt, id[2], &before);
	for (uint64_t i = 0; i < before.high_size / 4096; i += 509)
		if (dom0_guest_pte_write(r.rt, id[2], before.high_base / 4096 + i, dck_guest_pte(c, i % 32), &r.err))
			return dck_stop(c, &r, ck_error(c, "guest PTE write", &r.err));
	if (dom0_switch(r.rt, id[2], NULL, &r.err) || dom0_reduce(r.rt, id[2], 1, &L, &R, &r.err))
		return dck_stop(c, &r, ck_error(c, "switch/reduce", &r.err));
	dom0_vgpu_info(r.rt, id[2], &after);
	uint64_t n = before.high_size / 4096, *ph = gtt_calloc(c->dev->env, (size_t)n, sizeof(uint64_t)), frames[32];
	if (!ph)
		return dck_stop(c, &r, ck_fail(c, "out of memory"));
	for (unsigned g = 0; g < 32; g++) {
		struct hw_page pg = { 0 };
		dom0_guest_page(r.rt, id[2], g, &pg);
		frames[g] = pg.phys;
	}
	for (int round = 0; round < 2; round++) {
		if (hw_ggtt_read_range(c->dev, before.high_base / 4096, (size_t)n, ph, &r.err)) {
			c->dev->env->free(c->dev->env, ph);
			return dck_stop(c, &r, ck_error(c, "reading the GTT", &r.err));
		}
		for (uint64_t i = before.high_base / 4096; i < (before.high_base + before.high_size) / 4096; i++) {
			if (i >= after.high_base / 4096 && i < (after.high_base + after.high_size) / 4096)
				continue;
			struct hw_pte d;
			hw_pte_decode(c->dev->info.plat, ph[i - before.high_base / 4096], &d);
			for (unsigned g = 0; g < 32 && d.valid; g++) {
				if (d.addr == frames[g]) {
					c->dev->env->free(c->dev->env, ph);
					return dck_stop(c, &r, ck_fail(c, "PTE %llu in the slot vGPU %d gave up still maps its frame %u (0x%llx)%s",
								(unsigned long long)i, id[2], g, (unsigned long long)frames[g],
								round ? " after its next switch" : ""));
				}
			}
		}
		if (dom0_guest_pte_write(r.rt, id[2], before.high_base / 4096, dck_guest_pte(c, 1), NULL) != GTT_ERANGE)
			st = ck_fail(c, "a guest write to PTE %llu in a released slot was accepted", (unsigned long long)(before.high_base / 4096));
		else if (dom0_switch(r.rt, id[1], NULL, &r.err) || dom0_switch(r.rt, id[2], NULL, &r.err))
			st = ck_error(c, "switch", &r.err);
		if (st)
			break;
	}
	c->dev->env->free(c->dev->env, ph);
	return dck_stop(c, &r, st ? st : CHECK_PASS);
}

/* This file's rows of the check table (checks/check_table.c lists the files). */
static const struct check rows[] = {
	{ "shadow-copy-switch", "shadow-copy", "after every switch the physical GTT is the incoming vGPU's shadow, written minimally, host untouched",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_shadow_copy_switch },
	{ "shadow-copy-ladder", "shadow-copy", "a guest reaches its own data through its aperture while another vGPU owns the GTT",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_shadow_copy_ladder },
	{ "fence-pool-guest-fence", "fence-pool", "a guest fence lands in the fence pool with its pitch and tiling, and is given back",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_fence_pool_guest_fence },
	{ "slot-resize-algorithm", "slot-resize", "gBalloon Figure 4: Algorithm 1's choices, PVINFO, shadow and physical GTT, refusals",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_resize_algorithm },
	{ "slot-resize-release", "slot-resize", "slots a vGPU gives up are no longer mapped for it",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_resize_release },
};

const struct check_rows checks_dom0 = { rows, sizeof(rows) / sizeof(rows[0]) };
