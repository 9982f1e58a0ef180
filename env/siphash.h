/* SPDX-License-Identifier: MIT */
/*
 * SipHash-2-4 (Aumasson and Bernstein, "SipHash: a fast short-input PRF",
 * 2012): a keyed 64-bit tag of a short input. The pv transport's stamps
 * carry one (regs/pv_transport.h), so that a guest cannot forge a stamp
 * naming another guest without that guest's key. Freestanding.
 */
#ifndef ENV_SIPHASH_H
#define ENV_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* SipHash-2-4 of the len bytes at data under the 128-bit key (k[0] the low 64 bits, as the paper's k0). */
uint64_t gtt_siphash24(const uint64_t k[2], const void *data, size_t len);

#endif
