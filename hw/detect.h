/* SPDX-License-Identifier: MIT */
/*
 * Platform detection: the device id picks the platform from the table, the
 * GMCH control word gives the GSM and stolen sizes (hw/detect_decode.h), BAR
 * sizes come from the OS or from sizing the BARs in config space, and
 * HSW_EDRAM_CAP says whether the part has eDRAM. The top floor of hw/'s
 * device layers: it reads through backend access and sizes BARs with the
 * journal's write ahead.
 */
#ifndef HW_DETECT_H
#define HW_DETECT_H

#include "hw/detect_decode.h"
#include "hw/handle.h"

/* Detect the platform and sizes from config space; used by hw_open (exposed for tests). */
int hw_detect(struct hw_device *dev, struct gtt_err *err);

#endif
