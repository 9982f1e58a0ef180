/* SPDX-License-Identifier: MIT */
/*
 * The model as an SR-IOV virtual function (docs/model.md, "A VF"): the PF
 * behind it has provisioned SIM_VF_COUNT VFs of SIM_VF_SIZE bytes each from
 * SIM_VF_BASE and tagged every PTE of VF n's range n | PRESENT, as xe's
 * xe_ggtt_assign does; the GSM the VF reaches through BAR0 applies the PTE
 * ownership rules (its own PTEs read with the VFID field 0, their VFID and
 * PRESENT do not change; any other PTE reads 0 and ignores writes), and GuC
 * answers the VF's MMIO mailbox (reset, version match, the GGTT KLVs).
 * Written from the facts of docs/hardware.md §10.1-10.4 and the constants
 * of regs/sriov.h, never from hw/'s channel or bootstrap. Faults (enum
 * sim_vf_fault) break one rule each, for the vf suite to catch.
 */
#include "hw/sim/sim_internal.h"
#include "env/fmt.h"
#include "regs/sriov.h"

/* The VF interface the model's GuC speaks: 1.SIM_GUC_VF_MINOR.0 */
#define SIM_GUC_VF_MINOR	3

static const char *const fault_names[SIM_VF_FAULTS] = {
	[SIM_VF_OK] = "none", [SIM_VF_OVERLAP] = "overlap", [SIM_VF_TAG] = "tag", [SIM_VF_NEIGHBOUR] = "neighbour",
	[SIM_VF_VALID] = "valid", [SIM_VF_BUSY] = "busy", [SIM_VF_LOST] = "lost", [SIM_VF_PAST_TOP] = "past-top",
	[SIM_VF_DRIFT] = "drift",
};

const char *sim_vf_fault_name(enum sim_vf_fault f)
{
	return f < SIM_VF_FAULTS ? fault_names[f] : "?";
}

int sim_vf_fault_by_name(const char *name, enum sim_vf_fault *out)
{
	for (unsigned f = 0; f < SIM_VF_FAULTS; f++)
		if (!gtt_strcmp(name, fault_names[f])) {
			*out = (enum sim_vf_fault)f;
			return GTT_OK;
		}
	return GTT_EINVAL;
}

uint64_t sim_vf_range_start(unsigned vfid)
{
	return SIM_VF_BASE + (uint64_t)(vfid - 1) * SIM_VF_SIZE;
}

static uint64_t vfid_mask(const struct sim_device *sim)
{
	return sim->plat->gen >= 125 ? GGTT_PTE_VFID_MASK : GGTT_PTE_VFID_MASK_PRE_1250;
}

static uint32_t gsm_lo(const struct sim_device *sim, uint64_t index)
{
	const uint8_t *p = sim->gsm + index * 8;

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static void gsm_put_lo(struct sim_device *sim, uint64_t index, uint32_t v)
{
	uint8_t *p = sim->gsm + index * 8;

	for (unsigned b = 0; b < 4; b++)
		p[b] = (uint8_t)(v >> (8 * b));
}

/* The VF id a PTE's tag names. */
static unsigned tag_of(const struct sim_device *sim, uint32_t lo)
{
	return (unsigned)((lo & vfid_mask(sim)) >> GGTT_PTE_VFID_SHIFT);
}

static void tag(struct sim_device *sim, uint64_t index, unsigned vfid)
{
	uint8_t *p = sim->gsm + index * 8;

	gtt_memset(p, 0, 8);
	gsm_put_lo(sim, index, (uint32_t)((uint64_t)vfid << GGTT_PTE_VFID_SHIFT) | (uint32_t)GGTT_PTE_PRESENT);
}

void sim_vf_boot(struct sim_device *sim)
{
	struct sim_vf *vf = &sim->vf;

	sim->regs[VF_CAP_REG / 4] = VF_CAP;
	for (unsigned n = 1; n <= SIM_VF_COUNT; n++)
		for (uint64_t i = 0; i < SIM_VF_SIZE / 4096; i++)
			tag(sim, sim_vf_range_start(n) / 4096 + i, n);
	uint64_t own = sim_vf_range_start(vf->id) / 4096, pages = SIM_VF_SIZE / 4096;
	if (vf->fault == SIM_VF_TAG)		/* a PTE in the middle of the range given to the next VF */
		tag(sim, own + pages / 2 + 7, vf->id % SIM_VF_COUNT + 1);
	if (vf->fault == SIM_VF_NEIGHBOUR)	/* the page after the range tagged as this VF's */
		tag(sim, own + pages, vf->id);
	vf->told_start = sim_vf_range_start(vf->id);
	vf->told_size = SIM_VF_SIZE;
	if (vf->fault == SIM_VF_OVERLAP)	/* GuC says 16 pages more: the next VF's first ones */
		vf->told_size += 16 * 4096;
	if (vf->fault == SIM_VF_PAST_TOP)
		vf->told_start = GUC_GGTT_TOP - SIM_VF_SIZE / 2;
	gtt_memcpy(sim->tlb, sim->gsm, sim->gsm_size);
}

/* Whether the PTE holding GSM byte gsm_off is tagged with this VF's id. */
static bool owns(const struct sim_device *sim, uint64_t gsm_off)
{
	return tag_of(sim, gsm_lo(sim, gsm_off / 8)) == sim->vf.id;
}

uint32_t sim_vf_gsm_view(const struct sim_device *sim, uint64_t gsm_off, uint32_t v)
{
	if (!owns(sim, gsm_off))
		return 0;
	return gsm_off % 8 ? v : v & ~(uint32_t)vfid_mask(sim);
}

bool sim_vf_gsm_merge(const struct sim_device *sim, uint64_t gsm_off, uint32_t old, uint32_t *val)
{
	if (!owns(sim, gsm_off))
		return false;
	if (gsm_off % 8 == 0) {
		uint32_t keep = (uint32_t)vfid_mask(sim);
		if (sim->vf.fault != SIM_VF_VALID)
			keep |= (uint32_t)GGTT_PTE_PRESENT;
		*val = (old & keep) | (*val & ~keep);
	}
	return true;
}

bool sim_vf_translates(const struct sim_device *sim, uint64_t entry)
{
	return tag_of(sim, (uint32_t)entry) == sim->vf.id;
}

/* GuC's answer in the flags: a header and up to three dwords. */
static void reply(struct sim_device *sim, uint32_t type, uint32_t data0, const uint32_t *dw, unsigned n)
{
	uint32_t *f = &sim->regs[VF_SW_FLAG(0) / 4];

	for (unsigned i = 0; i < n; i++)
		f[1 + i] = dw[i];
	f[0] = GUC_HXG_ORIGIN_GUC | type << GUC_HXG_TYPE_SHIFT | (data0 & GUC_HXG_DATA0_MASK);
}

static void failure(struct sim_device *sim, uint32_t hint, uint32_t error)
{
	reply(sim, GUC_HXG_TYPE_RESPONSE_FAILURE, hint << 16 | (error & GUC_HXG_FAILURE_ERROR_MASK), NULL, 0);
}

static void match_version(struct sim_device *sim, uint32_t want)
{
	unsigned branch = want >> GUC_VERSION_BRANCH_SHIFT & GUC_VERSION_FIELD;
	unsigned major = want >> GUC_VERSION_MAJOR_SHIFT & GUC_VERSION_FIELD;
	unsigned minor = want >> GUC_VERSION_MINOR_SHIFT & GUC_VERSION_FIELD;

	if (branch || major != 1 || (want & GUC_VERSION_FIELD)) {
		failure(sim, 0, GUC_ERROR_UNSUPPORTED_VERSION);
		return;
	}
	if (!minor || minor > SIM_GUC_VF_MINOR)
		minor = SIM_GUC_VF_MINOR;
	uint32_t v = 1u << GUC_VERSION_MAJOR_SHIFT | minor << GUC_VERSION_MINOR_SHIFT;
	sim->vf.matched = true;
	reply(sim, GUC_HXG_TYPE_RESPONSE_SUCCESS, 0, &v, 1);
}

static void query_klv(struct sim_device *sim, uint32_t dw1)
{
	struct sim_vf *vf = &sim->vf;
	uint64_t value;

	if (!vf->matched || dw1 & ~GUC_KLV_QUERY_KEY_MASK) {
		failure(sim, 0, GUC_ERROR_PROTOCOL);
		return;
	}
	switch (dw1) {
	case GUC_KLV_VF_CFG_GGTT_START:
		value = vf->told_start;
		break;
	case GUC_KLV_VF_CFG_GGTT_SIZE:
		if (vf->fault == SIM_VF_LOST)
			return;		/* the answer never comes: the flags keep the request */
		value = vf->told_size;
		if (vf->fault == SIM_VF_DRIFT && vf->size_queries++)
			value -= 4096;	/* asked again, GuC names a range one page shorter */
		break;
	default:
		failure(sim, 0, GUC_ERROR_INVALID_KLV_KEY);
		return;
	}
	uint32_t dw[2] = { (uint32_t)value, (uint32_t)(value >> 32) };
	reply(sim, GUC_HXG_TYPE_RESPONSE_SUCCESS, GUC_KLV_VF_CFG_GGTT_LEN, dw, 2);
}

void sim_vf_doorbell(struct sim_device *sim)
{
	const uint32_t *f = &sim->regs[VF_SW_FLAG(0) / 4];
	uint32_t h = f[0];

	if (h & GUC_HXG_ORIGIN_GUC || (h & GUC_HXG_TYPE_MASK) >> GUC_HXG_TYPE_SHIFT != GUC_HXG_TYPE_REQUEST)
		return;		/* not a host request: nothing to answer */
	if (sim->vf.fault == SIM_VF_BUSY) {
		reply(sim, GUC_HXG_TYPE_NO_RESPONSE_BUSY, 0, NULL, 0);	/* working on it, for ever */
		return;
	}
	uint32_t data0 = (h & GUC_HXG_REQUEST_DATA0_MASK) >> GUC_HXG_REQUEST_DATA0_SHIFT;
	switch (h & GUC_HXG_REQUEST_ACTION_MASK) {
	case VF2GUC_VF_RESET:
		if (data0) {
			failure(sim, 0, GUC_ERROR_PROTOCOL);
			return;
		}
		sim->vf.matched = false;
		reply(sim, GUC_HXG_TYPE_RESPONSE_SUCCESS, 0, NULL, 0);
		return;
	case VF2GUC_MATCH_VERSION:
		match_version(sim, f[1]);
		return;
	case VF2GUC_QUERY_SINGLE_KLV:
		query_klv(sim, f[1]);
		return;
	}
	failure(sim, 0, GUC_ERROR_UNKNOWN_ACTION);
}
