/* SPDX-License-Identifier: MIT */
/*
 * The scenario commands a guest makes through the runtime's traps: guest-pte
 * (PTE writes into its GGTT range), guest-fence (a fence register write) and
 * guest-write (bytes through its aperture). Dispatched by scenario_exec.c's
 * table; a refusal by the runtime is a failure unless under `fail`.
 */
#include "scenario/scenario_internal.h"
#include "hw/pte.h"

#include <inttypes.h>
#include <string.h>

/* The guest PTE of a frame proved encodable on the line's device. */
static int guest_pte_value(struct scen *s, uint64_t gfn, uint64_t *pte, struct gtt_err *err)
{
	return hw_pte_encode(s->info->plat, gfn << 12, HW_CACHE_NONE, pte, err);
}

enum scen_rc scen_cmd_guest_pte(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "count", NULL };
	uint64_t gm, gfn = 0, count = 1;
	enum scen_rc rc;
	int id;
	bool none = l->argc > 3 && !strcmp(l->argv[3], "none");

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) ||
	    (rc = scen_need_num(s, "GM address", l->argc > 2 ? l->argv[2] : NULL, &gm)))
		return rc;
	if (!none && (rc = scen_need_num(s, "guest page GFN (or none)", l->argc > 3 ? l->argv[3] : NULL, &gfn)))
		return rc;
	if ((rc = scen_only_keys(s, l, 4, keys)) ||
	    (scen_kv(l, 4, "count") &&
	     (rc = scen_need_range(s, "count", scen_kv(l, 4, "count"), 1, 1u << 20, "PTEs in one command", &count))))
		return rc;
	if (gm % 4096)
		return scen_bad(s, "GM range 0x%" PRIx64 "+%" PRIu64 " pages is not 4 KiB-aligned", gm, count);
	/* the rest is the device's: known before the run unless the vGPU's device is the run's to know */
	if (!s->info)
		return SCEN_RAN;
	if (gm >= s->info->ggtt_size || count > (s->info->ggtt_size - gm) / 4096)
		return scen_bad(s, "GM range 0x%" PRIx64 "+%" PRIu64 " pages is not 4 KiB-aligned inside the 0x%" PRIx64 "-byte GGTT",
				gm, count, s->info->ggtt_size);
	/* the guest PTE must name every frame exactly: no frame beyond the PTE's address bits, no wrap */
	uint64_t max_gfn = (1ull << (s->info->plat->phys_addr_bits - 12)) - 1;
	if (!none && (gfn > max_gfn || count - 1 > max_gfn - gfn))
		return scen_bad(s, "guest page %" PRIu64 "%s does not fit a %s PTE (%u address bits: frames 0 to %" PRIu64 ")",
				gfn, count > 1 ? " and the pages after it" : "", s->info->plat->name,
				s->info->plat->phys_addr_bits, max_gfn);
	if (s->dry)
		return SCEN_RAN;
	for (uint64_t k = 0; k < count; k++) {
		uint64_t pte = 0;
		if (!none && guest_pte_value(s, gfn + k, &pte, err))
			return scen_failed(s, "guest-pte: %s", err->msg);
		if (dom0_guest_pte_write(s->rt, id, gm / 4096 + k, pte, err))
			return scen_outcome(s, 1, refuse, err, "guest-pte");
	}
	scen_say(s, "guest-pte %s: %" PRIu64 " PTE%s from 0x%" PRIx64 " -> %s%" PRIu64, l->argv[1], count,
		 count > 1 ? "s" : "", gm, none ? "not present" : "guest page ", none ? (uint64_t)0 : gfn);
	return SCEN_RAN;
}

/* The raw register value of `guest-fence NAME ID start= size= stride= tiling=` (docs/hardware.md §4.3). */
static enum scen_rc guest_fence_fields(struct scen *s, const struct scen_line *l, const char *const *keys, uint64_t *val)
{
	const char *tl = scen_kv(l, 3, "tiling");
	uint64_t start, size, stride;
	enum scen_rc rc;

	if ((rc = scen_only_keys(s, l, 3, keys)) || (rc = scen_need_num(s, "start", scen_kv(l, 3, "start"), &start)) ||
	    (rc = scen_need_num(s, "size", scen_kv(l, 3, "size"), &size)) ||
	    (rc = scen_need_num(s, "stride", scen_kv(l, 3, "stride"), &stride)))
		return rc;
	if (!tl || (strcmp(tl, "x") && strcmp(tl, "y")))
		return scen_bad(s, "tiling=x or tiling=y is needed (or 'off', or value=RAW)");
	if (size < 4096 || size > 0x100000000ull || stride < 128 || stride / 128 > 0x1000 || start > 0xfffff000u ||
	    start + size - 4096 > 0xfffff000u)
		return scen_bad(s, "fence fields out of the register's reach: start 0x%" PRIx64 " size 0x%" PRIx64 " stride %" PRIu64,
				start, size, stride);
	/* what a guest driver writes; the runtime judges it */
	*val = ((start + size - 4096) << 32) | start | ((stride / 128 - 1) << 32) | (!strcmp(tl, "y") ? 2 : 0) | 1;
	return SCEN_RAN;
}

enum scen_rc scen_cmd_guest_fence(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "start", "size", "stride", "tiling", "value", NULL };
	uint64_t fid, val = 0;
	enum scen_rc rc;
	int id;

	/* one line: tests/mutants/mutants.sh widens this range */
	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) ||
	    (rc = scen_need_range(s, "fence id", l->argc > 2 ? l->argv[2] : NULL, 0, I915_MAX_NUM_FENCES - 1, "fence registers", &fid)))
		return rc;
	if (l->argc == 4 && !strcmp(l->argv[3], "off")) {
		val = 0;
	} else if (scen_kv(l, 3, "value")) {
		if ((rc = scen_only_keys(s, l, 3, keys)) || (rc = scen_need_num(s, "value", scen_kv(l, 3, "value"), &val)))
			return rc;
	} else if ((rc = guest_fence_fields(s, l, keys, &val))) {
		return rc;
	}
	if (s->dry)
		return SCEN_RAN;
	if (dom0_guest_fence_write(s->rt, id, (unsigned)fid, val, err))
		return scen_outcome(s, 1, refuse, err, "guest-fence");
	scen_say(s, "guest-fence %s %" PRIu64 " = 0x%016" PRIx64 ": pool pages in use %" PRIu64, l->argv[1], fid, val,
		 dom0_counters(s->rt)->pool_pages_used);
	return SCEN_RAN;
}

enum scen_rc scen_cmd_guest_write(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t gm;
	enum scen_rc rc;
	int id;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) ||
	    (rc = scen_need_num(s, "GM address", l->argc > 2 ? l->argv[2] : NULL, &gm)))
		return rc;
	if (l->argc != 4)
		return scen_bad(s, "guest-write NAME GM TEXT (one word of text)");
	if (s->dry)
		return SCEN_RAN;
	if (dom0_guest_aperture_write(s->rt, id, gm, l->argv[3], strlen(l->argv[3]), err))
		return scen_outcome(s, 1, refuse, err, "guest-write");
	scen_say(s, "guest-write %s 0x%" PRIx64 ": %zu bytes through its aperture", l->argv[1], gm, strlen(l->argv[3]));
	return SCEN_RAN;
}
