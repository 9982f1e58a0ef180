/* SPDX-License-Identifier: MIT */
/* gttlab info: what the device is, as detected through hw/. */
#include "cli/cli.h"
#include "hosted/text_escape.h"

#include <inttypes.h>
#include <string.h>

#include "hw/scanout.h"
#include "regs/pci_config.h"
#include "regs/pvinfo.h"
#include "regs/sriov.h"

static const char help[] =
	"usage: gttlab info [--device D] [--json]\n"
	"       gttlab info --platforms [--json]\n"
	"Platform, generation, device id, BAR0 and BAR2 sizes, GSM size, PTE size,\n"
	"GGTT size, number of PTEs, aperture size, stolen memory, eDRAM (read from\n"
	"HSW_EDRAM_CAP from Haswell on, as i915 does; it picks the Haswell PTE\n"
	"encoder), the scanout surfaces the display can have and the fence count.\n"
	"On a GVT-g guest (a PVINFO page in BAR0) it says 'guest mode' and shows the\n"
	"page: vgt_id, version, caps, the mappable and non-mappable ranges, fence_num\n"
	"and whether gttlab's request channel is offered; --json: \"pvinfo\".\n"
	"On an SR-IOV virtual function (gen12, VF_CAP_REG bit 0) it says 'VF mode' and\n"
	"shows what GuC gave at open over the MMIO mailbox: the VF interface version and\n"
	"the GGTT range, or why the bootstrap failed; --json: \"vf\".\n"
	"--platforms: the platforms this build knows (name, codename, generation, its\n"
	"simulated device or '-', the device ids it takes), without opening any device.\n";

static int platforms(struct cli *c)
{
	char g[32];

	if (c->json) {
		struct json j;
		json_init(&j, stdout);
		json_array_begin(&j, NULL);
		for (size_t i = 0; i < gtt_num_platforms; i++) {
			const struct gtt_platform *p = &gtt_platforms[i];
			json_object_begin(&j, NULL);
			json_str(&j, "name", p->name);
			json_str(&j, "codename", p->codename);
			json_str(&j, "gen", cli_gen(p->gen, g, sizeof(g)));
			json_str(&j, "family", p->family);
			json_bool(&j, "simulated", gtt_platform_simulated(p));
			json_bool(&j, "gvt", p->gvt);
			json_array_begin(&j, "devids");
			for (size_t k = 0; k < p->n_devids; k++)
				json_hex(&j, NULL, p->devids[k], 4);
			json_array_end(&j);
			json_object_end(&j);
		}
		json_array_end(&j);
		json_finish(&j);
		return EXIT_OK;
	}
	for (size_t i = 0; i < gtt_num_platforms; i++) {
		const struct gtt_platform *p = &gtt_platforms[i];
		char sim[16] = "-";
		if (gtt_platform_simulated(p))
			snprintf(sim, sizeof(sim), "sim:%s", p->name);
		printf("%-5s %-13s gen %-4s %-9s", p->name, p->codename, cli_gen(p->gen, g, sizeof(g)), sim);
		for (size_t k = 0; k < p->n_devids; k++)
			printf(" 0x%04x", p->devids[k]);
		printf("\n");
	}
	return EXIT_OK;
}

/* The vgt_caps bits i915_pvinfo.h names; others are shown in the hex value only. */
static const struct {
	uint32_t bit;
	const char *name;
} caps_names[] = {
	{ VGT_CAPS_FULL_PPGTT, "FULL_PPGTT" },
	{ VGT_CAPS_HWSP_EMULATION, "HWSP_EMULATION" },
	{ VGT_CAPS_HUGE_GTT, "HUGE_GTT" },
};

/* "pvinfo": the guest's view; on a native device only {"active":false}. */
static void pvinfo_json(struct json *j, const struct hw_pvinfo *pv)
{
	char v[16];

	json_object_begin(j, "pvinfo");
	json_bool(j, "active", pv->active);
	if (pv->active) {
		snprintf(v, sizeof(v), "%u.%u", pv->version_major, pv->version_minor);
		json_str(j, "version", v);
		json_u64(j, "vgt_id", pv->vgt_id);
		json_hex(j, "caps", pv->caps, 8);
		json_array_begin(j, "caps_names");
		for (size_t i = 0; i < sizeof(caps_names) / sizeof(caps_names[0]); i++)
			if (pv->caps & caps_names[i].bit)
				json_str(j, NULL, caps_names[i].name);
		json_array_end(j);
		json_hex(j, "mappable_base", pv->mappable_base, 8);
		json_u64(j, "mappable_size", pv->mappable_size);
		json_hex(j, "nonmappable_base", pv->nonmappable_base, 8);
		json_u64(j, "nonmappable_size", pv->nonmappable_size);
		json_u64(j, "fence_num", pv->fence_num);
		json_bool(j, "gm_channel", pv->gm_channel);
		if (pv->gm_channel)
			json_u64(j, "slot_size", pv->slot_size);
	}
	json_object_end(j);
}

/* "vf": an SR-IOV VF's view; on any other device only {"active":false}. */
static void vf_json(struct json *j, const struct hw_vf *vf)
{
	char v[32];

	json_object_begin(j, "vf");
	json_bool(j, "active", vf->active);
	if (vf->active) {
		json_bool(j, "bootstrap_ok", !vf->boot_rc);
		if (vf->boot_rc) {
			json_str(j, "bootstrap_error", vf->boot_why);
		} else {
			snprintf(v, sizeof(v), "%u.%u.%u", vf->abi_major, vf->abi_minor, vf->abi_patch);
			json_str(j, "abi", v);
			json_u64(j, "reset_tries", vf->reset_tries);
			json_hex(j, "ggtt_start", vf->ggtt_start, 8);
			json_u64(j, "ggtt_size", vf->ggtt_size);
		}
		json_u64(j, "wopcm", vf->wopcm);
	}
	json_object_end(j);
}

/* gttlab info --json: one object */
static void info_json(const struct hw_device *dev)
{
	const struct hw_info *in = &dev->info;
	const struct gtt_platform *p = in->plat;
	char a[32];

	struct json j;
	json_init(&j, stdout);
	json_object_begin(&j, NULL);
	json_str(&j, "device", dev->name);
	json_str(&j, "backend", dev->ops->name);
	json_str(&j, "platform", p->name);
	json_str(&j, "codename", p->codename);
	json_str(&j, "gen", cli_gen(p->gen, a, sizeof(a)));
	json_hex(&j, "device_id", in->devid, 4);
	json_hex(&j, "revision", in->revision, 2);
	json_hex(&j, "bar0_base", in->bar0_base, 16);
	json_u64(&j, "bar0_size", in->bar0_size);
	json_hex(&j, "bar2_base", in->bar2_base, 16);
	json_u64(&j, "bar2_size", in->aperture_size);
	json_hex(&j, "gmch_ctrl", in->gmch_ctrl, 4);
	json_u64(&j, "ggms", in->ggms);
	json_u64(&j, "gms", in->gms);
	json_u64(&j, "gsm_offset", in->gsm_offset);
	json_u64(&j, "gsm_size", in->gsm_size);
	json_u64(&j, "pte_size", in->pte_size);
	json_u64(&j, "ggtt_size", in->ggtt_size);
	json_u64(&j, "num_ptes", in->n_ptes);
	json_u64(&j, "aperture_size", in->aperture_size);
	json_u64(&j, "stolen_size", in->stolen_size);
	json_hex(&j, "stolen_base", in->stolen_base, p->bdsm == BDSM_64 ? 16 : 8);
	json_hex(&j, "bdsm_offset", p->bdsm == BDSM_64 ? INTEL_GEN11_BSM_DW0 : INTEL_BSM, 2);
	/* edram_cap is only what the device said where i915 asks it (edram_cap_read) */
	json_bool(&j, "edram_cap_read", hw_edram_readable(p));
	json_hex(&j, "edram_cap", in->edram_cap, 8);
	json_u64(&j, "edram_mb", in->edram_mb);
	json_u64(&j, "scanout_surfaces", hw_scanout_max(p));
	json_u64(&j, "num_fences", in->num_fences);
	json_bool(&j, "gvt", p->gvt);
	pvinfo_json(&j, &in->pvinfo);
	vf_json(&j, &in->vf);
	json_object_end(&j);
	json_finish(&j);
}

static void vf_text(const struct hw_vf *vf)
{
	char a[32];

	printf("VF mode       SR-IOV virtual function (VF_CAP_REG 0x%x bit 0): gttlab claims only the GGTT range GuC gave;\n"
	       "              no aperture, no fences, and the checks that need the whole GPU skip\n", VF_CAP_REG);
	if (vf->boot_rc) {
		printf("bootstrap     FAILED: %s\n", vf->boot_why);
		return;
	}
	printf("VF interface  %u.%u.%u (VF_RESET sent %u time%s)\n", vf->abi_major, vf->abi_minor, vf->abi_patch,
	       vf->reset_tries, vf->reset_tries == 1 ? "" : "s");
	printf("GGTT range    0x%08" PRIx64 "-0x%08" PRIx64 " (%s, PTEs %" PRIu64 "-%" PRIu64 "; WOPCM below 0x%" PRIx64 ")\n",
	       vf->ggtt_start, vf->ggtt_start + vf->ggtt_size - 1, cli_size(vf->ggtt_size, a, sizeof(a)),
	       vf->ggtt_start / 4096, (vf->ggtt_start + vf->ggtt_size) / 4096 - 1, vf->wopcm);
}

/* One GM range of the guest: first-last byte and size, or none. */
static void pvinfo_range(const char *label, uint64_t base, uint64_t size, const char *where)
{
	char a[32];

	if (!size)
		printf("%-13s none (size 0)\n", label);
	else
		printf("%-13s GM 0x%08" PRIx64 "-0x%08" PRIx64 " (%s, %s)\n", label, base, base + size - 1,
		       cli_size(size, a, sizeof(a)), where);
}

/* The lines of a guest: only printed in guest mode, after every line of a native device. */
static void pvinfo_text(const struct hw_info *in)
{
	const struct hw_pvinfo *pv = &in->pvinfo;
	char a[32];

	printf("guest mode    GVT-g PVINFO page at 0x%x: gttlab claims only its ranges and fences below fence_num\n",
	       VGT_PVINFO_PAGE);
	printf("PVINFO        version %u.%u, vgt_id %" PRIu32 ", caps 0x%08" PRIx32 " (", pv->version_major,
	       pv->version_minor, pv->vgt_id, pv->caps);
	const char *sep = "";
	for (size_t i = 0; i < sizeof(caps_names) / sizeof(caps_names[0]); i++)
		if (pv->caps & caps_names[i].bit) {
			printf("%s%s", sep, caps_names[i].name);
			sep = " ";
		}
	printf("%s)\n", *sep ? "" : "none");
	pvinfo_range("mappable", pv->mappable_base, pv->mappable_size, "in the aperture");
	pvinfo_range("non-mappable", pv->nonmappable_base, pv->nonmappable_size, "above the aperture");
	if (pv->fence_num)
		printf("fence_num     %u (fences 0-%u of %u)\n", pv->fence_num, pv->fence_num - 1, in->num_fences);
	else
		printf("fence_num     0 (no fences)\n");
	if (pv->gm_channel)
		printf("GM requests   yes: gttlab's request channel, slot size %s\n", cli_size(pv->slot_size, a, sizeof(a)));
	else
		printf("GM requests   no (no gttlab request channel in PVINFO)\n");
}

/* gttlab info: one line a fact */
static void info_text(const struct hw_device *dev)
{
	const struct hw_info *in = &dev->info;
	const struct gtt_platform *p = in->plat;
	char a[32], b[32];

	/* the device string as the user gave it: escaped on its way to the terminal */
	fputs("device        ", stdout);
	text_fputs_escaped(stdout, dev->name);
	printf(" (%s backend)\n", dev->ops->name);
	printf("platform      %s (%s), gen %s\n", p->name, p->codename, cli_gen(p->gen, a, sizeof(a)));
	printf("device id     0x%04x, revision 0x%02x\n", in->devid, in->revision);
	printf("BAR0 size     %s at 0x%" PRIx64 " (registers 2 MiB, GSM at +%s)\n",
	       cli_size(in->bar0_size, a, sizeof(a)), in->bar0_base, cli_size(in->gsm_offset, b, sizeof(b)));
	printf("BAR2 size     %s at 0x%" PRIx64 " (aperture)\n",
	       cli_size(in->aperture_size, a, sizeof(a)), in->bar2_base);
	printf("GMCH control  0x%04x (GGMS %u, GMS %u)\n", in->gmch_ctrl, in->ggms, in->gms);
	printf("GSM size      %s\n", cli_size(in->gsm_size, a, sizeof(a)));
	printf("PTE size      %u bytes\n", in->pte_size);
	printf("GGTT size     %s (%" PRIu64 " bytes)\n", cli_size(in->ggtt_size, a, sizeof(a)), in->ggtt_size);
	printf("PTEs          %" PRIu64 "\n", in->n_ptes);
	printf("aperture size %s\n", cli_size(in->aperture_size, a, sizeof(a)));
	if (p->bdsm == BDSM_64)
		printf("stolen        %s at 0x%016" PRIx64 " (BDSM 64-bit at 0x%02x)\n", cli_size(in->stolen_size, a, sizeof(a)),
		       in->stolen_base, INTEL_GEN11_BSM_DW0);
	else
		printf("stolen        %s at 0x%08" PRIx64 " (BDSM at 0x%02x)\n", cli_size(in->stolen_size, a, sizeof(a)),
		       in->stolen_base, INTEL_BSM);
	if (!hw_edram_readable(p))
		printf("eDRAM         none (i915 reads HSW_EDRAM_CAP from Haswell on)\n");
	else if (in->edram_mb)
		printf("eDRAM         %u MiB (HSW_EDRAM_CAP 0x%08x; %s)\n", in->edram_mb, in->edram_cap,
		       p->pte_format == PTE_FORMAT_HSW ? "PTEs as iris_pte_encode writes them"
						       : "changes no GGTT PTE bit from gen8 on");
	else
		printf("eDRAM         none (HSW_EDRAM_CAP 0x%08x)\n", in->edram_cap);
	printf("scanout       up to %zu surfaces: %u pipes x (%u plane%s%s + cursor), all kept off by the runner\n",
	       hw_scanout_max(p), p->num_pipes, p->num_planes, p->num_planes == 1 ? "" : "s",
	       p->sprite != SPRITE_NONE ? " + sprite" : "");
	printf("GVT-g         %s\n", p->gvt ? "mediated upstream (i915 gvt: gen8-gen9.5)"
				   : "not mediated upstream (i915 gvt mediates gen8-gen9.5 only); Dom0 checks here are mechanism checks");
	printf("fences        %u\n", in->num_fences);
	if (in->pvinfo.active)
		pvinfo_text(in);
	if (in->vf.active)
		vf_text(&in->vf);
}

int cmd_info(struct cli *c, int argc, char **argv)
{
	struct hw_device *dev;

	if (c->help) {
		fputs(help, stdout);
		return EXIT_OK;
	}
	if (argc == 2 && !strcmp(argv[1], "--platforms")) {
		if (c->device_given)
			return cli_error("info --platforms opens no device; --device does not go with it");
		return platforms(c);
	}
	if (argc > 1)
		return cli_error("info takes no arguments but --platforms, got '%s'", argv[1]);
	if (cli_open(c, &dev))
		return EXIT_USAGE;
	if (c->json)
		info_json(dev);
	else
		info_text(dev);
	cli_close(dev);
	return EXIT_OK;
}
