/* SPDX-License-Identifier: MIT */
/*
 * The scenario commands and their dispatch: one function per command and
 * one row of `commands` naming it. The guest's own operations (guest-pte,
 * guest-fence, guest-write) are scenario_guest.c's, `expect` is
 * scenario_expect.c's. Every command checks all its arguments first, returns
 * when the pass is dry, and only then calls the runtime.
 */
#include "harness/scenario_internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int start_runtime(struct scen *s)
{
	struct gtt_err err = { 0 };

	if (s->started || s->dry)
		return 0;
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
	int rc = scen_start_second(s);
	scen_use_device(s, was);
	return rc;
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

static int cmd_config(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	static const char *const keys[] = { "slot-size", "host-low", "host-high", "pool", "reserved", "host-fences",
					    "slot-aware", "selector", "admission", "share-limit", "seed", NULL };
	uint64_t v;
	const char *t;
	int rc;

	(void)refuse;	/* `fail config` is malformed: cmd_fail refuses it */
	(void)err;
	if (s->started || s->n_names)
		return scen_bad(s, "config must come before the first create");
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
	if ((t = scen_kv(l, 1, "seed"))) {
		if ((rc = scen_need_range(s, "seed", t, 0, UINT64_MAX, "a 64-bit number", &v)))
			return rc;
		s->cfg.seed = v;
	}
	return 0;
}

/* create's key=value arguments, each in the range the runtime can take. */
static int create_params(struct scen *s, const struct scen_line *l, struct dom0_vgpu_params *p)
{
	static const char *const keys[] = { "low", "slots", "fences", "mem", "at", NULL };
	uint64_t v;
	int rc;

	*p = (struct dom0_vgpu_params){ 0 };
	if ((rc = scen_only_keys(s, l, 2, keys)) ||
	    (rc = scen_need_range(s, "low=SIZE", scen_kv(l, 2, "low"), 0, s->info->ggtt_size, "bytes of the device's GGTT",
				  &p->low_size)) ||
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
	return 0;
}

/* `fail create`: the vGPU is destroyed again if it was made, and no name is left behind. */
static int create_refused(struct scen *s, const struct scen_line *l, struct gtt_err *err)
{
	struct dom0_vgpu_params p;
	struct name *nm = l->argc < 2 ? NULL : scen_find_name(s, l->argv[1]);
	int id;

	if (l->argc < 2 || !scen_valid_name(l->argv[1]) || (nm && nm->alive))
		return scen_bad(s, "fail create needs a new vGPU name");
	int rc = create_params(s, l, &p);
	if (rc || s->dry)
		return rc;
	rc = dom0_vgpu_create(s->rt, &p, &id, err);
	if (!rc)
		dom0_vgpu_destroy(s->rt, id, NULL);
	return rc ? 1 : 0;
}

static int cmd_create(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct dom0_vgpu_params p;
	int rc;

	if (refuse)
		return create_refused(s, l, err);
	if (l->argc < 2 || !scen_valid_name(l->argv[1]))
		return scen_bad(s, "create needs a vGPU name of [a-z0-9_-], not a keyword: create NAME low=SIZE slots=N [fences=N] [mem=PAGES] [at=SLOT]");
	struct name *nm = scen_find_name(s, l->argv[1]);
	if (nm && nm->alive)
		return scen_bad(s, "vGPU '%s' exists already", l->argv[1]);
	if ((rc = create_params(s, l, &p)))
		return rc;
	if (!nm) {
		if (s->n_names == MAX_NAMES)
			return scen_bad(s, "at most %d vGPU names in one scenario", MAX_NAMES);
		nm = &s->names[s->n_names++];
		snprintf(nm->name, sizeof(nm->name), "%s", l->argv[1]);
	}
	if (s->dry) {
		nm->alive = true;
		return 0;
	}
	struct gtt_err cerr = { 0 };
	int id;
	if ((rc = start_runtime(s)))
		return rc;
	if (dom0_vgpu_create(s->rt, &p, &id, &cerr))
		return scen_failed(s, "create %s: %s", nm->name, cerr.msg);
	nm->id = id;
	nm->alive = true;
	nm->seq = 0;		/* a new vGPU: its PVINFO page starts from zero */
	nm->evictions = 0;
	struct dom0_vgpu_info in;
	char sl[24];
	dom0_vgpu_info(s->rt, id, &in);
	if (in.paused)
		scen_say(s, "create %s: vGPU %d, %u slots and %u fences do not fit now", nm->name, id, p.high_slots, in.fences);
	else
		scen_say(s, "create %s: vGPU %d, low 0x%" PRIx64 "+0x%" PRIx64 ", slots %s (high 0x%" PRIx64 "), %u fences",
			 nm->name, id, in.low_base, in.low_size, scen_slots_text(&in, sl, sizeof(sl)), in.high_base, in.fences);
	scen_history(s, nm->name, "created", id, 0, 0);
	return 0;
}

static int cmd_fail(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct scen_line inner = { .no = l->no, .argc = l->argc - 1 };
	struct gtt_err ierr = { 0 };

	(void)refuse;	/* `fail fail` is malformed, below */
	(void)err;
	if (l->argc < 2)
		return scen_bad(s, "fail needs a command: fail COMMAND ...");
	if (!strcmp(l->argv[1], "fail") || !strcmp(l->argv[1], "expect") || !strcmp(l->argv[1], "config"))
		return scen_bad(s, "fail takes an operation, not '%s'", l->argv[1]);
	for (int i = 1; i < l->argc; i++)
		inner.argv[i - 1] = l->argv[i];
	int rc = scen_exec(s, &inner, true, &ierr);
	if (s->dry || rc == 2)
		return rc;
	if (!rc)
		return scen_failed(s, "'%s' was to be refused, and it succeeded", l->argv[1]);
	scen_say(s, "refused as expected: %s", ierr.msg);
	return 0;
}

static int cmd_run(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	uint64_t q = 0;
	int rc;

	if (l->argc != 2)
		return scen_bad(s, "run N (quanta of %d ms)", DOM0_QUANTUM_MS);
	if ((rc = scen_need_range(s, "quanta", l->argv[1], 0, MAX_RUN_QUANTA, "one run command; split longer runs", &q)))
		return rc;
	if (s->dry)
		return 0;
	if ((rc = start_runtime(s)))
		return rc;
	scen_say(s, "run %" PRIu64 " quanta", q);
	rc = dom0_run_quanta(s->rt, (unsigned)q, on_switch, s, err);
	scen_policy_history(s);
	return scen_outcome(s, rc, refuse, err, "run");
}

/* NAME, and SLOTS for a resize: the arguments of destroy, busy, idle, switch, expand and reduce. */
static int name_args(struct scen *s, const struct scen_line *l, bool resize, int *id, uint64_t *q)
{
	int rc;

	if ((rc = scen_vgpu(s, l->argc > 1 ? l->argv[1] : NULL, id)))
		return rc;
	if (l->argc != (resize ? 3 : 2))
		return scen_bad(s, resize ? "%s NAME SLOTS" : "%s NAME", l->argv[0]);
	if (resize && (rc = scen_need_range(s, "slots", l->argv[2], 1, MAX_SLOTS, "slots of high graphics memory", q)))
		return rc;
	return 0;
}

static int cmd_destroy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	int id = 0, rc;

	if ((rc = name_args(s, l, false, &id, NULL)))
		return rc;
	if (s->dry) {	/* later lines must not name it */
		scen_find_name(s, l->argv[1])->alive = false;
		return 0;
	}
	rc = dom0_vgpu_destroy(s->rt, id, err);
	if (rc)
		return scen_outcome(s, rc, refuse, err, "destroy");
	scen_history(s, l->argv[1], "destroyed", 0, 0, 0);
	scen_find_name(s, l->argv[1])->alive = false;
	scen_say(s, "destroy %s", l->argv[1]);
	return 0;
}

/* busy and idle */
static int cmd_busy(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	int id = 0, rc;

	(void)refuse;	/* never refused: under `fail` it counts as having succeeded */
	if ((rc = name_args(s, l, false, &id, NULL)))
		return rc;
	if (s->dry)
		return 0;
	dom0_set_busy(s->rt, id, !strcmp(l->argv[0], "busy"), err);
	scen_say(s, "%s %s", l->argv[0], l->argv[1]);
	return 0;
}

static int cmd_switch(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	struct dom0_switch_stats st;
	int id = 0, rc;

	if ((rc = name_args(s, l, false, &id, NULL)))
		return rc;
	if (s->dry)
		return 0;
	rc = dom0_switch(s->rt, id, &st, err);
	if (rc)
		return scen_outcome(s, rc, refuse, err, "switch");
	on_switch(s, &st);
	return 0;
}

/* expand and reduce */
static int cmd_resize(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	const char *c = l->argv[0];
	bool expand = !strcmp(c, "expand");
	uint64_t q = 0;
	unsigned L, R;
	int id = 0, rc;

	if ((rc = name_args(s, l, true, &id, &q)))
		return rc;
	if (s->dry)
		return 0;
	rc = expand ? dom0_expand(s->rt, id, (unsigned)q, &L, &R, err) : dom0_reduce(s->rt, id, (unsigned)q, &L, &R, err);
	if (rc)
		return scen_outcome(s, rc, refuse, err, c);
	s->last_left = L;
	s->last_right = R;
	struct dom0_vgpu_info in;
	dom0_vgpu_info(s->rt, id, &in);
	if (expand && in.paused == DOM0_PAUSE_EXPAND) {
		scen_say(s, "%s %s by %" PRIu64 ": no room now", c, l->argv[1], q);
		return 0;
	}
	char sl[24];
	scen_say(s, "%s %s by %" PRIu64 ": %u left, %u right; now slots %s, %u slots shared", c, l->argv[1], q, L, R,
		 scen_slots_text(&in, sl, sizeof(sl)), dom0_shared_slots(s->rt));
	scen_history(s, l->argv[1], expand ? "expanded" : "reduced", id, L, R);
	return 0;
}

static int cmd_expect(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	(void)refuse;	/* `fail expect` is malformed: cmd_fail refuses it */
	(void)err;
	return scen_expect(s, l);
}

/*
 * The commands, in the order the unknown-command message lists them. A
 * handler returns 0, 1 (failed) or 2 (malformed); `refuse` is set under
 * `fail`, and then a refusal is its success. config and fail come before the
 * runtime starts; the runtime starts at the first of any other command.
 */
static const struct command {
	const char *name;
	int (*run)(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err);
	bool before_runtime;
} commands[] = {
	{ "config", cmd_config, true },
	{ "create", cmd_create, false },
	{ "destroy", cmd_destroy, false },
	{ "guest-pte", scen_cmd_guest_pte, false },
	{ "guest-fence", scen_cmd_guest_fence, false },
	{ "guest-write", scen_cmd_guest_write, false },
	{ "busy", cmd_busy, false },
	{ "idle", cmd_busy, false },
	{ "switch", cmd_switch, false },
	{ "run", cmd_run, false },
	{ "expand", cmd_resize, false },
	{ "reduce", cmd_resize, false },
	{ "policy", scen_cmd_policy, false },
	{ "steal", scen_cmd_steal, false },
	{ "request", scen_cmd_request, false },
	{ "evict", scen_cmd_evict, false },
	{ "pvinfo-write", scen_cmd_pvinfo_write, false },
	{ "device", scen_cmd_device, true },
	{ "migrate", scen_cmd_migrate, false },
	{ "on", scen_cmd_on, false },
	{ "fail", cmd_fail, true },
	{ "expect", cmd_expect, false },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

int scen_exec(struct scen *s, const struct scen_line *l, bool refuse, struct gtt_err *err)
{
	const struct command *cmd = NULL;

	s->cur_line = l->no;
	for (size_t i = 0; i < N_COMMANDS && !cmd; i++)
		if (!strcmp(l->argv[0], commands[i].name))
			cmd = &commands[i];
	if (!(cmd && cmd->before_runtime) && !s->dry && start_runtime(s))
		return 1;
	if (cmd) {
		/* a command that names a vGPU runs on the device it lives on */
		int was = s->cur_dev;
		scen_use_device(s, scen_device_of_line(s, l));
		int rc = cmd->run(s, l, refuse, err);
		scen_admission_notice(s);
		scen_use_device(s, was);
		return rc;
	}
	char list[256] = "";
	for (size_t i = 0; i < N_COMMANDS; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? ", " : "", commands[i].name);
	return scen_bad(s, "unknown command '%s': %s", l->argv[0], list);
}
