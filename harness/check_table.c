/* SPDX-License-Identifier: MIT */
/* The check table: every check, its suite, what it needs and what it claims. */
#include "harness/check.h"
#include "harness/check_suites.h"

#define ALL_FENCES (~0u)

const struct check gtt_checks[] = {
	{ "ggtt-pte-readback", "ggtt", "walking-ones and walking-zeros PTEs over every address bit read back as written",
	  0, 16, 0, check_pte_readback },
	{ "ggtt-high-address-bits", "ggtt", "a page above 4 GiB keeps its high PTE bits and its bytes reach the aperture",
	  REQ_TEST_PAGES | REQ_PAGE_ABOVE_4G, 4, 0, check_high_address_bits },
	{ "ggtt-invalidate", "ggtt", "a rewritten PTE takes effect through the aperture only after the GFX_FLSH_CNTL_GEN6 invalidate",
	  REQ_TEST_PAGES, 1, 0, check_invalidate },
	{ "ggtt-scratch-fill", "ggtt", "a scratch fill leaves every PTE on the scratch page and every page reading its bytes",
	  REQ_TEST_PAGES, 64, 0, check_scratch_fill },
	{ "ggtt-guard-page", "ggtt", "the last GGTT page is mapped, so a prefetch past the end does not fault",
	  0, 0, 0, check_guard_page },
	{ "fence-readback", "fence", "every fence register reads back the value programmed",
	  0, 8, ALL_FENCES, check_fence_readback },
	{ "fence-x-detile", "fence", "an X-tiled surface reads and writes linearly through a fence, against the reference layout",
	  REQ_TEST_PAGES, 16, 1, check_fence_x_detile },
	{ "fence-y-detile", "fence", "a Y-tiled surface reads and writes linearly through a fence, against the reference layout",
	  REQ_TEST_PAGES, 16, 1, check_fence_y_detile },
	{ "fence-disable-linear", "fence", "disabling a fence gives linear access back",
	  REQ_TEST_PAGES, 16, 1, check_fence_disable_linear },
	{ "fence-write-order", "fence", "programming a fence never leaves it valid while half written",
	  REQ_MODEL, 8, 1, check_fence_write_order },
	{ "aperture-rw", "aperture", "CPU writes and reads through the aperture equal the pages behind it",
	  REQ_TEST_PAGES, 32, 0, check_aperture_rw },
	{ "shadow-copy-switch", "shadow-copy", "after every switch the physical GTT is the incoming vGPU's shadow, written minimally, host untouched",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_shadow_copy_switch },
	{ "shadow-copy-ladder", "shadow-copy", "a guest reaches its own data through its aperture while another vGPU owns the GTT",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_shadow_copy_ladder },
	{ "fence-pool-guest-fence", "fence-pool", "a guest fence lands in the fence pool with its pitch and tiling, and is given back",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_fence_pool_guest_fence },
	{ "slot-resize-algorithm", "slot-resize", "gBalloon Figure 4: Algorithm 1's choices, PVINFO, shadow and physical GTT, refusals",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_resize_algorithm },
	{ "slot-resize-release", "slot-resize", "slots a vGPU gives up are no longer mapped for it",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_resize_release },
	{ "slot-policy-channel", "slot-policy", "gBalloon's requests over PVINFO: malformed ones refused with a status and no change, granted ones in PVINFO, shadow and GTT",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_policy_channel },
	{ "slot-policy-classes", "slot-policy", "gBalloon's policy: in each class of f(W, R_copy) a request gets the paper's decision; PVINFO, shadow and GTT agree",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_slot_policy_classes },
	{ "admission-policies", "admission", "ConVGPU's admission: after a release FIFO, RU, BF and RAND admit the paused create the paper says; it holds its slots alone and agrees in PVINFO and GTT; paused ones never run",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_admission_policies },
	{ "admission-channel", "admission", "an expansion over PVINFO that does not fit is answered PAUSED, never switched in, then GRANTED; a guest fence the pool cannot hold waits for pages",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_admission_channel },
	{ "migration-slots", "migration", "VOCL's migration to other slots: locked while it moves, PVINFO's new base, the source slots as found and closed to the guest, the GPU reads its bytes at the new range",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_migration_slots },
	{ "migration-device", "migration", "a vGPU moved to a second device with its memory, shadow, fence and PVINFO: the source as before it existed, the target's GTT its shadow, its bytes through aperture and fence; failures roll back",
	  REQ_TEST_PAGES | REQ_WHOLE_GGTT, 0, 0, check_migration_device },
};

const size_t gtt_num_checks = sizeof(gtt_checks) / sizeof(gtt_checks[0]);
