/* SPDX-License-Identifier: MIT */
/*
 * SR-IOV virtual functions of gen12+ integrated GPUs: the VF's MMIO
 * registers, GuC's HXG message format over them, the VF2GUC actions and KLV
 * keys a VF uses to learn its GGTT range, and the bounds it checks that
 * range against. Source: docs/hardware.md §10 (xe's regs/xe_guc_regs.h,
 * regs/xe_sriov_regs.h, abi/guc_messages_abi.h, abi/guc_actions_sriov_abi.h,
 * abi/guc_klvs_abi.h, regs/xe_gtt_defs.h).
 */
#ifndef REGS_SRIOV_H
#define REGS_SRIOV_H

/* VF_CAP_REG: bit 0 set on a virtual function */
#define VF_CAP_REG			0x1901f8
#define VF_CAP				(1u << 0)

/* The VF's MMIO mailbox to GuC: four scratch dwords and a doorbell, per GT */
#define VF_SW_FLAG(n)			(0x190240 + 4 * (n))
#define GUC_HOST_INTERRUPT		0x1901f0
#define MED_VF_SW_FLAG(n)		(0x190310 + 4 * (n))
#define MED_GUC_HOST_INTERRUPT		0x190304
#define GUC_MMIO_MSG_LEN		4	/* dwords of a request or a reply (GUC_MAX_MMIO_MSG_LEN) */

/* HXG message header (dword 0) */
#define GUC_HXG_ORIGIN_GUC		(1u << 31)	/* 0: from the host */
#define GUC_HXG_TYPE_SHIFT		28
#define GUC_HXG_TYPE_MASK		(7u << 28)
#define GUC_HXG_TYPE_REQUEST		0
#define GUC_HXG_TYPE_EVENT		1
#define GUC_HXG_TYPE_FAST_REQUEST	2
#define GUC_HXG_TYPE_NO_RESPONSE_BUSY	3
#define GUC_HXG_TYPE_NO_RESPONSE_RETRY	5
#define GUC_HXG_TYPE_RESPONSE_FAILURE	6
#define GUC_HXG_TYPE_RESPONSE_SUCCESS	7
#define GUC_HXG_REQUEST_DATA0_SHIFT	16		/* bits 27:16 */
#define GUC_HXG_REQUEST_DATA0_MASK	(0xfffu << 16)
#define GUC_HXG_REQUEST_ACTION_MASK	0xffffu		/* bits 15:0 */
#define GUC_HXG_FAILURE_HINT_SHIFT	16		/* bits 27:16 */
#define GUC_HXG_FAILURE_HINT_MASK	(0xfffu << 16)
#define GUC_HXG_FAILURE_ERROR_MASK	0xffffu		/* bits 15:0 */
#define GUC_HXG_DATA0_MASK		0x0fffffffu	/* bits 27:0 of a success, a busy's counter, a retry's reason */

/* GuC's error codes in a FAILURE's bits 15:0 (xe abi/guc_errors_abi.h, enum xe_guc_response; a few of them) */
#define GUC_ERROR_PROTOCOL		0x04
#define GUC_ERROR_UNSUPPORTED_VERSION	0x0b
#define GUC_ERROR_UNKNOWN_ACTION	0x30
#define GUC_ERROR_INVALID_KLV_KEY	0x105

/* VF2GUC actions (request dword 0's ACTION) */
#define VF2GUC_MATCH_VERSION		0x5500
#define VF2GUC_VF_RESET			0x5507
#define VF2GUC_QUERY_SINGLE_KLV		0x5509

/* MATCH_VERSION dword 1, request and reply: branch 31:24, major 23:16, minor 15:8, patch 7:0 (must be 0 asked) */
#define GUC_VERSION_BRANCH_SHIFT	24
#define GUC_VERSION_MAJOR_SHIFT		16
#define GUC_VERSION_MINOR_SHIFT		8
#define GUC_VERSION_FIELD		0xffu

/* QUERY_SINGLE_KLV: request dword 1 KEY 15:0 (31:16 must be 0); reply dword 0 LENGTH 15:0 (27:16 must be 0) */
#define GUC_KLV_QUERY_KEY_MASK		0xffffu
#define GUC_KLV_REPLY_LENGTH_MASK	0xffffu
#define GUC_KLV_REPLY_MBZ_MASK		(0xfffu << 16)

/* A KLV's header dword: KEY 31:16, LEN 15:0 (the value's dwords follow) (xe abi/guc_klvs_abi.h) */
#define GUC_KLV_0_KEY_SHIFT		16
#define GUC_KLV_0_LEN_MASK		0xffffu

/* PF2GUC_UPDATE_VF_CFG: the PF pushes a VF's KLVs to GuC (over the CT buffer) */
#define PF2GUC_UPDATE_VF_CFG		0x5503

/* KLV keys of a VF's configuration, and their lengths in dwords */
#define GUC_KLV_VF_CFG_GGTT_START	0x0001
#define GUC_KLV_VF_CFG_GGTT_SIZE	0x0002
#define GUC_KLV_VF_CFG_GGTT_LEN		2	/* a 64-bit value: dword 2 << 32 | dword 1 */

/*
 * A GGTT PTE's VF id, the PF's tag of who owns it (xe regs/xe_gtt_defs.h
 * GGTT_PTE_VFID; IGT's scan for the field before 12.50): bits 11:2 from
 * graphics IP 12.50, bits 4:2 before it. A VF reads its own PTEs with the
 * field 0 and cannot change it or PRESENT (bit 0).
 */
#define GGTT_PTE_VFID_SHIFT		2
#define GGTT_PTE_VFID_MASK		(0x3ffull << 2)	/* graphics IP 12.50 on */
#define GGTT_PTE_VFID_MASK_PRE_1250	(0x7ull << 2)	/* before 12.50: VF ids 1-7 */
#define GGTT_PTE_PRESENT		(1ull << 0)

/* A VF's GSM: 8 MiB of PTEs at BAR0 + 8 MiB, a 4 GiB GGTT (xe_ggtt_init_early) */
#define VF_GSM_SIZE			(8ull << 20)

/* The GGTT a VF may be given: above WOPCM, below the top GuC can address */
#define GUC_GGTT_TOP			0xfee00000ull
#define WOPCM_SIZE_DEFAULT		(2ull << 20)
#define WOPCM_SIZE_MTL			(4ull << 20)	/* Meteor Lake (and discrete parts) */

#endif
