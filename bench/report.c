/* SPDX-License-Identifier: MIT */
/* The table on stdout, with the goals beside the values (printed, never asserted), results.json and the generated report. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/papers.h"

static const char *met(bool ok)
{
	return ok ? "yes" : "NO";
}

#define ROW "%-24s %10s  %-12s %-4s "

static void writes_row(const char *key, const struct bench_writes *w)
{
	char v[32];

	snprintf(v, sizeof(v), "%.3f", w->ratio);
	printf(ROW "%llu switches: %llu PTE writes on the model's trace / %llu entries changed;\n", key, v, "= 1.00",
	       met(w->changed == w->trace_writes), (unsigned long long)w->switches, (unsigned long long)w->trace_writes,
	       (unsigned long long)w->changed);
	printf(ROW "  the runtime's own counters: %llu written, %llu skipped\n", "", "", "", "",
	       (unsigned long long)w->runtime_written, (unsigned long long)w->runtime_skipped);
}

static void table(const struct bench_opts *o, const struct bench_results *r)
{
	double p2x = r->p2_share_pct > 0 ? r->p2_one_slot_pct / r->p2_share_pct : 0;
	char v[32];

	printf("\ngttlab bench (%s run, seed %llu): goals are printed, never asserted\n\n", o->quick ? "quick" : "full",
	       (unsigned long long)o->seed);
	for (int i = 0; i < BENCH_PARTS; i++)
		if (r->failed[i])
			printf("part %s FAILED (%s): its figures are missing below\n", r->part_name[i], r->failure[i]);
	printf(ROW "%s\n", "key", "value", "goal", "met", "how (references taken in the same run)");
	if (r->ran[PART_WRITES]) {
		writes_row("p1_write_ratio_gscale", &r->p1_gscale);
		writes_row("p1_write_ratio_random", &r->p1_random);
		printf(ROW "method check: %llu same-value writes made on the model: counted %llu, %llu changed\n", "", "",
		       "", "", (unsigned long long)r->p1_probe_writes, (unsigned long long)r->p1_probe_counted,
		       (unsigned long long)r->p1_probe_changed);
	}
	if (r->ran[PART_SWITCH]) {
		snprintf(v, sizeof(v), "%.3f", r->p2_share_pct);
		printf(ROW "steady switch %.1f us (%llu PTEs written) / 16 ms slice, median (quanta %.1f-%.1f us)\n",
		       "p2_copy_share_pct", v, "<= 0.5", met(r->p2_share_pct <= 0.5), r->p2_switch_ns / 1e3,
		       (unsigned long long)r->p2_ptes, r->p2_lo_ns / 1e3, r->p2_hi_ns / 1e3);
		snprintf(v, sizeof(v), "%.3f", r->p2_one_slot_pct);
		printf(ROW "busy vGPUs in one slot: %.1f us (%llu PTEs written), %.1fx the shared layout\n",
		       "p2_one_slot_share_pct", v, ">= 5x p2", met(p2x >= 5), r->p2_one_slot_ns / 1e3,
		       (unsigned long long)r->p2_one_slot_ptes, p2x);
		snprintf(v, sizeof(v), "%.3f", r->p2_cold_pct);
		printf(ROW "the same, caches as a guest's quantum leaves them (64 MiB read between quanta): %.1f us (%.1f-%.1f)\n",
		       "p2_copy_share_cold_pct", v, "<= 0.5", met(r->p2_cold_pct <= 0.5), r->p2_cold_ns / 1e3,
		       r->p2_cold_lo_ns / 1e3, r->p2_cold_hi_ns / 1e3);
		snprintf(v, sizeof(v), "%.2f", r->p2_one_slot_cold_ratio);
		printf(ROW "busy vGPUs in one slot, cold: %.1f us; one quantum of each layout in turn, caches evicted\n"
		       ROW "  before each: the median of the pairs' ratios (each pair's %.2f-%.2f)\n",
		       "p2_one_slot_cold_ratio", v, ">= 5", met(r->p2_one_slot_cold_ratio >= 5), r->p2_one_slot_cold_ns / 1e3,
		       "", "", "", "", r->p2_cold_ratio_lo, r->p2_cold_ratio_hi);
		snprintf(v, sizeof(v), "%u", r->sched_worst_wait);
		printf(ROW "slot-aware, vm1 vm3 vm4 busy, vm4 in vm1's slot: longest wait between turns, quanta\n",
		       "sched_worst_wait_quanta", v, "<= 2N-1 = 5", met(r->sched_worst_wait <= r->sched_bound));
		snprintf(v, sizeof(v), "%.3f", r->sched_fairness);
		printf(ROW "Jain's index over their quanta (%u, %u, %u); copies %.2fx round robin's PTEs\n",
		       "sched_fairness_index", v, ">= 0.85", met(r->sched_fairness >= 0.85), r->sched_quanta[0],
		       r->sched_quanta[1], r->sched_quanta[2],
		       r->sched_rr_ptes ? (double)r->sched_ptes / (double)r->sched_rr_ptes : 0);
		snprintf(v, sizeof(v), "%.3f", r->p3_linux.floor_over_switch);
		printf(ROW "linux backend (fake device, BARs on tmpfs): the store floor / the switch, per PTE (%llu PTEs),\n"
		       ROW "  each repetition's pair, median; each repetition's %.3f-%.3f; the floor: the same PTEs, each one\n"
		       ROW "  8-byte store and nothing else, %s\n",
		       "p3_linux_floor_over_switch", v, ">= 0.5", met(r->p3_linux.floor_over_switch >= 0.5),
		       (unsigned long long)r->p3_linux.ptes, "", "", "", "", r->p3_linux.floor_ratio_lo, r->p3_linux.floor_ratio_hi,
		       "", "", "", "", r->p3_linux.floor_in_place ? "into the same mapping, right after the switch" : "into memory (no mapping)");
		snprintf(v, sizeof(v), "%.3f", r->p3_linux.switch_ns_per_pte);
		printf(ROW "the switch's ns per PTE written, median\n", "p3_linux_switch_ns_per_pte", v, "", "");
		snprintf(v, sizeof(v), "%.3f", r->p3_linux.store_ns_per_pte);
		printf(ROW "the floor's ns per PTE, median\n", "p3_linux_store_floor_ns_per_pte", v, "", "");
		snprintf(v, sizeof(v), "%.3f", r->p3_linux.ratio);
		printf(ROW "memcpy %.3f ns per 8 bytes / the switch, same run; each repetition's %.3f-%.3f\n",
		       "p3_linux_memcpy_ratio", v, "", "", r->p3_linux.memcpy_ns_per_8b, r->p3_linux.ratio_lo, r->p3_linux.ratio_hi);
		snprintf(v, sizeof(v), "%.3f", r->p3.ratio);
		printf(ROW "on the model: memcpy %.3f ns per 8 bytes / switch %.3f ns per PTE (%llu PTEs, each an emulated\n"
		       ROW "  MMIO write), medians; each repetition's %.3f-%.3f\n",
		       "p3_memcpy_ratio", v, "", "", r->p3.memcpy_ns_per_8b, r->p3.switch_ns_per_pte,
		       (unsigned long long)r->p3.ptes, "", "", "", "", r->p3.ratio_lo, r->p3.ratio_hi);
	}
	if (r->ran[PART_SCALE]) {
		snprintf(v, sizeof(v), "%u", r->p4_max_vgpus);
		printf(ROW "%s; %llu switches, %llu physical entries checked against the shadows\n", "p4_max_vgpus", v,
		       ">= 128", met(r->p4_max_vgpus >= 128),
		       r->p4_capped ? (o->quick ? "the quick run's cap, create never refused"
						: "the attempt's cap, create never refused")
				    : r->p4_refusal,
		       (unsigned long long)r->p4_switches, (unsigned long long)r->p4_entries_checked);
		snprintf(v, sizeof(v), "%.0f", r->p4_rss_kib_per_vgpu);
		printf(ROW "resident memory per vGPU (16 MiB low, one 64 MiB slot, 16 pages): %.1f bytes per GGTT entry it holds\n",
		       "p4_rss_kib_per_vgpu", v, "<= 24 B/entry", met(r->p4_bytes_per_entry > 0 && r->p4_bytes_per_entry <= 24),
		       r->p4_bytes_per_entry);
	}
	if (r->ran[PART_FRONTENDS]) {
		for (int p = 0; p < BENCH_PLATFORMS; p++) {
			char key[40];
			bool skl = !strcmp(r->p5_platforms[p], "skl");
			snprintf(key, sizeof(key), "p5_check_cpu_s.%s", r->p5_platforms[p]);
			snprintf(v, sizeof(v), "%.3f", r->p5_cpu_s[p]);
			printf(ROW "CPU seconds (user + system) of gttlab --device sim:%s check, median\n", key, v,
			       skl ? "<= 0.25" : "", skl ? met(r->p5_cpu_s[p] <= 0.25) : "", r->p5_platforms[p]);
		}
		snprintf(v, sizeof(v), "%.3f", r->p5_efi_over_floor);
		printf(ROW "gttlab.efi on sim:skl %.2f s / firmware floor %.2f s (QEMU TCG), medians\n",
		       "p5_efi_over_floor", v, "<= 1.5", met(r->p5_efi_over_floor <= 1.5), r->p5_efi_s, r->p5_floor_s);
		snprintf(v, sizeof(v), "%.6f", r->p5_efi_pool_s);
		printf(ROW "of which inside the firmware's memory calls (AllocatePool, FreePool, AllocatePages), as\n"
		       ROW "  gttlab.efi counts them: its memory is one region taken once; median\n",
		       "p5_efi_firmware_pool_s", v, "", "", "", "", "", "");
	}
	if (r->ran[PART_NEIGHBOURS]) {
		const struct bench_neighbours *nb = &r->neighbours;
		snprintf(v, sizeof(v), "%.2f", nb->ratio);
		printf(ROW "victim's guest suite over pv: beside the worst hostile neighbour (%s flood) %.0f ms / beside a control neighbour burning the CPU %.0f ms, medians of %u interleaved\n",
		       "boundary_hostile_neighbour_ratio", v, "<= 1.5", met(nb->ratio <= 1.5), nb->names[nb->worst],
		       nb->suite_ms[nb->worst], nb->suite_ms[0], nb->reps);
	}
	if (r->ran[PART_RESIZE]) {
		snprintf(v, sizeof(v), "%.0f", r->p6_occupancy_ns);
		printf(ROW "occupancy selector, worst of %u cases: %s\n", "p6_resize_worst_ns", v, "< 1000",
		       met(r->p6_occupancy_ns < 1000), r->p6_cases, r->p6_occupancy_case);
		snprintf(v, sizeof(v), "%.0f", r->p6_call_worst_ns);
		printf(ROW "single calls, shuffled, %zu in all: worst case's fastest call (%s); p99 %.0f ns, median %.0f ns, slowest single %.0f ns\n",
		       "p6_resize_worst_call_ns", v, "< 1000", met(r->p6_call_worst_ns < 1000), r->p6_calls, r->p6_call_case,
		       r->p6_call_p99_ns, r->p6_call_median_ns, r->p6_call_max_ns);
		snprintf(v, sizeof(v), "%.0f", r->p6_algorithm1_ns);
		printf(ROW "Algorithm 1 as published, same cases: %s\n", "p6_algorithm1_worst_ns", v, "", "",
		       r->p6_algorithm1_case);
	}
	if (r->ran[PART_GROWTH])
		for (int g = 0; g < 3; g++) {
			const struct bench_growth *gr = &r->growth[g];
			char key[40];
			snprintf(key, sizeof(key), "growth.%s", gr->name);
			snprintf(v, sizeof(v), "%.2f", gr->slope);
			printf(ROW "log-log slope of: %s:\n", key, v, "", "", gr->cost);
			printf(ROW " ", "", "", "", "");
			for (int i = 0; i < 3; i++)
				printf(" %g %s %.2f ms%s", gr->pt[i].x, gr->unit, gr->pt[i].ns / 1e6, i < 2 ? "," : "\n");
		}
	if (r->ran[PART_BALLOON])
		bench_balloon_table(o, &r->balloon);
	if (r->ran[PART_WAIT])
		bench_request_wait_table(o, &r->wait);
	if (r->ran[PART_ADMISSION])
		bench_admission_table(o, &r->admission);
	if (r->ran[PART_MIGRATION])
		bench_migration_table(o, &r->migration);
	if (r->ran[PART_BALANCE])
		bench_balance_table(o, &r->balance);
	if (r->ran[PART_BOUNDARY])
		bench_boundary_table(o, &r->boundary);
	if (r->ran[PART_NEIGHBOURS])
		bench_neighbours_table(o, &r->neighbours);
	if (r->ran[PART_LADDER])
		bench_ladder_table(o, &r->ladder);
	printf("\nresults: %s\n", o->json);
}

static void writes_json(struct bench_json *j, const char *name, const struct bench_writes *w)
{
	bench_json_open(j, name);
	bench_json_kint(j, "switches", w->switches);
	bench_json_kint(j, "trace_pte_writes", w->trace_writes);
	bench_json_kint(j, "entries_changed", w->changed);
	bench_json_kint(j, "runtime_ptes_written", w->runtime_written);
	bench_json_kint(j, "runtime_ptes_skipped", w->runtime_skipped);
	bench_json_close(j);
}

static void json(const struct bench_opts *o, const struct bench_results *r)
{
	struct bench_json j = { .f = fopen(o->json, "w") };

	if (!j.f)
		bench_die("cannot write %s", o->json);
	bench_json_open(&j, NULL);
	bench_json_key(&j, "quick");
	fputs(o->quick ? "true" : "false", j.f);
	bench_json_kint(&j, "seed", o->seed);
	/* the parts asked for that did not end well: none of their keys below */
	bench_json_key(&j, "failed_parts");
	fputc('[', j.f);
	for (int i = 0, n = 0; i < BENCH_PARTS; i++)
		if (r->failed[i])
			fprintf(j.f, "%s{\"part\": \"%s\", \"how\": \"%s\"}", n++ ? ", " : "", r->part_name[i], r->failure[i]);
	fputc(']', j.f);
	if (r->ran[PART_WRITES]) {
		bench_json_knum(&j, "p1_write_ratio_gscale", r->p1_gscale.ratio);
		bench_json_knum(&j, "p1_write_ratio_random", r->p1_random.ratio);
	}
	if (r->ran[PART_SWITCH]) {
		bench_json_knum(&j, "p2_copy_share_pct", r->p2_share_pct);
		bench_json_knum(&j, "p2_one_slot_share_pct", r->p2_one_slot_pct);
		bench_json_knum(&j, "p2_copy_share_cold_pct", r->p2_cold_pct);
		bench_json_knum(&j, "p3_linux_memcpy_ratio", r->p3_linux.ratio);
		bench_json_knum(&j, "p3_linux_memcpy_ratio_lo", r->p3_linux.ratio_lo);
		bench_json_knum(&j, "p3_linux_memcpy_ratio_hi", r->p3_linux.ratio_hi);
		bench_json_knum(&j, "p3_linux_floor_over_switch", r->p3_linux.floor_over_switch);
		bench_json_knum(&j, "p3_linux_floor_over_switch_lo", r->p3_linux.floor_ratio_lo);
		bench_json_knum(&j, "p3_linux_floor_over_switch_hi", r->p3_linux.floor_ratio_hi);
		bench_json_knum(&j, "p3_linux_switch_ns_per_pte", r->p3_linux.switch_ns_per_pte);
		bench_json_knum(&j, "p3_linux_store_floor_ns_per_pte", r->p3_linux.store_ns_per_pte);
		bench_json_knum(&j, "p3_memcpy_ratio_lo", r->p3.ratio_lo);
		bench_json_knum(&j, "p3_memcpy_ratio_hi", r->p3.ratio_hi);
		bench_json_knum(&j, "p2_one_slot_cold_ratio", r->p2_one_slot_cold_ratio);
		bench_json_knum(&j, "p2_one_slot_cold_ratio_lo", r->p2_cold_ratio_lo);
		bench_json_knum(&j, "p2_one_slot_cold_ratio_hi", r->p2_cold_ratio_hi);
		bench_json_knum(&j, "p2_copy_share_cold_pct_lo", r->p2_cold_lo_ns / (DOM0_QUANTUM_MS * 1e6) * 100);
		bench_json_knum(&j, "p2_copy_share_cold_pct_hi", r->p2_cold_hi_ns / (DOM0_QUANTUM_MS * 1e6) * 100);
		bench_json_kint(&j, "sched_worst_wait_quanta", r->sched_worst_wait);
		bench_json_knum(&j, "sched_fairness_index", r->sched_fairness);
		bench_json_kint(&j, "sched_ptes_written", r->sched_ptes);
		bench_json_kint(&j, "sched_rr_ptes_written", r->sched_rr_ptes);
		bench_json_knum(&j, "p3_memcpy_ratio", r->p3.ratio);
	}
	if (r->ran[PART_SCALE]) {
		bench_json_kint(&j, "p4_max_vgpus", r->p4_max_vgpus);
		bench_json_knum(&j, "p4_rss_kib_per_vgpu", r->p4_rss_kib_per_vgpu);
		bench_json_knum(&j, "p4_bytes_per_entry", r->p4_bytes_per_entry);
	}
	if (r->ran[PART_FRONTENDS]) {
		bench_json_open(&j, "p5_check_cpu_s");
		for (int p = 0; p < BENCH_PLATFORMS; p++)
			bench_json_knum(&j, r->p5_platforms[p], r->p5_cpu_s[p]);
		bench_json_close(&j);
		bench_json_knum(&j, "p5_efi_over_floor", r->p5_efi_over_floor);
		bench_json_knum(&j, "p5_efi_firmware_pool_s", r->p5_efi_pool_s);
	}
	if (r->ran[PART_NEIGHBOURS]) {
		bench_json_knum(&j, "boundary_hostile_neighbour_ratio", r->neighbours.ratio);
		bench_json_knum(&j, "boundary_hostile_neighbour_ms", r->neighbours.suite_ms[r->neighbours.worst]);
		bench_json_knum(&j, "boundary_control_neighbour_ms", r->neighbours.suite_ms[0]);
		bench_json_kstr(&j, "boundary_hostile_neighbour_worst", r->neighbours.names[r->neighbours.worst]);
	}
	if (r->ran[PART_RESIZE]) {
		bench_json_knum(&j, "p6_resize_worst_ns", r->p6_occupancy_ns);
		bench_json_knum(&j, "p6_algorithm1_worst_ns", r->p6_algorithm1_ns);
		bench_json_knum(&j, "p6_resize_worst_call_ns", r->p6_call_worst_ns);
		bench_json_knum(&j, "p6_resize_call_p99_ns", r->p6_call_p99_ns);
		bench_json_knum(&j, "p6_resize_call_median_ns", r->p6_call_median_ns);
		bench_json_knum(&j, "p6_resize_call_max_ns", r->p6_call_max_ns);
	}
	if (r->ran[PART_GROWTH]) {
		bench_json_open(&j, "growth");
		for (int g = 0; g < 3; g++) {
			const struct bench_growth *gr = &r->growth[g];
			bench_json_open(&j, gr->name);
			bench_json_kstr(&j, "unit", gr->unit);
			bench_json_kstr(&j, "cost", gr->cost);
			bench_json_key(&j, "points");
			fputc('[', j.f);
			for (int i = 0; i < 3; i++) {
				fprintf(j.f, "%s{\"x\": ", i ? ", " : "");
				bench_json_num(j.f, gr->pt[i].x);
				fputs(", \"ns\": ", j.f);
				bench_json_num(j.f, gr->pt[i].ns);
				fputc('}', j.f);
			}
			fputc(']', j.f);
			bench_json_knum(&j, "slope", gr->slope);
			bench_json_close(&j);
		}
		bench_json_close(&j);
	}
	if (r->ran[PART_BALLOON])
		bench_balloon_json(&j, &r->balloon);
	if (r->ran[PART_WAIT])
		bench_request_wait_json(&j, &r->wait);
	if (r->ran[PART_ADMISSION])
		bench_admission_json(&j, &r->admission);
	if (r->ran[PART_MIGRATION])
		bench_migration_json(&j, &r->migration);
	if (r->ran[PART_BALANCE])
		bench_balance_json(&j, &r->balance);
	if (r->ran[PART_BOUNDARY])
		bench_boundary_json(&j, &r->boundary);
	if (r->ran[PART_NEIGHBOURS])
		bench_neighbours_json(&j, &r->neighbours);
	if (r->ran[PART_LADDER])
		bench_ladder_json(&j, &r->ladder);
	/* the papers' claims, each with what it checks and the verdict computed from the numbers above */
	enum { MAX_CLAIMS = 64 };
	struct bench_claim claims[MAX_CLAIMS];
	unsigned nc = 0;
	if (r->ran[PART_BALLOON])
		nc += bench_balloon_claims(&r->balloon, claims + nc, MAX_CLAIMS - nc);
	if (r->ran[PART_WAIT])
		nc += bench_request_wait_claims(&r->wait, claims + nc, MAX_CLAIMS - nc);
	if (r->ran[PART_ADMISSION])
		nc += bench_admission_claims(&r->admission, claims + nc, MAX_CLAIMS - nc);
	if (r->ran[PART_MIGRATION])
		nc += bench_migration_claims(&r->migration, claims + nc, MAX_CLAIMS - nc);
	if (r->ran[PART_BALANCE])
		nc += bench_balance_claims(&r->balance, claims + nc, MAX_CLAIMS - nc);
	if (r->ran[PART_LADDER])
		nc += bench_ladder_claims(&r->ladder, claims + nc, MAX_CLAIMS - nc);
	if (r->ran[PART_BOUNDARY])
		nc += bench_boundary_claims(&r->boundary, claims + nc, MAX_CLAIMS - nc);
	bench_claims_json(&j, claims, nc);
	bench_json_open(&j, "details");
	if (r->ran[PART_WRITES]) {
		writes_json(&j, "p1_gscale", &r->p1_gscale);
		writes_json(&j, "p1_random", &r->p1_random);
		bench_json_open(&j, "p1_method_check");
		bench_json_kint(&j, "same_value_writes", r->p1_probe_writes);
		bench_json_kint(&j, "counted", r->p1_probe_counted);
		bench_json_kint(&j, "changed", r->p1_probe_changed);
		bench_json_close(&j);
	}
	if (r->ran[PART_SWITCH]) {
		bench_json_knum(&j, "p2_switch_ns", r->p2_switch_ns);
		bench_json_knum(&j, "p2_one_slot_switch_ns", r->p2_one_slot_ns);
		bench_json_kint(&j, "p2_ptes", r->p2_ptes);
		bench_json_kint(&j, "p2_one_slot_ptes", r->p2_one_slot_ptes);
		bench_json_knum(&j, "p3_memcpy_ns_per_8_bytes", r->p3.memcpy_ns_per_8b);
		bench_json_knum(&j, "p3_switch_ns_per_pte", r->p3.switch_ns_per_pte);
		bench_json_kint(&j, "p3_ptes", r->p3.ptes);
	}
	if (r->ran[PART_SCALE]) {
		bench_json_key(&j, "p4_capped");
		fputs(r->p4_capped ? "true" : "false", j.f);
		bench_json_kstr(&j, "p4_refusal", r->p4_refusal);
		bench_json_kint(&j, "p4_switches", r->p4_switches);
		bench_json_kint(&j, "p4_entries_checked", r->p4_entries_checked);
	}
	if (r->ran[PART_FRONTENDS]) {
		bench_json_knum(&j, "p5_efi_s", r->p5_efi_s);
		bench_json_knum(&j, "p5_floor_s", r->p5_floor_s);
	}
	if (r->ran[PART_RESIZE]) {
		bench_json_kint(&j, "p6_cases", r->p6_cases);
		bench_json_kstr(&j, "p6_resize_worst_case", r->p6_occupancy_case);
		bench_json_kstr(&j, "p6_algorithm1_worst_case", r->p6_algorithm1_case);
	}
	bench_json_close(&j);
	bench_json_open(&j, "goals");
	bench_json_kstr(&j, "p1_write_ratio", "= 1.00");
	bench_json_kstr(&j, "p2_copy_share_pct", "<= 0.5");
	bench_json_kstr(&j, "p2_one_slot_share_pct", ">= 5 x p2_copy_share_pct");
	bench_json_kstr(&j, "p2_copy_share_cold_pct", "<= 0.5");
	bench_json_kstr(&j, "p2_one_slot_cold_ratio", ">= 5");
	bench_json_kstr(&j, "p3_linux_floor_over_switch", ">= 0.5");
	bench_json_kstr(&j, "p4_max_vgpus", ">= 128");
	bench_json_kstr(&j, "p5_check_cpu_s.skl", "<= 0.25");
	bench_json_kstr(&j, "p5_efi_over_floor", "<= 1.5");
	bench_json_kstr(&j, "p6_resize_worst_ns", "< 1000");
	bench_json_kstr(&j, "p6_resize_worst_call_ns", "< 1000");
	bench_json_kstr(&j, "p4_bytes_per_entry", "<= 24");
	bench_json_kstr(&j, "sched_worst_wait_quanta", "<= 2N - 1");
	bench_json_kstr(&j, "sched_fairness_index", ">= 0.85");
	bench_json_kstr(&j, "boundary_hostile_neighbour_ratio", "<= 1.5");
	bench_json_close(&j);
	bench_json_close(&j);
	fputc('\n', j.f);
	if (fclose(j.f))
		bench_die("writing %s failed", o->json);
}

/*
 * The generated report: a header naming the run, the tree, the machine and
 * the date, then the very text `table` prints (every goal and every part's
 * tables beside the papers'), written by the same code into the file.
 */
static void markdown(const struct bench_opts *o, const struct bench_results *r)
{
	struct utsname u;
	time_t now = time(NULL);
	char date[32];
	FILE *f = fopen(o->markdown, "w");

	if (!f)
		bench_die("writing %s: %s", o->markdown, strerror(errno));
	if (uname(&u))
		snprintf(u.nodename, sizeof(u.nodename), "?");
	strftime(date, sizeof(date), "%Y-%m-%d %H:%M UTC", gmtime(&now));
	fprintf(f, "# gttlab bench results (generated)\n\n"
		   "Written by `make bench` (%s run, seed %llu) at %s from the tree `%s`, on %s (%s, %ld CPUs online).\n"
		   "Do not edit: the next `make bench` writes it again. Timings are ratios against a reference taken in\n"
		   "the same run, or medians with their spread; counts on the model's simulated clock are exact. What each\n"
		   "figure measures and why: [bench.md](bench.md).\n\n```\n",
		o->quick ? "quick" : "full", (unsigned long long)o->seed, date, o->tree ? o->tree : "unknown", u.nodename,
		u.machine, sysconf(_SC_NPROCESSORS_ONLN));
	fflush(f);
	fflush(stdout);
	int saved = dup(1);
	if (saved < 0 || dup2(fileno(f), 1) < 0)
		bench_die("writing %s: %s", o->markdown, strerror(errno));
	table(o, r);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	fseek(f, 0, SEEK_END);
	fprintf(f, "```\n");
	if (fclose(f))
		bench_die("writing %s failed", o->markdown);
}

void bench_report(const struct bench_opts *o, const struct bench_results *r)
{
	json(o, r);
	table(o, r);
	if (o->markdown)
		markdown(o, r);
}
