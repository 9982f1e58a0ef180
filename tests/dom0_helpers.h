/* SPDX-License-Identifier: MIT */
/* Helpers for the Dom0 runtime tests: guest PTEs and physical GTT reads from the model's side. */
#ifndef TESTS_DOM0_HELPERS_H
#define TESTS_DOM0_HELPERS_H

#include "dom0/dom0.h"
#include "tests/helpers.h"

struct d0 {
	struct hw_device *dev;
	struct sim_device *sim;
	struct dom0_runtime *rt;
};

void d0_start(struct d0 *t, const char *spec, const struct dom0_config *cfg);
void d0_stop(struct d0 *t);
int d0_create(struct d0 *t, uint64_t low, unsigned slots, unsigned fences);
/* A guest PTE naming guest frame gfn, in the platform's format (docs/hardware.md §2 formulas). */
uint64_t d0_guest_pte(const struct d0 *t, uint64_t gfn);
/* The physical PTE at index as BAR0 holds it, read from the model. */
uint64_t d0_phys(const struct d0 *t, uint64_t index);
/* The physical page a PTE names (the test's own decode). */
uint64_t d0_pte_addr(const struct d0 *t, uint64_t pte);
/* The whole GSM and every fence register, read from the model. */
uint8_t *d0_capture(const struct d0 *t, size_t *len);

#endif
