/* SPDX-License-Identifier: MIT */
/*
 * The scenario commands and their dispatch: one function per command and
 * one row of `commands` naming it. The guest's own operations (guest-pte,
 * guest-fence, guest-write) are scenario_guest.c's, `expect` is
 * scenario_expect.c's. Every command checks all its arguments first, returns
 * when the pass is dry (nothing of what it would do is simulated there), and
 * only then acts; what depends on the run (the vGPUs alive, where they live)
 * is judged there, by scen_vgpu and the like.
 */
#include "scenario/scenario_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*
 * The runtimes start at the first command that needs one. SCEN_FAILED when
 * the main one cannot start (nothing can run then); a second device that
 * cannot start is reported here, and the lines meant for it fail as they come.
 */
static enum scen_rc start_runtime(struct scen *s)
{
	struct gtt_err err = { 0 };

	if (s->started || s->dry)
		return SCEN_RAN;
	int was = s->cur_dev;
	scen_use_device(s, 0);
	if (dom0_init(s->dev, &s->cfg, &s->rt, &err)) {
		scen_use_device(s, was);
		return scen_failed(s, "cannot start the runtime: %s", err.msg);
	}
	s->devs[0].rt = s->rt;
	s->started = true;
	const struct dom0_layout *l = dom0_layout(s->rt);
	scen_say(s, "runtime: guest low 0x%" PRIx64 "+0x%" PRIx64 ", fence pool 0x%" PRIx64 "+0x%" PRIx64 ", %u slots of %" PRIu64 " MiB from 0x%" PRIx64,
		 l->guest_low_base, l->guest_low_size, l->pool_base, l->pool_size, l->num_slots, l->slot_size >> 20,
		 l->slots_base);
	const struct gtt_platform *p = s->dev->info.plat;
	if (!p->gvt && p->gen >= 110)
		scen_say(s, "note: no GVT-g mediator runs on %s (%s): upstream GVT-g mediates gen8-gen9.5 only; this run checks "
			    "the mechanisms on the register layer", p->name, p->codename);
	scen_start_second(s);
	scen_use_device(s, was);
	return SCEN_RAN;
}

/* Every switch, whether `switch` or the scheduler made it: the output line and the trace row. */
static void on_switch(void *ctx, const struct dom0_switch_stats *st)
{
	struct scen *s = ctx;

	s->last = *st;
	s->n_switches++;
	if (s->svg && s->cur_dev == 0) {
		if (s->n_sw == s->cap_sw) {
			size_t cap = s->cap_sw ? s->cap_sw * 2 : 256;
			void *p = realloc(s->sw, cap * sizeof(*s->sw));
			if (p) {
				s->sw = p;
				s->cap_sw = cap;
			}
		}
		if (s->n_sw < s->cap_sw) {
			s->sw[s->n_sw].line = s->cur_line;
			s->sw[s->n_sw].ptes_written = st->ptes_written;
			s->n_sw++;
		}
	}
	scen_say(s, "  switch %s -> %s: %" PRIu64 " PTEs written, %" PRIu64 " skipped, %.3f ms", scen_name_of(s, st->from),
		 scen_name_of(s, st->to), st->ptes_written, st->ptes_skipped, st->ns / 1e6);
	if (s->trace)
		fprintf(s->trace, "%" PRIu64 ",%d,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", s->n_switches,
			s->cur_line, scen_name_of(s, st->from), scen_name_of(s, st->to), st->ptes_written, st->ptes_skipped,
			st->ns, dom0_sim_time_ms(s->rt));
}

static enum scen_rc cmd_config(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "slot-size", "host-low", "host-high", "pool", "reserved", "host-fences",
					    "slot-aware", "selector", "admission", "share-limit", "seed", "slot-runs", "admit-deadline",
					    NULL };
	uint64_t v;
	const char *t;
	enum scen_rc rc;

	(void)refuse;	/* `fail config` is malformed: cmd_fail refuses it */
	(void)err;
	/* the runtimes start with the config: a later line could not change it */
	if (s->past_preamble)
		return scen_bad(s, "config must come before every other command (config and device lines first)");
	if ((rc = scen_only_keys(s, l, 1, keys)))
		return rc;
	struct { const char *k; uint64_t *dst; } sizes[] = {
		{ "slot-size", &s->cfg.slot_size }, { "host-low", &s->cfg.host_low_size },
		{ "host-high", &s->cfg.host_high_size }, { "pool", &s->cfg.pool_size }, { "reserved", &s->cfg.reserved_size },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if ((t = scen_kv(l, 1, sizes[i].k))) {
			if ((rc = scen_need_range(s, sizes[i].k, t, 0, s->info->ggtt_size, "bytes of the device's GGTT", &v)))
				return rc;
			*sizes[i].dst = v;
		}
	if ((t = scen_kv(l, 1, "host-fences"))) {
		if ((rc = scen_need_range(s, "host-fences", t, 0, s->info->num_fences, "the device's fence registers", &v)))
			return rc;
		s->cfg.host_fences = (unsigned)v;
	}
	if ((t = scen_kv(l, 1, "slot-aware"))) {
		if (strcmp(t, "on") && strcmp(t, "off"))
			return scen_bad(s, "slot-aware=%s: on or off", t);
		s->cfg.slot_aware = !strcmp(t, "on");
	}
	if ((t = scen_kv(l, 1, "selector"))) {
		if (strcmp(t, "algorithm1") && strcmp(t, "occupancy"))
			return scen_bad(s, "selector=%s: algorithm1 or occupancy", t);
		s->cfg.algorithm1_selector = !strcmp(t, "algorithm1");
	}
	if ((t = scen_kv(l, 1, "admission"))) {
		enum dom0_admission a = DOM0_ADMIT_OFF;
		while (a <= DOM0_ADMIT_RAND && strcmp(t, dom0_admission_name(a)))
			a++;
		if (a > DOM0_ADMIT_RAND)
			return scen_bad(s, "admission=%s: off, fifo, bf, ru or rand", t);
		s->cfg.admission = a;
	}
	if ((t = scen_kv(l, 1, "share-limit"))) {
		if ((rc = scen_need_range(s, "share-limit", t, 0, DOM0_MAX_VGPUS, "vGPUs in a slot (0: no limit)", &v)))
			return rc;
		s->cfg.share_limit = (unsigned)v;
	}
	if ((t = scen_kv(l, 1, "admit-deadline"))) {
		if ((rc = scen_need_range(s, "admit-deadline", t, 1, 86400000, "milliseconds of the runtime's clock", &v)))
			return rc;
		s->cfg.admit_deadline_ms = v;
	}
	if ((t = scen_kv(l, 1, "slot-runs"))) {
		if ((rc = scen_need_range(s, "slot-runs", t, 0, DOM0_MAX_RUNS, "runs of a vGPU's slots (0 or 1: one run)", &v)))
			return rc;
		s->cfg.slot_runs = (unsigned)v;
	}
	if ((t = scen_kv(l, 1, "seed"))) {
		if ((rc = scen_need_range(s, "seed", t, 0, UINT64_MAX, "a 64-bit number", &v)))
			return rc;
		s->cfg.seed = v;
	}
	/* a layout the runtime cannot hold is this line's fault (the limits: docs/dom0.md), said before anything runs */
	struct dom0_layout lay;
	struct gtt_err lerr = { 0 };
	if (s->info && dom0_layout_for(s->info, &s->cfg, &lay, &lerr))
		return scen_bad(s, "config: %s", lerr.msg);
	return SCEN_RAN;
}

/* create's key=value arguments, each in the range the runtime can take (the GGTT's: when the device's facts are known). */
static enum scen_rc create_params(struct scen *s, const struct scen_line *l, struct dom0_vgpu_params *p)
{
	static const char *const keys[] = { "low", "slots", "fences", "mem", "at", NULL };
	uint64_t v;
	enum scen_rc rc;

	*p = (struct dom0_vgpu_params){ 0 };
	if ((rc = scen_only_keys(s, l, 2, keys)) ||
	    (rc = scen_need_range(s, "low=SIZE", scen_kv(l, 2, "low"), 0, s->info ? s->info->ggtt_size : UINT64_MAX,
				  "bytes of the device's GGTT", &p->low_size)) ||
	    (rc = scen_need_range(s, "slots=N", scen_kv(l, 2, "slots"), 0, MAX_SLOTS, "slots of high graphics memory", &v)))
		return rc;
	p->high_slots = (unsigned)v;
	if (scen_kv(l, 2, "fences")) {
		if ((rc = scen_need_range(s, "fences=N", scen_kv(l, 2, "fences"), 0, DOM0_MAX_GUEST_FENCES,
					  "GVT traps guest fences 0-15", &v)))
			return rc;
		p->fences = (unsigned)v;
	}
	if (scen_kv(l, 2, "mem")) {
		if ((rc = scen_need_range(s, "mem=PAGES", scen_kv(l, 2, "mem"), 1, 1u << 20, "pages of guest memory", &v)))
			return rc;
		p->mem_pages = (unsigned)v;
	}
	if (scen_kv(l, 2, "at")) {
		if ((rc = scen_need_range(s, "at=SLOT", scen_kv(l, 2, "at"), 0, MAX_SLOTS - 1, "slot numbers", &v)))
			return rc;
		p->place = true;
		p->at_slot = (unsigned)v;
	}
	return SCEN_RAN;
}

/* The name's table entry, made at its first create (the pre-pass counted the names: there is room). */
static struct name *name_entry(struct scen *s, const char *n)
{
	struct name *nm = scen_find_name(s, n);

	if (nm || s->n_names == MAX_NAMES)
		return nm;
	nm = &s->names[s->n_names++];
	*nm = (struct name){ 0 };
	snprintf(nm->name, sizeof(nm->name), "%s", n);
	return nm;
}

/*
 * `fail create`: only the runtime's refusal passes. A vGPU it made after all
 * is destroyed again (and the line fails in cmd_fail); no name is left behind.
 */
static enum scen_rc create_refused(struct scen *s, const struct scen_line *l, struct gtt_err *err)
{
	struct dom0_vgpu_params p;
	enum scen_rc rc;
	int id;

	if (l->argc < 2 || !scen_valid_name(l->argv[1]))
		return scen_bad(s, "fail create needs a vGPU name of [a-z0-9_-], not a keyword: fail create NAME low=SIZE slots=N ...");
	if ((rc = create_params(s, l, &p)) || s->dry)
		return rc;
	struct name *nm = scen_find_name(s, l->argv[1]);
	if (nm && nm->alive)
		return scen_failed(s, "did not run: vGPU '%s' exists already (created at line %d); fail create needs a new name",
				   nm->name, nm->line);
	if (dom0_vgpu_create(s->rt, &p, &id, err))
		return SCEN_REFUSED;
	struct gtt_err derr = { 0 };
	if (dom0_vgpu_destroy(s->rt, id, &derr))
		return scen_failed(s, "create %s was to be refused, and it made vGPU %d, which could not be destroyed again: %s",
				   l->argv[1], id, derr.msg);
	return SCEN_RAN;
}

static enum scen_rc cmd_create(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct dom0_vgpu_params p;
	enum scen_rc rc;

	if (refuse)
		return create_refused(s, l, err);
	if (l->argc < 2)
		return scen_bad(s, "create needs a vGPU name: create NAME low=SIZE slots=N [fences=N] [mem=PAGES] [at=SLOT]");
	if (!scen_valid_name(l->argv[1]))
		return scen_bad(s, "create: '%s' is no vGPU name ([a-z0-9_-], shorter than 32, not a keyword): create NAME low=SIZE slots=N [fences=N] [mem=PAGES] [at=SLOT]",
				l->argv[1]);
	if ((rc = create_params(s, l, &p)))
		return rc;
	if (s->dry) {
		/* the names later lines may use: every name a create line makes, whatever becomes of it */
		if (!name_entry(s, l->argv[1]))
			return scen_bad(s, "at most %d vGPU names in one scenario", MAX_NAMES);
		return SCEN_RAN;
	}
	struct name *nm = name_entry(s, l->argv[1]);
	if (!nm)
		return scen_failed(s, "did not run: at most %d vGPU names in one scenario", MAX_NAMES);
	if (nm->alive)
		return scen_failed(s, "did not run: vGPU '%s' exists already (created at line %d, on device %s)", nm->name,
				   nm->line, s->devs[nm->on].name);
	struct gtt_err cerr = { 0 };
	int id;
	nm->line = s->cur_line;
	if (dom0_vgpu_create(s->rt, &p, &id, &cerr)) {
		nm->create_failed = true;	/* the lines that name it say so */
		return scen_failed(s, "create %s: %s", nm->name, cerr.msg);
	}
	nm->id = id;
	nm->alive = true;
	nm->create_failed = false;
	nm->on = s->cur_dev;	/* the device the line runs on: `on D create` makes it there */
	nm->seq = 0;		/* a new vGPU: its PVINFO page starts from zero */
	nm->evictions = 0;
	nm->paused = DOM0_PAUSE_NONE;
	struct dom0_vgpu_info in;
	char sl[24];
	dom0_vgpu_info(s->rt, id, &in);
	if (in.paused)
		scen_say(s, "create %s: vGPU %d, %u slots and %u fences do not fit now", nm->name, id, p.high_slots, in.fences);
	else
		scen_say(s, "create %s: vGPU %d, low 0x%" PRIx64 "+0x%" PRIx64 ", slots %s (high 0x%" PRIx64 "), %u fences",
			 nm->name, id, in.low_base, in.low_size, scen_slots_text(&in, sl, sizeof(sl)), in.high_base, in.fences);
	scen_history(s, nm->name, "created", id, 0, 0);
	return SCEN_RAN;
}

/*
 * `fail COMMAND`: it passes only when the runtime refused the command. One
 * that could not run (a vGPU that is not there, ...) has failed already, with
 * its reason: that is no refusal.
 */
static enum scen_rc cmd_fail(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct scen_line inner = { .no = l->no, .argc = l->argc - 1 };
	struct gtt_err ierr = { 0 };

	(void)refuse;	/* `fail fail` is malformed, below */
	(void)err;
	if (l->argc < 2)
		return scen_bad(s, "fail needs a command: fail COMMAND ...");
	if (!strcmp(l->argv[1], "fail") || !strcmp(l->argv[1], "expect") || !strcmp(l->argv[1], "config") ||
	    !strcmp(l->argv[1], "device"))
		return scen_bad(s, "fail takes an operation, not '%s'", l->argv[1]);
	for (int i = 1; i < l->argc; i++)
		inner.argv[i - 1] = l->argv[i];
	enum scen_rc rc = scen_exec(s, &inner, true, &ierr);
	if (s->dry)
		return rc;
	switch (rc) {
	case SCEN_RAN:
		return scen_failed(s, "'%s' was to be refused, and it succeeded", l->argv[1]);
	case SCEN_REFUSED:
		scen_say(s, "refused as expected: %s", ierr.msg);
		return SCEN_RAN;
	case SCEN_FAILED:
		return SCEN_FAILED;	/* reported: it did not run, or failed otherwise */
	case SCEN_MALFORMED:
		break;
	}
	return scen_failed(s, "'%s' came back malformed at run time (a fault of the runner)", l->argv[1]);
}

static enum scen_rc cmd_run(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t q = 0;
	enum scen_rc rc;

	if (l->argc != 2)
		return scen_bad(s, "run N (quanta of %d ms)", DOM0_QUANTUM_MS);
	if ((rc = scen_need_range(s, "quanta", l->argv[1], 0, MAX_RUN_QUANTA, "one run command; split longer runs", &q)))
		return rc;
	if (s->dry)
		return SCEN_RAN;
	scen_say(s, "run %" PRIu64 " quanta", q);
	int e = dom0_run_quanta(s->rt, (unsigned)q, on_switch, s, err);
	scen_policy_history(s);
	return scen_outcome(s, e, refuse, err, "run");
}

/* NAME, and SLOTS for a resize: the arguments of destroy, busy, idle, switch, expand and reduce. */
static enum scen_rc name_args(struct scen *s, const struct scen_line *l, bool resize, int *id, uint64_t *q)
{
	enum scen_rc rc;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, id)))
		return rc;
	if (l->argc != (resize ? 3 : 2))
		return scen_bad(s, resize ? "%s NAME SLOTS" : "%s NAME", l->argv[0]);
	if (resize && (rc = scen_need_range(s, "slots", l->argv[2], 1, MAX_SLOTS, "slots of high graphics memory", q)))
		return rc;
	return SCEN_RAN;
}

static enum scen_rc cmd_destroy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	enum scen_rc rc;
	int id = 0;

	if ((rc = name_args(s, l, false, &id, NULL)) || s->dry)
		return rc;
	if (dom0_vgpu_destroy(s->rt, id, err))
		return scen_outcome(s, 1, refuse, err, "destroy");
	scen_history(s, l->argv[1], "destroyed", 0, 0, 0);
	struct name *nm = scen_find_name(s, l->argv[1]);
	nm->alive = false;
	nm->line = s->cur_line;
	scen_say(s, "destroy %s", l->argv[1]);
	return SCEN_RAN;
}

/* busy and idle */
static enum scen_rc cmd_busy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	enum scen_rc rc;
	int id = 0;

	if ((rc = name_args(s, l, false, &id, NULL)) || s->dry)
		return rc;
	if (dom0_set_busy(s->rt, id, !strcmp(l->argv[0], "busy"), err))
		return scen_outcome(s, 1, refuse, err, l->argv[0]);
	scen_say(s, "%s %s", l->argv[0], l->argv[1]);
	return SCEN_RAN;
}

/* withdraw NAME: the host takes back what of the vGPU is paused (dom0_withdraw) */
static enum scen_rc cmd_withdraw(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	enum scen_rc rc;
	int id = 0;

	if ((rc = name_args(s, l, false, &id, NULL)) || s->dry)
		return rc;
	enum dom0_pause was = dom0_vgpu_paused(s->rt, id);
	int e = dom0_withdraw(s->rt, id, err);
	if (e)
		return scen_outcome(s, e, refuse, err, "withdraw");
	scen_say(s, "withdraw %s: its %s no longer waits", l->argv[1], dom0_pause_name(was));
	return SCEN_RAN;
}

static enum scen_rc cmd_switch(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct dom0_switch_stats st;
	enum scen_rc rc;
	int id = 0;

	if ((rc = name_args(s, l, false, &id, NULL)) || s->dry)
		return rc;
	if (dom0_switch(s->rt, id, &st, err))
		return scen_outcome(s, 1, refuse, err, "switch");
	on_switch(s, &st);
	return SCEN_RAN;
}

/* expand and reduce */
static enum scen_rc cmd_resize(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	const char *c = l->argv[0];
	bool expand = !strcmp(c, "expand");
	uint64_t q = 0;
	unsigned L, R;
	enum scen_rc rc;
	int id = 0;

	if ((rc = name_args(s, l, true, &id, &q)) || s->dry)
		return rc;
	if (expand ? dom0_expand(s->rt, id, (unsigned)q, &L, &R, err) : dom0_reduce(s->rt, id, (unsigned)q, &L, &R, err))
		return scen_outcome(s, 1, refuse, err, c);
	s->last_left = L;
	s->last_right = R;
	struct dom0_vgpu_info in;
	if (dom0_vgpu_info(s->rt, id, &in))
		return scen_failed(s, "%s %s: the runtime has no vGPU %d after it", c, l->argv[1], id);
	if (expand && in.paused == DOM0_PAUSE_EXPAND) {
		scen_say(s, "%s %s by %" PRIu64 ": no room now", c, l->argv[1], q);
		return SCEN_RAN;
	}
	char sl[24];
	scen_say(s, "%s %s by %" PRIu64 ": %u left, %u right; now slots %s, %u slots shared", c, l->argv[1], q, L, R,
		 scen_slots_text(&in, sl, sizeof(sl)), dom0_shared_slots(s->rt));
	scen_history(s, l->argv[1], expand ? "expanded" : "reduced", id, L, R);
	return SCEN_RAN;
}

static enum scen_rc cmd_expect(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	(void)refuse;	/* `fail expect` is malformed: cmd_fail refuses it */
	(void)err;
	return scen_expect(s, l);
}

/*
 * The commands, in the order the unknown-command message lists them. A
 * handler returns its verdict (enum scen_rc); `refuse` is set under `fail`,
 * and then the runtime's refusal is its success. `vgpu`: the first argument
 * names the vGPU the command acts on, and the line runs on the device that
 * vGPU lives on. `preamble`: config and device, before every other command.
 * `wraps`: fail and on, whose command decides. The runtime starts at the
 * first command that is none of these.
 */
enum scen_rc scen_exec(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);

/* `on D COMMAND ...`: one command against device D (a vGPU it names must live there). */
static enum scen_rc cmd_on(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct scen_line inner = { .no = l->no, .argc = l->argc - 2 };
	int k = l->argc > 1 ? scen_device_index(s, l->argv[1]) : -1;

	if (l->argc < 3 || k < 0)
		return scen_bad(s, "on D COMMAND ...: D is main%s%s", s->n_devs > 1 ? " or " : "", s->n_devs > 1 ? s->devs[1].name : "");
	if (!strcmp(l->argv[2], "on") || !strcmp(l->argv[2], "config") || !strcmp(l->argv[2], "device"))
		return scen_bad(s, "on takes an operation or an expect, not '%s'", l->argv[2]);
	for (int i = 2; i < l->argc; i++)
		inner.argv[i - 2] = l->argv[i];
	int was = s->on_dev;
	s->on_dev = k;
	enum scen_rc rc = scen_exec(s, &inner, refuse, err);
	s->on_dev = was;
	return rc;
}

static const struct command {
	const char *name;
	enum scen_rc (*run)(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
	bool vgpu, preamble, wraps;
} commands[] = {
	{ "config", cmd_config, false, true, false },
	{ "create", cmd_create, false, false, false },
	{ "destroy", cmd_destroy, true, false, false },
	{ "guest-pte", scen_cmd_guest_pte, true, false, false },
	{ "guest-fence", scen_cmd_guest_fence, true, false, false },
	{ "guest-write", scen_cmd_guest_write, true, false, false },
	{ "busy", cmd_busy, true, false, false },
	{ "idle", cmd_busy, true, false, false },
	{ "switch", cmd_switch, true, false, false },
	{ "run", cmd_run, false, false, false },
	{ "expand", cmd_resize, true, false, false },
	{ "reduce", cmd_resize, true, false, false },
	{ "withdraw", cmd_withdraw, true, false, false },
	{ "policy", scen_cmd_policy, false, false, false },
	{ "steal", scen_cmd_steal, true, false, false },
	{ "request", scen_cmd_request, true, false, false },
	{ "evict", scen_cmd_evict, true, false, false },
	{ "pvinfo-write", scen_cmd_pvinfo_write, true, false, false },
	{ "device", scen_cmd_device, false, true, false },
	{ "migrate", scen_cmd_migrate, true, false, false },
	{ "pf-provision", scen_cmd_pf_provision, false, false, false },
	{ "pf-release", scen_cmd_pf_release, false, false, false },
	{ "on", cmd_on, false, false, true },
	{ "fail", cmd_fail, false, false, true },
	{ "expect", cmd_expect, false, false, false },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* One command on the device its line runs on. */
static enum scen_rc exec_command(struct scen *s, const struct command *cmd, const struct scen_line *l, bool refuse,
				 struct gtt_err *err)
{
	const char *subject = cmd->run == cmd_expect ? scen_expect_subject(l) : cmd->vgpu && l->argc > 1 ? l->argv[1] : NULL;
	bool acts = !cmd->preamble && !cmd->wraps;
	enum scen_rc rc;

	if (acts && start_runtime(s))
		return SCEN_FAILED;
	int was = s->cur_dev, failures = s->failures;
	scen_use_line_device(s, subject);
	if (!s->dry && acts && !s->rt) {
		rc = scen_failed(s, "did not run: device %s did not start", s->devs[s->cur_dev].name);
		scen_use_device(s, was);
		return rc;
	}
	rc = cmd->run(s, l, refuse, err);
	if (!s->dry) {
		/* no line leaves without its verdict said: each of these would be a line that quietly did not run */
		if (rc == SCEN_FAILED && s->failures == failures)
			rc = scen_failed(s, "%s failed without saying why (a fault of the runner)", l->argv[0]);
		else if (rc == SCEN_REFUSED && !refuse)
			rc = scen_failed(s, "%s was refused: %s", l->argv[0], err->msg);
		else if (rc == SCEN_MALFORMED)
			rc = scen_failed(s, "%s came back malformed at run time (a fault of the runner)", l->argv[0]);
		scen_admission_notice(s);
	}
	scen_use_device(s, was);
	return rc;
}

enum scen_rc scen_exec(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	const struct command *cmd = NULL;
	enum scen_rc rc;

	s->cur_line = l->no;
	for (size_t i = 0; i < N_COMMANDS && !cmd; i++)
		if (!strcmp(l->argv[0], commands[i].name))
			cmd = &commands[i];
	if (cmd) {
		if (!s->depth && !cmd->preamble)
			s->past_preamble = true;
		s->depth++;
		rc = exec_command(s, cmd, l, refuse, err);
		s->depth--;
	} else {
		char list[256] = "";
		for (size_t i = 0; i < N_COMMANDS; i++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", commands[i].name);
		rc = scen_bad(s, "unknown command '%s': %s", l->argv[0], list);
	}
	if (!s->dry && s->depth == 0)
		s->lines_run++;	/* a verdict on one more line of the file: scenario_run.c counts them at the end */
	return rc;
}
