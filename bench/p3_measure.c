/* SPDX-License-Identifier: MIT */
/*
 * P3: a switch of N = 98,304 PTEs against a memcpy of the same bytes and
 * against the floor of any PTE write path (each entry one 8-byte store),
 * interleaved so that all three see the same machine; on the runtime a
 * bench_dev runs, whatever its device: the model (bench_p3_sim) or the linux
 * backend (bench/linux_path.c).
 */
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "hw/ggtt.h"

#define P3_PTES 98304u

/* Through a volatile pointer: the copy is made, whatever the compiler sees. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

/*
 * Two vGPUs on the same 64 MiB low range and the same five 64 MiB slots:
 * every switch between them copies 16,384 + 81,920 = 98,304 entries, all of
 * which differ (each vGPU's unmapped entries name its own scratch page).
 * Each switch is timed between two memcpys of the same bytes; on the runtime
 * b runs, whatever its device (the model, or the linux backend).
 */
/*
 * The floor of any PTE write path: each entry one 8-byte volatile store and
 * nothing else, as i915's gen8_set_pte. The loop starts on a 64-byte
 * boundary (the function's alignment, and -falign-loops=64 for this file
 * in the Makefile), so its cost does not move with the code around it.
 */
static void __attribute__((noinline, aligned(64))) store8(volatile uint64_t *to, const uint64_t *from, size_t n)
{
	for (size_t i = 0; i < n; i++)
		to[i] = from[i];
}

/* The two runs of PTEs every switch between the two vGPUs writes: the low range, then the five slots. */
struct p3_runs {
	uint64_t first[2], n[2];
};

/* The floor into gsm (the mapping of the GSM the switch writes): the values the entries hold now, stored again. */
static void floor_in_place(volatile uint64_t *gsm, const struct p3_runs *r, const uint64_t *vals)
{
	store8(gsm + r->first[0], vals, (size_t)r->n[0]);
	store8(gsm + r->first[1], vals + r->n[0], (size_t)r->n[1]);
}

/* The physical GTT (read through the device) over both runs equals vGPU id's shadow; buf: P3_PTES scratch. */
static void verify(struct bench_dev *b, int id, const struct p3_runs *r, uint64_t *buf)
{
	struct gtt_err err = { 0 };

	for (int k = 0; k < 2; k++) {
		if (hw_ggtt_read_range(b->dev, r->first[k], (size_t)r->n[k], buf, &err))
			bench_die("P3: reading the physical GTT back: %s", err.msg);
		for (uint64_t i = 0; i < r->n[k]; i++) {
			uint64_t want;
			if (dom0_shadow_pte(b->rt, id, r->first[k] + i, &want, &err))
				bench_die("P3: shadow of vGPU %d at %llu: %s", id, (unsigned long long)(r->first[k] + i), err.msg);
			if (buf[i] != want)
				bench_die("P3: after the switch to vGPU %d the physical PTE %llu is 0x%llx, its shadow 0x%llx", id,
					  (unsigned long long)(r->first[k] + i), (unsigned long long)buf[i],
					  (unsigned long long)want);
		}
	}
}

void bench_p3_measure(struct bench_dev *b, unsigned reps, volatile uint64_t *gsm, struct bench_p3 *out)
{
	size_t bytes = (size_t)P3_PTES * 8;
	uint64_t *src = malloc(bytes), *dst = malloc(bytes), *held[2] = { malloc(bytes), malloc(bytes) };
	double *mc = calloc(reps, sizeof(double)), *sw = calloc(reps, sizeof(double)), *st8 = calloc(reps, sizeof(double));
	struct p3_runs runs = { { 0 }, { 0 } };
	int id[2];

	if (!src || !dst || !held[0] || !held[1] || !mc || !sw || !st8)
		bench_die("out of memory");
	for (size_t i = 0; i < P3_PTES; i++)
		src[i] = i * 0x1001, dst[i] = 0;
	for (int k = 0; k < 2; k++) {
		struct dom0_vgpu_params p = { .low_size = 64ull << 20, .high_slots = 5, .mem_pages = 64, .place = true };
		id[k] = bench_create(b, &p);
		struct dom0_vgpu_info info = bench_info(b, id[k]);
		bench_map(b, id[k], info.low_base / 4096, 0, 16);
		bench_map(b, id[k], info.high_base / 4096, 16, 16);
		runs = (struct p3_runs){ { info.low_base / 4096, info.high_base / 4096 },
					 { info.low_size / 4096, info.high_size / 4096 } };
	}
	if (runs.n[0] + runs.n[1] != P3_PTES)
		bench_die("P3: the two vGPUs' ranges hold %llu entries, not %u", (unsigned long long)(runs.n[0] + runs.n[1]),
			  P3_PTES);
	/* what the GSM holds with each vGPU switched in: the in-place floor stores it again, changing nothing */
	for (int k = 0; gsm && k < 2; k++) {
		bench_switch(b, id[k], NULL);
		for (uint64_t i = 0; i < runs.n[0]; i++)
			held[k][i] = gsm[runs.first[0] + i];
		for (uint64_t i = 0; i < runs.n[1]; i++)
			held[k][runs.n[0] + i] = gsm[runs.first[1] + i];
	}
	bench_switch(b, id[0], NULL);
	bench_switch(b, id[1], NULL);
	copy_fn(dst, src, bytes);
	for (unsigned k = 0; k < reps; k++) {
		struct dom0_switch_stats st;
		uint64_t t0 = bench_now_ns();
		copy_fn(dst, src, bytes);
		uint64_t t1 = bench_now_ns();
		bench_switch(b, id[k % 2], &st);
		uint64_t t2 = bench_now_ns();
		if (gsm)
			floor_in_place(gsm, &runs, held[k % 2]);
		else
			store8(dst, src, P3_PTES);
		st8[k] = (double)(bench_now_ns() - t2) / P3_PTES;
		if (st.ptes_written != P3_PTES)
			bench_die("P3: a switch between the two vGPUs wrote %llu PTEs, not the %u that differ",
				  (unsigned long long)st.ptes_written, P3_PTES);
		verify(b, id[k % 2], &runs, dst);	/* untimed: the GTT holds the shadow, entry for entry */
		out->ptes = st.ptes_written;
		mc[k] = (double)(t1 - t0) / P3_PTES;
		sw[k] = (double)(t2 - t1) / (double)st.ptes_written;
	}
	/* each repetition's memcpy, switch and floor are taken on the same machine state: their ratios pair by pair,
	 * before bench_median sorts any of the three arrays */
	double *ratios = calloc(reps, sizeof(double)), *floors = calloc(reps, sizeof(double));
	if (!ratios || !floors)
		bench_die("out of memory");
	for (unsigned k = 0; k < reps; k++) {
		ratios[k] = mc[k] / sw[k];
		floors[k] = st8[k] / sw[k];
	}
	bench_median(ratios, reps);	/* sorted: the range at its ends */
	out->ratio_lo = ratios[0];
	out->ratio_hi = ratios[reps - 1];
	out->floor_over_switch = bench_median(floors, reps);
	out->floor_ratio_lo = floors[0];
	out->floor_ratio_hi = floors[reps - 1];
	free(ratios);
	free(floors);
	out->memcpy_ns_per_8b = bench_median(mc, reps);
	out->switch_ns_per_pte = bench_median(sw, reps);
	out->ratio = out->memcpy_ns_per_8b / out->switch_ns_per_pte;
	out->store_ns_per_pte = bench_median(st8, reps);
	out->floor_in_place = gsm != NULL;
	/* the floor stored what was there: the GSM still holds the last vGPU switched in, entry for entry */
	for (uint64_t i = 0; gsm && i < P3_PTES; i++)
		if ((i < runs.n[0] ? gsm[runs.first[0] + i] : gsm[runs.first[1] + i - runs.n[0]]) != held[(reps - 1) % 2][i])
			bench_die("P3: GSM entry %llu of the range changed under the floor's stores", (unsigned long long)i);
	free(held[0]);
	free(held[1]);
	free(st8);
	free(src);
	free(dst);
	free(mc);
	free(sw);
}

void bench_p3_sim(const struct bench_opts *o, struct bench_results *r)
{
	struct bench_dev b;

	bench_open(&b, "sim:skl", NULL);
	bench_p3_measure(&b, o->quick ? 9 : 41, NULL, &r->p3);
	bench_close(&b);
}

