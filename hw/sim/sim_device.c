/* SPDX-License-Identifier: MIT */
/* Creation of the simulated device with its platform's boot defaults. */
#include "hw/sim/sim_internal.h"
#include "regs/mmio.h"
#include "regs/sriov.h"

#define MiB (1u << 20)

/* GSM bytes for a GGMS value, per docs/hardware.md §1.3 (model's own reading). */
static uint64_t model_gsm_size(const struct gtt_platform *p, unsigned ggms)
{
	if (p->gsm_rule == GSM_SIZE_GEN6)
		return (uint64_t)ggms << 20;
	return ggms ? (uint64_t)(1u << ggms) << 20 : 0;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* The parameters with the platform's defaults filled in. */
static struct sim_params sim_resolve_params(const struct gtt_platform *plat, const struct sim_params *params)
{
	struct sim_params pr = { 0 };

	if (params)
		pr = *params;
	if (!pr.devid)
		pr.devid = plat->sim_devid;
	if (!pr.aperture_size)
		pr.aperture_size = plat->sim_aperture_size;
	if (!pr.ggms)
		pr.ggms = plat->sim_ggms;
	return pr;
}

/* Parameters a part of the platform could have: the GSM fits BAR0, the aperture the GGTT; its GSM size. */
static int sim_check_params(const struct gtt_platform *plat, const struct sim_params *params, uint64_t *gsm_out,
			    struct gtt_err *err)
{
	struct sim_params pr = *params;

	if (pr.vf && (plat->gen < 120 || pr.vf > SIM_VF_COUNT))
		return gtt_err_set(err, GTT_EINVAL, "sim: VF %u of %s: VFs are gen12's, 1..%u of the model's PF",
				   pr.vf, plat->name, SIM_VF_COUNT);
	if (pr.vf_fault >= SIM_VF_FAULTS || (pr.vf_fault && !pr.vf))
		return gtt_err_set(err, GTT_EINVAL, "sim: a VF fault (%u) needs a VF", (unsigned)pr.vf_fault);
	if (pr.vf) {
		/* a VF's 4 GiB GGTT, whatever the PF's GMCH word says (docs/hardware.md §10.1) */
		*gsm_out = VF_GSM_SIZE;
		return GTT_OK;
	}
	uint64_t gsm = model_gsm_size(plat, pr.ggms);
	if (!gsm || gsm > plat->bar0_size - plat->gsm_offset)
		return gtt_err_set(err, GTT_EINVAL, "sim: GGMS %u gives a %llu-byte GSM, which does not fit the %u-byte PTE window of %s",
				   pr.ggms, (unsigned long long)gsm, plat->bar0_size - plat->gsm_offset, plat->name);
	if (!is_pow2(pr.aperture_size) || pr.aperture_size < plat->aperture_min ||
	    pr.aperture_size > plat->aperture_max)
		return gtt_err_set(err, GTT_EINVAL, "sim: aperture size %u is not a power of two in [%u, %u] for %s",
				   pr.aperture_size, plat->aperture_min, plat->aperture_max, plat->name);
	/* i915 reads HSW_EDRAM_CAP from Haswell on (intel_dram_edram_detect); no earlier part has eDRAM */
	if (pr.edram && plat->gen < 75)
		return gtt_err_set(err, GTT_EINVAL, "sim: %s has no eDRAM (HSW_EDRAM_CAP is read from Haswell on)",
				   plat->name);
	const struct sim_pte_format *fmt = sim_pte_format_of(plat->pte_format);
	uint64_t ggtt = gsm / fmt->entry_bytes * 4096;
	if (pr.aperture_size > ggtt)
		return gtt_err_set(err, GTT_EINVAL, "sim: aperture size %u exceeds the %llu-byte GGTT",
				   pr.aperture_size, (unsigned long long)ggtt);
	*gsm_out = gsm;
	return GTT_OK;
}

/* The device's memory: registers, GSM, TLB, dirty tracking, system memory. */
static int sim_alloc(const struct gtt_env *env, const struct gtt_platform *plat, const struct sim_params *pr,
		     uint64_t gsm, struct sim_device **out, struct gtt_err *err)
{
	const struct sim_pte_format *fmt = sim_pte_format_of(plat->pte_format);
	struct sim_device *sim;

	sim = env->alloc(env, sizeof(*sim));
	if (!sim)
		return gtt_err_set(err, GTT_ENOMEM, "sim: out of memory");
	sim->env = env;
	sim->plat = plat;
	sim->pte_fmt = fmt;
	sim->aperture_size = pr->vf ? 0 : pr->aperture_size;
	sim->gsm_size = gsm;
	sim->n_ptes = gsm / fmt->entry_bytes;
	sim->regs = env->alloc(env, GTT_MMIO_SIZE);
	sim->gsm = env->alloc(env, gsm);
	sim->tlb = env->alloc(env, gsm);
	sim->dirty = gtt_calloc(env, gsm / SIM_DIRTY_BLOCK + 1, sizeof(*sim->dirty));
	sim->dirty_map = gtt_calloc(env, gsm / SIM_DIRTY_BLOCK / 8 + 1, 1);
	sim->next_page = SIM_TEST_PAGES_BASE;
	if (!sim->regs || !sim->gsm || !sim->tlb || !sim->dirty || !sim->dirty_map ||
	    sim_memory_init(sim)) {
		sim_destroy(sim);
		return gtt_err_set(err, GTT_ENOMEM, "sim: out of memory for a %llu-byte GSM",
				   (unsigned long long)gsm);
	}
	*out = sim;
	return GTT_OK;
}

/* PCI function, then what firmware and i915 leave in the registers. */
static void sim_boot(struct sim_device *sim, const struct sim_params *pr)
{
	const struct gtt_platform *plat = sim->plat;

	sim->bar_size[GTTMMADR_BAR] = plat->bar0_size;
	sim->bar_size[GFXMEM_BAR] = sim->aperture_size;
	sim->bar_size[IOBAR] = SIM_BAR4_SIZE;
	sim_config_init(sim, pr->devid);
	if (pr->vf) {
		/* a VF: the PF's device id, BAR0, no aperture, no GMCH word, no stolen memory; the PF's GSM behind it */
		sim_config_vf(sim);
		sim->vf = (struct sim_vf){ .id = pr->vf, .fault = pr->vf_fault };
		sim_gsm_boot(sim);
		sim_vf_boot(sim);
		return;
	}
	unsigned gmch_shift = plat->gmch_layout == GMCH_LAYOUT_SNB ? SNB_GMCH_GGMS_SHIFT : BDW_GMCH_GGMS_SHIFT;
	unsigned gms_shift = plat->gmch_layout == GMCH_LAYOUT_SNB ? SNB_GMCH_GMS_SHIFT : BDW_GMCH_GMS_SHIFT;
	uint16_t gmch = (uint16_t)(pr->ggms << gmch_shift | plat->sim_gms << gms_shift);
	sim->cfg[SNB_GMCH_CTRL] = gmch & 0xff;
	sim->cfg[SNB_GMCH_CTRL + 1] = gmch >> 8;

	if (plat->sim_swizzle_enabled) {
		/* As intel_gt_init_swizzling leaves a symmetric dual-channel machine. */
		sim->regs[TILECTL / 4] = TILECTL_SWZCTL;
		sim->regs[ARB_MODE / 4] = plat->arb_mode_swizzle_bit;
		sim->regs[DISP_ARB_CTL / 4] = DISP_TILE_SURFACE_SWIZZLING;
		sim->regs[MAD_DIMM_C0 / 4] = 0x0808;
		sim->regs[MAD_DIMM_C1 / 4] = 0x0808;
	}
	/*
	 * 128 MiB, the size i915 takes before gen9 and reads from gen9 on as 8
	 * banks x 16 ways (index 3) x 1 set (index 0). Read-only (sim_mmio.c).
	 */
	if (pr->edram)
		sim->regs[HSW_EDRAM_CAP / 4] = EDRAM_ENABLED | 8u << 1 | 3u << 5;
	sim_gsm_boot(sim);
}

int sim_create(const struct gtt_env *env, const struct gtt_platform *plat,
	       const struct sim_params *params, struct sim_device **out, struct gtt_err *err)
{
	struct sim_params pr = sim_resolve_params(plat, params);
	struct sim_device *sim = NULL;
	uint64_t gsm = 0;
	int rc;

	if ((rc = sim_check_params(plat, &pr, &gsm, err)) || (rc = sim_alloc(env, plat, &pr, gsm, &sim, err)))
		return rc;
	sim_boot(sim, &pr);
	*out = sim;
	return GTT_OK;
}

void sim_destroy(struct sim_device *sim)
{
	const struct gtt_env *env;

	if (!sim)
		return;
	env = sim->env;
	sim_memory_fini(sim);
	env->free(env, sim->regs);
	env->free(env, sim->gsm);
	env->free(env, sim->tlb);
	env->free(env, sim->dirty);
	env->free(env, sim->dirty_map);
	env->free(env, sim->trace);
	env->free(env, sim);
}

const struct gtt_platform *sim_platform(const struct sim_device *sim)
{
	return sim->plat;
}

uint32_t sim_aperture_size(const struct sim_device *sim)
{
	return sim->aperture_size;
}

uint64_t sim_gsm_size(const struct sim_device *sim)
{
	return sim->gsm_size;
}
