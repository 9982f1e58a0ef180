/* SPDX-License-Identifier: MIT */
/*
 * `expect WHAT ...`: one handler per WHAT in the table `kinds`, which also
 * gives the list the "expect what?" message names; the counters an expect can
 * name and the PVINFO field names live here too. A handler checks its words
 * (malformed: scen_bad), returns when the pass is dry, and then reads the
 * device or the runtime and judges with scen_check. An expect about one vGPU
 * (`subject` in the table) runs on that vGPU's device; the others on the
 * line's (main, or the one `on D` names), and a vGPU they name must live there.
 */
#include "dom0/pvinfo.h"
#include "scenario/scenario_internal.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

#include <inttypes.h>
#include <string.h>

/* The runtime's counters, and those of one vGPU (`NAME.KEY`); counter() reads them in this order. */
static const char *const global_counters[] = { "switches", "ptes_written", "ptes_skipped", "invalidates", "pool_allocs",
					       "pool_frees", "pool_pages_used", "pool_pages_peak", "expansions",
					       "reductions", "shared_slots", "last.written", "last.skipped", "last.left",
					       "last.right", "migrations", NULL };
static const char *const vgpu_counters[] = { "rejected", "gtt_modifications", "ladder_mappings", "fence_writes",
					     "switches_in", "quanta", "paused_ms", "withdrawn", NULL };

/* `NAME.KEY` with KEY a per-vGPU counter: the index of KEY, NAME into `name`; -1 when it is no such word. */
static int vgpu_counter_key(const char *key, char *name, size_t n)
{
	const char *dot = strchr(key, '.');

	if (!dot || (size_t)(dot - key) >= n)
		return -1;
	snprintf(name, n, "%.*s", (int)(dot - key), key);
	for (int i = 0; vgpu_counters[i]; i++)
		if (!strcmp(dot + 1, vgpu_counters[i]))
			return i;
	return -1;
}

/* A runtime-wide counter (the runtime's, the policy's, admission's): whether `key` names one and, at run time, its value. */
static bool counter(struct scen *s, const char *key, uint64_t *v)
{
	const struct dom0_counters *c = s->dry ? NULL : dom0_counters(s->rt);

	for (int i = 0; global_counters[i]; i++) {
		if (strcmp(key, global_counters[i]))
			continue;
		if (!c)
			return true;
		uint64_t vals[] = { c->switches, c->ptes_written, c->ptes_skipped, c->invalidates, c->pool_allocs,
				    c->pool_frees, c->pool_pages_used, c->pool_pages_peak, c->expansions, c->reductions,
				    dom0_shared_slots(s->rt), s->last.ptes_written, s->last.ptes_skipped, s->last_left,
				    s->last_right, c->migrations };
		*v = vals[i];
		return true;
	}
	return scen_policy_counter(s, key, v) || scen_admission_counter(s, key, v);
}

static const struct { const char *name; uint32_t reg; } pvinfo_fields[] = {
	{ "magic", VGT_IF_MAGIC }, { "magic_hi", VGT_IF_MAGIC + 4 }, { "version", VGT_IF_VERSION },
	{ "vgt_id", VGT_IF_VGT_ID }, { "caps", VGT_IF_VGT_CAPS }, { "mappable_base", VGT_IF_MAPPABLE_BASE },
	{ "mappable_size", VGT_IF_MAPPABLE_SIZE }, { "nonmappable_base", VGT_IF_NONMAPPABLE_BASE },
	{ "nonmappable_size", VGT_IF_NONMAPPABLE_SIZE }, { "fence_num", VGT_IF_FENCE_NUM },
	{ "display_ready", VGT_IF_DISPLAY_READY },
};

/* The GM address of `expect pte|owner GM ...`: a 4 KiB-aligned address of the line's device's GGTT. */
static enum scen_rc expect_gm(struct scen *s, const struct scen_line *l, uint64_t *a)
{
	enum scen_rc rc;

	if ((rc = scen_need_num(s, "GM address", l->argc > 2 ? l->argv[2] : NULL, a)))
		return rc;
	if (*a % 4096 || (s->info && *a >= s->info->ggtt_size))
		return scen_bad(s, "GM address 0x%" PRIx64 " is not a 4 KiB-aligned GGTT address", *a);
	return SCEN_RAN;
}

/* expect pte GM maps NAME GFN: the physical entry names the host page of NAME's guest frame GFN */
static enum scen_rc expect_pte_maps(struct scen *s, const struct scen_line *l, uint64_t a, uint64_t pte)
{
	struct hw_page pg;
	struct hw_pte d;
	uint64_t v;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argv[4], &id)) || (rc = scen_need_num(s, "guest page", l->argv[5], &v)) || s->dry)
		return rc;
	hw_pte_decode(s->dev->info.plat, pte, &d);
	if (dom0_guest_page(s->rt, id, v, &pg))
		return scen_failed(s, "expect: %s has no guest page %" PRIu64, l->argv[4], v);
	return scen_check(s, d.valid && d.addr == pg.phys, "pte 0x%" PRIx64 " maps %s page %" PRIu64 " (host 0x%" PRIx64 "; the PTE names 0x%" PRIx64 ")",
			  a, l->argv[4], v, pg.phys, d.addr);
}

static enum scen_rc expect_pte(struct scen *s, const struct scen_line *l, const char *usage)
{
	uint64_t a, want, pte = 0;
	enum scen_rc rc;

	(void)usage;	/* a malformed one is named by the part that is wrong */
	if ((rc = expect_gm(s, l, &a)))
		return rc;
	if (!s->dry)
		hw_ggtt_read_pte(s->dev, a / 4096, &pte, NULL);
	if (l->argc == 6 && !strcmp(l->argv[3], "maps"))
		return expect_pte_maps(s, l, a, pte);
	if ((rc = scen_expect_value(s, l, 3, &want)) || s->dry)
		return rc;
	return scen_check(s, pte == want, "pte 0x%" PRIx64 " == 0x%" PRIx64 " (it is 0x%" PRIx64 ")", a, want, pte);
}

static enum scen_rc expect_owner(struct scen *s, const struct scen_line *l, const char *usage)
{
	enum scen_rc rc;
	uint64_t a;
	int want_id = 0;

	if ((rc = expect_gm(s, l, &a)))
		return rc;
	if (l->argc != 5 || strcmp(l->argv[3], "=="))
		return scen_bad(s, "%s", usage);
	if ((strcmp(l->argv[4], "none") && (rc = scen_vgpu(s, l->argv[4], &want_id))) || s->dry)
		return rc;
	int got = dom0_physical_owner(s->rt, a / 4096);
	return scen_check(s, got == want_id, "owner 0x%" PRIx64 " == %s (it is %s)", a, l->argv[4], scen_name_of(s, got));
}

static enum scen_rc expect_shadow(struct scen *s, const struct scen_line *l, const char *usage)
{
	struct gtt_err err = { 0 };
	uint64_t a, v, pte;
	struct hw_page pg;
	struct hw_pte d;
	enum scen_rc rc;
	int id;

	if (l->argc != 6 || strcmp(l->argv[4], "maps"))
		return scen_bad(s, "%s", usage);
	if ((rc = scen_vgpu(s, l->argv[2], &id)) || (rc = scen_need_num(s, "GM address", l->argv[3], &a)) ||
	    (rc = scen_need_num(s, "guest page", l->argv[5], &v)) || s->dry)
		return rc;
	if (dom0_shadow_pte(s->rt, id, a / 4096, &pte, &err))
		return scen_failed(s, "expect shadow: %s", err.msg);
	hw_pte_decode(s->dev->info.plat, pte, &d);
	if (dom0_guest_page(s->rt, id, v, &pg))
		return scen_failed(s, "expect: %s has no guest page %" PRIu64, l->argv[2], v);
	return scen_check(s, d.addr == pg.phys, "shadow %s 0x%" PRIx64 " maps page %" PRIu64, l->argv[2], a, v);
}

/* `expect fence|reg N == VALUE`: the number (named by its kind) and the value. */
static enum scen_rc expect_number(struct scen *s, const struct scen_line *l, uint64_t *a, uint64_t *want)
{
	enum scen_rc rc;

	if ((rc = scen_need_num(s, l->argv[1], l->argc > 2 ? l->argv[2] : NULL, a)) ||
	    (rc = scen_expect_value(s, l, 3, want)))
		return rc;
	return SCEN_RAN;
}

static enum scen_rc expect_fence(struct scen *s, const struct scen_line *l, const char *usage)
{
	uint64_t a, want, v;
	enum scen_rc rc;

	(void)usage;
	if ((rc = expect_number(s, l, &a, &want)))
		return rc;
	if (a >= (s->info ? s->info->num_fences : I915_MAX_NUM_FENCES))
		return scen_bad(s, "fence %" PRIu64 ": the device has %u", a, s->info ? s->info->num_fences : I915_MAX_NUM_FENCES);
	if (s->dry)
		return SCEN_RAN;
	hw_fence_read(s->dev, (unsigned)a, &v, NULL);
	return scen_check(s, v == want, "fence 0x%" PRIx64 " == 0x%" PRIx64 " (it is 0x%" PRIx64 ")", a, want, v);
}

static enum scen_rc expect_reg(struct scen *s, const struct scen_line *l, const char *usage)
{
	uint64_t a, want, v;
	enum scen_rc rc;

	(void)usage;
	if ((rc = expect_number(s, l, &a, &want)))
		return rc;
	if (a % 4 || a >= 0x200000)
		return scen_bad(s, "register 0x%" PRIx64 " is not a 4-byte aligned offset below 2 MiB", a);
	if (s->dry)
		return SCEN_RAN;
	v = hw_mmio_read32(s->dev, (uint32_t)a);
	return scen_check(s, v == want, "reg 0x%" PRIx64 " == 0x%" PRIx64 " (it is 0x%" PRIx64 ")", a, want, v);
}

static enum scen_rc expect_pvinfo(struct scen *s, const struct scen_line *l, const char *usage)
{
	uint64_t want, v;
	enum scen_rc rc;
	int id;

	(void)usage;
	if ((rc = scen_vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)))
		return rc;
	const char *f = l->argc > 3 ? l->argv[3] : "";
	uint32_t off = 0xffffffffu;
	for (size_t i = 0; i < sizeof(pvinfo_fields) / sizeof(pvinfo_fields[0]); i++)
		if (!strcmp(f, pvinfo_fields[i].name))
			off = pvinfo_fields[i].reg - VGT_PVINFO_PAGE;
	if (off == 0xffffffffu && scen_parse_num(f, &v) && v < VGT_PVINFO_SIZE)
		off = (uint32_t)v;
	if (off >= VGT_PVINFO_SIZE || off % 4)
		return scen_bad(s, "pvinfo field '%s': a name (magic, version, vgt_id, caps, mappable_base, mappable_size, nonmappable_base, nonmappable_size, fence_num, display_ready) or an offset", f);
	if ((rc = scen_expect_value(s, l, 4, &want)) || s->dry)
		return rc;
	uint32_t w = 0;
	struct gtt_err err = { 0 };
	if (dom0_pvinfo_read(s->rt, id, off, &w, &err))
		return scen_failed(s, "expect pvinfo %s %s: %s", l->argv[2], f, err.msg);
	return scen_check(s, w == want, "pvinfo %s %s == 0x%" PRIx64 " (it is 0x%x)", l->argv[2], f, want, w);
}

static enum scen_rc expect_slots(struct scen *s, const struct scen_line *l, const char *usage)
{
	uint64_t f0 = 0, l0 = 0;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)))
		return rc;
	bool none = l->argc == 5 && !strcmp(l->argv[4], "none");
	if (l->argc != 5 || strcmp(l->argv[3], "==") || (!none && !scen_slot_range(l->argv[4], &f0, &l0)))
		return scen_bad(s, "%s, slots 0 to %d", usage, MAX_SLOTS - 1);
	if (s->dry)
		return SCEN_RAN;
	struct dom0_vgpu_info in;
	if (dom0_vgpu_info(s->rt, id, &in))
		return scen_failed(s, "expect slots %s: the runtime has no vGPU %d", l->argv[2], id);
	bool ok = none ? in.slots == 0 : in.slots && in.first_slot == f0 && in.first_slot + in.slots - 1 == l0;
	char sl[24];
	return scen_check(s, ok, "slots %s == %s (it holds %s)", l->argv[2], l->argv[4], scen_slots_text(&in, sl, sizeof(sl)));
}

static enum scen_rc expect_counter(struct scen *s, const struct scen_line *l, const char *usage)
{
	const char *key = l->argc > 2 ? l->argv[2] : "";
	uint64_t want, v = 0;	/* counter() leaves it unset when dry */
	char keys[1024] = "", name[32];
	enum scen_rc rc;
	int k = -1;

	(void)usage;
	if ((rc = scen_expect_value(s, l, 3, &want)))
		return rc;
	/* the runtime's counters first: a vGPU named like one of their prefixes (policy.*) does not hide them */
	if (!counter(s, key, &v) && (k = vgpu_counter_key(key, name, sizeof(name))) < 0) {
		for (int i = 0; global_counters[i]; i++)
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s, ", global_counters[i]);
		for (int i = 0; scen_policy_counters[i]; i++)
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s, ", scen_policy_counters[i]);
		for (int i = 0; scen_admission_counters[i]; i++)
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s, ", scen_admission_counters[i]);
		snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "or NAME.");
		for (int i = 0; vgpu_counters[i]; i++)
			snprintf(keys + strlen(keys), sizeof(keys) - strlen(keys), "%s%s", i ? "|" : "", vgpu_counters[i]);
		return scen_bad(s, "counter '%s': one of %s", key, keys);
	}
	if (k >= 0) {
		/* one vGPU's: it must be alive on the line's device (`on D expect counter NAME.KEY` for another) */
		struct dom0_vgpu_info in;
		int id;
		if ((rc = scen_vgpu(s, name, &id)) || s->dry)
			return rc;
		if (dom0_vgpu_info(s->rt, id, &in))
			return scen_failed(s, "expect counter %s: the runtime has no vGPU %d", key, id);
		uint64_t vals[] = { in.counters.rejected, in.counters.gtt_modifications, in.counters.ladder_mappings,
				    in.counters.fence_writes, in.counters.switches_in, in.counters.quanta, in.paused_ms,
				    in.counters.withdrawn };
		v = vals[k];
	}
	if (s->dry)
		return SCEN_RAN;
	return scen_check(s, v == want, "counter %s == %" PRIu64 " (it is %" PRIu64 ")", key, want, v);
}

static enum scen_rc expect_read(struct scen *s, const struct scen_line *l, const char *usage)
{
	struct gtt_err err = { 0 };
	uint64_t a;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)) ||
	    (rc = scen_need_num(s, "GM address", l->argc > 3 ? l->argv[3] : NULL, &a)))
		return rc;
	if (l->argc != 6 || strcmp(l->argv[4], "=="))
		return scen_bad(s, "%s", usage);
	if (strlen(l->argv[5]) > 255)
		return scen_bad(s, "expect read: the text is %zu bytes; at most 255", strlen(l->argv[5]));
	if (s->dry)
		return SCEN_RAN;
	char buf[256] = { 0 };
	size_t n = strlen(l->argv[5]);
	if (n >= sizeof(buf) || dom0_guest_aperture_read(s->rt, id, a, buf, n, &err))
		return scen_failed(s, "expect read: %s", err.msg);
	return scen_check(s, !memcmp(buf, l->argv[5], n), "read %s 0x%" PRIx64 " == %s (it reads %.*s)", l->argv[2], a,
			  l->argv[5], (int)n, buf);
}

static enum scen_rc expect_render_owner(struct scen *s, const struct scen_line *l, const char *usage)
{
	enum scen_rc rc = SCEN_RAN;
	int want_id = 0;

	if (l->argc != 4 || strcmp(l->argv[2], "=="))
		return scen_bad(s, "%s", usage);
	if ((strcmp(l->argv[3], "none") && (rc = scen_vgpu(s, l->argv[3], &want_id))) || s->dry)
		return rc;
	return scen_check(s, dom0_render_owner(s->rt) == want_id, "render-owner == %s (it is %s)", l->argv[3],
			  scen_name_of(s, dom0_render_owner(s->rt)));
}

/*
 * The kinds of expect, in the order "expect what?" lists them. `usage` is the
 * whole form; the handlers that take it print it when the form is wrong, the
 * others name the word that is.
 */
static const struct expect_kind {
	const char *what;
	enum scen_rc (*check)(struct scen *s, const struct scen_line *l, const char *usage);
	const char *usage;
	bool subject;		/* the word after the kind names the vGPU it is about, and the line runs on its device */
} kinds[] = {
	{ "pte", expect_pte, "expect pte GM == VALUE, or expect pte GM maps NAME GFN", false },
	{ "owner", expect_owner, "expect owner GM == NAME|none", false },
	{ "shadow", expect_shadow, "expect shadow NAME GM maps GFN", true },
	{ "fence", expect_fence, "expect fence N == VALUE", false },
	{ "reg", expect_reg, "expect reg OFFSET == VALUE", false },
	{ "pvinfo", expect_pvinfo, "expect pvinfo NAME FIELD == VALUE", true },
	{ "slots", expect_slots, "expect slots NAME == FIRST-LAST (or none)", true },
	{ "counter", expect_counter, "expect counter KEY == N", false },
	{ "read", expect_read, "expect read NAME GM == TEXT", true },
	{ "render-owner", expect_render_owner, "expect render-owner == NAME|none", false },
	{ "class", scen_expect_class, "expect class == low|mid|high", false },
	{ "request", scen_expect_request,
	  "expect request NAME == idle|pending|granted|noted|refused-policy|refused-room|bad-code|bad-count|bad-write|busy|paused",
	  true },
	{ "paused", scen_expect_paused, "expect paused NAME, or expect paused NAME == create|expand|fence|none", true },
	{ "pf-vf", scen_expect_pf_vf, "expect pf-vf N == START+SIZE|none", false },
};

#define N_KINDS (sizeof(kinds) / sizeof(kinds[0]))

const char *scen_expect_subject(const struct scen_line *l)
{
	for (size_t i = 0; l->argc > 2 && i < N_KINDS; i++)
		if (!strcmp(l->argv[1], kinds[i].what))
			return kinds[i].subject ? l->argv[2] : NULL;
	return NULL;
}

enum scen_rc scen_expect(struct scen *s, const struct scen_line *l)
{
	const char *what = l->argc > 1 ? l->argv[1] : "";
	char list[200] = "";	/* the list of kinds, for a malformed one */

	for (size_t i = 0; i < N_KINDS; i++)
		if (!strcmp(what, kinds[i].what))
			return kinds[i].check(s, l, kinds[i].usage);
	for (size_t i = 0; i < N_KINDS; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", !i ? "" : i + 1 < N_KINDS ? ", " : " or ",
			 kinds[i].what);
	return scen_bad(s, "expect what? %s", list);
}
