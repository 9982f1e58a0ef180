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

#endif
