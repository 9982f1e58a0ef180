/* SPDX-License-Identifier: MIT */
/*
 * migration: the cost of VOCL's two moves on the model (sim:skl, 64 MiB
 * slots). A vGPU of S slots with every high entry mapped (1 in 7 of them
 * off its scratch page) and its render ownership: slot to slot, the move to
 * the far end of high memory (the source entries put back) and the switch
 * that then copies its range in, against the same switch without a move
 * (a vGPU coming back after another ran); device to device (to a second
 * sim:skl), the whole move with its guest memory (S x 256 pages), against a
 * memcpy of the same bytes. Counts are exact; times are medians.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/papers.h"

#define MiB		(1ull << 20)

static const unsigned sizes[BENCH_MIGRATE_SIZES] = { 1, 4, 16 };

static int make_vgpu(struct bench_dev *b, unsigned slots, unsigned mem, unsigned at)
{
	struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = slots, .mem_pages = mem, .place = true,
				      .at_slot = at };
	int id = bench_create(b, &p);
	struct dom0_vgpu_info in = bench_info(b, id);
	struct gtt_err err = { 0 };

	for (uint64_t i = 0; i < in.high_size / 4096; i += 7)
		if (dom0_guest_pte_write(b->rt, id, in.high_base / 4096 + i, bench_guest_pte(b, (i / 7) % mem), &err))
			bench_die("migration: guest PTE write: %s", err.msg);
	for (unsigned g = 0; g < mem; g++) {
		struct hw_page pg;
		dom0_guest_page(b->rt, id, g, &pg);
		memset(pg.cpu, (int)(g & 0xff), 4096);
	}
	return id;
}

static void one_size(const struct bench_opts *o, struct bench_migrate_row *r, unsigned slots, unsigned reps)
{
	struct bench_dev a = { 0 }, b = { 0 };
	double t_move[16], t_sw[16], t_ref[16], t_dev[16], t_cpy[16], t_step[DOM0_MIGRATE_STEPS][16];
	struct gtt_err err = { 0 };
	struct dom0_migration m;
	struct dom0_switch_stats st;

	(void)o;
	r->slots = slots;
	r->mem_pages = slots * 256;
	bench_open(&a, "sim:skl", NULL);
	unsigned M = dom0_layout(a.rt)->num_slots;
	int v = make_vgpu(&a, slots, r->mem_pages, 0);
	int w = make_vgpu(&a, 1, 16, M - 1);	/* another, to switch away to */
	for (unsigned k = 0; k < reps; k++) {
		bench_switch(&a, v, &st);	/* v runs; it moves between the two ends */
		unsigned to = k % 2 ? 0 : M - 1 - slots;
		uint64_t t0 = bench_now_ns();
		if (dom0_migrate(a.rt, v, to, &m, &err))
			bench_die("migration: slot to slot: %s", err.msg);
		t_move[k] = (double)(bench_now_ns() - t0);
		bench_switch(&a, v, &st);
		t_sw[k] = (double)st.ns;
		r->released = m.ptes_released;
		r->next_switch_written = st.ptes_written;
		/* the reference: the same copy without a move, a first switch to a vGPU of v's size
		 * and mapping whose range the GTT does not hold (made where v was, after w ran) */
		bench_switch(&a, w, &st);
		struct dom0_vgpu_params p = { .low_size = 4 * MiB, .high_slots = slots, .mem_pages = 16, .place = true,
					      .at_slot = to ? 0 : M - 1 - slots };
		int x = bench_create(&a, &p);
		struct dom0_vgpu_info in = bench_info(&a, x);
		for (uint64_t i = 0; i < in.high_size / 4096; i += 7)
			dom0_guest_pte_write(a.rt, x, in.high_base / 4096 + i, bench_guest_pte(&a, (i / 7) % 16), NULL);
		bench_switch(&a, x, &st);
		t_ref[k] = (double)st.ns;
		if (dom0_vgpu_destroy(a.rt, x, &err))
			bench_die("migration: destroy: %s", err.msg);
	}
	r->slot_ns = bench_median(t_move, reps);
	r->slot_switch_ns = bench_median(t_sw, reps);
	double ref = bench_median(t_ref, reps);
	r->slot_over_switch = ref > 0 ? (r->slot_ns + r->slot_switch_ns) / ref : 0;

	/* device to device, and back: each way is one move */
	bench_open(&b, "sim:skl", NULL);
	struct bench_dev *from = &a, *to_dev = &b;
	uint8_t *src = malloc((size_t)r->mem_pages * 4096), *dst = malloc((size_t)r->mem_pages * 4096);
	if (!src || !dst)
		bench_die("migration: out of memory");
	memset(src, 0x5a, (size_t)r->mem_pages * 4096);
	for (unsigned k = 0; k < reps; k++) {
		bench_switch(from, v, &st);
		int nv;
		uint64_t t0 = bench_now_ns();
		if (dom0_migrate_device(from->rt, v, to_dev->rt, &nv, &m, &err))
			bench_die("migration: device to device: %s", err.msg);
		t_dev[k] = (double)(bench_now_ns() - t0);
		for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
			t_step[s][k] = (double)m.step_ns[s];
		t0 = bench_now_ns();
		memcpy(dst, src, (size_t)r->mem_pages * 4096);
		t_cpy[k] = (double)(bench_now_ns() - t0);
		src[k % 4096] ^= dst[(k * 7) % 4096];
		r->mapped = m.ptes_mapped;
		r->bytes = m.bytes_copied;
		v = nv;
		struct bench_dev *t = from;
		from = to_dev;
		to_dev = t;
	}
	free(src);
	free(dst);
	r->dev_ns = bench_median(t_dev, reps);
	for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
		r->dev_step_ns[s] = bench_median(t_step[s], reps);
	r->memcpy_ns = bench_median(t_cpy, reps);
	r->dev_over_memcpy = r->memcpy_ns > 0 ? r->dev_ns / r->memcpy_ns : 0;
	bench_close(&b);
	bench_close(&a);
}

void bench_migration(const struct bench_opts *o, struct bench_results *res)
{
	struct bench_migration *m = &res->migration;

	m->reps = o->quick ? 3 : 9;
	bench_note("migration: slot to slot and device to device on sim:skl, %u, %u and %u slots, %u each", sizes[0],
		   sizes[1], sizes[2], m->reps);
	for (unsigned i = 0; i < BENCH_MIGRATE_SIZES; i++)
		one_size(o, &m->row[i], sizes[i], m->reps);
}

void bench_migration_table(const struct bench_opts *o, const struct bench_migration *m)
{
	printf("\nmigration: VOCL's moves on the model (%s run): sim:skl, 64 MiB slots, 1 in 7 high entries mapped, medians of %u\n"
	       "  slot to slot: the move, then the switch that copies the range in; reference: the first switch to a\n"
	       "  vGPU of the same size whose range the GTT does not hold. device to device (to a second sim:skl): the\n"
	       "  whole move with 256 guest pages per slot; reference: memcpy of the same bytes\n",
	       o->quick ? "quick" : "full", m->reps);
	printf("  %5s %11s %11s %9s %9s %8s   %9s %11s %9s %9s\n", "slots", "PTEs back", "next sw.", "move", "+switch",
	       "/ref", "mapped", "bytes", "move", "/memcpy");
	for (unsigned i = 0; i < BENCH_MIGRATE_SIZES; i++) {
		const struct bench_migrate_row *r = &m->row[i];
		printf("  %5u %11llu %11llu %7.1fus %7.1fus %7.2fx   %9llu %11llu %7.1fus %8.1fx\n", r->slots,
		       (unsigned long long)r->released, (unsigned long long)r->next_switch_written, r->slot_ns / 1e3,
		       r->slot_switch_ns / 1e3, r->slot_over_switch, (unsigned long long)r->mapped,
		       (unsigned long long)r->bytes, r->dev_ns / 1e3, r->dev_over_memcpy);
	}
	printf("  device to device by VOCL's steps (Figure 8's breakdown), medians in us:\n  %5s", "slots");
	for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
		printf(" %9s", dom0_migrate_step_name((enum dom0_migrate_step)s));
	printf("\n");
	for (unsigned i = 0; i < BENCH_MIGRATE_SIZES; i++) {
		printf("  %5u", m->row[i].slots);
		for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
			printf(" %9.1f", m->row[i].dev_step_ns[s] / 1e3);
		printf("\n");
	}
	printf("  (the counterpart here of VOCL's destination VGPU creation is select: the target vGPU made, its memory\n"
	       "  and shadow tables)\n");
	struct bench_claim c[BENCH_MIGRATE_SIZES];
	bench_claims_report(c, bench_migration_claims(m, c, BENCH_MIGRATE_SIZES));
}

/*
 * VOCL Figure 8: the destination's creation dominates a move's overhead; measured
 * at each size as select's lead on the longest other step, in percent of it.
 */
unsigned bench_migration_claims(const struct bench_migration *m, struct bench_claim *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < BENCH_MIGRATE_SIZES && n < max; i++) {
		double sel = m->row[i].dev_step_ns[DOM0_MIGRATE_SELECT], top = 0;
		const char *top_name = "?";
		for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
			if (s != DOM0_MIGRATE_SELECT && m->row[i].dev_step_ns[s] > top) {
				top = m->row[i].dev_step_ns[s];
				top_name = dom0_migrate_step_name((enum dom0_migrate_step)s);
			}
		out[n] = bench_claim("VOCL", "Fig. 8", "", "%", NAN, top > 0 ? (sel / top - 1) * 100 : 0, CLAIM_SIGN);
		snprintf(out[n].claim, sizeof(out[n].claim), "%u slots: creation (select) leads the move's steps",
			 m->row[i].slots);
		snprintf(out[n].why, sizeof(out[n].why), "%s takes %.1f us against select's %.1f us", top_name, top / 1e3,
			 sel / 1e3);
		n++;
	}
	return n;
}

void bench_migration_json(struct bench_json *j, const struct bench_migration *m)
{
	char key[16];

	bench_json_open(j, "migration");
	bench_json_kint(j, "reps", m->reps);
	for (unsigned i = 0; i < BENCH_MIGRATE_SIZES; i++) {
		const struct bench_migrate_row *r = &m->row[i];
		snprintf(key, sizeof(key), "slots_%u", r->slots);
		bench_json_open(j, key);
		bench_json_kint(j, "ptes_released", r->released);
		bench_json_kint(j, "next_switch_written", r->next_switch_written);
		bench_json_knum(j, "slot_move_ns", r->slot_ns);
		bench_json_knum(j, "slot_switch_ns", r->slot_switch_ns);
		bench_json_knum(j, "slot_over_switch", r->slot_over_switch);
		bench_json_kint(j, "ptes_mapped", r->mapped);
		bench_json_kint(j, "bytes_copied", r->bytes);
		bench_json_knum(j, "device_move_ns", r->dev_ns);
		bench_json_knum(j, "device_over_memcpy", r->dev_over_memcpy);
		bench_json_open(j, "device_steps_ns");
		for (unsigned s = 0; s < DOM0_MIGRATE_STEPS; s++)
			bench_json_knum(j, dom0_migrate_step_name((enum dom0_migrate_step)s), r->dev_step_ns[s]);
		bench_json_close(j);
		bench_json_close(j);
	}
	bench_json_close(j);
}
