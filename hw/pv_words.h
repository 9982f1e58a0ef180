/* SPDX-License-Identifier: MIT */
/*
 * The pv transport's words in shared memory (regs/pv_transport.h), read and
 * written whole, the sequence words with acquire and release: what one side
 * writes before a sequence word the other sees once it sees that word. Both
 * sides use these: the guest's (hw/backend_pv.c), the host's
 * (dom0/host/pv_serve.c). Little-endian hosts only (x86), as the layout is.
 */
#ifndef HW_PV_WORDS_H
#define HW_PV_WORDS_H

#include <stdint.h>

static inline uint32_t pv_rd32(const uint8_t *p, uint64_t off)
{
	return __atomic_load_n((const uint32_t *)(p + off), __ATOMIC_ACQUIRE);
}

static inline uint64_t pv_rd64(const uint8_t *p, uint64_t off)
{
	return __atomic_load_n((const uint64_t *)(p + off), __ATOMIC_ACQUIRE);
}

static inline void pv_wr32(uint8_t *p, uint64_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(p + off), v, __ATOMIC_RELEASE);
}

static inline void pv_wr64(uint8_t *p, uint64_t off, uint64_t v)
{
	__atomic_store_n((uint64_t *)(p + off), v, __ATOMIC_RELEASE);
}

#endif
