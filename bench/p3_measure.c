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
/* The floor of any PTE write path: each entry one 8-byte volatile store, as the linux backend's. */
static void __attribute__((noinline)) store8(uint64_t *to, const uint64_t *from, size_t n)
{
	volatile uint64_t *v = to;

	for (size_t i = 0; i < n; i++)
		v[i] = from[i];
}

void bench_p3_measure(struct bench_dev *b, unsigned reps, struct bench_p3 *out)
{
	size_t bytes = (size_t)P3_PTES * 8;
	uint64_t *src = malloc(bytes), *dst = malloc(bytes);
	double *mc = calloc(reps, sizeof(double)), *sw = calloc(reps, sizeof(double)), *st8 = calloc(reps, sizeof(double));
	int id[2];

	if (!src || !dst || !mc || !sw || !st8)
		bench_die("out of memory");
	for (size_t i = 0; i < P3_PTES; i++)
		src[i] = i * 0x1001, dst[i] = 0;
	for (int k = 0; k < 2; k++) {
		struct dom0_vgpu_params p = { .low_size = 64ull << 20, .high_slots = 5, .mem_pages = 64, .place = true };
		id[k] = bench_create(b, &p);
		struct dom0_vgpu_info info = bench_info(b, id[k]);
		bench_map(b, id[k], info.low_base / 4096, 0, 16);
		bench_map(b, id[k], info.high_base / 4096, 16, 16);
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
		store8(dst, src, P3_PTES);
		st8[k] = (double)(bench_now_ns() - t2) / P3_PTES;
		if (!st.ptes_written)
			bench_die("P3: a switch between the two vGPUs wrote nothing");
		out->ptes = st.ptes_written;
		mc[k] = (double)(t1 - t0) / P3_PTES;
		sw[k] = (double)(t2 - t1) / (double)st.ptes_written;
	}
	double *ratios = calloc(reps, sizeof(double));
	if (!ratios)
		bench_die("out of memory");
	for (unsigned k = 0; k < reps; k++)
		ratios[k] = mc[k] / sw[k];
	bench_median(ratios, reps);	/* sorted: the range at its ends */
	out->ratio_lo = ratios[0];
	out->ratio_hi = ratios[reps - 1];
	free(ratios);
	out->memcpy_ns_per_8b = bench_median(mc, reps);
	out->switch_ns_per_pte = bench_median(sw, reps);
	out->ratio = out->memcpy_ns_per_8b / out->switch_ns_per_pte;
	out->store_ns_per_pte = bench_median(st8, reps);
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
	bench_p3_measure(&b, o->quick ? 9 : 41, &r->p3);
	bench_close(&b);
}

