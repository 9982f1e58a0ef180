/* SPDX-License-Identifier: MIT */
/*
 * vgpu: — a vGPU of the Dom0 runtime opened as a device (design.md, "A vGPU
 * is also a device"). The guest's view with GVT-g's semantics
 * (docs/hardware.md §6.3): config space an emulated copy of the host's; BAR0
 * trapped (dom0/guest_device_mmio.c); the aperture through the runtime's
 * ladder map, its own slice only; GPU-side access to its own ranges only,
 * while it owns the render engine; test pages from its own memory, named by
 * guest-physical address. The host, its runtime and the busy peers are
 * dom0/guest_device_host.c's; the host's side is checked by
 * dom0/guest_device_audit.c.
 */
#include "dom0/guest_device.h"
#include "dom0/guest_device_internal.h"
#include "dom0/ladder.h"
#include "dom0/state.h"
#include "dom0/switch.h"
#include "dom0/vgpu.h"
#include "dom0/vgpu_info.h"

/* ---- config space: a copy of the host's, read at open; writes change the copy only ---- */

static int cfg_ok(unsigned off, unsigned width)
{
	return (width == 1 || width == 2 || width == 4) && off % width == 0 && off < PCI_CFG_SIZE && width <= PCI_CFG_SIZE - off;
}

static int g_cfg_read(void *ctx, unsigned off, unsigned width, uint32_t *val)
{
	struct guest_dev *g = ctx;

	if (!cfg_ok(off, width))
		return GTT_EINVAL;
	*val = 0;
	for (unsigned i = 0; i < width; i++)
		*val |= (uint32_t)g->config_space[off + i] << (8 * i);
	return GTT_OK;
}

/* A BAR dword written: only the address bits above the BAR's size take (how the guest sizes it); flags stay. */
static uint32_t bar_dword(struct guest_dev *g, unsigned off, uint32_t val)
{
	unsigned d = (off - PCI_CFG_BAR(0)) / 4;
	uint64_t mask = ~(g->bar_size[d / 2] - 1);
	uint32_t old = 0;

	g_cfg_read(g, off, 4, &old);
	if (d % 2)
		return val & (uint32_t)(mask >> 32);
	return (val & (uint32_t)mask & PCI_BAR_MEM_MASK) | (old & ~PCI_BAR_MEM_MASK);
}

static int g_cfg_write(void *ctx, unsigned off, unsigned width, uint32_t val)
{
	struct guest_dev *g = ctx;

	if (!cfg_ok(off, width))
		return GTT_EINVAL;
	/* BAR0 and BAR2, both 64-bit (0x10..0x1f), sized by whole dwords; a narrower write there changes nothing */
	if (off >= PCI_CFG_BAR(0) && off < PCI_CFG_BAR(4)) {
		if (width == 4)
			val = bar_dword(g, off, val);
		else
			return GTT_OK;
	}
	for (unsigned i = 0; i < width; i++) {
		unsigned b = off + i;
		/* as on the model (hw/sim/sim_config.c): software writes COMMAND and the interrupt line, nothing else
		 * outside the BARs; identity, status, capabilities and GMCH control stay as the host has them */
		if ((b < PCI_CFG_COMMAND || b >= PCI_CFG_COMMAND + 2) && b != PCI_CFG_INTERRUPT_LINE &&
		    (b < PCI_CFG_BAR(0) || b >= PCI_CFG_BAR(4)))
			continue;
		g->config_space[b] = (uint8_t)(val >> (8 * i));
	}
	return GTT_OK;
}

/*
 * The copy: the host's 256 bytes with GMCH control's stolen size cleared, as
 * GVT-g shows its guests no stolen memory; BAR sizes the host's (a GVT-g
 * guest's BAR2 is as large as the host's aperture).
 */
static int cfg_copy(struct guest_dev *g, struct gtt_err *err)
{
	const struct hw_info *in = &g->host->info;
	uint32_t v;

	for (unsigned off = 0; off < PCI_CFG_SIZE; off += 4) {
		if (hw_cfg_read(g->host, off, 4, &v))
			return gtt_err_set(err, GTT_EIO, "vgpu: cannot read the host's config space at 0x%02x", off);
		for (unsigned i = 0; i < 4; i++)
			g->config_space[off + i] = (uint8_t)(v >> (8 * i));
	}
	uint16_t gmch = in->gmch_ctrl;
	if (in->plat->gmch_layout == GMCH_LAYOUT_BDW)
		gmch &= (uint16_t)~(BDW_GMCH_GMS_MASK << BDW_GMCH_GMS_SHIFT);
	else
		gmch &= (uint16_t)~(SNB_GMCH_GMS_MASK << SNB_GMCH_GMS_SHIFT);
	g->config_space[SNB_GMCH_CTRL] = (uint8_t)gmch;
	g->config_space[SNB_GMCH_CTRL + 1] = (uint8_t)(gmch >> 8);
	g->bar_size[0] = in->bar0_size;
	g->bar_size[1] = in->aperture_size;
	return GTT_OK;
}

static int g_bar_info(void *ctx, unsigned bar, uint64_t *base, uint64_t *size)
{
	struct guest_dev *g = ctx;
	uint32_t lo, hi;

	if (bar != GTTMMADR_BAR && bar != GFXMEM_BAR)
		return GTT_EINVAL;
	g_cfg_read(g, PCI_CFG_BAR(bar), 4, &lo);
	g_cfg_read(g, PCI_CFG_BAR(bar) + 4, 4, &hi);
	*base = (uint64_t)hi << 32 | (lo & PCI_BAR_MEM_MASK);
	*size = g->bar_size[bar / 2];
	return GTT_OK;
}

/* ---- the aperture (its slice, through the ladder map) and the GPU side (its ranges, while it runs) ---- */

static int g_ap_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct guest_dev *g = ctx;
	struct gtt_err err = { 0 };
	int rc = dom0_guest_aperture_read(g->rt, g->guest, off, buf, len, &err);

	if (rc)
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: %s", err.msg);
	gd_trapped(g);
	return rc;
}

static int g_ap_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	struct guest_dev *g = ctx;
	struct gtt_err err = { 0 };
	int rc = dom0_guest_aperture_write(g->rt, g->guest, off, buf, len, &err);

	if (rc)
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: %s", err.msg);
	gd_trapped(g);
	return rc;
}

static bool inside(uint64_t gm, size_t len, uint64_t base, uint64_t size)
{
	return gm >= base && gm - base <= size && len <= size - (gm - base);
}

/*
 * As GVT-g's command scanner, only the guest's own ranges; and its GPU work
 * runs only while it owns the render engine, so it is switched in first.
 */
static int gpu_begin(struct guest_dev *g, uint64_t gm, size_t len)
{
	struct dom0_vgpu_info in;
	struct gtt_err err = { 0 };
	int rc = dom0_vgpu_info(g->rt, g->guest, &in);

	if (rc)
		return rc;
	if (!inside(gm, len, in.low_base, in.low_size) && !dom0_high_holds(g->rt, &in, gm, len)) {
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: GPU-side access 0x%llx+0x%zx is outside vGPU %d's ranges (low 0x%llx+0x%llx, high 0x%llx+0x%llx)",
			(unsigned long long)gm, len, g->guest, (unsigned long long)in.low_base,
			(unsigned long long)in.low_size, (unsigned long long)in.high_base, (unsigned long long)in.high_size);
		return GTT_ERANGE;
	}
	/* new work of a guest whose request waits for admission is the runtime's to allow even when the
	 * guest still owns the engine: a paused vGPU is not run (dom0_switch says so) */
	if ((dom0_render_owner(g->rt) != g->guest || dom0_vgpu_paused(g->rt, g->guest)) &&
	    (rc = dom0_switch(g->rt, g->guest, NULL, &err)))
		gtt_log(g->env, GTT_LOG_WARN, "vgpu: switching the guest in for its GPU work refused: %s", err.msg);
	return rc;
}

static int g_gpu_read(void *ctx, uint64_t gm, void *buf, size_t len)
{
	struct guest_dev *g = ctx;
	int rc = gpu_begin(g, gm, len);

	if (!rc)
		rc = hw_gpu_read(g->host, gm, buf, len, NULL);
	gd_trapped(g);
	return rc;
}

static int g_gpu_write(void *ctx, uint64_t gm, const void *buf, size_t len)
{
	struct guest_dev *g = ctx;
	int rc = gpu_begin(g, gm, len);

	if (!rc)
		rc = hw_gpu_write(g->host, gm, buf, len, NULL);
	gd_trapped(g);
	return rc;
}

/* ---- test pages: the guest's own memory, by guest-physical address (the runtime translates its PTEs) ---- */

static int g_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	struct guest_dev *g = ctx;
	size_t avail = 0, k = 0;
	struct hw_page pg;

	for (unsigned gfn = 0; gfn < g->o.ram_pages; gfn++)
		avail += !g->gfn_used[gfn];
	if (n > avail)
		return gtt_err_set(err, GTT_ENOMEM, "vgpu: %zu test pages asked, %zu of the guest's mem=%u pages are free",
				   n, avail, g->o.ram_pages);
	for (unsigned gfn = 0; k < n && gfn < g->o.ram_pages; gfn++) {
		if (g->gfn_used[gfn] || dom0_guest_page(g->rt, g->guest, gfn, &pg))
			continue;
		g->gfn_used[gfn] = 1;
		pages[k++] = (struct hw_page){ .phys = (uint64_t)gfn << 12, .cpu = pg.cpu };
	}
	if (k < n) {
		/* the runtime did not show a free page: give back what was taken */
		for (size_t i = 0; i < k; i++)
			g->gfn_used[pages[i].phys >> 12] = 0;
		return gtt_err_set(err, GTT_EIO, "vgpu: the host runtime shows only %zu of the guest's free pages", k);
	}
	return GTT_OK;
}

static void g_free_pages(void *ctx, size_t n, struct hw_page *pages)
{
	struct guest_dev *g = ctx;

	for (size_t i = 0; i < n; i++)
		if (pages[i].phys >> 12 < g->o.ram_pages)
			g->gfn_used[pages[i].phys >> 12] = 0;
}

static void g_close(void *ctx)
{
	struct guest_dev *g = ctx;

	if (g->view)
		gd_view_close(g);
	else
		gd_host_close(g);
	g->env->free(g->env, g);
}

static const struct hw_backend_ops guest_ops = {
	.name = "vgpu",
	.in_process = true,
	.cfg_read = g_cfg_read,
	.cfg_write = g_cfg_write,
	.mmio_read32 = gd_mmio_read32,
	.mmio_write32 = gd_mmio_write32,
	.mmio_read64 = gd_mmio_read64,
	.mmio_write64 = gd_mmio_write64,
	.aperture_read = g_ap_read,
	.aperture_write = g_ap_write,
	.bar_info = g_bar_info,
	.alloc_pages = g_alloc_pages,
	.free_pages = g_free_pages,
	.gpu_read = g_gpu_read,
	.gpu_write = g_gpu_write,
	.host_audit = gd_host_audit,
	.host_audit_step = gd_host_audit_step,
	.close = g_close,
};

/* Everything is refused before the host opens; once it has, a failure closes it again. */
static int guest_open(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		      const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	struct guest_dev *g = env->alloc(env, sizeof(*g));
	int rc;

	if (!g)
		return gtt_err_set(err, GTT_ENOMEM, "vgpu: out of memory");
	g->env = env;
	if ((rc = gd_parse(spec, &g->o, err)) || (rc = gd_host_open(g, opts, err))) {
		env->free(env, g);
		return rc;
	}
	if ((rc = cfg_copy(g, err))) {
		g_close(g);
		return rc;
	}
	*ops = &guest_ops;
	*ctx = g;
	return GTT_OK;
}

int dom0_guest_view_open(const struct gtt_env *env, struct hw_device *host, struct dom0_runtime *rt,
			 const struct dom0_guest_view_params *p, const struct hw_backend_ops **ops, void **ctx, int *id,
			 struct gtt_err *err)
{
	struct guest_dev *g = gtt_calloc(env, 1, sizeof(*g));
	int rc;

	if (!g)
		return gtt_err_set(err, GTT_ENOMEM, "vgpu view: out of memory");
	g->env = env;
	g->host = host;
	g->rt = rt;
	if ((rc = gd_view_open(g, p, err))) {
		env->free(env, g);
		return rc;
	}
	if ((rc = cfg_copy(g, err))) {
		g_close(g);
		return rc;
	}
	*ops = &guest_ops;
	*ctx = g;
	if (id)
		*id = g->guest;
	return GTT_OK;
}

const struct hw_backend_factory dom0_guest_device_backend = {
	.scheme = "vgpu",
	.usage = "vgpu:sim[:PLATFORM][,KEY=VALUE...]",
	.open = guest_open,
};

struct dom0_runtime *dom0_guest_device_runtime(struct hw_device *dev, int *guest_id)
{
	const struct guest_dev *g;

	if (!dev || dev->ops != &guest_ops)
		return NULL;
	g = dev->ctx;
	if (guest_id)
		*guest_id = g->guest;
	return g->rt;
}

unsigned dom0_guest_device_peers(struct hw_device *dev, int *ids, unsigned max)
{
	const struct guest_dev *g;

	if (!dev || dev->ops != &guest_ops)
		return 0;
	g = dev->ctx;
	for (unsigned k = 0; k < g->n_peers && k < max; k++)
		ids[k] = g->peer[k];
	return g->n_peers;
}
