/* SPDX-License-Identifier: MIT */
/*
 * The host's side of a vgpu: device, checked (hw_backend_ops.host_audit):
 * whether everything outside the guest is as the mediator promises. The
 * physical GGTT maps none of the guest's pages outside its ranges and its
 * fence-pool ranges; each peer's scratch page holds what it held at open;
 * the physical fences other than the guest's pool fences are as the setup
 * left them; and each peer's tagged bytes are intact, read as the peer
 * reads them, switched in (its low range through its aperture view, its
 * high pages GPU-side on the host). Where the host promised each slot to
 * one vGPU (hog=, share limit 1), no slot of the guest's is another's; and
 * after a move= the guest came back from the spare model. The render owner
 * is put back after.
 */
#include <stdarg.h>

#include "dom0/fence_pool.h"
#include "dom0/guest_device_internal.h"
#include "dom0/ladder.h"
#include "dom0/state_types.h"
#include "dom0/state.h"
#include "dom0/switch.h"
#include "dom0/vgpu.h"
#include "dom0/vgpu_info.h"
#include "env/fmt.h"
#include "hw/backend_sim.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

#define AUDIT_RUN	512	/* PTEs read per bulk read: one audit buffer */

/* The guest's pool fences, as the runtime holds them: their PTE ranges and physical fences. */
struct held {
	unsigned n;
	uint64_t first[DOM0_MAX_GUEST_FENCES], end[DOM0_MAX_GUEST_FENCES];
	bool fence[I915_MAX_NUM_FENCES];
	bool others[I915_MAX_NUM_FENCES];	/* a view: another guest's pool fence */
};

static int fail(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (n)
		gtt_vsnprintf(why, n, fmt, ap);
	va_end(ap);
	return GTT_EIO;
}

/* A view's other vGPUs are other guests': the physical fences their pool fences hold are theirs to change. */
static void others_hold(const struct guest_dev *g, struct held *h)
{
	for (int id = 1; g->view && id <= g->rt->n_ids; id++) {
		const struct vgpu *o = g->rt->v[id];
		for (unsigned i = 0; o && id != g->guest && i < DOM0_MAX_GUEST_FENCES; i++)
			if (dom0_pool_fence(o, i)->active && dom0_pool_fence(o, i)->phys < I915_MAX_NUM_FENCES)
				h->others[dom0_pool_fence(o, i)->phys] = true;
	}
}

static void guest_holds(const struct guest_dev *g, struct held *h)
{
	const struct vgpu *v = g->rt->v[g->guest];

	*h = (struct held){ 0 };
	others_hold(g, h);
	for (unsigned i = 0; i < DOM0_MAX_GUEST_FENCES; i++) {
		const struct pool_fence *pf = dom0_pool_fence(v, i);
		if (!pf->active)
			continue;
		h->first[h->n] = pf->pool_gm >> 12;
		h->end[h->n++] = (pf->pool_gm >> 12) + pf->pages;
		if (pf->phys < I915_MAX_NUM_FENCES)
			h->fence[pf->phys] = true;
	}
}

/* Whether a host address is one of the guest's pages (binary search of the sorted list). */
static bool guest_page(const struct guest_dev *g, uint64_t addr)
{
	size_t lo = 0, hi = g->o.ram_pages;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->guest_phys[mid] == addr)
			return true;
		if (g->guest_phys[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* An entry the guest may hold: in its low or high range, or in the pool range of one of its fences. */
static bool guest_entry(const struct dom0_runtime *rt, const struct dom0_vgpu_info *in, const struct held *h,
			uint64_t index)
{
	uint64_t gm = index << 12;

	if ((gm >= in->low_base && gm - in->low_base < in->low_size) || dom0_high_holds(rt, in, gm, 4096))
		return true;
	for (unsigned i = 0; i < h->n; i++)
		if (index >= h->first[i] && index < h->end[i])
			return true;
	return false;
}

/* (2) No physical GGTT entry of [from, to) outside the guest's ranges and pool ranges maps one of its pages. */
static int audit_ptes(struct guest_dev *g, const struct held *h, uint64_t from, uint64_t to, char *why, size_t n)
{
	const struct hw_info *info = &g->host->info;
	struct dom0_vgpu_info in;
	struct gtt_err err = { 0 };
	uint64_t *buf = g->work[0];
	struct hw_pte d;

	dom0_vgpu_info(g->rt, g->guest, &in);
	for (uint64_t first = from; first < to; first += AUDIT_RUN) {
		size_t k = to - first < AUDIT_RUN ? (size_t)(to - first) : AUDIT_RUN;
		if (hw_ggtt_read_range(g->host, first, k, buf, &err))
			return fail(why, n, "cannot read the host's GGTT entries %llu..%llu: %s", (unsigned long long)first,
				    (unsigned long long)(first + k - 1), err.msg);
		for (size_t j = 0; j < k; j++) {
			if (guest_entry(g->rt, &in, h, first + j))
				continue;
			hw_pte_decode(info->plat, buf[j], &d);
			if (d.valid && guest_page(g, d.addr))
				return fail(why, n, "GGTT entry %llu (GM 0x%llx), outside vGPU %d's ranges and pool fences, maps its page 0x%llx: expected none of its pages, found PTE 0x%llx",
					    (unsigned long long)(first + j), (unsigned long long)((first + j) << 12), g->guest,
					    (unsigned long long)d.addr, (unsigned long long)buf[j]);
		}
	}
	return GTT_OK;
}

/* (3) Each peer's scratch page holds what it held at open (read on the model, whose memory the pages are). */
static int audit_scratch(struct guest_dev *g, char *why, size_t n)
{
	struct sim_device *model = hw_sim_model(g->host);
	uint8_t *page = (uint8_t *)g->work[0];
	struct dom0_vgpu_info in;

	for (unsigned k = 0; k < g->n_peers; k++) {
		const uint8_t *was = g->peer_scratch + (size_t)k * 4096;
		dom0_vgpu_info(g->rt, g->peer[k], &in);
		sim_mem_read(model, in.scratch_phys, page, 4096);
		for (unsigned b = 0; b < 4096; b++)
			if (page[b] != was[b])
				return fail(why, n, "peer vGPU %d: its scratch page 0x%llx byte 0x%x: expected 0x%02x as at open, found 0x%02x",
					    g->peer[k], (unsigned long long)in.scratch_phys, b, was[b], page[b]);
	}
	return GTT_OK;
}

/* (4) The physical fences the guest's pool fences do not hold are as the setup left them. */
static int audit_fences(struct guest_dev *g, const struct held *h, char *why, size_t n)
{
	uint64_t v;

	for (unsigned i = 0; i < g->host->info.num_fences; i++) {
		if (h->fence[i] || h->others[i])
			continue;
		if (hw_fence_read(g->host, i, &v, NULL))
			return fail(why, n, "cannot read the host's physical fence %u", i);
		/* a view's runtime is shared: a fence no vGPU holds now is back at what the runtime found */
		uint64_t want = g->view ? dom0_fence_as_found(g->rt, i) : g->fence_setup[i];
		if (v != want)
			return fail(why, n, "physical fence %u, not one of vGPU %d's pool fences: expected 0x%016llx as %s, found 0x%016llx",
				    i, g->guest, (unsigned long long)want,
				    g->view ? "the runtime found it (no vGPU holds it)" : "after setup", (unsigned long long)v);
	}
	return GTT_OK;
}

/* One page of peer k against its tags; `path` says how it was read. */
static int peer_page_ok(struct guest_dev *g, unsigned k, uint64_t gm, const uint64_t *got, const char *path,
			char *why, size_t n)
{
	uint64_t *want = g->work[1];

	gd_peer_page(k, gm, want);
	for (unsigned w = 0; w < 512; w++)
		if (got[w] != want[w])
			return fail(why, n, "peer vGPU %d: GM 0x%llx (%s): expected its tag 0x%016llx, found 0x%016llx",
				    g->peer[k], (unsigned long long)(gm + 8 * w), path, (unsigned long long)want[w],
				    (unsigned long long)got[w]);
	return GTT_OK;
}

/* (1) Peer k's tagged bytes, read as the peer reads them: switched in, its low range through its aperture view, its high pages GPU-side. */
static int audit_peer(struct guest_dev *g, unsigned k, char *why, size_t n)
{
	int id = g->peer[k], rc = GTT_OK;
	struct gtt_err err = { 0 };
	struct dom0_vgpu_info in;
	uint64_t *got = g->work[0];

	if (dom0_vgpu_info(g->rt, id, &in) || dom0_switch(g->rt, id, NULL, &err))
		return fail(why, n, "peer vGPU %d cannot be switched in: %s", id, err.msg);
	for (uint64_t gm = in.low_base; !rc && gm < in.low_base + in.low_size; gm += 4096)
		rc = dom0_guest_aperture_read(g->rt, id, gm, got, 4096, &err) ?
			fail(why, n, "peer vGPU %d: its aperture view at GM 0x%llx: %s", id, (unsigned long long)gm, err.msg) :
			peer_page_ok(g, k, gm, got, "its low range, through its aperture view", why, n);
	for (uint64_t j = 0; !rc && j < GD_PEER_HIGH_PAGES && j < in.high_size >> 12; j++) {
		uint64_t gm = in.high_base + j * 4096;
		rc = hw_gpu_read(g->host, gm, got, 4096, &err) ?
			fail(why, n, "peer vGPU %d: GPU-side read at GM 0x%llx: %s", id, (unsigned long long)gm, err.msg) :
			peer_page_ok(g, k, gm, got, "its high range, GPU side", why, n);
	}
	return rc;
}

/* (5) hog=: the share limit is 1, so the guest's slots are held by no other vGPU (ConVGPU's admission waits for them). */
static int audit_exclusive(struct guest_dev *g, char *why, size_t n)
{
	struct dom0_vgpu_info in, o;
	int ids[GD_MAX_PEERS + GD_HOGS];
	unsigned k = 0;

	if (!g->o.hog || dom0_vgpu_info(g->rt, g->guest, &in) || !in.slots)
		return GTT_OK;
	for (unsigned i = 0; i < g->n_peers; i++)
		ids[k++] = g->peer[i];
	for (unsigned i = g->hogs_released; i < g->n_hogs; i++)
		ids[k++] = g->hog[i];
	for (unsigned i = 0; i < k; i++) {
		if (dom0_vgpu_info(g->rt, ids[i], &o) || !o.slots)
			continue;
		if (o.first_slot < in.first_slot + in.slots && in.first_slot < o.first_slot + o.slots)
			return fail(why, n, "vGPU %d holds slots %u-%u (GM 0x%llx+0x%llx) and vGPU %d slots %u-%u (GM 0x%llx+0x%llx): the share limit is 1 (GVT-g's exclusive slots)",
				    g->guest, in.first_slot, in.first_slot + in.slots - 1, (unsigned long long)in.high_base,
				    (unsigned long long)in.high_size, ids[i], o.first_slot, o.first_slot + o.slots - 1,
				    (unsigned long long)o.high_base, (unsigned long long)o.high_size);
	}
	return GTT_OK;
}

int gd_host_audit_step(void *ctx, uint64_t *cursor, uint64_t budget, char *why, size_t n)
{
	struct guest_dev *g = ctx;
	int owner = dom0_render_owner(g->rt), rc;
	uint64_t N = g->host->info.n_ptes;
	struct gtt_err err = { 0 };
	struct held h;

	if (n)
		why[0] = '\0';
	if (g->lost[0])
		return fail(why, n, "%s", g->lost);
	/* the physical state the guest's accesses left, before the audit's own switches change it */
	guest_holds(g, &h);
	rc = audit_exclusive(g, why, n);
	/* the GGTT a budget of entries a call: what a step leaves for the next is judged as it is then */
	if (!rc && *cursor < N) {
		uint64_t end = N - *cursor > budget ? *cursor + budget : N;
		if (!(rc = audit_ptes(g, &h, *cursor, end, why, n)) && (*cursor = end) < N)
			return 1;
	}
	if (!rc)
		rc = audit_scratch(g, why, n);
	if (!rc)
		rc = audit_fences(g, &h, why, n);
	for (unsigned k = 0; !rc && k < g->n_peers; k++)
		rc = audit_peer(g, k, why, n);
	if (owner && dom0_render_owner(g->rt) != owner && dom0_switch(g->rt, owner, NULL, &err) && !rc)
		rc = fail(why, n, "vGPU %d, the render owner before the audit, cannot be switched back in: %s", owner, err.msg);
	return rc;
}

int gd_host_audit(void *ctx, char *why, size_t n)
{
	uint64_t cursor = 0;

	return gd_host_audit_step(ctx, &cursor, UINT64_MAX, why, n);
}
