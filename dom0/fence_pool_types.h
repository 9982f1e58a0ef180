/* SPDX-License-Identifier: MIT */
/* The fence memory space pool's state (dom0/fence_pool.h): the runtime's fences and pool, and each vGPU's fences. */
#ifndef DOM0_FENCE_POOL_TYPES_H
#define DOM0_FENCE_POOL_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "dom0/types.h"
#include "regs/mmio.h"

/* A guest fence re-homed into the fence memory space pool. */
struct pool_fence {
	bool active;
	unsigned phys;			/* physical fence register */
	uint64_t pool_gm;		/* its range in the pool */
	uint64_t pages;
	uint64_t guest_gm;		/* the guest's fenced range */
};

/* The runtime's fences and pool; owned by dom0/fence_pool.c. */
struct dom0_fence_pool {
	/* every fence register as found at init: what a released fence gets back, what the end reads back */
	uint64_t orig_fence[I915_MAX_NUM_FENCES];
	/* physical fences taken: the host's (0..host_fences-1) and the pool fences' */
	bool fence_used[I915_MAX_NUM_FENCES];
	/* one byte per pool page: 1 = in use */
	uint8_t *pool_map;
	/* pages in the pool */
	uint64_t pool_pages;
	/* fence registers the admitted vGPUs hold (with admission on) */
	unsigned reserved;
};

/* A vGPU's fences; owned by dom0/fence_pool.c. */
struct dom0_vgpu_fences {
	/* each fence as the guest last wrote it */
	uint64_t gfence[DOM0_MAX_GUEST_FENCES];
	/* each guest fence's home in the pool, while it is on */
	struct pool_fence pf[DOM0_MAX_GUEST_FENCES];
	/* its fence registers are counted in the pool's `reserved` */
	bool reserved;
};

#endif
