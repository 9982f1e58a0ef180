/* SPDX-License-Identifier: MIT */
/*
 * One request of a guest's mailbox (regs/pv_transport.h), answered: its
 * words read, checked (anything malformed refused with GTT_EINVAL and the
 * rule in the message, nothing done), carried out as one call of the
 * guest's vGPU's operations table, and the answer written, ANS_SEQ last.
 * What a guest reads through the aperture or the GPU side is searched for
 * other guests' stamps (PV_TAG_MAGIC). `gttlab dom0 serve` answers with it
 * (dom0/host/pv_serve.c); fuzz/fuzz_pv.c feeds it any mailbox words.
 */
#ifndef DOM0_HOST_PV_ANSWER_H
#define DOM0_HOST_PV_ANSWER_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/backend.h"

/* A guest as the answer needs it. */
struct pv_guest {
	unsigned k;				/* its slot, for messages */
	const struct hw_backend_ops *ops;	/* its vGPU's view */
	void *ctx;
	int vgpu;				/* the vGPU's id: its stamps' vgt_id */
	uint64_t bar0_size;			/* the host's BAR0: MMIO offsets inside it */
	uint8_t *mb;				/* its mailbox */
};

struct pv_answer_stats {
	uint64_t rejected;			/* requests refused as malformed */
	uint64_t own_stamps, foreign_stamps;	/* stamps in what it read: its own, another vGPU's (a leak) */
};

struct pv_answer_env {
	struct pv_answer_stats *st;
	void (*say)(void *ctx, const char *line);	/* a leak, named; NULL: silent */
	void *ctx;
};

/* Answer the request waiting in g's mailbox, if one waits; whether one did. */
bool pv_answer(const struct pv_guest *g, const struct pv_answer_env *e);

#endif
