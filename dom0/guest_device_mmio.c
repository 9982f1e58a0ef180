/* SPDX-License-Identifier: MIT */
/*
 * BAR0 as a GVT-g guest sees it (docs/hardware.md §6.3): the PVINFO page,
 * the GSM's PTEs and the fence registers are trapped into the runtime;
 * GFX_FLSH_CNTL_GEN6 writes are dropped (the runtime invalidates after its
 * own physical writes); every other register reads the host's value, and a
 * guest write to one lands in a vreg of its own that later reads return.
 * Nothing the guest writes reaches the host device except through the
 * runtime. Every trapped access counts toward the next render-owner switch.
 */
#include "dom0/fence_pool.h"
#include "dom0/gm_request.h"
#include "dom0/guest_device_internal.h"
#include "dom0/guest_gtt.h"
#include "dom0/ops.h"
#include "dom0/pvinfo.h"
#include "dom0/vgpu.h"
#include "regs/mmio.h"
#include "regs/pvinfo.h"

enum gd_region { GD_PVINFO, GD_GSM, GD_FENCE, GD_FLUSH, GD_REG, GD_NONE };

static enum gd_region region(const struct guest_dev *g, uint32_t off, unsigned width)
{
	const struct hw_info *in = &g->host->info;

	if (off % 4 || off > in->bar0_size - width)
		return GD_NONE;		/* misaligned or outside BAR0: nothing answers */
	if (off >= VGT_PVINFO_PAGE && off < VGT_PVINFO_PAGE + VGT_PVINFO_SIZE)
		return GD_PVINFO;
	if (off >= in->gsm_offset)
		return off - in->gsm_offset < in->gsm_size ? GD_GSM : GD_NONE;
	if (off >= FENCE_REG_GEN6_LO(0) && off < FENCE_REG_GEN6_LO(in->num_fences))
		return GD_FENCE;
	return off == GFX_FLSH_CNTL_GEN6 ? GD_FLUSH : GD_REG;
}

/* A refused guest operation: GVT-g drops it; said at debug level, where a check's deliberate probes are no noise. */
static void dropped(const struct guest_dev *g, int rc, const struct gtt_err *err)
{
	if (rc)
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: guest access dropped: %s", err->msg);
}

/* ---- the GSM: PTEs by index, gen8's 32-bit halves merged as GVT-g's partial PTE list does ---- */

static struct gd_partial *partial_of(struct guest_dev *g, uint64_t index)
{
	for (unsigned i = 0; i < GD_PARTIALS; i++)
		if (g->partial[i].used && g->partial[i].index == index)
			return &g->partial[i];
	return NULL;
}

/* A free slot, else the oldest half (its PTE never completed: lost, as a guest that stopped halfway loses it). */
static struct gd_partial *partial_new(struct guest_dev *g, uint64_t index)
{
	struct gd_partial *p = &g->partial[0];

	for (unsigned i = 0; i < GD_PARTIALS && p->used; i++)
		if (!g->partial[i].used || g->partial[i].age < p->age)
			p = &g->partial[i];
	*p = (struct gd_partial){ .used = true, .index = index, .age = ++g->partial_age };
	return p;
}

static uint64_t merge_half(uint64_t v, unsigned half, uint32_t val)
{
	return half ? (v & 0xffffffffull) | (uint64_t)val << 32 : (v & ~0xffffffffull) | val;
}

/* The guest's entry: a half written alone reads back merged (GVT-g updates the guest entry at once); refused: 0. */
static uint64_t pte_read(struct guest_dev *g, uint64_t index)
{
	struct gd_partial *p = partial_of(g, index);
	struct gtt_err err = { 0 };
	uint64_t v = 0;

	if (p)
		return p->val;
	if (dom0_guest_pte_read(g->rt, g->guest, index, &v, &err))
		return 0;
	return v;
}

static void pte_write(struct guest_dev *g, uint64_t index, uint64_t val)
{
	struct gd_partial *p = partial_of(g, index);
	struct gtt_err err = { 0 };

	if (p)
		p->used = false;
	dropped(g, dom0_guest_pte_write(g->rt, g->guest, index, val, &err), &err);
}

/*
 * One 32-bit half of a gen8 PTE: the first is held (the guest's entry reads
 * it merged, the shadow is not touched), the other half completes the entry
 * and only then does the runtime see a write.
 */
static void pte_write_half(struct guest_dev *g, uint64_t index, unsigned half, uint32_t val)
{
	struct gd_partial *p = partial_of(g, index);

	if (p && p->half != half) {
		pte_write(g, index, merge_half(p->val, half, val));
		return;
	}
	if (!p) {
		uint64_t cur = pte_read(g, index);
		p = partial_new(g, index);
		p->half = half;
		p->val = cur;
	}
	p->val = merge_half(p->val, half, val);
}

static uint32_t gsm_read32(struct guest_dev *g, uint32_t rel)
{
	const struct hw_info *in = &g->host->info;

	if (in->pte_size == 4)
		return (uint32_t)pte_read(g, rel / 4);
	return (uint32_t)(pte_read(g, rel / 8) >> (rel % 8 ? 32 : 0));
}

static void gsm_write32(struct guest_dev *g, uint32_t rel, uint32_t val)
{
	if (g->host->info.pte_size == 4)
		pte_write(g, rel / 4, val);
	else
		pte_write_half(g, rel / 8, rel % 8 / 4, val);
}

/*
 * ---- fences: GVT-g's fence_mmio_write — the write lands in a 64-bit vreg,
 * then the whole vreg goes to the mediator (intel_vgpu_write_fence(vreg64)).
 * Below the 16 fences GVT-g traps, the device leaves the fence number to the
 * mediator: the runtime refuses one at or above the guest's count, and a
 * mediator that takes it anyway is seen from inside. Reads give the
 * mediator's value (dom0_guest_fence_read), which is the vreg whenever it
 * took the write; fences at or above the count read 0. ----
 */

static void fence_write(struct guest_dev *g, unsigned fence, uint64_t val)
{
	struct gtt_err err = { 0 };

	if (fence >= DOM0_MAX_GUEST_FENCES) {
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: guest write of fence %u dropped: GVT-g traps fences 0..%u",
			fence, DOM0_MAX_GUEST_FENCES - 1);
		return;
	}
	g->fence_vreg[fence] = val;
	dropped(g, dom0_guest_fence_write(g->rt, g->guest, fence, val, &err), &err);
}

static uint64_t fence_read(struct guest_dev *g, unsigned fence)
{
	uint64_t v = 0;

	if (fence >= g->o.n_fences || dom0_guest_fence_read(g->rt, g->guest, fence, &v, NULL))
		return 0;
	return v;
}

/* A 32-bit half written: merged into the vreg (what the guest wrote last, taken or not) as GVT-g's write_vreg does. */
static void fence_write_half(struct guest_dev *g, uint32_t off, uint32_t val)
{
	unsigned f = (off - FENCE_REG_GEN6_BASE) / 8;
	uint64_t v = f < DOM0_MAX_GUEST_FENCES ? g->fence_vreg[f] : 0;

	fence_write(g, f, off % 8 ? (v & 0xffffffffull) | (uint64_t)val << 32 : (v & ~0xffffffffull) | val);
}

/* ---- every other register: the host's value, unless the guest wrote its own ---- */

static struct gd_vreg *vreg_of(struct guest_dev *g, uint32_t off)
{
	for (unsigned i = 0; i < g->n_vregs; i++)
		if (g->vreg[i].off == off)
			return &g->vreg[i];
	return NULL;
}

static void reg_write(struct guest_dev *g, uint32_t off, uint32_t val)
{
	struct gd_vreg *r = vreg_of(g, off);

	if (!r && g->n_vregs == GD_VREGS) {
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: guest write of 0x%x to register 0x%x dropped: %u registers written already",
			val, off, GD_VREGS);
		return;
	}
	if (!r) {
		r = &g->vreg[g->n_vregs++];
		r->off = off;
	}
	r->val = val;
}

static uint32_t reg_read(struct guest_dev *g, uint32_t off)
{
	struct gd_vreg *r = vreg_of(g, off);

	return r ? r->val : hw_mmio_read32(g->host, off);
}

/* ---- the operations ---- */

uint32_t gd_mmio_read32(void *ctx, uint32_t off)
{
	struct guest_dev *g = ctx;
	struct gtt_err err = { 0 };
	uint32_t v = 0;

	switch (region(g, off, 4)) {
	case GD_PVINFO:
		if (off == GTTLAB_IF_GM_EPOCH)
			gd_epoch_read(g);
		if (dom0_pvinfo_read(g->rt, g->guest, off - VGT_PVINFO_PAGE, &v, &err))
			v = 0;
		break;
	case GD_GSM:
		v = gsm_read32(g, off - g->host->info.gsm_offset);
		break;
	case GD_FENCE:
		v = (uint32_t)(fence_read(g, (off - FENCE_REG_GEN6_BASE) / 8) >> (off % 8 ? 32 : 0));
		break;
	case GD_FLUSH:
	case GD_REG:
		return reg_read(g, off);	/* read-only: no trap, no switch */
	case GD_NONE:
		return 0;
	}
	gd_trapped(g);
	return v;
}

void gd_mmio_write32(void *ctx, uint32_t off, uint32_t val)
{
	struct guest_dev *g = ctx;
	struct gtt_err err = { 0 };
	int rc;

	switch (region(g, off, 4)) {
	case GD_PVINFO:
		rc = dom0_pvinfo_write(g->rt, g->guest, off - VGT_PVINFO_PAGE, val, &err);
		/* a request is served at once, so a guest polling STATUS sees its answer */
		if (!rc && off == VGT_IF_G2V_NOTIFY && val == GTTLAB_G2V_GM_REQUEST)
			rc = dom0_serve_requests(g->rt, NULL, &err);
		dropped(g, rc, &err);
		break;
	case GD_GSM:
		gsm_write32(g, off - g->host->info.gsm_offset, val);
		break;
	case GD_FENCE:
		fence_write_half(g, off, val);
		break;
	case GD_FLUSH:
		break;		/* dropped: the runtime invalidates after its own physical writes */
	case GD_REG:
		reg_write(g, off, val);
		break;
	case GD_NONE:
		return;
	}
	gd_trapped(g);
}

uint64_t gd_mmio_read64(void *ctx, uint32_t off)
{
	struct guest_dev *g = ctx;
	enum gd_region r = region(g, off, 8);

	/* a whole gen8 PTE or a whole fence is one access; anything else is its two 32-bit halves */
	if (r == GD_GSM && g->host->info.pte_size == 8 && off % 8 == 0) {
		uint64_t v = pte_read(g, (off - g->host->info.gsm_offset) / 8);
		gd_trapped(g);
		return v;
	}
	if (r == GD_FENCE && off % 8 == 0) {
		uint64_t v = fence_read(g, (off - FENCE_REG_GEN6_BASE) / 8);
		gd_trapped(g);
		return v;
	}
	if (r == GD_NONE)
		return 0;
	return gd_mmio_read32(ctx, off) | (uint64_t)gd_mmio_read32(ctx, off + 4) << 32;
}

void gd_mmio_write64(void *ctx, uint32_t off, uint64_t val)
{
	struct guest_dev *g = ctx;
	enum gd_region r = region(g, off, 8);

	if (r == GD_GSM && g->host->info.pte_size == 8 && off % 8 == 0) {
		pte_write(g, (off - g->host->info.gsm_offset) / 8, val);
		gd_trapped(g);
	} else if (r == GD_FENCE && off % 8 == 0) {
		fence_write(g, (off - FENCE_REG_GEN6_BASE) / 8, val);
		gd_trapped(g);
	} else if (r != GD_NONE) {
		gd_mmio_write32(ctx, off, (uint32_t)val);
		gd_mmio_write32(ctx, off + 4, (uint32_t)(val >> 32));
	}
}
