/* SPDX-License-Identifier: MIT */
/*
 * The scenario runner. A file is read whole and run twice through the same
 * code: first dry (every argument parsed, every name resolved, nothing
 * touched), then for real. A malformed file therefore never reaches the
 * device, and a file that runs leaves it as found (dom0_fini restores it).
 */
#include "harness/scenario.h"
#include "harness/scenario_parse.h"
#include "env/num.h"
#include "dom0/dom0.h"
#include "hw/fence.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NAMES 1024
#define MAX_HIST 1024
/* `run N`: at most this many quanta in one command (DOM0_QUANTUM_MS each: 1600 s of simulated time) */
#define MAX_RUN_QUANTA 100000
#define MAX_SLOTS 1024		/* dom0's limit on slots in high graphics memory */

#define line scen_line

struct name {
	char name[32];
	int id;
	bool alive;
};

struct hist {
	int line;
	char name[32];
	const char *what;
	unsigned first, slots;
	unsigned left, right;
};

struct scen {
	const char *path;
	FILE *out, *errors, *trace;
	bool quiet, dry;
	struct hw_device *dev;		/* NULL when only checking */
	const struct hw_info *info;	/* the device's facts, for checks made before anything runs */
	struct dom0_runtime *rt;
	struct dom0_config cfg;
	bool started;
	bool unrestored;		/* dom0_fini did not read back as found */
	struct gtt_err fini_err;
	struct name names[MAX_NAMES];
	int n_names;
	int cur_line;
	int commands, expects_passed, failures;
	struct dom0_switch_stats last;
	unsigned last_left, last_right;
	uint64_t n_switches;
	struct hist hist[MAX_HIST];
	int n_hist;
};

/* Malformed: name file:line and the rule; only the dry run reports these. */
static int bad(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(struct scen *s, const char *fmt, ...)
{
	va_list ap;

	if (!s->dry)
		return 1;
	fprintf(s->errors, "%s:%d: ", s->path, s->cur_line);
	va_start(ap, fmt);
	vfprintf(s->errors, fmt, ap);
	va_end(ap);
	fputc('\n', s->errors);
	return 2;
}

/* A failed step at run time. */
static int failed(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failed(struct scen *s, const char *fmt, ...)
{
	va_list ap;

	fprintf(s->out, "%s:%d: FAILED: ", s->path, s->cur_line);
	va_start(ap, fmt);
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
	s->failures++;
	return 1;
}

static void say(struct scen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct scen *s, const char *fmt, ...)
{
	va_list ap;

	if (s->dry || s->quiet)
		return;
	fprintf(s->out, "%4d  ", s->cur_line);
	va_start(ap, fmt);
	vfprintf(s->out, fmt, ap);
	va_end(ap);
	fputc('\n', s->out);
}

static bool parse_num(const char *t, uint64_t *out)
{
	return gtt_parse_u64(t, out, NULL) == GTT_OK;
}

/* key=value among the tokens from `from` on; NULL when absent. */
static const char *kv(const struct line *l, int from, const char *key)
{
	size_t n = strlen(key);

	for (int i = from; i < l->argc; i++)
		if (!strncmp(l->argv[i], key, n) && l->argv[i][n] == '=')
			return l->argv[i] + n + 1;
	return NULL;
}

/* Every token from `from` on must be key=value with a key in `allowed` (NULL-terminated). */
static int only_keys(struct scen *s, const struct line *l, int from, const char *const *allowed)
{
	for (int i = from; i < l->argc; i++) {
		const char *eq = strchr(l->argv[i], '=');
		bool ok = false;
		for (const char *const *k = allowed; eq && *k; k++)
			ok |= strlen(*k) == (size_t)(eq - l->argv[i]) && !strncmp(*k, l->argv[i], (size_t)(eq - l->argv[i]));
		if (!ok)
			return bad(s, "'%s' is not an argument of %s", l->argv[i], l->argv[0]);
		/* a key given twice: which one would count is a guess, so neither does */
		for (int j = from; j < i; j++)
			if (!strncmp(l->argv[j], l->argv[i], (size_t)(eq - l->argv[i]) + 1))
				return bad(s, "%.*s= is given twice on one %s line", (int)(eq - l->argv[i]), l->argv[i], l->argv[0]);
	}
	return 0;
}

static int need_num(struct scen *s, const char *what, const char *t, uint64_t *v)
{
	const char *why;

	if (!t)
		return bad(s, "missing %s", what);
	if (gtt_parse_u64(t, v, &why))
		return bad(s, "%s '%s' %s", what, t, why);
	return 0;
}

/* A number in [lo, hi]; `rule` says why the bounds are what they are. */
static int need_range(struct scen *s, const char *what, const char *t, uint64_t lo, uint64_t hi, const char *rule,
		      uint64_t *v)
{
	int rc = need_num(s, what, t, v);

	if (!rc && (*v < lo || *v > hi))
		return bad(s, "%s %" PRIu64 " is out of range: %" PRIu64 " to %" PRIu64 " (%s)", what, *v, lo, hi, rule);
	return rc;
}

static struct name *find_name(struct scen *s, const char *n)
{
	for (int i = 0; i < s->n_names; i++)
		if (!strcmp(s->names[i].name, n))
			return &s->names[i];
	return NULL;
}

/* A vGPU name that exists at this point of the file. */
static int vgpu(struct scen *s, const char *n, int *id)
{
	struct name *nm = n ? find_name(s, n) : NULL;

	if (!n)
		return bad(s, "missing vGPU name");
	if (!nm || !nm->alive)
		return bad(s, "no vGPU named '%s' exists here (create it first)", n);
	*id = nm->id;
	return 0;
}

static const char *name_of(struct scen *s, int id)
{
	for (int i = 0; i < s->n_names; i++)
		if (s->names[i].alive && s->names[i].id == id)
			return s->names[i].name;
	return id ? "?" : "none";
}

static void history(struct scen *s, const char *name, const char *what, int id, unsigned left, unsigned right)
{
	struct dom0_vgpu_info in = { 0 };

	if (s->dry || s->n_hist == MAX_HIST)
		return;
	if (id)
		dom0_vgpu_info(s->rt, id, &in);
	struct hist *h = &s->hist[s->n_hist++];
	*h = (struct hist){ .line = s->cur_line, .what = what, .first = in.first_slot, .slots = in.slots,
			    .left = left, .right = right };
	snprintf(h->name, sizeof(h->name), "%s", name);
}

static int start_runtime(struct scen *s)
{
	struct gtt_err err = { 0 };

	if (s->started || s->dry)
		return 0;
	if (dom0_init(s->dev, &s->cfg, &s->rt, &err))
		return failed(s, "cannot start the runtime: %s", err.msg);
	s->started = true;
	const struct dom0_layout *l = dom0_layout(s->rt);
	say(s, "runtime: guest low 0x%" PRIx64 "+0x%" PRIx64 ", fence pool 0x%" PRIx64 "+0x%" PRIx64 ", %u slots of %" PRIu64 " MiB from 0x%" PRIx64,
	    l->guest_low_base, l->guest_low_size, l->pool_base, l->pool_size, l->num_slots, l->slot_size >> 20, l->slots_base);
	return 0;
}

static void on_switch(void *ctx, const struct dom0_switch_stats *st)
{
	struct scen *s = ctx;

	s->last = *st;
	s->n_switches++;
	say(s, "  switch %s -> %s: %" PRIu64 " PTEs written, %" PRIu64 " skipped, %.3f ms", name_of(s, st->from),
	    name_of(s, st->to), st->ptes_written, st->ptes_skipped, st->ns / 1e6);
	if (s->trace)
		fprintf(s->trace, "%" PRIu64 ",%d,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s->n_switches,
			s->cur_line, name_of(s, st->from), name_of(s, st->to), st->ptes_written, st->ptes_skipped, st->ns,
			dom0_sim_time_ms(s->rt));
}

static int cmd_config(struct scen *s, const struct line *l)
{
	static const char *const keys[] = { "slot-size", "host-low", "host-high", "pool", "reserved", "host-fences",
					    "slot-aware", "selector", NULL };
	uint64_t v;
	const char *t;
	int rc;

	if (s->started || s->n_names)
		return bad(s, "config must come before the first create");
	if ((rc = only_keys(s, l, 1, keys)))
		return rc;
	struct { const char *k; uint64_t *dst; } sizes[] = {
		{ "slot-size", &s->cfg.slot_size }, { "host-low", &s->cfg.host_low_size },
		{ "host-high", &s->cfg.host_high_size }, { "pool", &s->cfg.pool_size }, { "reserved", &s->cfg.reserved_size },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if ((t = kv(l, 1, sizes[i].k))) {
			if ((rc = need_range(s, sizes[i].k, t, 0, s->info->ggtt_size, "bytes of the device's GGTT", &v)))
				return rc;
			*sizes[i].dst = v;
		}
	if ((t = kv(l, 1, "host-fences"))) {
		if ((rc = need_range(s, "host-fences", t, 0, s->info->num_fences, "the device's fence registers", &v)))
			return rc;
		s->cfg.host_fences = (unsigned)v;
	}
	if ((t = kv(l, 1, "slot-aware"))) {
		if (strcmp(t, "on") && strcmp(t, "off"))
			return bad(s, "slot-aware=%s: on or off", t);
		s->cfg.slot_aware = !strcmp(t, "on");
	}
	if ((t = kv(l, 1, "selector"))) {
		if (strcmp(t, "algorithm1") && strcmp(t, "occupancy"))
			return bad(s, "selector=%s: algorithm1 or occupancy", t);
		s->cfg.algorithm1_selector = !strcmp(t, "algorithm1");
	}
	return 0;
}

static bool valid_name(const char *n)
{
	static const char *const reserved[] = { "none", "scratch", "boot", "last", NULL };

	if (!*n || strlen(n) >= 32)
		return false;
	for (const char *p = n; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-' && *p != '_')
			return false;
	for (const char *const *r = reserved; *r; r++)
		if (!strcmp(n, *r))
			return false;
	return true;
}

/* create's key=value arguments, each in the range the runtime can take. */
static int create_params(struct scen *s, const struct line *l, struct dom0_vgpu_params *p)
{
	static const char *const keys[] = { "low", "slots", "fences", "mem", "at", NULL };
	uint64_t v;
	int rc;

	*p = (struct dom0_vgpu_params){ 0 };
	if ((rc = only_keys(s, l, 2, keys)) ||
	    (rc = need_range(s, "low=SIZE", kv(l, 2, "low"), 0, s->info->ggtt_size, "bytes of the device's GGTT", &p->low_size)) ||
	    (rc = need_range(s, "slots=N", kv(l, 2, "slots"), 0, MAX_SLOTS, "slots of high graphics memory", &v)))
		return rc;
	p->high_slots = (unsigned)v;
	if (kv(l, 2, "fences")) {
		if ((rc = need_range(s, "fences=N", kv(l, 2, "fences"), 0, DOM0_MAX_GUEST_FENCES, "GVT traps guest fences 0-15", &v)))
			return rc;
		p->fences = (unsigned)v;
	}
	if (kv(l, 2, "mem")) {
		if ((rc = need_range(s, "mem=PAGES", kv(l, 2, "mem"), 1, 1u << 20, "pages of guest memory", &v)))
			return rc;
		p->mem_pages = (unsigned)v;
	}
	if (kv(l, 2, "at")) {
		if ((rc = need_range(s, "at=SLOT", kv(l, 2, "at"), 0, MAX_SLOTS - 1, "slot numbers", &v)))
			return rc;
		p->place = true;
		p->at_slot = (unsigned)v;
	}
	return 0;
}

static int cmd_create(struct scen *s, const struct line *l)
{
	struct dom0_vgpu_params p;
	int rc;

	if (l->argc < 2 || !valid_name(l->argv[1]))
		return bad(s, "create needs a vGPU name of [a-z0-9_-], not a keyword: create NAME low=SIZE slots=N [fences=N] [mem=PAGES] [at=SLOT]");
	struct name *nm = find_name(s, l->argv[1]);
	if (nm && nm->alive)
		return bad(s, "vGPU '%s' exists already", l->argv[1]);
	if ((rc = create_params(s, l, &p)))
		return rc;
	if (!nm) {
		if (s->n_names == MAX_NAMES)
			return bad(s, "at most %d vGPU names in one scenario", MAX_NAMES);
		nm = &s->names[s->n_names++];
		snprintf(nm->name, sizeof(nm->name), "%s", l->argv[1]);
	}
	if (s->dry) {
		nm->alive = true;
		return 0;
	}
	struct gtt_err err = { 0 };
	int id;
	if ((rc = start_runtime(s)))
		return rc;
	if (dom0_vgpu_create(s->rt, &p, &id, &err))
		return failed(s, "create %s: %s", nm->name, err.msg);
	nm->id = id;
	nm->alive = true;
	struct dom0_vgpu_info in;
	dom0_vgpu_info(s->rt, id, &in);
	say(s, "create %s: vGPU %d, low 0x%" PRIx64 "+0x%" PRIx64 ", slots %u-%u (high 0x%" PRIx64 "), %u fences", nm->name, id,
	    in.low_base, in.low_size, in.first_slot, in.first_slot + in.slots - 1, in.high_base, in.fences);
	history(s, nm->name, "created", id, 0, 0);
	return 0;
}

/* One command; `expect_refusal` is set under `fail`. Returns 0, 1 (failed) or 2 (malformed). */
static int exec(struct scen *s, struct line *l, bool expect_refusal, struct gtt_err *err);

static int cmd_fail(struct scen *s, struct line *l)
{
	struct line inner = { .no = l->no, .argc = l->argc - 1 };
	struct gtt_err err = { 0 };

	if (l->argc < 2)
		return bad(s, "fail needs a command: fail COMMAND ...");
	if (!strcmp(l->argv[1], "fail") || !strcmp(l->argv[1], "expect") || !strcmp(l->argv[1], "config"))
		return bad(s, "fail takes an operation, not '%s'", l->argv[1]);
	for (int i = 1; i < l->argc; i++)
		inner.argv[i - 1] = l->argv[i];
	int rc = exec(s, &inner, true, &err);
	if (s->dry || rc == 2)
		return rc;
	if (!rc)
		return failed(s, "'%s' was to be refused, and it succeeded", l->argv[1]);
	say(s, "refused as expected: %s", err.msg);
	return 0;
}

/* The runtime call failed: under `fail` that is the point; otherwise the step failed. */
static int outcome(struct scen *s, int rc, bool expect_refusal, const struct gtt_err *e, const char *what)
{
	if (!rc)
		return 0;
	if (expect_refusal)
		return 1;
	return failed(s, "%s: %s", what, e->msg);
}

/* The guest PTE of a frame the dry pass proved encodable. */
static int guest_pte_value(struct scen *s, uint64_t gfn, uint64_t *pte, struct gtt_err *err)
{
	return hw_pte_encode(s->info->plat, gfn << 12, HW_CACHE_NONE, pte, err);
}

static int cmd_guest_pte(struct scen *s, const struct line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "count", NULL };
	uint64_t gm, gfn = 0, count = 1;
	int id, rc;
	bool none = l->argc > 3 && !strcmp(l->argv[3], "none");

	if ((rc = vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) || (rc = need_num(s, "GM address", l->argc > 2 ? l->argv[2] : NULL, &gm)))
		return rc;
	if (!none && (rc = need_num(s, "guest page GFN (or none)", l->argc > 3 ? l->argv[3] : NULL, &gfn)))
		return rc;
	if ((rc = only_keys(s, l, 4, keys)) ||
	    (kv(l, 4, "count") && (rc = need_range(s, "count", kv(l, 4, "count"), 1, 1u << 20, "PTEs in one command", &count))))
		return rc;
	if (gm % 4096 || gm >= s->info->ggtt_size || count > (s->info->ggtt_size - gm) / 4096)
		return bad(s, "GM range 0x%" PRIx64 "+%" PRIu64 " pages is not 4 KiB-aligned inside the 0x%" PRIx64 "-byte GGTT",
			   gm, count, s->info->ggtt_size);
	/* the guest PTE must name every frame exactly: no frame beyond the PTE's address bits, no wrap */
	uint64_t max_gfn = (1ull << (s->info->plat->phys_addr_bits - 12)) - 1;
	if (!none && (gfn > max_gfn || count - 1 > max_gfn - gfn))
		return bad(s, "guest page %" PRIu64 "%s does not fit a %s PTE (%u address bits: frames 0 to %" PRIu64 ")",
			   gfn, count > 1 ? " and the pages after it" : "", s->info->plat->name, s->info->plat->phys_addr_bits, max_gfn);
	if (s->dry)
		return 0;
	for (uint64_t k = 0; k < count; k++) {
		uint64_t pte = 0;
		if (!none && (rc = guest_pte_value(s, gfn + k, &pte, err)))
			return failed(s, "guest-pte: %s", err->msg);
		rc = dom0_guest_pte_write(s->rt, id, gm / 4096 + k, pte, err);
		if (rc)
			return outcome(s, rc, refuse, err, "guest-pte");
	}
	say(s, "guest-pte %s: %" PRIu64 " PTE%s from 0x%" PRIx64 " -> %s%" PRIu64, l->argv[1], count, count > 1 ? "s" : "", gm,
	    none ? "not present" : "guest page ", none ? (uint64_t)0 : gfn);
	return 0;
}

static int cmd_guest_fence(struct scen *s, const struct line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "start", "size", "stride", "tiling", "value", NULL };
	uint64_t fid, val = 0, start, size, stride;
	int id, rc;

	if ((rc = vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) || (rc = need_range(s, "fence id", l->argc > 2 ? l->argv[2] : NULL, 0, I915_MAX_NUM_FENCES - 1, "fence registers", &fid)))
		return rc;
	if (l->argc == 4 && !strcmp(l->argv[3], "off")) {
		val = 0;
	} else if (kv(l, 3, "value")) {
		if ((rc = only_keys(s, l, 3, keys)) || (rc = need_num(s, "value", kv(l, 3, "value"), &val)))
			return rc;
	} else {
		const char *tl = kv(l, 3, "tiling");
		if ((rc = only_keys(s, l, 3, keys)) || (rc = need_num(s, "start", kv(l, 3, "start"), &start)) ||
		    (rc = need_num(s, "size", kv(l, 3, "size"), &size)) || (rc = need_num(s, "stride", kv(l, 3, "stride"), &stride)))
			return rc;
		if (!tl || (strcmp(tl, "x") && strcmp(tl, "y")))
			return bad(s, "tiling=x or tiling=y is needed (or 'off', or value=RAW)");
		if (size < 4096 || size > 0x100000000ull || stride < 128 || stride / 128 > 0x1000 || start > 0xfffff000u ||
		    start + size - 4096 > 0xfffff000u)
			return bad(s, "fence fields out of the register's reach: start 0x%" PRIx64 " size 0x%" PRIx64 " stride %" PRIu64,
				   start, size, stride);
		/* the raw register value a guest driver writes (docs/hardware.md §4.3); the runtime judges it */
		val = ((start + size - 4096) << 32) | start | ((stride / 128 - 1) << 32) | (!strcmp(tl, "y") ? 2 : 0) | 1;
	}
	if (s->dry)
		return 0;
	rc = dom0_guest_fence_write(s->rt, id, (unsigned)fid, val, err);
	if (rc)
		return outcome(s, rc, refuse, err, "guest-fence");
	say(s, "guest-fence %s %" PRIu64 " = 0x%016" PRIx64 ": pool pages in use %" PRIu64, l->argv[1], fid, val,
	    dom0_counters(s->rt)->pool_pages_used);
	return 0;
}

static int cmd_guest_write(struct scen *s, const struct line *l, bool refuse, struct gtt_err *err)
{
	uint64_t gm;
	int id, rc;

	if ((rc = vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)) || (rc = need_num(s, "GM address", l->argc > 2 ? l->argv[2] : NULL, &gm)))
		return rc;
	if (l->argc != 4)
		return bad(s, "guest-write NAME GM TEXT (one word of text)");
	if (s->dry)
		return 0;
	rc = dom0_guest_aperture_write(s->rt, id, gm, l->argv[3], strlen(l->argv[3]), err);
	if (rc)
		return outcome(s, rc, refuse, err, "guest-write");
	say(s, "guest-write %s 0x%" PRIx64 ": %zu bytes through its aperture", l->argv[1], gm, strlen(l->argv[3]));
	return 0;
}

static int cmd_simple(struct scen *s, const struct line *l, bool refuse, struct gtt_err *err)
{
	const char *c = l->argv[0];
	uint64_t q = 0;
	int id = 0, rc;

	if (!strcmp(c, "run")) {
		if (l->argc != 2)
			return bad(s, "run N (quanta of %d ms)", DOM0_QUANTUM_MS);
		if ((rc = need_range(s, "quanta", l->argv[1], 0, MAX_RUN_QUANTA, "one run command; split longer runs", &q)))
			return rc;
		if (s->dry)
			return 0;
		if ((rc = start_runtime(s)))
			return rc;
		say(s, "run %" PRIu64 " quanta", q);
		rc = dom0_run_quanta(s->rt, (unsigned)q, on_switch, s, err);
		return outcome(s, rc, refuse, err, "run");
	}
	if ((rc = vgpu(s, l->argc > 1 ? l->argv[1] : NULL, &id)))
		return rc;
	bool resize = !strcmp(c, "expand") || !strcmp(c, "reduce");
	if (l->argc != (resize ? 3 : 2))
		return bad(s, resize ? "%s NAME SLOTS" : "%s NAME", c);
	if (resize && (rc = need_range(s, "slots", l->argv[2], 1, MAX_SLOTS, "slots of high graphics memory", &q)))
		return rc;
	if (!strcmp(c, "destroy") && s->dry) {
		find_name(s, l->argv[1])->alive = false;
		return 0;
	}
	if (s->dry)
		return 0;
	if (!strcmp(c, "destroy")) {
		rc = dom0_vgpu_destroy(s->rt, id, err);
		if (rc)
			return outcome(s, rc, refuse, err, "destroy");
		history(s, l->argv[1], "destroyed", 0, 0, 0);
		find_name(s, l->argv[1])->alive = false;
		say(s, "destroy %s", l->argv[1]);
		return 0;
	}
	if (!strcmp(c, "busy") || !strcmp(c, "idle")) {
		dom0_set_busy(s->rt, id, !strcmp(c, "busy"), err);
		say(s, "%s %s", c, l->argv[1]);
		return 0;
	}
	if (!strcmp(c, "switch")) {
		struct dom0_switch_stats st;
		rc = dom0_switch(s->rt, id, &st, err);
		if (rc)
			return outcome(s, rc, refuse, err, "switch");
		on_switch(s, &st);
		return 0;
	}
	unsigned L, R;
	rc = !strcmp(c, "expand") ? dom0_expand(s->rt, id, (unsigned)q, &L, &R, err)
				  : dom0_reduce(s->rt, id, (unsigned)q, &L, &R, err);
	if (rc)
		return outcome(s, rc, refuse, err, c);
	s->last_left = L;
	s->last_right = R;
	struct dom0_vgpu_info in;
	dom0_vgpu_info(s->rt, id, &in);
	say(s, "%s %s by %" PRIu64 ": %u left, %u right; now slots %u-%u, %u slots shared", c, l->argv[1], q, L, R, in.first_slot,
	    in.first_slot + in.slots - 1, dom0_shared_slots(s->rt));
	history(s, l->argv[1], !strcmp(c, "expand") ? "expanded" : "reduced", id, L, R);
	return 0;
}

/* ---- expect ---- */

/* "FIRST-LAST", two slot numbers of the number grammar, FIRST <= LAST. */
static bool slot_range(const char *t, uint64_t *first, uint64_t *last)
{
	const char *dash = strchr(t, '-');
	char a[32];

	if (!dash || (size_t)(dash - t) >= sizeof(a))
		return false;
	snprintf(a, sizeof(a), "%.*s", (int)(dash - t), t);
	return parse_num(a, first) && parse_num(dash + 1, last) && *first <= *last && *last < MAX_SLOTS;
}

static int expect_value(struct scen *s, const struct line *l, int at, uint64_t *want)
{
	if (l->argc != at + 2 || strcmp(l->argv[at], "=="))
		return bad(s, "expected '== VALUE' at the end of the expect");
	return need_num(s, "value", l->argv[at + 1], want);
}

static int check(struct scen *s, bool ok, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int check(struct scen *s, bool ok, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!ok)
		return failed(s, "expect %s", msg);
	s->expects_passed++;
	say(s, "ok: %s", msg);
	return 0;
}

static bool counter(struct scen *s, const char *key, uint64_t *v)
{
	const struct dom0_counters *c = s->dry ? NULL : dom0_counters(s->rt);
	static const char *const global[] = { "switches", "ptes_written", "ptes_skipped", "invalidates", "pool_allocs",
					      "pool_frees", "pool_pages_used", "pool_pages_peak", "expansions", "reductions",
					      "shared_slots", "last.written", "last.skipped", "last.left", "last.right", NULL };
	static const char *const per[] = { "rejected", "gtt_modifications", "ladder_mappings", "fence_writes",
					   "switches_in", "quanta", NULL };
	for (int i = 0; global[i]; i++) {
		if (strcmp(key, global[i]))
			continue;
		if (!c)
			return true;
		uint64_t vals[] = { c->switches, c->ptes_written, c->ptes_skipped, c->invalidates, c->pool_allocs,
				    c->pool_frees, c->pool_pages_used, c->pool_pages_peak, c->expansions, c->reductions,
				    dom0_shared_slots(s->rt), s->last.ptes_written, s->last.ptes_skipped, s->last_left,
				    s->last_right };
		*v = vals[i];
		return true;
	}
	const char *dot = strchr(key, '.');
	if (!dot || dot - key >= 32)
		return false;
	char name[32];
	snprintf(name, sizeof(name), "%.*s", (int)(dot - key), key);
	struct name *nm = find_name(s, name);
	for (int i = 0; per[i]; i++) {
		if (strcmp(dot + 1, per[i]) || !nm)
			continue;
		if (s->dry)
			return nm->alive;
		struct dom0_vgpu_info in;
		if (!nm->alive || dom0_vgpu_info(s->rt, nm->id, &in))
			return false;
		uint64_t vals[] = { in.counters.rejected, in.counters.gtt_modifications, in.counters.ladder_mappings,
				    in.counters.fence_writes, in.counters.switches_in, in.counters.quanta };
		*v = vals[i];
		return true;
	}
	return false;
}

static const struct { const char *name; uint32_t reg; } pvinfo_fields[] = {
	{ "magic", VGT_IF_MAGIC }, { "magic_hi", VGT_IF_MAGIC + 4 }, { "version", VGT_IF_VERSION },
	{ "vgt_id", VGT_IF_VGT_ID }, { "caps", VGT_IF_VGT_CAPS }, { "mappable_base", VGT_IF_MAPPABLE_BASE },
	{ "mappable_size", VGT_IF_MAPPABLE_SIZE }, { "nonmappable_base", VGT_IF_NONMAPPABLE_BASE },
	{ "nonmappable_size", VGT_IF_NONMAPPABLE_SIZE }, { "fence_num", VGT_IF_FENCE_NUM },
	{ "display_ready", VGT_IF_DISPLAY_READY },
};

static int cmd_expect(struct scen *s, const struct line *l)
{
	const char *what = l->argc > 1 ? l->argv[1] : "";
	uint64_t a, want, v;
	int id, rc;
	struct gtt_err err = { 0 };

	if (!strcmp(what, "pte") || !strcmp(what, "owner")) {
		if ((rc = need_num(s, "GM address", l->argc > 2 ? l->argv[2] : NULL, &a)))
			return rc;
		if (a % 4096 || a >= s->info->ggtt_size)
			return bad(s, "GM address 0x%" PRIx64 " is not a 4 KiB-aligned GGTT address", a);
		if (!strcmp(what, "owner")) {
			if (l->argc != 5 || strcmp(l->argv[3], "=="))
				return bad(s, "expect owner GM == NAME|none");
			if (strcmp(l->argv[4], "none") && (rc = vgpu(s, l->argv[4], &id)))
				return rc;
			if (s->dry)
				return 0;
			int want_id = strcmp(l->argv[4], "none") ? find_name(s, l->argv[4])->id : 0;
			int got = dom0_physical_owner(s->rt, a / 4096);
			return check(s, got == want_id, "owner 0x%" PRIx64 " == %s (it is %s)", a, l->argv[4], name_of(s, got));
		}
		uint64_t pte = 0;
		if (!s->dry)
			hw_ggtt_read_pte(s->dev, a / 4096, &pte, NULL);
		if (l->argc == 6 && !strcmp(l->argv[3], "maps")) {	/* expect pte GM maps NAME GFN */
			struct hw_page pg;
			if ((rc = vgpu(s, l->argv[4], &id)) || (rc = need_num(s, "guest page", l->argv[5], &v)))
				return rc;
			if (s->dry)
				return 0;
			struct hw_pte d;
			hw_pte_decode(s->dev->info.plat, pte, &d);
			if (dom0_guest_page(s->rt, id, v, &pg))
				return failed(s, "expect: %s has no guest page %" PRIu64, l->argv[4], v);
			return check(s, d.valid && d.addr == pg.phys, "pte 0x%" PRIx64 " maps %s page %" PRIu64 " (host 0x%" PRIx64 "; the PTE names 0x%" PRIx64 ")",
				     a, l->argv[4], v, pg.phys, d.addr);
		}
		if ((rc = expect_value(s, l, 3, &want)))
			return rc;
		if (s->dry)
			return 0;
		return check(s, pte == want, "pte 0x%" PRIx64 " == 0x%" PRIx64 " (it is 0x%" PRIx64 ")", a, want, pte);
	}
	if (!strcmp(what, "shadow")) {	/* expect shadow NAME GM maps GFN */
		if (l->argc != 6 || strcmp(l->argv[4], "maps"))
			return bad(s, "expect shadow NAME GM maps GFN");
		if ((rc = vgpu(s, l->argv[2], &id)) || (rc = need_num(s, "GM address", l->argv[3], &a)) ||
		    (rc = need_num(s, "guest page", l->argv[5], &v)))
			return rc;
		if (s->dry)
			return 0;
		uint64_t pte;
		struct hw_page pg;
		struct hw_pte d;
		if (dom0_shadow_pte(s->rt, id, a / 4096, &pte, &err))
			return failed(s, "expect shadow: %s", err.msg);
		hw_pte_decode(s->dev->info.plat, pte, &d);
		if (dom0_guest_page(s->rt, id, v, &pg))
			return failed(s, "expect: %s has no guest page %" PRIu64, l->argv[2], v);
		return check(s, d.addr == pg.phys, "shadow %s 0x%" PRIx64 " maps page %" PRIu64, l->argv[2], a, v);
	}
	if (!strcmp(what, "fence") || !strcmp(what, "reg")) {
		if ((rc = need_num(s, what, l->argc > 2 ? l->argv[2] : NULL, &a)) || (rc = expect_value(s, l, 3, &want)))
			return rc;
		if (!strcmp(what, "fence") && a >= s->info->num_fences)
			return bad(s, "fence %" PRIu64 ": the device has %u", a, s->info->num_fences);
		if (!strcmp(what, "reg") && (a % 4 || a >= 0x200000))
			return bad(s, "register 0x%" PRIx64 " is not a 4-byte aligned offset below 2 MiB", a);
		if (s->dry)
			return 0;
		if (!strcmp(what, "fence"))
			hw_fence_read(s->dev, (unsigned)a, &v, NULL);
		else
			v = hw_mmio_read32(s->dev, (uint32_t)a);
		return check(s, v == want, "%s 0x%" PRIx64 " == 0x%" PRIx64 " (it is 0x%" PRIx64 ")", what, a, want, v);
	}
	if (!strcmp(what, "pvinfo")) {	/* expect pvinfo NAME FIELD == VALUE */
		if ((rc = vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)))
			return rc;
		const char *f = l->argc > 3 ? l->argv[3] : "";
		uint32_t off = 0xffffffffu;
		for (size_t i = 0; i < sizeof(pvinfo_fields) / sizeof(pvinfo_fields[0]); i++)
			if (!strcmp(f, pvinfo_fields[i].name))
				off = pvinfo_fields[i].reg - VGT_PVINFO_PAGE;
		if (off == 0xffffffffu && parse_num(f, &v) && v < VGT_PVINFO_SIZE)
			off = (uint32_t)v;
		if (off >= VGT_PVINFO_SIZE || off % 4)
			return bad(s, "pvinfo field '%s': a name (magic, version, vgt_id, caps, mappable_base, mappable_size, nonmappable_base, nonmappable_size, fence_num, display_ready) or an offset", f);
		if ((rc = expect_value(s, l, 4, &want)))
			return rc;
		if (s->dry)
			return 0;
		uint32_t w = 0;
		dom0_pvinfo_read(s->rt, id, off, &w, NULL);
		return check(s, w == want, "pvinfo %s %s == 0x%" PRIx64 " (it is 0x%x)", l->argv[2], f, want, w);
	}
	if (!strcmp(what, "slots")) {	/* expect slots NAME == FIRST-LAST | none */
		if ((rc = vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)))
			return rc;
		uint64_t f0 = 0, l0 = 0;
		bool none = l->argc == 5 && !strcmp(l->argv[4], "none");
		if (l->argc != 5 || strcmp(l->argv[3], "==") || (!none && !slot_range(l->argv[4], &f0, &l0)))
			return bad(s, "expect slots NAME == FIRST-LAST (or none), slots 0 to %d", MAX_SLOTS - 1);
		if (s->dry)
			return 0;
		struct dom0_vgpu_info in;
		dom0_vgpu_info(s->rt, id, &in);
		bool ok = none ? in.slots == 0 : in.slots && in.first_slot == f0 && in.first_slot + in.slots - 1 == l0;
		return check(s, ok, "slots %s == %s (it holds %u-%u)", l->argv[2], l->argv[4], in.first_slot,
			     in.first_slot + in.slots - 1);
	}
	if (!strcmp(what, "counter")) {
		const char *key = l->argc > 2 ? l->argv[2] : "";
		if ((rc = expect_value(s, l, 3, &want)))
			return rc;
		if (!counter(s, key, &v))
			return bad(s, "counter '%s': one of switches, ptes_written, ptes_skipped, invalidates, pool_allocs, pool_frees, pool_pages_used, pool_pages_peak, expansions, reductions, shared_slots, last.written, last.skipped, last.left, last.right, or NAME.rejected|gtt_modifications|ladder_mappings|fence_writes|switches_in|quanta",
				   key);
		if (s->dry)
			return 0;
		return check(s, v == want, "counter %s == %" PRIu64 " (it is %" PRIu64 ")", key, want, v);
	}
	if (!strcmp(what, "read")) {	/* expect read NAME GM == TEXT */
		if ((rc = vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)) || (rc = need_num(s, "GM address", l->argc > 3 ? l->argv[3] : NULL, &a)))
			return rc;
		if (l->argc != 6 || strcmp(l->argv[4], "=="))
			return bad(s, "expect read NAME GM == TEXT");
		if (strlen(l->argv[5]) > 255)
			return bad(s, "expect read: the text is %zu bytes; at most 255", strlen(l->argv[5]));
		if (s->dry)
			return 0;
		char buf[256] = { 0 };
		size_t n = strlen(l->argv[5]);
		if (n >= sizeof(buf) || dom0_guest_aperture_read(s->rt, id, a, buf, n, &err))
			return failed(s, "expect read: %s", err.msg);
		return check(s, !memcmp(buf, l->argv[5], n), "read %s 0x%" PRIx64 " == %s (it reads %.*s)", l->argv[2], a,
			     l->argv[5], (int)n, buf);
	}
	if (!strcmp(what, "render-owner")) {
		if (l->argc != 4 || strcmp(l->argv[2], "=="))
			return bad(s, "expect render-owner == NAME|none");
		if (strcmp(l->argv[3], "none") && (rc = vgpu(s, l->argv[3], &id)))
			return rc;
		if (s->dry)
			return 0;
		int want_id = strcmp(l->argv[3], "none") ? find_name(s, l->argv[3])->id : 0;
		return check(s, dom0_render_owner(s->rt) == want_id, "render-owner == %s (it is %s)", l->argv[3],
			     name_of(s, dom0_render_owner(s->rt)));
	}
	return bad(s, "expect what? pte, owner, shadow, fence, reg, pvinfo, slots, counter, read or render-owner");
}

static int exec(struct scen *s, struct line *l, bool refuse, struct gtt_err *err)
{
	const char *c = l->argv[0];

	s->cur_line = l->no;
	if (!strcmp(c, "config"))
		return cmd_config(s, l);
	if (!strcmp(c, "fail"))
		return cmd_fail(s, l);
	if (!s->dry && start_runtime(s))
		return 1;
	if (!strcmp(c, "create")) {
		if (refuse) {	/* a refused create must not leave a name behind */
			struct dom0_vgpu_params p;
			int id;
			if (l->argc < 2 || !valid_name(l->argv[1]) || (find_name(s, l->argv[1]) && find_name(s, l->argv[1])->alive))
				return bad(s, "fail create needs a new vGPU name");
			int rc = create_params(s, l, &p);
			if (rc || s->dry)
				return rc;
			rc = dom0_vgpu_create(s->rt, &p, &id, err);
			if (!rc)
				dom0_vgpu_destroy(s->rt, id, NULL);
			return rc ? 1 : 0;
		}
		return cmd_create(s, l);
	}
	if (!strcmp(c, "guest-pte"))
		return cmd_guest_pte(s, l, refuse, err);
	if (!strcmp(c, "guest-fence"))
		return cmd_guest_fence(s, l, refuse, err);
	if (!strcmp(c, "guest-write"))
		return cmd_guest_write(s, l, refuse, err);
	if (!strcmp(c, "expect"))
		return cmd_expect(s, l);
	if (!strcmp(c, "destroy") || !strcmp(c, "busy") || !strcmp(c, "idle") || !strcmp(c, "switch") ||
	    !strcmp(c, "run") || !strcmp(c, "expand") || !strcmp(c, "reduce"))
		return cmd_simple(s, l, refuse, err);
	return bad(s, "unknown command '%s': config, create, destroy, guest-pte, guest-fence, guest-write, busy, idle, switch, run, expand, reduce, fail, expect",
		   c);
}

static void summary(struct scen *s)
{
	const struct dom0_counters *c = dom0_counters(s->rt);
	const struct dom0_layout *l = dom0_layout(s->rt);

	fprintf(s->out, "\nsummary of %s\n", s->path);
	fprintf(s->out, "  commands %d, expects passed %d, failures %d\n", s->commands, s->expects_passed, s->failures);
	fprintf(s->out, "  switches %" PRIu64 ": PTEs written %" PRIu64 ", skipped %" PRIu64 ", GGTT invalidates %" PRIu64 "\n",
		c->switches, c->ptes_written, c->ptes_skipped, c->invalidates);
	if (c->switches)
		fprintf(s->out, "  per switch: %.1f PTEs written, %.1f skipped on average\n",
			(double)c->ptes_written / (double)c->switches, (double)c->ptes_skipped / (double)c->switches);
	fprintf(s->out, "  simulated time %" PRIu64 " ms (%u ms quanta)\n", dom0_sim_time_ms(s->rt), DOM0_QUANTUM_MS);
	fprintf(s->out, "  %-10s %6s %8s %7s %9s %8s %7s %8s\n", "vGPU", "slots", "switched", "quanta", "GTT mods", "ladder",
		"ladder%", "rejected");
	for (int i = 0; i < s->n_names; i++) {
		struct dom0_vgpu_info in;
		if (!s->names[i].alive || dom0_vgpu_info(s->rt, s->names[i].id, &in))
			continue;
		char sl[16];
		snprintf(sl, sizeof(sl), in.slots ? "%u-%u" : "none", in.first_slot, in.first_slot + in.slots - 1);
		double pct = in.counters.gtt_modifications ? 100.0 * (double)in.counters.ladder_mappings / (double)in.counters.gtt_modifications : 0;
		fprintf(s->out, "  %-10s %6s %8" PRIu64 " %7" PRIu64 " %9" PRIu64 " %8" PRIu64 " %6.1f%% %8" PRIu64 "\n", s->names[i].name, sl,
			in.counters.switches_in, in.counters.quanta, in.counters.gtt_modifications, in.counters.ladder_mappings,
			pct, in.counters.rejected);
	}
	if (s->n_hist) {
		fprintf(s->out, "  slots over time (%u slots of %" PRIu64 " MiB):\n", l->num_slots, l->slot_size >> 20);
		for (int i = 0; i < s->n_hist; i++) {
			struct hist *h = &s->hist[i];
			if (!strcmp(h->what, "destroyed"))
				fprintf(s->out, "    line %4d: %s destroyed\n", h->line, h->name);
			else if (!strcmp(h->what, "created"))
				fprintf(s->out, "    line %4d: %s created with slots %u-%u\n", h->line, h->name, h->first,
					h->first + h->slots - 1);
			else
				fprintf(s->out, "    line %4d: %s %s to slots %u-%u (%u left, %u right)\n", h->line, h->name, h->what,
					h->first, h->first + h->slots - 1, h->left, h->right);
		}
	}
	fprintf(s->out, "  shared slots now %u\n", dom0_shared_slots(s->rt));
	fprintf(s->out, "  fence pool: %" PRIu64 " allocations, %" PRIu64 " frees, %" PRIu64 " pages in use, peak %" PRIu64 " of %" PRIu64 "\n",
		c->pool_allocs, c->pool_frees, c->pool_pages_used, c->pool_pages_peak, l->pool_size / 4096);
	fprintf(s->out, "  resizes: %" PRIu64 " expansions, %" PRIu64 " reductions\n", c->expansions, c->reductions);
}

/* The dry pass over a whole script: 0, or 2 after reporting the first malformed line. */
static int dry_pass(struct scen *s, struct scen_script *sc)
{
	s->dry = true;
	for (int i = 0; i < sc->n; i++) {
		struct gtt_err err = { 0 };
		if (exec(s, &sc->lines[i], false, &err) == 2)
			return 2;
	}
	return 0;
}

static struct scen *scen_new(const struct hw_info *info, const char *path, const struct scenario_opts *opts)
{
	struct scen *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->path = path;
	s->info = info;
	s->out = opts && opts->out ? opts->out : stdout;
	s->errors = opts && opts->errors ? opts->errors : stderr;
	s->trace = opts ? opts->trace : NULL;
	s->quiet = opts && opts->quiet;
	return s;
}

enum scenario_result scenario_check_text(const struct hw_info *info, const char *name, const char *text, size_t len,
					 FILE *errors)
{
	struct scenario_opts o = { .errors = errors };
	struct scen *s = scen_new(info, name, &o);
	struct scen_script sc;
	int rc;

	if (!s)
		return SCENARIO_MALFORMED;
	rc = scen_split_text(name, text, len, &sc, s->errors);
	if (!rc)
		rc = dry_pass(s, &sc);
	scen_script_free(&sc);
	free(s);
	return rc ? SCENARIO_MALFORMED : SCENARIO_PASSED;
}

enum scenario_result scenario_run_file(struct hw_device *dev, const char *path, const struct scenario_opts *opts)
{
	struct scen *s = scen_new(&dev->info, path, opts);
	struct scen_script sc;
	int rc;

	if (!s)
		return SCENARIO_MALFORMED;
	s->dev = dev;
	if (scen_load_file(path, &sc, s->errors) || dry_pass(s, &sc)) {
		scen_script_free(&sc);
		free(s);
		return SCENARIO_MALFORMED;
	}
	/* pass 2: for real */
	struct dom0_config cfg = s->cfg;
	memset(s->names, 0, sizeof(s->names));
	s->n_names = 0;
	s->cfg = cfg;
	s->dry = false;
	if (s->trace)
		fprintf(s->trace, "switch,line,from,to,ptes_written,ptes_skipped,ns,sim_ms\n");
	for (int i = 0; i < sc.n; i++) {
		struct gtt_err err = { 0 };
		s->commands++;
		if (exec(s, &sc.lines[i], false, &err) && !s->started)
			break;	/* the runtime could not start: nothing else can run */
	}
	if (s->started) {
		summary(s);
		if (dom0_fini(s->rt, &s->fini_err))
			s->unrestored = true;
	}
	rc = s->failures ? SCENARIO_FAILED : SCENARIO_PASSED;
	if (s->unrestored) {
		fprintf(s->errors, "%s: ABORT: the device was not put back: %s\n", path, s->fini_err.msg);
		rc = SCENARIO_UNRESTORED;
	}
	scen_script_free(&sc);
	free(s);
	return (enum scenario_result)rc;
}
