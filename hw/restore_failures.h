/* SPDX-License-Identifier: MIT */
/*
 * What a restore could not put back: counted, the first three named, in one
 * error line. Shared by the undo log's replay and the journal's, so both say
 * it the same way ("PTE 32768 reads 0x..., not 0x..."). Allocates nothing.
 */
#ifndef HW_RESTORE_FAILURES_H
#define HW_RESTORE_FAILURES_H

#include <stddef.h>
#include <stdint.h>

#include "env/err.h"

struct hw_device;

struct hw_restore_failures {
	unsigned n;
	char what[GTT_ERR_MSG_MAX];
	size_t len;
};

/* The name of what lives at a BAR0 offset: "PTE 32768", "FENCE_REG_GEN6_LO_3", "MMIO 0x101008". */
void hw_mmio_name(const struct hw_device *dev, uint64_t off, char *buf, size_t n);

/* Count one entry that did not read back; the first three are described by the format. */
void hw_restore_failure(struct hw_restore_failures *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* GTT_OK when nothing was counted, else GTT_EIO with "N entries not restored: ...". */
int hw_restore_result(const struct hw_restore_failures *f, struct gtt_err *err);

#endif
