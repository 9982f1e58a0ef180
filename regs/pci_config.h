/* SPDX-License-Identifier: MIT */
/*
 * PCI configuration-space facts of the Intel integrated GPU (00:02.0).
 * Register facts only: no behaviour. Sources: docs/hardware.md §1 (i915's
 * intel_pci_config.h, i915_drm.h, early-quirks.c).
 */
#ifndef REGS_PCI_CONFIG_H
#define REGS_PCI_CONFIG_H

#define PCI_VENDOR_ID_INTEL		0x8086

#define PCI_CFG_VENDOR_ID		0x00	/* 16-bit */
#define PCI_CFG_DEVICE_ID		0x02	/* 16-bit */
#define PCI_CFG_COMMAND			0x04	/* 16-bit */
#define   PCI_CMD_IO_SPACE		(1u << 0)
#define   PCI_CMD_MEM_SPACE		(1u << 1)
#define   PCI_CMD_BUS_MASTER		(1u << 2)
#define PCI_CFG_STATUS			0x06	/* 16-bit */
#define PCI_CFG_REVISION		0x08	/* 8-bit */
#define PCI_CFG_CLASS_PROG		0x09	/* 8-bit */
#define PCI_CFG_CLASS_DEVICE		0x0a	/* 16-bit: base class << 8 | subclass */
#define   PCI_CLASS_DISPLAY_VGA		0x0300
#define   PCI_CLASS_DISPLAY_OTHER	0x0380
#define   PCI_BASE_CLASS_DISPLAY	0x03
#define PCI_CFG_HEADER_TYPE		0x0e
#define PCI_CFG_BAR(n)			(0x10 + 4 * (n))
#define   PCI_BAR_IO			(1u << 0)
#define   PCI_BAR_MEM_TYPE_64		(2u << 1)
#define   PCI_BAR_MEM_PREFETCH		(1u << 3)
#define   PCI_BAR_MEM_MASK		(~0xfu)
#define   PCI_BAR_IO_MASK		(~0x3u)
#define PCI_CFG_SUBSYS_VENDOR		0x2c
#define PCI_CFG_SUBSYS_ID		0x2e
#define PCI_CFG_SIZE			256
#define PCI_CFG_INTERRUPT_LINE		0x3c	/* 8-bit: the one byte software writes past the BARs */

/* BAR numbers (i915 intel_pci_config.h). */
#define GTTMMADR_BAR			0	/* MMIO + GSM (PTE window) */
#define GFXMEM_BAR			2	/* GMADR, the aperture */
#define GTT_APERTURE_BAR		GFXMEM_BAR
#define IOBAR				4

/* GMCH graphics control, PCI config 0x50, 16-bit (i915_drm.h). */
#define SNB_GMCH_CTRL			0x50
#define SNB_GMCH_GGMS_SHIFT		8	/* GTT (GSM) size, bits 9:8 */
#define SNB_GMCH_GGMS_MASK		0x3
#define SNB_GMCH_GMS_SHIFT		3	/* stolen size, bits 7:3 */
#define SNB_GMCH_GMS_MASK		0x1f
#define BDW_GMCH_GGMS_SHIFT		6	/* bits 7:6 */
#define BDW_GMCH_GGMS_MASK		0x3
#define BDW_GMCH_GMS_SHIFT		8	/* bits 15:8 */
#define BDW_GMCH_GMS_MASK		0xff

/* Base of stolen memory (i915_drm.h INTEL_BSM). */
#define INTEL_BSM			0x5c
#define INTEL_BSM_MASK			(~((1u << 20) - 1))
/* gen11+: BDSM is 64-bit at 0xc0 (bits 31:20 of the base, low bits lock and reserved) and 0xc4 (63:32). */
#define INTEL_GEN11_BSM_DW0		0xc0
#define INTEL_GEN11_BSM_DW1		0xc4

/* XenGT's aperture-size register for guests; i915 never reads it. */
#define VGT_REG_CFG_SPACE_MSAC		0x62

#endif
