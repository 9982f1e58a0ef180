/* SPDX-License-Identifier: MIT */
/* The runner's own report formats: the human table, TAP 13 and JUnit XML (checks/report_text.h). */
#include "env/version.h"
#include "checks/report_sink.h"
#include "checks/report_text.h"
#include "env/fmt.h"

/* Why the checks after the `ran` first did not run. */
static const char *not_run(const struct check_result *r, size_t ran)
{
	return ran && r[ran - 1].status == CHECK_ABORT ? "not run: the device could not be restored after an earlier check"
						       : "not run: interrupted";
}

static void seconds(struct report_sink *s, uint64_t ns)
{
	sink_printf(s, "%llu.%06llu", (unsigned long long)(ns / 1000000000u), (unsigned long long)(ns % 1000000000u / 1000u));
}

static void human(struct report_sink *s, const struct check_result *r, size_t n, size_t ran, const struct report_info *in,
		  const struct run_totals *t)
{
	sink_printf(s, "\n%-26s %-12s %-6s %9s  %s\n", "check", "suite", "result", "time (ms)", "reason");
	for (size_t i = 0; i < n; i++) {
		const char *res = i < ran ? check_status_name(r[i].status) : "notrun";
		sink_printf(s, "%-26s %-12s %-6s %5llu.%03llu  %s\n", r[i].check ? r[i].check->name : "?",
			    r[i].check ? r[i].check->suite : "?", res, (unsigned long long)(r[i].ns / 1000000u),
			    (unsigned long long)(r[i].ns / 1000u % 1000u), i < ran ? r[i].reason : not_run(r, ran));
	}
	sink_printf(s, "\n%s on ", report_verdict(t));
	report_device_text(s, in);
	sink_printf(s, ", seed %llu: %u passed, %u failed, %u skipped", (unsigned long long)in->seed, t->pass, t->fail, t->skip);
	if (t->abort)
		sink_printf(s, ", %u aborted (the device could not be restored)", t->abort);
	if (t->notrun)
		sink_printf(s, ", %u not run", t->notrun);
	sink_printf(s, " in ");
	seconds(s, t->ns);
	sink_printf(s, " s\ngttlab %s\n", gttlab_version);
	if (in->firmware) {
		char fw[96];
		fw_policy_text(in->firmware, fw, sizeof(fw));
		sink_printf(s, "firmware: %s\n", fw);
	}
}

static void tap(struct report_sink *s, const struct check_result *r, size_t n, size_t ran, const struct report_info *in)
{
	sink_printf(s, "TAP version 13\n1..%zu\n# gttlab %s on ", n, gttlab_version);
	report_device_text(s, in);
	sink_printf(s, "\n# seed %llu: --run NAME --seed %llu repeats any check\n", (unsigned long long)in->seed,
		    (unsigned long long)in->seed);
	if (in->firmware) {
		char fw[96];
		fw_policy_text(in->firmware, fw, sizeof(fw));
		sink_printf(s, "# firmware: %s\n", fw);
	}
	for (size_t i = 0; i < n; i++) {
		const char *name = r[i].check->name;
		if (i >= ran) {
			sink_printf(s, "not ok %zu - %s # SKIP %s\n", i + 1, name, not_run(r, ran));
			continue;
		}
		if (r[i].status == CHECK_SKIP) {
			sink_printf(s, "ok %zu - %s # SKIP ", i + 1, name);
			report_escape(s, r[i].reason, REPORT_TAP);
			sink_printf(s, "\n");
			continue;
		}
		sink_printf(s, "%s %zu - %s\n", r[i].status == CHECK_PASS ? "ok" : "not ok", i + 1, name);
		sink_printf(s, "  ---\n  suite: %s\n  seed: 0x%016llx\n  duration_ms: %llu.%03llu\n", r[i].check->suite,
			    (unsigned long long)r[i].seed, (unsigned long long)(r[i].ns / 1000000u),
			    (unsigned long long)(r[i].ns / 1000u % 1000u));
		if (r[i].claim_pages)
			sink_printf(s, "  claim: 0x%llx+%u pages\n", (unsigned long long)r[i].claim_gm, r[i].claim_pages);
		if (r[i].status == CHECK_FAIL || r[i].status == CHECK_ABORT) {
			sink_printf(s, "  severity: %s\n  message: '", r[i].status == CHECK_FAIL ? "fail" : "abort");
			report_escape(s, r[i].reason, REPORT_TAP);
			sink_printf(s, "'\n");
		}
		sink_printf(s, "  ...\n");
		if (r[i].status == CHECK_ABORT) {
			/* TAP's own word for a run that cannot go on */
			sink_printf(s, "Bail out! ");
			report_escape(s, r[i].reason, REPORT_TAP);
			sink_printf(s, "\n");
			return;
		}
	}
}

static void junit(struct report_sink *s, const struct check_result *r, size_t n, size_t ran, const struct report_info *in,
		  const struct run_totals *t)
{
	sink_printf(s, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	sink_printf(s, "<testsuites name=\"gttlab\" tests=\"%zu\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"", n, t->fail, t->abort,
		    t->skip + t->notrun);
	seconds(s, t->ns);
	sink_printf(s, "\">\n  <testsuite name=\"gttlab.");
	report_escape(s, in->platform, REPORT_JUNIT);
	sink_printf(s, "\" tests=\"%zu\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"", n, t->fail, t->abort,
		    t->skip + t->notrun);
	seconds(s, t->ns);
	sink_printf(s, "\">\n    <properties><property name=\"device\" value=\"");
	report_escape(s, in->device, REPORT_JUNIT);
	sink_printf(s, "\"/><property name=\"device.kind\" value=\"%s\"/><property name=\"gttlab.version\" value=\"", in->kind);
	report_escape(s, gttlab_version, REPORT_JUNIT);
	sink_printf(s, "\"/><property name=\"seed\" value=\"%llu\"/>", (unsigned long long)in->seed);
	if (in->pci_device)
		sink_printf(s, "<property name=\"device.pci\" value=\"8086:%04x\"/>", in->pci_device);
	if (in->firmware) {
		char sb[16], sm[16];
		fw_var_text(in->firmware->secure_boot, sb, sizeof(sb));
		fw_var_text(in->firmware->setup_mode, sm, sizeof(sm));
		sink_printf(s, "<property name=\"firmware\" value=\"%s\"/><property name=\"firmware.SecureBoot\" value=\"%s\"/>"
			    "<property name=\"firmware.SetupMode\" value=\"%s\"/>", fw_policy_word(in->firmware), sb, sm);
	}
	sink_printf(s, "</properties>\n");
	for (size_t i = 0; i < n; i++) {
		sink_printf(s, "    <testcase classname=\"gttlab.%s\" name=\"%s\" time=\"", r[i].check->suite, r[i].check->name);
		seconds(s, i < ran ? r[i].ns : 0);
		sink_printf(s, "\"");
		if (i < ran && r[i].status == CHECK_PASS) {
			sink_printf(s, "/>\n");
			continue;
		}
		bool did = i < ran;
		sink_printf(s, ">\n      <%s message=\"", did && r[i].status == CHECK_FAIL ? "failure"
								: did && r[i].status == CHECK_ABORT ? "error" : "skipped");
		report_escape(s, i < ran ? r[i].reason : not_run(r, ran), REPORT_JUNIT);
		sink_printf(s, "\"/>\n    </testcase>\n");
	}
	sink_printf(s, "  </testsuite>\n</testsuites>\n");
}

void report_text(enum report_format f, struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		 const struct report_info *in, const struct run_totals *t)
{
	switch (f) {
	case REPORT_HUMAN: human(s, r, n, ran, in, t); break;
	case REPORT_TAP: tap(s, r, n, ran, in); break;
	case REPORT_JUNIT: junit(s, r, n, ran, in, t); break;
	default: break;
	}
}
