/* SPDX-License-Identifier: MIT */
/*
 * An IGT results.json in the results_version 10 layout of igt_runner's
 * resultgen.c: "__type__" TestrunResult, tests keyed igt@BINARY@SUBTEST with
 * out/err/dmesg/result/time (a TimeAttribute from 0.0 to the duration),
 * totals under "", "root" and each igt@BINARY with all eleven counters, and
 * runtimes per binary. The binaries are the IGT front-end's: gtt_<suite>.
 */
#include "env/version.h"
#include "checks/report.h"
#include "env/fmt.h"

static const char *const counters[] = { "crash", "pass", "dmesg-fail", "dmesg-warn", "skip", "incomplete",
					"abort", "timeout", "notrun", "fail", "warn" };

static const char *igt_result(const struct check_result *r, bool ran)
{
	if (!ran)
		return "notrun";
	return r->status == CHECK_PASS ? "pass" : r->status == CHECK_FAIL ? "fail" : r->status == CHECK_SKIP ? "skip" : "abort";
}

static void seconds(struct report_sink *s, uint64_t ns)
{
	sink_printf(s, "%llu.%06llu", (unsigned long long)(ns / 1000000000u), (unsigned long long)(ns % 1000000000u / 1000u));
}

static void time_attr(struct report_sink *s, uint64_t start_ns, uint64_t end_ns)
{
	sink_printf(s, "{\"__type__\":\"TimeAttribute\",\"start\":");
	seconds(s, start_ns);
	sink_printf(s, ",\"end\":");
	seconds(s, end_ns);
	sink_printf(s, "}");
}

static void totals(struct report_sink *s, const char *key, const struct check_result *r, size_t n, size_t ran,
		   const char *binary)
{
	char bin[64];

	sink_printf(s, "\"%s\":{", key);
	for (unsigned k = 0; k < sizeof(counters) / sizeof(counters[0]); k++) {
		unsigned count = 0;
		for (size_t i = 0; i < n; i++) {
			report_igt_binary(r[i].check->suite, bin, sizeof(bin));
			if ((!binary || !gtt_strcmp(bin, binary)) && !gtt_strcmp(igt_result(&r[i], i < ran), counters[k]))
				count++;
		}
		sink_printf(s, "%s\"%s\":%u", k ? "," : "", counters[k], count);
	}
	sink_printf(s, "}");
}

/* Distinct binaries in first-seen order. */
static size_t binaries(const struct check_result *r, size_t n, char bins[][64], size_t max)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++) {
		char b[64];
		bool seen = false;
		report_igt_binary(r[i].check->suite, b, sizeof(b));
		for (size_t k = 0; k < m; k++)
			seen |= !gtt_strcmp(bins[k], b);
		if (!seen && m < max)
			gtt_snprintf(bins[m++], 64, "%s", b);
	}
	return m;
}

/*
 * Not igt_runner's keys (piglit and igt_results read the keys they know and leave the rest): what
 * the run was taken on, by which gttlab, and under which firmware policy.
 */
static void taken_on(struct report_sink *s, const struct report_info *in)
{
	sink_printf(s, ",\"gttlab\":{\"version\":\"");
	report_escape(s, gttlab_version, REPORT_IGT_JSON);
	sink_printf(s, "\",\"device\":\"");
	report_escape(s, in->device, REPORT_IGT_JSON);
	sink_printf(s, "\",\"platform\":\"%s\",\"kind\":\"%s\"", in->platform, in->kind);
	if (in->pci_device)
		sink_printf(s, ",\"pci\":\"8086:%04x\"", in->pci_device);
	sink_printf(s, "}");
	if (in->firmware) {
		char sb[16], sm[16];
		fw_var_text(in->firmware->secure_boot, sb, sizeof(sb));
		fw_var_text(in->firmware->setup_mode, sm, sizeof(sm));
		sink_printf(s, ",\"firmware\":{\"secure_boot\":\"%s\",\"SecureBoot\":\"%s\",\"SetupMode\":\"%s\"}",
			    fw_policy_word(in->firmware), sb, sm);
	}
}

void report_igt_json(struct report_sink *s, const struct check_result *r, size_t n, size_t ran,
		     const struct report_info *in)
{
	char bins[16][64], bin[64];
	size_t nb = binaries(r, n, bins, 16);

	sink_printf(s, "{\"__type__\":\"TestrunResult\",\"results_version\":10,\"name\":\"gttlab ");
	report_escape(s, in->device, REPORT_IGT_JSON);
	sink_printf(s, "\",\"cmdline\":[\"gttlab\",\"check\",\"--device\",\"");
	report_escape(s, in->device, REPORT_IGT_JSON);
	sink_printf(s, "\"],\"time_elapsed\":{\"__type__\":\"TimeAttribute\"");
	if (in->start_s)
		sink_printf(s, ",\"start\":%llu.0,\"end\":%llu.0", (unsigned long long)in->start_s, (unsigned long long)in->end_s);
	sink_printf(s, "}");
	taken_on(s, in);
	sink_printf(s, ",\n\"tests\":{");
	for (size_t i = 0; i < n; i++) {
		const struct check_result *t = &r[i];
		bool did = i < ran;
		report_igt_binary(t->check->suite, bin, sizeof(bin));
		sink_printf(s, "%s\n\"igt@%s@%s\":{\"out\":\"", i ? "," : "", bin, t->check->name);
		if (did) {
			static const char *const word[] = { "SUCCESS", "FAIL", "SKIP", "ABORT" };
			sink_printf(s, "Starting subtest: %s\\nseed %llu (--seed %llu --run %s repeats it; check seed 0x%016llx)\\n",
				    t->check->name, (unsigned long long)in->seed, (unsigned long long)in->seed, t->check->name,
				    (unsigned long long)t->seed);
			if (t->status != CHECK_PASS) {
				report_escape(s, t->reason, REPORT_IGT_JSON);
				sink_printf(s, "\\n");
			}
			sink_printf(s, "Subtest %s: %s (%llu.%03llus)\\n", t->check->name, word[t->status],
				    (unsigned long long)(t->ns / 1000000000u), (unsigned long long)(t->ns / 1000000u % 1000u));
		}
		sink_printf(s, "\",\"err\":\"");
		if (did && (t->status == CHECK_FAIL || t->status == CHECK_ABORT)) {
			report_escape(s, t->reason, REPORT_IGT_JSON);
			sink_printf(s, "\\n");
		}
		sink_printf(s, "\",\"dmesg\":\"\",\"result\":\"%s\"", igt_result(t, did));
		if (did) {
			sink_printf(s, ",\"time\":");
			time_attr(s, 0, t->ns);
		}
		sink_printf(s, "}");
	}
	sink_printf(s, "},\n\"totals\":{");
	totals(s, "", r, n, ran, NULL);
	sink_printf(s, ",");
	totals(s, "root", r, n, ran, NULL);
	for (size_t b = 0; b < nb; b++) {
		char key[80];
		gtt_snprintf(key, sizeof(key), "igt@%s", bins[b]);
		sink_printf(s, ",");
		totals(s, key, r, n, ran, bins[b]);
	}
	sink_printf(s, "},\n\"runtimes\":{");
	for (size_t b = 0; b < nb; b++) {
		uint64_t ns = 0;
		for (size_t i = 0; i < ran; i++) {
			report_igt_binary(r[i].check->suite, bin, sizeof(bin));
			if (!gtt_strcmp(bin, bins[b]))
				ns += r[i].ns;
		}
		sink_printf(s, "%s\"igt@%s\":{\"time\":", b ? "," : "", bins[b]);
		time_attr(s, 0, ns);
		sink_printf(s, "}");
	}
	sink_printf(s, "}}\n");
}
