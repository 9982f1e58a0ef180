/* SPDX-License-Identifier: MIT */
/* The sim backend: hw/'s operations table over the model in hw/sim/. */
#include "hw/backend_sim.h"
#include "env/fmt.h"

static int s_cfg_read(void *ctx, unsigned off, unsigned width, uint32_t *val)
{
	*val = sim_cfg_read(ctx, off, width);
	return GTT_OK;
}

static int s_cfg_write(void *ctx, unsigned off, unsigned width, uint32_t val)
{
	sim_cfg_write(ctx, off, width, val);
	return GTT_OK;
}

static uint32_t s_read32(void *ctx, uint32_t off) { return sim_mmio_read32(ctx, off); }
static void s_write32(void *ctx, uint32_t off, uint32_t v) { sim_mmio_write32(ctx, off, v); }
static uint64_t s_read64(void *ctx, uint32_t off) { return sim_mmio_read64(ctx, off); }
static void s_write64(void *ctx, uint32_t off, uint64_t v) { sim_mmio_write64(ctx, off, v); }

static void s_pte_bulk(void *ctx, uint32_t off, const uint64_t *ptes, size_t n, unsigned pte_size)
{
	sim_gsm_write_run(ctx, off, ptes, n, pte_size);
}

static void s_pte_read_bulk(void *ctx, uint32_t off, uint64_t *ptes, size_t n, unsigned pte_size)
{
	sim_gsm_read_run(ctx, off, ptes, n, pte_size);
}

static int s_ap_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	sim_aperture_read(ctx, off, buf, len);
	return GTT_OK;
}

static int s_ap_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	sim_aperture_write(ctx, off, buf, len);
	return GTT_OK;
}

static int s_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	uint64_t base = sim_alloc_pages(ctx, n);

	if (!base)
		return gtt_err_set(err, GTT_ENOMEM, "sim: no memory for %zu test pages", n);
	for (size_t i = 0; i < n; i++) {
		pages[i].phys = base + i * 4096;
		pages[i].cpu = sim_mem_page(ctx, pages[i].phys);
	}
	return GTT_OK;
}

static int s_adopt_pages(void *ctx, size_t n, void *cpu, struct hw_page *pages, struct gtt_err *err)
{
	uint64_t base = sim_attach_pages(ctx, n, cpu);

	if (!base)
		return gtt_err_set(err, GTT_ENOMEM, "sim: no room to take %zu pages of the caller's", n);
	for (size_t i = 0; i < n; i++)
		pages[i] = (struct hw_page){ base + i * 4096, (uint8_t *)cpu + i * 4096 };
	return GTT_OK;
}

static void s_free_pages(void *ctx, size_t n, struct hw_page *pages)
{
	/* the model's own memory is reclaimed with the device; pages of the caller's (adopted) are let go now */
	for (size_t i = 0; pages && i < n; i++)
		sim_detach_page(ctx, pages[i].phys);
}

static int s_gpu_read(void *ctx, uint64_t gm, void *buf, size_t len)
{
	return sim_gpu_read(ctx, gm, buf, len);
}

static int s_gpu_write(void *ctx, uint64_t gm, const void *buf, size_t len)
{
	return sim_gpu_write(ctx, gm, buf, len);
}

static struct sim_device *s_model(void *ctx)
{
	return ctx;
}

static void s_close(void *ctx)
{
	sim_destroy(ctx);
}

static const struct hw_backend_ops sim_ops = {
	.name = "sim",
	.in_process = true,
	.cfg_read = s_cfg_read,
	.cfg_write = s_cfg_write,
	.mmio_read32 = s_read32,
	.mmio_write32 = s_write32,
	.mmio_read64 = s_read64,
	.mmio_write64 = s_write64,
	.pte_write_bulk = s_pte_bulk,
	.pte_read_bulk = s_pte_read_bulk,
	.aperture_read = s_ap_read,
	.aperture_write = s_ap_write,
	.alloc_pages = s_alloc_pages,
	.adopt_pages = s_adopt_pages,
	.free_pages = s_free_pages,
	.gpu_read = s_gpu_read,
	.gpu_write = s_gpu_write,
	.model = s_model,
	.close = s_close,
};

int hw_sim_params_of(const struct hw_device_spec *spec, struct sim_params *out, struct gtt_err *err)
{
	static const char *const keys[] = { "fault", NULL };
	const char *fault = hw_spec_opt(spec, "fault");
	const struct gtt_platform *p = spec->plat;
	int rc;

	*out = (struct sim_params){ .edram = spec->edram, .vf = spec->vf ? 1 : 0 };
	if ((rc = hw_spec_opts_only(spec, keys, "sim:PLATFORM,vf takes fault=NAME", err)))
		return rc;
	if (fault && !spec->vf)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': fault=%s is a VF's fault: add vf (sim:PLATFORM,vf,fault=NAME)",
				   spec->text, fault);
	if (spec->vf && p && p->gen < 120)
		return gtt_err_set(err, GTT_EINVAL, "device '%s': %s is gen %u.%u; SR-IOV VFs are gen12's (tgl, adlp, ...)",
				   spec->text, p->name, p->gen / 10, p->gen % 10);
	if (fault && sim_vf_fault_by_name(fault, &out->vf_fault)) {
		char names[160] = "";
		size_t at = 0;
		for (unsigned f = 1; f < SIM_VF_FAULTS; f++)
			at += (size_t)gtt_snprintf(names + at, sizeof(names) - at, "%s%s", f > 1 ? ", " : "",
						   sim_vf_fault_name((enum sim_vf_fault)f));
		return gtt_err_set(err, GTT_EINVAL, "device '%s': fault=%s is not a VF fault of the model: one of %s",
				   spec->text, fault, names);
	}
	return GTT_OK;
}

/*
 * sim[:PLATFORM[,edram]], parsed and judged by the grammar
 * (hw/device_spec.h): the platform has a model; edram gives the model an
 * eDRAM part's HSW_EDRAM_CAP, the one fact i915 tells such a part by; vf
 * makes it VF 1 of its PF (hw/sim/sim_vf.c), fault=NAME one of its faults.
 */
static int sim_open(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		    const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	struct sim_params params;
	const struct gtt_platform *p = spec->plat;
	struct sim_device *sim;
	int rc;

	if (!p)
		return gtt_err_set(err, GTT_EINVAL, "device '%s' is not the model", spec->text);
	if ((rc = hw_sim_params_of(spec, &params, err)))
		return rc;
	if ((rc = sim_create(env, p, &params, &sim, err)))
		return rc;
	if (opts->sim_mmio_seed && (rc = sim_snapshot_load(sim, opts->sim_mmio_seed, opts->sim_mmio_seed_len, err))) {
		sim_destroy(sim);
		return rc;
	}
	*ops = &sim_ops;
	*ctx = sim;
	return GTT_OK;
}

const struct hw_backend_factory hw_sim_backend = {
	.scheme = "sim",
	.usage = "sim[:PLATFORM[,edram]][,vf[,fault=NAME]]",
	.open = sim_open,
};

struct sim_device *hw_sim_model(const struct hw_device *dev)
{
	return dev->ops->model ? dev->ops->model(dev->ctx) : NULL;
}
