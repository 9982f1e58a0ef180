/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the host's side of the pv transport: what a guest of
 * `gttlab dom0 serve` writes into its mailbox, answered by pv_answer
 * (dom0/host/pv_answer.c) on a vGPU view of a Dom0 runtime over a simulated
 * Skylake, as serve answers it. The input is a program of 24-byte requests:
 * the op (any 32-bit value), the width, the address and the length as the
 * guest writes them (the address widened from 32 bits, the length from 24,
 * so that most land near the device's ranges and some anywhere); the
 * first 256 data bytes of each are the input's from there on (the rest of
 * the mailbox's data is what earlier requests left).
 *
 * Beyond ASan/UBSan: every request is answered (ANS_SEQ equals REQ_SEQ)
 * within the bound its documented cost gives (dom0/host/pv_answer.h: an
 * audit PV_STEP_AUDIT GGTT entries a step, a PTE run PV_STEP_PTES entries of
 * at most PV_DATA_MAX bytes a step; two steps more for its start and end),
 * with GTT_OK or a gtt error code, and a refused one carries a message; no
 * answer names another guest's stamp (there is none to find: a leak count
 * above zero is a bug of the search). At the end the view's host audit must
 * find the host side as the mediator promises (whatever the guest asked,
 * nothing outside it changed; every eighth input, as it reads the whole
 * GGTT), the vGPU must go, and the runtime's restore must read back.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dom0/dom0.h"
#include "dom0/guest_device.h"
#include "dom0/host/pv_answer.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/backend_sim.h"
#include "hw/pv_words.h"
#include "hw/raw_access.h"
#include "regs/pv_transport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MEM_PAGES	16
#define STEP		24
#define MAX_STEPS	256

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct gtt_env *env = gtt_env_posix(GTT_LOG_ERROR);
	struct hw_device *host = NULL;
	struct dom0_runtime *rt = NULL;
	struct gtt_err err = { 0 };
	struct hw_page ram[MEM_PAGES];
	uint8_t *mb = aligned_alloc(4096, PV_MAILBOX_SIZE);
	struct pv_answer_stats st = { 0 };
	struct pv_answer_env e = { .st = &st };	/* silent, no keys: stamps are not what this fuzzes */
	char why[256];

	if (!mb || hw_open(env, "sim:skl", gtt_posix_backends, gtt_num_posix_backends, NULL, &host, &err) ||
	    dom0_init(host, &(struct dom0_config){ 0 }, &rt, &err) || hw_alloc_test_pages(host, MEM_PAGES, ram, &err)) {
		fprintf(stderr, "fuzz_pv: setting up: %s\n", err.msg);
		abort();
	}
	struct dom0_guest_view_params p = { .low_size = 4ull << 20, .high_slots = 1, .fences = 2, .mem_pages = MEM_PAGES,
					    .ram = ram };
	struct pv_guest g = { .k = 1, .bar0_size = host->info.bar0_size, .mb = mb };
	if (dom0_guest_view_open(env, host, rt, &p, &g.ops, &g.ctx, &g.vgpu, &err)) {
		fprintf(stderr, "fuzz_pv: the view: %s\n", err.msg);
		abort();
	}
	memset(mb, 0, PV_MAILBOX_SIZE);
	uint64_t seq = 0;
	/* the most steps any request may take, from the documented costs (it once was 2048: an audit of a
	 * 4 GiB GGTT takes 4096, so the first audit in the corpus aborted a correct host) */
	uint64_t audit_steps = (host->info.n_ptes + PV_STEP_AUDIT - 1) / PV_STEP_AUDIT;
	uint64_t pte_steps = (PV_DATA_MAX / 4 + PV_STEP_PTES - 1) / PV_STEP_PTES;
	unsigned max_steps = (unsigned)(audit_steps > pte_steps ? audit_steps : pte_steps) + 2;
	for (size_t at = 0, n = 0; at + STEP <= size && n < MAX_STEPS; at += STEP, n++) {
		const uint8_t *s = data + at;
		uint32_t op = le32(s), width = le32(s + 4);
		uint64_t addr = le32(s + 8) | (uint64_t)(s[12] & 0x80 ? le32(s + 12) : 0) << 32;
		uint64_t len = le32(s + 16) & 0xffffff;
		if (s[20] & 0x80)
			len |= (uint64_t)le32(s + 20) << 24;
		for (size_t b = 0; b < 256; b++)	/* what a write carries: the input's bytes, then what earlier left */
			mb[PV_MB_DATA + b] = data[(at + b) % size];
		pv_wr32(mb, PV_MB_OP, op);
		pv_wr32(mb, PV_MB_WIDTH, width);
		pv_wr64(mb, PV_MB_ADDR, addr);
		pv_wr64(mb, PV_MB_LEN, len);
		pv_wr64(mb, PV_MB_REQ_SEQ, ++seq);
		/* a step at a time, as serve gives it; a guest rewriting its words mid-request changes nothing */
		enum pv_answered r = pv_answer(&g, &e);
		unsigned steps = 1;
		for (; r == PV_UNDER_WAY && steps < max_steps; steps++) {
			pv_wr32(mb, PV_MB_OP, op ^ (uint32_t)steps);
			pv_wr64(mb, PV_MB_LEN, len + steps);
			r = pv_answer(&g, &e);
		}
		if (r != PV_ANSWERED || pv_rd64(mb, PV_MB_ANS_SEQ) != seq) {
			fprintf(stderr, "fuzz_pv: request %llu (op %u) not answered after %u steps\n", (unsigned long long)seq, op,
				steps);
			abort();
		}
		int32_t status = (int32_t)pv_rd32(mb, PV_MB_STATUS);
		if (status > 0 || status < GTT_ENOTSUP) {
			fprintf(stderr, "fuzz_pv: request %llu (op %u): status %d is no gtt error code\n", (unsigned long long)seq,
				op, status);
			abort();
		}
		if (status == GTT_EINVAL && !mb[PV_MB_MSG] && op != PV_OP_HOST_AUDIT) {
			fprintf(stderr, "fuzz_pv: request %llu (op %u) refused without a word\n", (unsigned long long)seq, op);
			abort();
		}
	}
	if (st.foreign_stamps) {
		fprintf(stderr, "fuzz_pv: %llu stamps of another vGPU found where there is none\n",
			(unsigned long long)st.foreign_stamps);
		abort();
	}
	/* the audit reads every GGTT entry: every eighth input (fuzz_pvinfo's GSM comparison does the same) */
	static unsigned inputs;
	if (!(inputs++ % 8) && g.ops->host_audit(g.ctx, why, sizeof(why))) {
		fprintf(stderr, "fuzz_pv: after %llu requests the host side changed: %s\n", (unsigned long long)seq, why);
		abort();
	}
	g.ops->close(g.ctx);
	if (dom0_fini(rt, &err)) {
		fprintf(stderr, "fuzz_pv: the runtime's restore did not read back: %s\n", err.msg);
		abort();
	}
	hw_free_test_pages(host, MEM_PAGES, ram);
	hw_close(host);
	free(mb);
	return 0;
}
