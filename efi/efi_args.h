/* SPDX-License-Identifier: MIT */
/*
 * The application's arguments: the words of its load options, or of
 * gttlab.cfg when it is started with none (BOOTX64.EFI; over the network,
 * from the first volume holding one), parsed.
 */
#ifndef EFI_EFI_ARGS_H
#define EFI_EFI_ARGS_H

#include <efi.h>
#include <stdbool.h>
#include <stdint.h>

#include "checks/firmware_policy.h"
#include "checks/session.h"
#include "env/env.h"

struct efi_args {
	const char *device;		/* --device: auto (the default), sim:..., pci:..., vgpu:..., pv[:N] */
	const char *run;		/* --run: the check patterns; NULL for all */
	uint64_t seed;			/* --seed: the run seed (default 0) */
	bool ivshmem;			/* --ivshmem-check: the raw-BAR check instead of the checks */
	bool debug_exit;		/* --debug-exit: the verdict to QEMU's isa-debug-exit */
	bool no_shutdown;		/* --no-shutdown: return to the firmware instead of powering off */
	SESSION_FAULT_DECLARE(const char *fault;)	/* test build only: a model fault, to prove a failing run is seen */
	const char *volume;		/* --volume: the label of the FAT volume for the journal and reports */
	bool no_journal;		/* --no-journal: run with no writable volume; no check writes a real device */
	bool journal_model;		/* test only: journal the model too, as a real device is */
	unsigned crash_before;		/* test only: reset the machine before check N runs (1-based; 0 never) */
	struct fw_policy firmware;	/* the Secure Boot policy found at start */
};

/* Up to MAX words into ARGV: the load options (UTF-16, as ASCII), else gttlab.cfg; the count. */
int efi_args_gather(EFI_HANDLE image, const struct gtt_env *env, char **argv, int max);
/* ARGV into A; -1 after saying on the console which word is wrong (and the usage). */
int efi_args_parse(int argc, char **argv, struct efi_args *a);

#endif
