/* SPDX-License-Identifier: MIT */
/*
 * The backend operations table: the one interface between hw/ and a way of
 * reaching a device (the model, Linux sysfs, UEFI PCI I/O). Every backend
 * fills in this struct; the compiler checks each function's type.
 */
#ifndef HW_BACKEND_H
#define HW_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "env/env.h"
#include "env/err.h"
#include "hw/device_spec.h"

struct sim_device;
struct hw_journal_sink;

/* A test page: a physical page the caller owns, with a CPU pointer to it. */
struct hw_page {
	uint64_t phys;
	void *cpu;
};

struct hw_backend_ops {
	const char *name;
	/*
	 * The device touches no hardware of this machine (the model, a vGPU
	 * over it in this process, a vGPU a host serves over the pv transport,
	 * whose host keeps its own journal): it needs no root and keeps no
	 * crash journal here.
	 */
	bool in_process;
	/* PCI configuration space; width 1, 2 or 4. */
	int (*cfg_read)(void *ctx, unsigned off, unsigned width, uint32_t *val);
	int (*cfg_write)(void *ctx, unsigned off, unsigned width, uint32_t val);
	/* BAR0 (GTTMMADR) at a byte offset. */
	uint32_t (*mmio_read32)(void *ctx, uint32_t off);
	void (*mmio_write32)(void *ctx, uint32_t off, uint32_t val);
	uint64_t (*mmio_read64)(void *ctx, uint32_t off);
	void (*mmio_write64)(void *ctx, uint32_t off, uint64_t val);
	/* Optional: write or read n consecutive PTEs in one call; NULL means one MMIO access each. */
	void (*pte_write_bulk)(void *ctx, uint32_t off, const uint64_t *ptes, size_t n, unsigned pte_size);
	void (*pte_read_bulk)(void *ctx, uint32_t off, uint64_t *ptes, size_t n, unsigned pte_size);
	/*
	 * Optional: of n PTEs at off, store only those that differ from held[]
	 * (what the GTT holds; never written here) and return how many were
	 * stored: one pass over the arrays (hw_ggtt_write_changed and
	 * hw_ggtt_write_differing). Every store to the device is one access of
	 * pte_size bytes, as pte_write_bulk's.
	 */
	size_t (*pte_write_changed)(void *ctx, uint32_t off, const uint64_t *ptes, const uint64_t *held, size_t n,
				    unsigned pte_size);
	/* BAR2 (GMADR) at a byte offset. */
	int (*aperture_read)(void *ctx, uint64_t off, void *buf, size_t len);
	int (*aperture_write)(void *ctx, uint64_t off, const void *buf, size_t len);
	/* Optional: BAR base and size as the OS knows them; NULL means size through config space. */
	int (*bar_info)(void *ctx, unsigned bar, uint64_t *base, uint64_t *size);
	/* Physical test pages. */
	int (*alloc_pages)(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err);
	void (*free_pages)(void *ctx, size_t n, struct hw_page *pages);
	/*
	 * Optional: n pages of memory the caller owns (cpu: 4 KiB aligned, alive
	 * until the device closes, e.g. shared memory a guest also maps) made
	 * test pages the device can reach: their physical addresses in pages,
	 * the bytes left as they are. free_pages lets them go: the device no
	 * longer reaches them, and the memory is the caller's to unmap.
	 */
	int (*adopt_pages)(void *ctx, size_t n, void *cpu, struct hw_page *pages, struct gtt_err *err);
	/*
	 * Optional: make the test pages coherent with the device side. Called
	 * before and after every aperture or GPU-side access: CPU writes to
	 * test pages reach memory before the GPU side reads them, and the CPU
	 * reads what the GPU side wrote, not stale cache lines. NULL where the
	 * device side snoops (the model).
	 */
	void (*cache_sync)(void *ctx);
	/* Optional: GPU-side access to any GGTT address; NULL where the backend has none. */
	int (*gpu_read)(void *ctx, uint64_t gm, void *buf, size_t len);
	int (*gpu_write)(void *ctx, uint64_t gm, const void *buf, size_t len);
	/*
	 * Optional: the device string that opens this very device again
	 * (pci:DDDD:BB:DD.F for one found by auto), for its journal; nonzero
	 * when it does not fit. NULL for the model, which needs no journal.
	 */
	int (*location)(void *ctx, char *spec, size_t n);
	/* Optional: the simulated device behind this backend, for its trace and fault injection. */
	struct sim_device *(*model)(void *ctx);
	/*
	 * Optional, for a mediated device whose host runs in this process (vgpu:):
	 * whether everything outside the guest is as the mediator promises (its
	 * peers' bytes, GGTT entries and fences outside the guest's ranges, the
	 * peers' scratch pages). GTT_OK, or nonzero with why (naming the entry,
	 * register or peer) in why. NULL on every other backend.
	 */
	int (*host_audit)(void *ctx, char *why, size_t n);
	/*
	 * Optional: host_audit in steps of bounded cost, for a host that serves
	 * several guests in one thread (dom0 serve): each call walks at most
	 * `budget` GGTT entries from *cursor (0 at the start) and moves it on.
	 * 1 while more remains; then GTT_OK, or nonzero with why, as host_audit.
	 */
	int (*host_audit_step)(void *ctx, uint64_t *cursor, uint64_t budget, char *why, size_t n);
	/*
	 * Optional, for a device served from elsewhere (pv:): the key its host
	 * gave this guest alone for its stamps (regs/pv_transport.h); zeros where
	 * no host watches what guests read.
	 */
	void (*stamp_key)(void *ctx, uint64_t key[2]);
	/*
	 * Optional, for a device served from elsewhere (pv:): nonzero with why
	 * once it is lost (its host stopped answering); GTT_OK while it answers.
	 * NULL where the device cannot go away under the process.
	 */
	int (*lost)(void *ctx, char *why, size_t n);
	void (*close)(void *ctx);
};

/* Options a front-end passes through hw_open to the backend. */
struct hw_open_opts {
	bool allow_i915;		/* linux: use a device even though i915 is bound */
	const char *sysfs_root;		/* linux: sysfs root (tests use a fake tree); NULL = /sys */
	const void *sim_mmio_seed;	/* sim: an intel_reg MMIO snapshot to load at boot */
	size_t sim_mmio_seed_len;
	/* Journal every write from the start, BAR sizing included (hw/journal.h); NULL: none. */
	const struct hw_journal_sink *journal;
#ifdef GTTLAB_FAULTS
	/* vgpu: deliberate mediator bugs for the host runtime, a struct dom0_faults (the test build only); NULL: none. */
	const void *host_faults;
#endif
};

/*
 * A way to open devices named "SCHEME" or "SCHEME:ARG". Front-ends pass the
 * list of backends they were built with to hw_open; nothing is discovered at
 * run time.
 */
struct hw_backend_factory {
	const char *scheme;		/* the device string's scheme it opens (hw/device_spec.h) */
	const char *usage;		/* e.g. "sim[:PLATFORM]" */
	/* the device the parsed string names: its target, model and options as hw/device_spec.h parsed them */
	int (*open)(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		    const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err);
};

#endif
