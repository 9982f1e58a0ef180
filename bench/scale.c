/* SPDX-License-Identifier: MIT */
/*
 * P4: how many vGPUs one sim:skl runtime holds. vGPUs of 16 MiB low and one
 * 64 MiB slot are created until create refuses (or the cap: 4096, 256 in the
 * quick run); each maps pages in both ranges; then the runtime switches to
 * every one of them in turn, and after each switch the incoming vGPU's
 * ranges in the physical GTT, read from the model, must equal its shadow.
 * Half are destroyed and the rest switched to again; dom0_fini must find the
 * device as it was. The count is exact; a mismatch ends the bench. The
 * resident memory they cost is measured (/proc/self/statm) per vGPU and per
 * GGTT entry they hold.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"

static uint64_t check_range(struct bench_dev *b, int id, uint64_t first, uint64_t n, uint64_t *buf)
{
	const struct hw_info *in = &b->dev->info;
	struct gtt_err err = { 0 };

	sim_gsm_read_run(b->sim, in->gsm_offset + (uint32_t)(first * in->pte_size), buf, (size_t)n, in->pte_size);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t want;
		if (dom0_shadow_pte(b->rt, id, first + i, &want, &err))
			bench_die("P4: shadow of vGPU %d at %llu: %s", id, (unsigned long long)(first + i), err.msg);
		if (buf[i] != want)
			bench_die("P4: after the switch to vGPU %d the physical PTE %llu is 0x%llx, its shadow 0x%llx", id,
				  (unsigned long long)(first + i), (unsigned long long)buf[i], (unsigned long long)want);
	}
	return n;
}

static void switch_and_check(struct bench_dev *b, int id, uint64_t *buf, struct bench_results *r)
{
	struct dom0_vgpu_info info = bench_info(b, id);

	bench_switch(b, id, NULL);
	r->p4_switches++;
	r->p4_entries_checked += check_range(b, id, info.low_base / 4096, info.low_size / 4096, buf);
	r->p4_entries_checked += check_range(b, id, info.high_base / 4096, info.high_size / 4096, buf);
}

/* The process's resident memory in KiB (/proc/self/statm, pages), 0 where it cannot be read. */
static uint64_t rss_kib(void)
{
	unsigned long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f)
		return 0;
	if (fscanf(f, "%lu %lu", &size, &resident) != 2)
		resident = 0;
	fclose(f);
	return (uint64_t)resident * 4;
}

void bench_scale(const struct bench_opts *o, struct bench_results *r)
{
	unsigned cap = o->quick ? 256 : 4096;
	struct bench_dev b;
	struct gtt_err err = { 0 };
	int *ids = calloc(cap, sizeof(int));
	unsigned n = 0;

	bench_note("P4: vGPUs one sim:skl runtime holds (create until refused, at most %u)", cap);
	bench_open(&b, "sim:skl", NULL);
	uint64_t *buf = malloc((size_t)b.dev->info.n_ptes * sizeof(uint64_t));
	if (!ids || !buf)
		bench_die("out of memory");
	r->p4_capped = true;
	uint64_t rss0 = rss_kib(), entries = 0;
	while (n < cap) {
		struct dom0_vgpu_params p = { .low_size = 16ull << 20, .high_slots = 1, .fences = 2, .mem_pages = 16 };
		if (dom0_vgpu_create(b.rt, &p, &ids[n], &err)) {
			r->p4_capped = false;
			snprintf(r->p4_refusal, sizeof(r->p4_refusal), "%s", err.msg);
			break;
		}
		struct dom0_vgpu_info info = bench_info(&b, ids[n]);
		entries += (info.low_size + info.high_size) / 4096;
		bench_map(&b, ids[n], info.low_base / 4096 + n % 4000, 0, 4);
		bench_map(&b, ids[n], info.high_base / 4096 + n % 16000, 4, 4);
		n++;
	}
	r->p4_max_vgpus = n;
	if (!n)
		bench_die("P4: not one vGPU could be created: %s", r->p4_refusal);
	/* what holding them costs the process: the runtime's tables and the model's pages for them */
	uint64_t rss1 = rss_kib();
	r->p4_rss_kib_per_vgpu = rss1 > rss0 ? (double)(rss1 - rss0) / n : 0;
	r->p4_bytes_per_entry = entries && rss1 > rss0 ? (double)(rss1 - rss0) * 1024 / (double)entries : 0;
	for (unsigned i = 0; i < n; i++)
		switch_and_check(&b, ids[i], buf, r);
	for (unsigned i = 0; i < n; i += 2)
		if (dom0_vgpu_destroy(b.rt, ids[i], &err))
			bench_die("P4: destroy vGPU %d: %s", ids[i], err.msg);
	for (unsigned i = 1; i < n; i += 2)
		switch_and_check(&b, ids[i], buf, r);
	bench_close(&b);
	free(buf);
	free(ids);
}
