/* SPDX-License-Identifier: MIT */
/*
 * The scenario commands of the runtime as an SR-IOV PF (dom0/pf_provision.h):
 * `pf-provision N [spare=SIZE] [profile=on|off]`, `pf-release VF|all`, and
 * `expect pf-vf N == START+SIZE|none`. On the main device only; whatever
 * the PF still holds when the file ends is released before the runtime
 * ends, so the device is put back as found.
 */
#include "dom0/pf_provision.h"
#include "scenario/scenario_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The PF of the main device, made on its first command. */
static enum scen_rc need_pf(struct scen *s, const char *cmd, struct gtt_err *err)
{
	if (s->cur_dev != 0)
		return scen_bad(s, "%s: the PF is the main device's (not under on %s)", cmd, s->devs[s->cur_dev].name);
	/* SR-IOV and the GVT-g runtime's vGPUs would share one GGTT: a file is one or the other */
	if (s->n_names)
		return scen_bad(s, "%s: this file creates vGPUs (%s); a PF's VFs and the runtime's vGPUs do not share a GGTT",
				cmd, s->names[0].name);
	if (s->dry || s->pf)
		return SCEN_RAN;
	s->pf = calloc(1, sizeof(*s->pf));
	if (!s->pf)
		return scen_failed(s, "%s: out of memory for the PF", cmd);
	if (dom0_pf_init(s->pf, s->dev, err)) {
		free(s->pf);
		s->pf = NULL;
		return scen_failed(s, "did not run: %s", err->msg);
	}
#ifdef GTTLAB_FAULTS
	s->pf->faults = s->cfg.faults;
#endif
	return SCEN_RAN;
}

enum scen_rc scen_cmd_pf_provision(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "spare", "profile", NULL };
	uint64_t n, spare = 0;
	const char *sp, *prof;
	enum scen_rc rc;

	if (l->argc < 2)
		return scen_bad(s, "pf-provision N [spare=SIZE] [profile=on|off]");
	if ((rc = scen_need_range(s, "VFs", l->argv[1], 1, DOM0_PF_MAX_VFS, "the profile's rows; the VFID field may hold fewer",
				  &n)) ||
	    (rc = scen_only_keys(s, l, 2, keys)))
		return rc;
	if ((sp = scen_kv(l, 2, "spare")) && (rc = scen_need_num(s, "spare", sp, &spare)))
		return rc;
	prof = scen_kv(l, 2, "profile");
	if (prof && strcmp(prof, "on") && strcmp(prof, "off"))
		return scen_bad(s, "profile=%s: on or off", prof);
	if ((rc = need_pf(s, "pf-provision", err)) || s->dry)
		return rc;
	if (dom0_pf_provision(s->pf, (unsigned)n, spare, !prof || !strcmp(prof, "on"), err))
		return scen_outcome(s, 1, refuse, err, "pf-provision");
	for (unsigned id = 1; id <= s->pf->n_vfs; id++) {
		uint32_t k[DOM0_PF_KLV_DWORDS];
		dom0_pf_vf_klvs(s->pf, id, k);
		scen_say(s, "pf: VF %u GGTT 0x%" PRIx64 "+0x%" PRIx64 ", KLVs %08x %08x %08x %08x %08x %08x", id,
			 s->pf->vf[id].start, s->pf->vf[id].size, k[0], k[1], k[2], k[3], k[4], k[5]);
	}
	return SCEN_RAN;
}

enum scen_rc scen_cmd_pf_release(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t id = 0;
	enum scen_rc rc;
	bool all = l->argc == 2 && !strcmp(l->argv[1], "all");

	if (l->argc != 2)
		return scen_bad(s, "pf-release VF|all");
	if (!all && (rc = scen_need_range(s, "VF", l->argv[1], 1, DOM0_PF_MAX_VFS, "a VF id", &id)))
		return rc;
	if ((rc = need_pf(s, "pf-release", err)) || s->dry)
		return rc;
	if (all ? dom0_pf_release_all(s->pf, err) : dom0_pf_release(s->pf, (unsigned)id, err))
		return scen_outcome(s, 1, refuse, err, "pf-release");
	scen_say(s, "pf: released %s", l->argv[1]);
	return SCEN_RAN;
}

enum scen_rc scen_expect_pf_vf(struct scen *s, const struct scen_line *l, const char *usage)
{
	uint64_t id, start = 0, size = 0;
	enum scen_rc rc;
	struct gtt_err err = { 0 };

	if (l->argc != 5 || strcmp(l->argv[3], "=="))
		return scen_bad(s, "%s", usage);
	if ((rc = scen_need_range(s, "VF", l->argv[2], 1, DOM0_PF_MAX_VFS, "a VF id", &id)))
		return rc;
	bool none = !strcmp(l->argv[4], "none");
	if (!none) {
		char text[64], *plus;
		snprintf(text, sizeof(text), "%s", l->argv[4]);
		if (!(plus = strchr(text, '+')))
			return scen_bad(s, "%s", usage);
		*plus = '\0';
		if ((rc = scen_need_num(s, "start", text, &start)) || (rc = scen_need_num(s, "size", plus + 1, &size)))
			return rc;
	}
	if ((rc = need_pf(s, "expect pf-vf", &err)) || s->dry)
		return rc;
	const struct dom0_pf_vf *v = &s->pf->vf[id];
	if (none)
		return scen_check(s, !v->size, "pf-vf %" PRIu64 " == none (it holds 0x%" PRIx64 "+0x%" PRIx64 ")", id, v->start,
				  v->size);
	return scen_check(s, v->start == start && v->size == size,
			  "pf-vf %" PRIu64 " == 0x%" PRIx64 "+0x%" PRIx64 " (it holds 0x%" PRIx64 "+0x%" PRIx64 ")", id, start, size,
			  v->start, v->size);
}

int scen_pf_end(struct scen *s, struct gtt_err *err)
{
	int rc = 0;

	if (s->pf) {
		rc = dom0_pf_release_all(s->pf, err);
		free(s->pf);
		s->pf = NULL;
	}
	return rc;
}
