/* SPDX-License-Identifier: MIT */
/*
 * GGTT page-table-entry bit definitions (i915 intel_gtt.h). Facts only; the
 * encoders live in hw/pte.c and, independently, in the model hw/sim/.
 * Source: docs/hardware.md §2.
 */
#ifndef REGS_GTT_PTE_H
#define REGS_GTT_PTE_H

#define GTT_PAGE_SHIFT			12
#define GTT_PAGE_SIZE			(1u << GTT_PAGE_SHIFT)

/* Gen6/7/7.5: 32-bit PTE. */
#define GEN6_PTE_VALID			(1u << 0)
#define GEN6_PTE_UNCACHED		(1u << 1)
#define GEN6_PTE_CACHE_LLC		(2u << 1)
#define GEN7_PTE_CACHE_L3_LLC		(3u << 1)
#define GEN6_PTE_CACHE_MASK		(3u << 1)
#define GEN6_PTE_ADDR_LO_MASK		0xfffff000u	/* phys 31:12 in PTE 31:12 */
#define GEN6_PTE_ADDR_HI_MASK		0x00000ff0u	/* phys 39:32 in PTE 11:4 */
#define HSW_PTE_ADDR_HI_MASK		0x000007f0u	/* phys 38:32 in PTE 10:4 */
#define GEN6_PTE_ADDR_HI_SHIFT		28		/* (phys >> 28) lands 39:32 at 11:4 */
/* Haswell cache control: 4-bit value, bits 2:0 in PTE 3:1 and bit 3 in PTE 11. */
#define HSW_CACHEABILITY_CONTROL(bits)	((((bits) & 7u) << 1) | (((bits) & 8u) << 8))
#define HSW_PTE_CACHE_MASK		0x80eu
#define HSW_PTE_UNCACHED		0u
#define HSW_WB_LLC_AGE3			HSW_CACHEABILITY_CONTROL(0x2)
#define HSW_WB_LLC_AGE0			HSW_CACHEABILITY_CONTROL(0x3)
#define HSW_WB_ELLC_LLC_AGE3		HSW_CACHEABILITY_CONTROL(0x8)
#define HSW_WB_ELLC_LLC_AGE0		HSW_CACHEABILITY_CONTROL(0xb)
#define HSW_WT_ELLC_LLC_AGE3		HSW_CACHEABILITY_CONTROL(0x7)
#define HSW_WT_ELLC_LLC_AGE0		HSW_CACHEABILITY_CONTROL(0x6)

/* Gen8+: 64-bit PTE, present bit plus address; the GGTT encoder sets nothing else. */
#define GEN8_PAGE_PRESENT		(1ull << 0)
#define GEN8_PAGE_RW			(1ull << 1)	/* PPGTT only */
#define GEN8_GGTT_PTE_ADDR_MASK		0x0000007ffffff000ull	/* bits 38:12, as IGT decodes gen8-12 */

#endif
