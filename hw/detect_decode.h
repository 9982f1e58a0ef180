/* SPDX-License-Identifier: MIT */
/*
 * Decoders of the values detection reads, per docs/hardware.md §1.3: the
 * GMCH control word's fields, the GSM and stolen sizes they give, the stolen
 * base from the BDSM dwords, and the eDRAM HSW_EDRAM_CAP gives. Pure
 * functions of the platform and a value; no device.
 */
#ifndef HW_DETECT_DECODE_H
#define HW_DETECT_DECODE_H

#include <stdbool.h>
#include <stdint.h>

#include "regs/platform.h"

uint64_t hw_gsm_size_from_ggms(const struct gtt_platform *p, unsigned ggms);
uint64_t hw_stolen_size_from_gms(const struct gtt_platform *p, unsigned gms);
/* Base of stolen memory from the BDSM dwords: dw1 is only read on BDSM_64 platforms. */
uint64_t hw_stolen_base(const struct gtt_platform *p, uint32_t dw0, uint32_t dw1);
void hw_gmch_fields(const struct gtt_platform *p, uint16_t gmch, unsigned *ggms, unsigned *gms);
/*
 * Whether i915 reads HSW_EDRAM_CAP on p (Haswell, Broadwell, gen9+), and the
 * eDRAM a value of it gives: 0 without EDRAM_ENABLED, 128 MiB before gen9,
 * banks x ways x sets from gen9 (intel_dram_edram_detect, gen9_edram_size_mb).
 */
bool hw_edram_readable(const struct gtt_platform *p);
unsigned hw_edram_mb(const struct gtt_platform *p, uint32_t cap);

#endif
