/* SPDX-License-Identifier: MIT */
/*
 * The session every front-end runs checks through: its hooks in their order, the one unwind
 * path (a failure at any step leaves nothing open and runs nothing after it), no check after
 * an abort, and a journal that does not end restored counted as an abort.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "checks/session.h"
#include "tests/helpers.h"

struct log {
	char calls[128];
	int fail_open, fail_begin, fail_end;
	bool restored;
	struct hw_device *dev;
};

static void called(struct log *l, const char *what)
{
	strncat(l->calls, what, sizeof(l->calls) - strlen(l->calls) - 1);
}

static int open_hook(void *ctx, struct hw_device **dev, struct gtt_err *err)
{
	struct log *l = ctx;
	called(l, "open ");
	if (l->fail_open)
		return gtt_err_set(err, GTT_EINVAL, "no such device");
	*dev = l->dev = t_open("sim:skl");
	return GTT_OK;
}

static int begin_hook(void *ctx, struct hw_device *dev, struct gtt_err *err)
{
	struct log *l = ctx;
	cr_expect_eq(dev, l->dev);
	called(l, "begin ");
	return l->fail_begin ? gtt_err_set(err, GTT_EPERM, "needs root") : GTT_OK;
}

static int end_hook(void *ctx, struct hw_device *dev, bool restored, struct gtt_err *err)
{
	struct log *l = ctx;
	cr_expect_eq(dev, l->dev);
	called(l, "end ");
	l->restored = restored;
	return l->fail_end ? gtt_err_set(err, GTT_EIO, "the journal's replay did not read back") : GTT_OK;
}

static struct session with(struct log *l, const char *fault)
{
	return (struct session){ .hooks = { open_hook, begin_hook, end_hook, l }, .fault = fault };
}

static size_t select_checks(const char *run, const struct check **sel)
{
	struct gtt_err err = { 0 };
	size_t n;
	cr_assert_eq(runner_select(run, sel, 64, &n, &err), 0, "%s", err.msg);
	return n;
}

Test(session, hooks_run_in_order_and_totals_add_up_across_runs)
{
	struct log l = { 0 };
	struct session s = with(&l, NULL);
	struct gtt_err err = { 0 };
	const struct check *sel[64];
	struct check_result r[64];

	cr_assert_eq(session_open(&s, &err), 0, "%s", err.msg);
	cr_expect_eq(s.stage, SESSION_OPEN);
	size_t n = select_checks("ggtt-pte-readback", sel);
	cr_expect_eq(session_run(&s, sel, n, &(struct runner_opts){ 0 }, r), 1);
	n = select_checks("fence-readback,aperture-rw", sel);
	cr_expect_eq(session_run(&s, sel, n, &(struct runner_opts){ 0 }, r), 2);
	cr_expect_eq(s.totals.pass, 3, "%u passed", s.totals.pass);
	cr_expect_eq(session_close(&s, &err), 0);
	cr_expect_str_eq(l.calls, "open begin end ");
	cr_expect(l.restored);
	cr_expect_eq(s.stage, SESSION_CLOSED);
	cr_expect_eq(session_close(&s, &err), 0, "a second close is a no-op");
	cr_expect_str_eq(l.calls, "open begin end ");
}

Test(session, a_failed_step_leaves_nothing_open_and_says_which)
{
	struct gtt_err err = { 0 };
	struct log l = { .fail_open = 1 };
	struct session s = with(&l, NULL);

	cr_expect_eq(session_open(&s, &err), GTT_EINVAL);
	cr_expect_eq(s.stage, SESSION_OPEN_FAILED);
	cr_expect(!s.dev);
	cr_expect_eq(session_close(&s, &err), 0);
	cr_expect_str_eq(l.calls, "open ");

	l = (struct log){ 0 };
	s = with(&l, "no-such-fault");
	cr_expect_neq(session_open(&s, &err), 0);
	cr_expect_eq(s.stage, SESSION_FAULT_FAILED);
	cr_expect(!s.dev);
	cr_expect_str_eq(l.calls, "open end ", "the journal begins only after the fault is in, and what the open started ends: %s",
			 l.calls);
	cr_expect(l.restored, "a device only opened was told unrestored");

	l = (struct log){ .fail_begin = 1 };
	s = with(&l, NULL);
	cr_expect_eq(session_open(&s, &err), GTT_EPERM);
	cr_expect_eq(s.stage, SESSION_JOURNAL_FAILED);
	cr_expect(!s.dev);
	session_close(&s, &err);
	cr_expect_str_eq(l.calls, "open begin end ", "the unwind ends what the open started: %s", l.calls);
}

Test(session, nothing_runs_after_an_abort_and_the_journal_ends_unrestored)
{
	struct log l = { 0 };
	struct session s = with(&l, "freeze-fence");
	struct gtt_err err = { 0 };
	const struct check *sel[64];
	struct check_result r[64];

	cr_assert_eq(session_open(&s, &err), 0, "%s", err.msg);
	size_t n = select_checks("fence-readback", sel);
	session_run(&s, sel, n, &(struct runner_opts){ 0 }, r);
	cr_assert_eq(s.totals.abort, 1, "freeze-fence: the fence's restore cannot read back");
	n = select_checks("ggtt-pte-readback", sel);
	cr_expect_eq(session_run(&s, sel, n, &(struct runner_opts){ 0 }, r), 0, "a check ran after an abort");
	cr_expect_eq(s.totals.notrun, 1);
	cr_expect_eq(session_close(&s, &err), 0);
	cr_expect(!l.restored, "the journal was told the device was restored after an abort");
}

Test(session, a_journal_that_does_not_end_restored_is_an_abort)
{
	struct log l = { .fail_end = 1 };
	struct session s = with(&l, NULL);
	struct gtt_err err = { 0 };
	const struct check *sel[64];
	struct check_result r[64];

	cr_assert_eq(session_open(&s, &err), 0, "%s", err.msg);
	size_t n = select_checks("ggtt-pte-readback", sel);
	session_run(&s, sel, n, &(struct runner_opts){ 0 }, r);
	cr_expect_eq(session_close(&s, &err), GTT_EIO);
	cr_expect_eq(s.totals.abort, 1);
	cr_expect(strstr(err.msg, "replay"), "%s", err.msg);
}
