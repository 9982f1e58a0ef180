/* SPDX-License-Identifier: MIT */
/*
 * The vgpu: device's state (dom0/guest_device.h), shared by the files of
 * the device only: guest_device.c (the operations table, config space,
 * aperture, GPU side, guest pages), guest_device_mmio.c (BAR0's traps),
 * guest_device_host.c (options, the host runtime, its peers, switching) and
 * guest_device_audit.c (the host's side, checked).
 */
#ifndef DOM0_GUEST_DEVICE_INTERNAL_H
#define DOM0_GUEST_DEVICE_INTERNAL_H

#include "dom0/types.h"
#include "regs/pci_config.h"

#define GD_MAX_PEERS		7	/* GVT_MAX_VGPU is 8: the guest and seven others */
#define GD_PEER_LOW_MAX		(32ull << 20)	/* a peer's low range: the guest's, up to this */
#define GD_PEER_HIGH_PAGES	16	/* pages a peer maps at the start of its high range */
#define GD_PEER_FENCE_SIZE	0x10000	/* a peer's fence: two X-tile rows of a 4 KiB stride */
#define GD_PEER_FENCE_STRIDE	4096
#define GD_VREGS		256	/* registers a guest may write besides the trapped ones */
#define GD_PARTIALS		16	/* 32-bit halves of gen8 PTEs waiting for their other half */
#define GD_HOGS			3	/* hog=: two slots right of the guest's high range, one left */

/* The options of vgpu:sim[:PLATFORM][,KEY=VALUE...], defaults filled in. */
struct gd_opts {
	struct hw_device_spec host;	/* the host: the model sim[:PLATFORM][,edram] */
	uint64_t low_mib;		/* low=: the guest's aperture slice */
	unsigned high;			/* high=: its high slots */
	unsigned n_fences;		/* fences=: its fences */
	unsigned ram_pages;		/* mem=: its memory pages */
	unsigned peers;			/* peers=: busy vGPUs beside it */
	unsigned every;			/* switch=: trapped accesses between render-owner switches; 0 never */
	unsigned migrate;		/* migrate=: EPOCH reads between host moves of the guest's high range; 0 never */
	unsigned hog;			/* hog=: trapped accesses between releases of the host's tenants; 0 none */
	unsigned move;			/* move=: EPOCH reads between moves to the spare model and back; 0 never */
	unsigned runs;			/* runs=: the host's cfg.slot_runs, a spacer in slot 1 splitting the guest's; 0 off */
};

/* A register the guest wrote that the host never sees (GVT-g's vreg). */
struct gd_vreg {
	uint32_t off, val;
};

/* The first 32-bit half of a gen8 PTE, held until the other half arrives (GVT-g's partial_pte_list). */
struct gd_partial {
	bool used;
	unsigned half;			/* 0: bits 31:0 were written, 1: bits 63:32 */
	uint64_t index, val, age;	/* val: the guest's entry with the half merged in */
};

struct guest_dev {
	const struct gtt_env *env;
	struct gd_opts o;
	bool view;			/* dom0_guest_view_open: host and runtime are the caller's */
	struct hw_device *host;		/* the model the runtime mediates */
	struct dom0_runtime *rt;
	struct hw_page *ram;		/* the guest's memory: the VM's (this device's), mem= pages of the host */
	struct hw_device *spare;	/* move=: the other model the guest visits, and its runtime */
	struct dom0_runtime *spare_rt;
	char lost[160];			/* why the guest did not come back from the spare model ("" it did) */
	int guest;			/* the vGPU this device is */
	unsigned n_peers;
	int peer[GD_MAX_PEERS];
	int hog[GD_HOGS];		/* hog=: the host's tenants beside the guest's high range */
	int spacer;			/* runs=: the tenant in slot 1 the guest's slots are placed around */
	unsigned n_hogs, hogs_released;
	uint64_t hog_traps;
	uint8_t config_space[PCI_CFG_SIZE];	/* the emulated config space */
	uint64_t bar_size[2];		/* BAR0 and BAR2 */
	uint64_t fence_vreg[DOM0_MAX_GUEST_FENCES];
	struct gd_vreg vreg[GD_VREGS];
	unsigned n_vregs;
	struct gd_partial partial[GD_PARTIALS];
	uint64_t partial_age;
	uint8_t *gfn_used;		/* per guest page: handed out by alloc_pages */
	uint64_t *guest_phys;		/* host addresses of the guest's pages, ascending (the audit's lookup) */
	uint8_t *peer_scratch;		/* each peer's scratch page as it was at open, 4 KiB each */
	uint64_t fence_setup[I915_MAX_NUM_FENCES];	/* the physical fences once the peers were set up */
	uint64_t traps;			/* trapped guest accesses so far */
	uint64_t epoch_reads;		/* reads of PVINFO's EPOCH so far (migrate=, move=) */
	uint64_t work[2][512];		/* pages of tags: what the audit read and expects, what the setup writes */
};

struct dom0_guest_view_params;

/* guest_device_host.c */
/* vgpu:'s parsed string (hw/device_spec.h) into *o: its host and its options judged; GTT_EINVAL naming the option and its rule. */
int gd_parse(const struct hw_device_spec *spec, struct gd_opts *o, struct gtt_err *err);
/* Open the host, start the runtime, create the guest and its busy peers, take the snapshots. */
int gd_host_open(struct guest_dev *g, const struct hw_open_opts *opts, struct gtt_err *err);
/* Stop the runtime (restoring the host), close the host and free what the host side holds. */
void gd_host_close(struct guest_dev *g);
/* A view: the guest's vGPU created on the caller's runtime and memory, the snapshots taken. */
int gd_view_open(struct guest_dev *g, const struct dom0_guest_view_params *p, struct gtt_err *err);
/* A view's end: its vGPU destroyed, what the view holds freed; host, runtime and memory stay. */
void gd_view_close(struct guest_dev *g);
/* One trapped guest access: every `switch=` of them, the next of guest and peers owns the render engine. */
void gd_trapped(struct guest_dev *g);
/* A guest read of PVINFO's EPOCH: every migrate= of them the host moves the guest's high range, every
 * move= of them to the spare model and back. */
void gd_epoch_read(struct guest_dev *g);
/* The 512 tag words of a peer's page at graphics address gm (what its bytes must stay). */
void gd_peer_page(unsigned k, uint64_t gm, uint64_t *words);

/* guest_device_mmio.c: BAR0 as the guest sees it (hw_backend_ops' mmio_*). */
uint32_t gd_mmio_read32(void *ctx, uint32_t off);
void gd_mmio_write32(void *ctx, uint32_t off, uint32_t val);
uint64_t gd_mmio_read64(void *ctx, uint32_t off);
void gd_mmio_write64(void *ctx, uint32_t off, uint64_t val);

/* guest_device_audit.c: hw_backend_ops.host_audit. */
int gd_host_audit(void *ctx, char *why, size_t n);
int gd_host_audit_step(void *ctx, uint64_t *cursor, uint64_t budget, char *why, size_t n);

#endif
