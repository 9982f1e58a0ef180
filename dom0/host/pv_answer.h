/* SPDX-License-Identifier: MIT */
/*
 * One request of a guest's mailbox (regs/pv_transport.h), answered: its
 * words read once and latched (a guest that rewrites them mid-request
 * changes nothing), checked (anything malformed refused with GTT_EINVAL and
 * the rule in the message, nothing done), carried out on the guest's vGPU's
 * operations table, and the answer written, ANS_SEQ last.
 *
 * Every call costs the host a bounded amount, whatever the guest asked: a
 * request longer than one step (a PTE run of more than PV_STEP_PTES entries,
 * a host audit of more than PV_STEP_AUDIT GGTT entries) is carried out a
 * step a call, its progress kept in the guest's pv_progress, and answered
 * when the last step is done. `gttlab dom0 serve` gives each guest one call
 * a round (dom0/host/pv_serve.c), so no guest's request holds another's
 * longer than a step. The worst case of a step, by request kind: one config
 * or MMIO access; PV_STEP_PTES trapped PTE accesses; one aperture or GPU-side
 * access of at most 64 KiB and a search of it; PV_STEP_AUDIT GGTT entries
 * of an audit and, at its end, its fences and peers.
 *
 * What a guest reads through the aperture or the GPU side is searched, every
 * byte of it, for stamps (PV_TAG_MAGIC): one naming another vGPU whose keyed
 * tag verifies under that vGPU's key is a leak; one that does not verify is
 * a forgery (the reader cannot make another guest's tag), counted apart.
 * fuzz/fuzz_pv.c feeds it any mailbox words.
 */
#ifndef DOM0_HOST_PV_ANSWER_H
#define DOM0_HOST_PV_ANSWER_H

#include <stdbool.h>
#include <stdint.h>

#include "hw/backend.h"

#define PV_STEP_PTES	8	/* trapped PTE accesses a step */
#define PV_STEP_AUDIT	256	/* GGTT entries of an audit a step */

/* A request under way: its words as they were at its start, and how far it got. */
struct pv_progress {
	bool on;
	uint64_t seq;
	uint32_t op, width;
	uint64_t addr, len;
	uint64_t done;		/* PTEs done, or the audit's cursor */
	int status;		/* a PTE run's: the first refusal */
};

/* A guest as the answer needs it. */
struct pv_guest {
	unsigned k;				/* its slot, for messages */
	const struct hw_backend_ops *ops;	/* its vGPU's view */
	void *ctx;
	int vgpu;				/* the vGPU's id: its stamps' vgt_id */
	uint64_t bar0_size;			/* the host's BAR0: MMIO offsets inside it */
	uint8_t *mb;				/* its mailbox */
	struct pv_progress prog;		/* its request under way, if any */
};

/* A stamp key the host gave (one per guest that connected), by the vGPU it was given with. */
struct pv_key {
	int vgpu;
	uint64_t key[2];
};

struct pv_answer_stats {
	uint64_t rejected;			/* requests refused as malformed */
	uint64_t own_stamps, foreign_stamps;	/* stamps in what it read: its own, another vGPU's (a leak) */
	uint64_t forged_stamps;			/* stamps naming another vGPU whose tag does not verify */
};

struct pv_answer_env {
	struct pv_answer_stats *st;
	void (*say)(void *ctx, const char *line);	/* a leak, named; NULL: silent */
	void *ctx;
	const struct pv_key *keys;		/* every key given, to verify stamps with (NULL: none known) */
	unsigned n_keys;
};

enum pv_answered {
	PV_IDLE,	/* no request waits */
	PV_ANSWERED,	/* one was answered (its ANS_SEQ written) */
	PV_UNDER_WAY,	/* a step of a longer one was done; the next call goes on */
};

/* One step of the request waiting in g's mailbox, if one waits. */
enum pv_answered pv_answer(struct pv_guest *g, const struct pv_answer_env *e);

#endif
