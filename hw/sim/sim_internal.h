/* SPDX-License-Identifier: MIT */
/* State of the simulated device, shared by the files of hw/sim/ only. */
#ifndef HW_SIM_SIM_INTERNAL_H
#define HW_SIM_SIM_INTERNAL_H

#include "hw/sim/sim.h"
#include "hw/sim/sim_format.h"
#include "regs/pci_config.h"

#define SIM_MAX_FAULTS 16

struct sim_fault {
	uint32_t off;
	bool stick;			/* reads return value, writes are ignored */
	uint32_t value;
	int drops;			/* writes still to drop; -1 forever */
	unsigned passes;		/* writes still to let through before the drops begin */
};

struct sim_memory {
	uint64_t *keys;			/* pfn + 1; 0 marks an empty slot */
	uint8_t **pages;
	bool *foreign;			/* the page is the caller's (sim_attach_pages): not freed here */
	size_t cap;			/* power of two */
	size_t used;
};

/*
 * Dirty tracking is per block of SIM_DIRTY_BLOCK GSM bytes: an entry not
 * written since the last flush reads the same in the GSM and the TLB, so a
 * flush that copies a written entry's whole block copies the same TLB.
 */
#define SIM_DIRTY_BLOCK	512u

/* The model as a VF (sim_vf.c): which one, its fault, and its GuC's state. */
struct sim_vf {
	unsigned id;			/* 0: not a VF */
	enum sim_vf_fault fault;
	uint64_t told_start, told_size;	/* the range GuC names (the PF's, unless a fault changes it) */
	unsigned size_queries;		/* GGTT_SIZE queries answered (the drift fault) */
	bool matched;			/* MATCH_VERSION agreed since the last VF_RESET */
};

struct sim_device {
	const struct gtt_env *env;
	const struct gtt_platform *plat;
	const struct sim_pte_format *pte_fmt;	/* the model's own reading of plat->pte_format */

	uint8_t cfg[PCI_CFG_SIZE];
	uint64_t bar_size[6];		/* decoded BAR sizes (0: none) */

	uint32_t aperture_size;
	uint64_t gsm_size;
	uint64_t n_ptes;
	uint32_t *regs;			/* 2 MiB register file, indexed by offset / 4 */
	uint8_t *gsm;			/* what BAR0's PTE window reads back */
	uint8_t *tlb;			/* what translation uses: the GSM as of the last flush */
	uint64_t *dirty;		/* GSM blocks written since the last flush */
	size_t n_dirty;
	uint8_t *dirty_map;		/* one bit per block, to keep `dirty` unique */

	struct sim_memory mem;
	uint64_t next_page;

	struct sim_fault faults[SIM_MAX_FAULTS];
	size_t n_faults;
	bool gone;
	struct sim_vf vf;

	uint64_t counts[SIM_ACCESS_KINDS];
	struct sim_trace_entry *trace;
	size_t trace_cap, trace_head, trace_len;
	uint64_t seq;
};

void sim_trace_record(struct sim_device *sim, enum sim_access kind, unsigned width,
		      uint64_t addr, uint64_t value);

/* sim_memory.c */
int sim_memory_init(struct sim_device *sim);
void sim_memory_fini(struct sim_device *sim);

/* sim_config.c */
void sim_config_init(struct sim_device *sim, uint16_t devid);
/* A VF's config space over the PF's: BAR2 and BDSM read zero (the GMCH word is left zero by sim_boot). */
void sim_config_vf(struct sim_device *sim);
bool sim_mem_decode_enabled(const struct sim_device *sim);

/* sim_mmio.c */
void sim_gsm_boot(struct sim_device *sim);
struct sim_fault *sim_fault_find(struct sim_device *sim, uint32_t off);

/* sim_vf.c: the model as a VF */
void sim_vf_boot(struct sim_device *sim);
/* What the VF reads at GSM dword gsm_off that holds v: 0 when not its own, the VFID field cleared. */
uint32_t sim_vf_gsm_view(const struct sim_device *sim, uint64_t gsm_off, uint32_t v);
/* A VF's write of *val over old at GSM dword gsm_off: false (dropped) when not its own; *val what lands. */
bool sim_vf_gsm_merge(const struct sim_device *sim, uint64_t gsm_off, uint32_t old, uint32_t *val);
/* Whether the VF's engines translate through this PTE (tagged with its id). */
bool sim_vf_translates(const struct sim_device *sim, uint64_t entry);
/* A write to GUC_HOST_INTERRUPT: GuC reads the request in the flags and answers there. */
void sim_vf_doorbell(struct sim_device *sim);

/* sim_translate.c: GGTT address -> physical through the TLB; false if the PTE is not valid. */
bool sim_translate(struct sim_device *sim, uint64_t gm, uint64_t *phys);
/* Translate one CPU aperture offset; returns the bytes from it that stay contiguous
 * (at least 1) and whether their PTE is valid (*mapped; false: a translation fault). */
size_t sim_aperture_translate(struct sim_device *sim, uint64_t a, uint64_t *phys, bool *mapped);
/* The PTE value the model writes for a physical page (boot scratch fill). */
uint64_t sim_pte_for(const struct sim_device *sim, uint64_t phys);

#endif
