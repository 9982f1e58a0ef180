/* SPDX-License-Identifier: MIT */
/*
 * GVT-g paravirtual info page (i915_pvinfo.h, struct vgt_if): absolute MMIO
 * offsets of the words gttlab reads and writes. Source: docs/hardware.md §6.1.
 */
#ifndef REGS_PVINFO_H
#define REGS_PVINFO_H

#define VGT_PVINFO_PAGE			0x78000
#define VGT_PVINFO_SIZE			0x1000
#define VGT_MAGIC			0x4776544776544776ull	/* "vGTvGTvG" */
#define VGT_VERSION_MAJOR		1
#define VGT_VERSION_MINOR		0
#define VGT_CAPS_FULL_PPGTT		(1u << 2)
#define VGT_CAPS_HWSP_EMULATION		(1u << 3)
#define VGT_CAPS_HUGE_GTT		(1u << 4)
#define VGT_DRV_DISPLAY_NOT_READY	0
#define VGT_DRV_DISPLAY_READY		1

#define VGT_IF(off)			(VGT_PVINFO_PAGE + (off))
#define VGT_IF_MAGIC			VGT_IF(0x000)	/* u64 */
#define VGT_IF_VERSION			VGT_IF(0x008)	/* u16 major, u16 minor at 0x00a */
#define VGT_IF_VGT_ID			VGT_IF(0x00c)
#define VGT_IF_VGT_CAPS			VGT_IF(0x010)
#define VGT_IF_MAPPABLE_BASE		VGT_IF(0x040)	/* avail_rs.mappable_gmadr.base */
#define VGT_IF_MAPPABLE_SIZE		VGT_IF(0x044)
#define VGT_IF_NONMAPPABLE_BASE		VGT_IF(0x048)	/* avail_rs.nonmappable_gmadr.base */
#define VGT_IF_NONMAPPABLE_SIZE		VGT_IF(0x04c)
#define VGT_IF_FENCE_NUM		VGT_IF(0x050)	/* avail_rs.fence_num */
#define VGT_IF_DISPLAY_READY		VGT_IF(0x804)
#define VGT_IF_G2V_NOTIFY		VGT_IF(0x818)
#define VGT_IF_CURSOR_X_HOT		VGT_IF(0x830)
#define VGT_IF_CURSOR_Y_HOT		VGT_IF(0x834)
#define VGT_IF_PDP_LO(i)		VGT_IF(0x838 + (i) * 8)
#define VGT_IF_PDP_HI(i)		VGT_IF(0x83c + (i) * 8)
#define VGT_IF_EXECLIST_CTX_DESC_LO	VGT_IF(0x858)
#define VGT_IF_EXECLIST_CTX_DESC_HI	VGT_IF(0x85c)
#define VGT_G2V_MAX			8	/* enum vgt_g2v_type: 2..7 are GVT-g's notifications */

/*
 * gttlab's graphics-memory request channel (gBalloon Figure 3: step 1, the
 * guest asks; step 4, the host answers). Its words lie in rsv3 (0x060-0x7ff),
 * which no GVT-g field uses; every GVT-g field stays where it is. The guest
 * writes CODE, COUNT and SEQ, then GTTLAB_G2V_GM_REQUEST to g2v_notify; the
 * host answers in STATUS, ANSWER_SEQ and SLOTS and puts the new high range
 * in avail_rs.nonmappable_gmadr (base, size). Range changes the host makes
 * on its own (the policy's reductions) bump EPOCH. Layout: docs/dom0.md.
 */
#define GTTLAB_IF_GM_MAGIC		VGT_IF(0x100)	/* host: GTTLAB_GM_MAGIC, the channel exists */
#define GTTLAB_IF_GM_CODE		VGT_IF(0x104)	/* guest: GTTLAB_GM_REQ_* */
#define GTTLAB_IF_GM_COUNT		VGT_IF(0x108)	/* guest: Q slots, or the eviction count */
#define GTTLAB_IF_GM_SEQ		VGT_IF(0x10c)	/* guest: its number for this request */
#define GTTLAB_IF_GM_STATUS		VGT_IF(0x110)	/* host: GTTLAB_GM_ST_* of the last request */
#define GTTLAB_IF_GM_ANSWER_SEQ		VGT_IF(0x114)	/* host: the SEQ that STATUS answers */
#define GTTLAB_IF_GM_SLOTS		VGT_IF(0x118)	/* host: slots the vGPU holds now */
#define GTTLAB_IF_GM_SLOT_SIZE		VGT_IF(0x11c)	/* host: bytes per slot */
#define GTTLAB_IF_GM_EPOCH		VGT_IF(0x120)	/* host: +1 at every change of the vGPU's high range */
/*
 * Non-contiguous slots (gttlab's extension, gBalloon §6): the high range in
 * RUNS runs, ascending. Run 0 is avail_rs.nonmappable_gmadr; runs 1..7 are
 * here. RUNS is 1 for one run (0 from a host that predates the words).
 */
#define GTTLAB_IF_GM_RUNS		VGT_IF(0x124)	/* host: runs of the high range */
#define GTTLAB_IF_GM_RUN_BASE(i)	VGT_IF(0x128 + ((i) - 1) * 8)	/* host: run i (1..7): base */
#define GTTLAB_IF_GM_RUN_SIZE(i)	VGT_IF(0x12c + ((i) - 1) * 8)	/* host: run i: size */
#define GTTLAB_GM_MAX_RUNS		8
#define GTTLAB_IF_GM_FIRST_GUEST	GTTLAB_IF_GM_CODE	/* the words a guest may write: CODE..SEQ */
#define GTTLAB_IF_GM_LAST_GUEST		GTTLAB_IF_GM_SEQ

#define GTTLAB_GM_MAGIC			0x6d4d6767u	/* "ggMm" */
#define GTTLAB_G2V_GM_REQUEST		0x100		/* g2v_notify value: above VGT_G2V_MAX */

#define GTTLAB_GM_REQ_EXPAND		1		/* grow the high range by COUNT slots */
#define GTTLAB_GM_REQ_REDUCE		2		/* give COUNT slots back */
#define GTTLAB_GM_REQ_EVICTIONS		3		/* COUNT: objects evicted so far (a rise asks for memory) */
#define GTTLAB_GM_REQ_WITHDRAW		4		/* take back the pending or paused request (COUNT unused) */

#define GTTLAB_GM_ST_IDLE		0		/* nothing asked yet */
#define GTTLAB_GM_ST_PENDING		1		/* notified, not answered yet */
#define GTTLAB_GM_ST_GRANTED		2		/* done: the new range is in avail_rs */
#define GTTLAB_GM_ST_NOTED		3		/* an eviction count that did not rise: recorded */
#define GTTLAB_GM_ST_REFUSED_POLICY	4		/* the policy refuses expansions now (class high) */
#define GTTLAB_GM_ST_REFUSED_ROOM	5		/* it does not fit (high memory, or fewer slots held) */
#define GTTLAB_GM_ST_BAD_CODE		6		/* malformed: unknown CODE */
#define GTTLAB_GM_ST_BAD_COUNT		7		/* malformed: Q = 0 or beyond the slots of high memory */
#define GTTLAB_GM_ST_BAD_WRITE		8		/* malformed: a guest write outside the writable words */
#define GTTLAB_GM_ST_BUSY		9		/* refused: the last request is still pending (one at a time) */
#define GTTLAB_GM_ST_PAUSED		10		/* admission: the expansion waits until its slots free (then GRANTED, same SEQ) */
#define GTTLAB_GM_ST_WITHDRAWN		11		/* the guest took the request back: its SEQ is answered with this */

#endif
