/* SPDX-License-Identifier: MIT */
/*
 * Admission in scenarios: `config admission=fifo|bf|ru|rand share-limit=N
 * seed=N` (scenario_exec.c's config), what each command paused or admitted
 * (said after the command and kept in the slot history), `expect paused`,
 * the admission.* counters and the summary's admission line.
 */
#include "scenario/scenario_internal.h"

#include <inttypes.h>
#include <string.h>

static const char *const kinds[] = { "none", "create", "expand", "fence" };

void scen_admission_notice(struct scen *s)
{
	if (s->dry || !s->rt)
		return;
	for (int i = 0; i < s->n_names; i++) {
		struct name *nm = &s->names[i];
		struct dom0_vgpu_info in;
		if (!nm->alive || nm->on != s->cur_dev || dom0_vgpu_info(s->rt, nm->id, &in) ||
		    (in.paused == nm->paused && in.counters.withdrawn == nm->withdrawn && in.counters.expired == nm->expired))
			continue;
		bool withdrew = in.counters.withdrawn != nm->withdrawn, expired = in.counters.expired != nm->expired;
		if (withdrew) {
			scen_say(s, "%s withdrew its paused %s", nm->name, dom0_pause_name(nm->paused));
			scen_history(s, nm->name, "withdrew", nm->id, 0, 0);
		}
		if (expired) {
			scen_say(s, "%s: its paused %s was refused at its deadline: it held the queue and did not fit",
				 nm->name, dom0_pause_name(nm->paused));
			scen_history(s, nm->name, "refused at its deadline", nm->id, 0, 0);
		}
		if (in.paused) {
			scen_say(s, "%s paused: its %s waits for admission (%s)", nm->name, dom0_pause_name(in.paused),
				 dom0_admission_name(s->cfg.admission));
			scen_history(s, nm->name, "paused", nm->id, 0, 0);
		} else if (!withdrew && !expired) {
			char sl[24];
			scen_say(s, "%s admitted after %" PRIu64 " ms paused: its %s runs, slots %s", nm->name, in.paused_ms,
				 dom0_pause_name(nm->paused), scen_slots_text(&in, sl, sizeof(sl)));
			scen_history(s, nm->name, "admitted", nm->id, 0, 0);
		}
		nm->paused = in.paused;
		nm->withdrawn = in.counters.withdrawn;
		nm->expired = in.counters.expired;
	}
}

enum scen_rc scen_expect_paused(struct scen *s, const struct scen_line *l, const char *usage)
{
	enum scen_rc rc;
	int id, want = -1;	/* -1: any kind */

	if ((rc = scen_vgpu(s, l->argc > 2 ? l->argv[2] : NULL, &id)))
		return rc;
	if (l->argc == 5 && !strcmp(l->argv[3], "=="))
		for (int k = 0; k < 4; k++)
			if (!strcmp(l->argv[4], kinds[k]))
				want = k;
	if (l->argc != 3 && (l->argc != 5 || want < 0))
		return scen_bad(s, "%s", usage);
	if (s->dry)
		return SCEN_RAN;
	enum dom0_pause p = dom0_vgpu_paused(s->rt, id);
	if (want < 0)
		return scen_check(s, p != DOM0_PAUSE_NONE, "paused %s (its %s waits for admission)", l->argv[2],
				  p ? kinds[p] : "none: nothing of it");
	return scen_check(s, (int)p == want, "paused %s == %s (it is %s)", l->argv[2], kinds[want], kinds[p]);
}

const char *const scen_admission_counters[] = { "admission.paused", "admission.admitted", "admission.paused_ms",
					       "admission.waiting", "admission.expired", NULL };

bool scen_admission_counter(struct scen *s, const char *key, uint64_t *v)
{
	for (int i = 0; scen_admission_counters[i]; i++) {
		if (strcmp(key, scen_admission_counters[i]))
			continue;
		if (s->dry)
			return true;
		const struct dom0_counters *c = dom0_counters(s->rt);
		uint64_t vals[] = { c->paused, c->admitted, c->paused_ms, dom0_paused_count(s->rt), c->expired };
		*v = vals[i];
		return true;
	}
	return false;
}

void scen_admission_summary(struct scen *s)
{
	const struct dom0_counters *c = dom0_counters(s->rt);

	if (s->cfg.admission == DOM0_ADMIT_OFF && !c->paused)
		return;
	fprintf(s->out, "  admission %s (share limit %u): %" PRIu64 " paused, %" PRIu64 " admitted after %" PRIu64
		" ms paused in all, %" PRIu64 " refused at their deadline, %u waiting now\n", dom0_admission_name(s->cfg.admission),
		s->cfg.share_limit, c->paused, c->admitted, c->paused_ms, c->expired, dom0_paused_count(s->rt));
}
