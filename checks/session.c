/* SPDX-License-Identifier: MIT */
/* The sequence of a check run, its unwinding, and its totals across runs. */
#include "checks/session.h"
#ifdef GTTLAB_FAULTS
#include "checks/test_faults.h"
#endif
#include "hw/device.h"

int session_open(struct session *s, struct gtt_err *err)
{
	int rc;

	s->dev = NULL;
	s->totals = (struct run_totals){ 0 };
	s->stage = SESSION_OPEN_FAILED;
	if ((rc = s->hooks.open(s->hooks.ctx, &s->dev, err)))
		return rc;
#ifdef GTTLAB_FAULTS
	/* tests only, on the model only: prove that a failing or unrestorable device is reported */
	s->stage = SESSION_FAULT_FAILED;
	if (s->fault && *s->fault && (rc = test_fault_inject(s->dev, s->fault, err)))
		goto close;
#endif
	/* before the first write: a real device's crash journal */
	s->stage = SESSION_JOURNAL_FAILED;
	if (s->hooks.journal_begin && (rc = s->hooks.journal_begin(s->hooks.ctx, s->dev, err)))
		goto close;
	s->stage = SESSION_OPEN;
	return GTT_OK;
close:
	/*
	 * A journal the open started (the EFI application attaches its own there) ends too: the
	 * device was only opened, never written by a check. Its own error would hide the first.
	 */
	if (s->hooks.journal_end) {
		struct gtt_err ignored = { 0 };
		s->hooks.journal_end(s->hooks.ctx, s->dev, true, &ignored);
	}
	hw_close(s->dev);
	s->dev = NULL;
	return rc;
}

static void add(struct run_totals *t, const struct run_totals *u)
{
	t->pass += u->pass;
	t->fail += u->fail;
	t->skip += u->skip;
	t->abort += u->abort;
	t->notrun += u->notrun;
	t->ns += u->ns;
}

size_t session_run(struct session *s, const struct check *const *sel, size_t n, const struct runner_opts *o,
		   struct check_result *res)
{
	struct run_totals t;
	size_t ran = 0;

	for (size_t i = 0; i < n; i++)
		res[i].check = sel[i];
	if (s->stage == SESSION_OPEN && !s->totals.abort)
		ran = runner_run(s->dev, sel, n, o, res);
	runner_totals(res, n, ran, &t);
	add(&s->totals, &t);
	return ran;
}

int session_close(struct session *s, struct gtt_err *err)
{
	int rc = GTT_OK;

	if (s->stage != SESSION_OPEN)
		return GTT_OK;
	if (s->hooks.journal_end && (rc = s->hooks.journal_end(s->hooks.ctx, s->dev, !s->totals.abort, err)))
		s->totals.abort++;
	hw_close(s->dev);
	s->dev = NULL;
	s->stage = SESSION_CLOSED;
	return rc;
}
