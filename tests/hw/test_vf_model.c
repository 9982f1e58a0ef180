/* SPDX-License-Identifier: MIT */
/*
 * The model as an SR-IOV VF (hw/sim/sim_vf.c), driven through the model's own
 * API with no code of hw/: its config space and registers as a VF's, the PTE
 * ownership rules on the GSM, and GuC's answers on the mailbox, every word
 * written out here from docs/hardware.md §10 (the HXG layout, the actions,
 * the KLV keys), so the model and hw/'s channel cannot agree by sharing an
 * encoder. Then hw_open's view of it: detection, layout and bootstrap.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/backend_sim.h"
#include "hw/device.h"
#include "hw/ggtt.h"
#include "hw/sim/sim.h"
#include "regs/platform.h"

#define GSM_AT		(8u << 20)	/* BAR0 + 8 MiB */
#define VF1_FIRST	(0x10000000u / 4096)	/* 256 MiB: the model's PF puts VF 1 there */
#define VF1_PAGES	(0x10000000u / 4096)	/* 256 MiB of it */
#define FLAG(n)		(0x190240u + 4 * (n))
#define DOORBELL	0x1901f0u

static struct sim_device *vf_model(const char *plat, enum sim_vf_fault f)
{
	struct sim_params p = { .vf = 1, .vf_fault = f };
	struct sim_device *sim = NULL;
	struct gtt_err err = { 0 };

	cr_assert_eq(sim_create(gtt_env_posix(GTT_LOG_ERROR), gtt_platform_by_name(plat), &p, &sim, &err), 0, "%s", err.msg);
	return sim;
}

static uint32_t pte_lo(struct sim_device *sim, uint64_t index)
{
	return sim_mmio_read32(sim, GSM_AT + (uint32_t)(index * 8));
}

/* One request of n dwords, the doorbell rung; flag 0 after. */
static uint32_t ask(struct sim_device *sim, const uint32_t *req, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sim_mmio_write32(sim, FLAG(i), req[i]);
	sim_mmio_write32(sim, DOORBELL, 0);
	return sim_mmio_read32(sim, FLAG(0));
}

Test(vf_model, config_space_and_registers_of_a_vf)
{
	struct sim_device *sim = vf_model("adlp", SIM_VF_OK);

	cr_expect_eq(sim_cfg_read(sim, 0x02, 2), 0x46a6, "the PF's device id");
	cr_expect_eq(sim_cfg_read(sim, 0x18, 4), 0, "BAR2 absent");
	cr_expect_eq(sim_cfg_read(sim, 0x50, 2), 0, "no GMCH word");
	cr_expect_eq(sim_cfg_read(sim, 0xc0, 4), 0, "no stolen memory");
	cr_expect_eq(sim_mmio_read32(sim, 0x1901f8), 1, "VF_CAP_REG bit 0");
	sim_mmio_write32(sim, 0x1901f8, 0);
	cr_expect_eq(sim_mmio_read32(sim, 0x1901f8), 1, "a capability: read-only");
	cr_expect_eq(sim_gsm_size(sim), 8u << 20, "a 4 GiB GGTT's 8 MiB of PTEs");
	sim_destroy(sim);

	struct sim_params p = { .vf = 1 };
	struct gtt_err err = { 0 };
	cr_expect_eq(sim_create(gtt_env_posix(GTT_LOG_ERROR), gtt_platform_by_name("skl"), &p, &sim, &err), GTT_EINVAL);
	cr_expect(strstr(err.msg, "VFs are gen12's"), "%s", err.msg);
	p = (struct sim_params){ .vf_fault = SIM_VF_TAG };
	cr_expect_eq(sim_create(gtt_env_posix(GTT_LOG_ERROR), gtt_platform_by_name("tgl"), &p, &sim, &err), GTT_EINVAL);
}

/* Intel's selftest's rules: own entries read VFID 0 and keep VFID and VALID; others read 0 and ignore writes. */
Test(vf_model, pte_ownership)
{
	struct sim_device *sim = vf_model("tgl", SIM_VF_OK);

	cr_expect_eq(sim_gsm_entry(sim, VF1_FIRST), 1u << 2 | 1, "the PF's tag: VF 1, PRESENT");
	cr_expect_eq(sim_gsm_entry(sim, VF1_FIRST + VF1_PAGES), 2u << 2 | 1, "VF 2's first entry");
	cr_expect_eq(pte_lo(sim, VF1_FIRST), 1, "read by the VF: PRESENT, VFID 0");
	cr_expect_eq(pte_lo(sim, VF1_FIRST + VF1_PAGES - 1), 1);
	cr_expect_eq(pte_lo(sim, VF1_FIRST - 1), 0, "the PF's entry below");
	cr_expect_eq(pte_lo(sim, VF1_FIRST + VF1_PAGES), 0, "VF 2's entry above");

	sim_mmio_write32(sim, GSM_AT + VF1_FIRST * 8, 0xffffffffu);
	sim_mmio_write32(sim, GSM_AT + VF1_FIRST * 8 + 4, 0x12u);
	/* bits 4:2 (VFID) and 0 (VALID) keep the PF's 1 and 1; the rest takes the write */
	cr_expect_eq(sim_gsm_entry(sim, VF1_FIRST), 0x12ffffffe7ull, "%llx", (unsigned long long)sim_gsm_entry(sim, VF1_FIRST));
	cr_expect_eq(pte_lo(sim, VF1_FIRST), 0xffffffe3u, "VFID reads 0");
	sim_mmio_write32(sim, GSM_AT + VF1_FIRST * 8, 0);
	cr_expect_eq(pte_lo(sim, VF1_FIRST), 1, "VALID stays");

	for (uint64_t x = VF1_FIRST - 1; x <= VF1_FIRST + VF1_PAGES; x += VF1_PAGES + 1) {
		uint64_t before = sim_gsm_entry(sim, x);
		sim_mmio_write64(sim, GSM_AT + (uint32_t)(x * 8), 0xabcd000ull | 1u << 2 | 1);
		cr_expect_eq(sim_gsm_entry(sim, x), before, "entry %llu not the VF's: the write does not take",
			     (unsigned long long)x);
		cr_expect_eq(sim_mmio_read64(sim, GSM_AT + (uint32_t)(x * 8)), 0);
	}
	sim_destroy(sim);
}

Test(vf_model, gfx_flush_is_not_a_vf_register)
{
	struct sim_device *sim = vf_model("tgl", SIM_VF_OK);
	uint64_t page = sim_alloc_pages(sim, 1);
	uint8_t b = 0x5a, got = 0;

	sim_mem_write(sim, page, &b, 1);
	sim_mmio_write64(sim, GSM_AT + VF1_FIRST * 8, page | 1);
	sim_mmio_write32(sim, 0x101008, 1);	/* GFX_FLSH_CNTL_GEN6: a PF's invalidate */
	cr_expect_eq(sim_access_count(sim, SIM_GGTT_FLUSH), 0, "no flush from a VF");
	sim_gpu_read(sim, (uint64_t)VF1_FIRST * 4096, &got, 1);
	cr_expect_eq(got, 0, "the TLB still holds the PF's tag, which names page 0, not the page written");
	sim_destroy(sim);
}

#define REQ(action, d0)		((uint32_t)(d0) << 16 | (action))	/* origin 0, type 0 (request) */
#define SUCCESS(d0)		(0xf0000000u | (d0))			/* origin 1, type 7 */
#define FAILURE(hint, e)	(0xe0000000u | (hint) << 16 | (e))	/* origin 1, type 6 */

Test(vf_model, guc_answers_the_bootstrap)
{
	struct sim_device *sim = vf_model("adlp", SIM_VF_OK);

	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5509, 0), 1 }, 2), FAILURE(0, 0x04), "a query before the handshake");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5507, 0) }, 1), SUCCESS(0), "VF_RESET");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5507, 1) }, 1), FAILURE(0, 0x04), "VF_RESET's data0 must be 0");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5500, 0), 2u << 16 }, 2), FAILURE(0, 0x0b), "major 2");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5500, 0), 1u << 16 | 1u << 8 }, 2), SUCCESS(0), "1.1 asked");
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 1u << 16 | 1u << 8, "1.1.0 given");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5500, 0), 1u << 16 }, 2), SUCCESS(0), "any minor");
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 1u << 16 | 3u << 8, "GuC's own: 1.3.0");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5509, 0), 1 }, 2), SUCCESS(2), "GGTT_START, 2 dwords");
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 0x10000000u);
	cr_expect_eq(sim_mmio_read32(sim, FLAG(2)), 0);
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5509, 0), 2 }, 2), SUCCESS(2), "GGTT_SIZE");
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 0x10000000u);
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5509, 0), 4 }, 2), FAILURE(0, 0x105), "a key the model does not hold");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5509, 0), 1u << 16 | 1 }, 2), FAILURE(0, 0x04), "bits 31:16 must be 0");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5555, 0) }, 1), FAILURE(0, 0x30), "an action GuC does not know");
	/* a header from GuC, or not a request, is not answered: the flag keeps it */
	cr_expect_eq(ask(sim, (uint32_t[]){ SUCCESS(0) }, 1), SUCCESS(0));
	cr_expect_eq(ask(sim, (uint32_t[]){ 0x20005507u }, 1), 0x20005507u, "a fast request gets no answer here");
	sim_destroy(sim);
}

Test(vf_model, faults_change_what_guc_says)
{
	struct sim_device *sim = vf_model("adlp", SIM_VF_BUSY);
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5507, 0) }, 1), 0xb0000000u, "BUSY, for ever");
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5507, 0) }, 1), 0xb0000000u);
	sim_destroy(sim);

	sim = vf_model("adlp", SIM_VF_LOST);
	ask(sim, (uint32_t[]){ REQ(0x5507, 0) }, 1);
	ask(sim, (uint32_t[]){ REQ(0x5500, 0), 1u << 16 }, 2);
	cr_expect_eq(ask(sim, (uint32_t[]){ REQ(0x5509, 0), 2 }, 2), REQ(0x5509, 0), "GGTT_SIZE never answered");
	sim_destroy(sim);

	sim = vf_model("adlp", SIM_VF_DRIFT);
	ask(sim, (uint32_t[]){ REQ(0x5500, 0), 1u << 16 }, 2);
	ask(sim, (uint32_t[]){ REQ(0x5509, 0), 2 }, 2);
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 0x10000000u, "first: the range");
	ask(sim, (uint32_t[]){ REQ(0x5509, 0), 2 }, 2);
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 0x0ffff000u, "again: a page less");
	sim_destroy(sim);

	sim = vf_model("adlp", SIM_VF_OVERLAP);
	ask(sim, (uint32_t[]){ REQ(0x5500, 0), 1u << 16 }, 2);
	ask(sim, (uint32_t[]){ REQ(0x5509, 0), 2 }, 2);
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 0x10010000u, "16 pages into VF 2's");
	sim_destroy(sim);

	sim = vf_model("adlp", SIM_VF_PAST_TOP);
	ask(sim, (uint32_t[]){ REQ(0x5500, 0), 1u << 16 }, 2);
	ask(sim, (uint32_t[]){ REQ(0x5509, 0), 1 }, 2);
	cr_expect_eq(sim_mmio_read32(sim, FLAG(1)), 0xfee00000u - 0x08000000u, "half of it past GUC_GGTT_TOP");
	sim_destroy(sim);

	sim = vf_model("adlp", SIM_VF_TAG);
	cr_expect_eq(sim_gsm_entry(sim, VF1_FIRST + VF1_PAGES / 2 + 7), 2u << 2 | 1, "VF 2's tag inside VF 1's range");
	sim_destroy(sim);
	sim = vf_model("adlp", SIM_VF_NEIGHBOUR);
	cr_expect_eq(sim_gsm_entry(sim, VF1_FIRST + VF1_PAGES), 1u << 2 | 1, "VF 1's tag past its range");
	sim_destroy(sim);
	sim = vf_model("adlp", SIM_VF_VALID);
	sim_mmio_write32(sim, GSM_AT + VF1_FIRST * 8, 0);
	cr_expect_eq(sim_gsm_entry(sim, VF1_FIRST), 1u << 2, "VALID cleared by the VF");
	sim_destroy(sim);
}

/* hw_open's view: VF mode, its layout, and the bootstrap's range. */
Test(vf_model, opened_it_is_a_vf_with_its_range)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };

	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), "sim:tgl,vf", gtt_posix_backends, gtt_num_posix_backends, NULL,
			     &dev, &err), 0, "%s", err.msg);
	const struct hw_info *in = &dev->info;
	cr_expect(in->vf.active && !in->vf.boot_rc, "%s", in->vf.boot_why);
	cr_expect_eq(in->vf.ggtt_start, 0x10000000u);
	cr_expect_eq(in->vf.ggtt_size, 0x10000000u);
	cr_expect(in->vf.abi_major == 1 && in->vf.abi_minor == 1, "%u.%u", in->vf.abi_major, in->vf.abi_minor);
	cr_expect_eq(in->aperture_size, 0);
	cr_expect_eq(in->num_fences, 0);
	cr_expect_eq(in->stolen_size, 0);
	cr_expect_eq(in->ggtt_size, 4ull << 30);
	cr_expect(!in->pvinfo.active);
	/* a VF has no invalidate of its own (GuC's CT action): nothing is written, GFX_FLSH_CNTL least of all */
	struct sim_device *sim = hw_sim_model(dev);
	cr_assert_eq(sim_trace_start(sim, 16), 0);
	hw_ggtt_invalidate(dev);
	cr_expect_eq(sim_trace_len(sim), 0, "%zu accesses for a VF's invalidate", sim_trace_len(sim));
	sim_trace_stop(sim);
	hw_close(dev);

	cr_assert_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), "sim:tgl,vf,fault=past-top", gtt_posix_backends,
			     gtt_num_posix_backends, NULL, &dev, &err), 0, "a bootstrap that fails does not fail the open: %s",
		     err.msg);
	cr_expect(dev->info.vf.active && dev->info.vf.boot_rc, "the fault kept");
	cr_expect(strstr(dev->info.vf.boot_why, "past GUC_GGTT_TOP"), "%s", dev->info.vf.boot_why);
	cr_expect(!dev->info.vf.ggtt_size, "no range");
	hw_close(dev);
}

Test(vf_model, device_strings)
{
	static const struct { const char *spec, *want; } bad[] = {
		{ "sim:skl,vf", "SR-IOV VFs are gen12's" },
		{ "sim:adlp,fault=tag", "fault=tag is a VF's fault: add vf" },
		{ "sim:adlp,vf,fault=nope", "fault=nope is not a VF fault of the model: one of overlap, tag," },
		{ "sim:adlp,vf,colour=red", "colour=red: no such option" },
		{ "sim:adlp,vf,vf", "vf is given twice" },
		{ "vgpu:sim:adlp,vf", "'vf' is not an option of the model (the host takes edram)" },
	};
	struct hw_device *dev = NULL;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gtt_err err = { 0 };
		cr_expect_eq(hw_open(gtt_env_posix(GTT_LOG_ERROR), bad[i].spec, gtt_posix_backends, gtt_num_posix_backends,
				     NULL, &dev, &err), GTT_EINVAL, "%s", bad[i].spec);
		cr_expect(strstr(err.msg, bad[i].want), "%s: %s", bad[i].spec, err.msg);
	}
}
