/* SPDX-License-Identifier: MIT */
/* CPU access through the aperture (BAR2, GMADR). */
#ifndef HW_APERTURE_H
#define HW_APERTURE_H

#include "hw/write_path.h"

int hw_aperture_read(struct hw_device *dev, uint64_t off, void *buf, size_t len, struct gtt_err *err);
/* Writes record the bytes they overwrite in the undo log. */
int hw_aperture_write(struct hw_device *dev, uint64_t off, const void *buf, size_t len,
		      struct gtt_err *err);

#endif
