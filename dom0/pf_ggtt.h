/* SPDX-License-Identifier: MIT */
/*
 * An SR-IOV PF's GGTT provisioning arithmetic (docs/hardware.md §10.4; xe's
 * PF config, re-typed from the facts): how much of the GGTT each of n VFs
 * gets, and the tag every PTE of a VF's range carries. Issue 47's PF side
 * stands on it. Freestanding; no state.
 */
#ifndef DOM0_PF_GGTT_H
#define DOM0_PF_GGTT_H

#include <stdbool.h>
#include <stdint.h>

#include "env/err.h"

#define DOM0_PF_SPARE_MIN	(64ull << 20)	/* GGTT the PF keeps, at least */
#define DOM0_PF_SHAREABLE	0xe0000000ull	/* align_down(GUC_GGTT_TOP, 512 MiB): 3.5 GiB */
#define DOM0_PF_PROFILE_MANY	56		/* more VFs than this get DOM0_PF_PROFILE_SMALL each */
#define DOM0_PF_PROFILE_SMALL	(56ull << 20)

/*
 * The profile's share of n VFs (newer xe trees): rounddown_pow2(3.5 GiB /
 * n), 56 MiB beyond 56 VFs, the whole 3.5 GiB (aligned down) for a lone
 * VF of an admin-only PF. 0 for n 0.
 */
uint64_t dom0_pf_profile(unsigned n, bool admin_only, uint64_t align);

/*
 * Each of n VFs' share of a hole of `hole` bytes, the PF keeping `spare`
 * (raised to DOM0_PF_SPARE_MIN): align_down((hole - spare) / n, align),
 * then at most the profile when `profile`. GTT_EINVAL for n 0 or an
 * alignment not a power of two of at least 4 KiB; GTT_ERANGE (xe's
 * -ENOSPC) when nothing is left to share.
 */
int dom0_pf_fair_share(uint64_t hole, uint64_t spare, unsigned n, uint64_t align, bool profile, uint64_t *share,
		       struct gtt_err *err);

/* VF ids a graphics IP's VFID field holds: 7 before 12.50 (bits 4:2), 1023 from it (bits 11:2). */
unsigned dom0_pf_max_vfid(unsigned graphics_verx100);

/* The PTE a PF writes across VF vfid's range: VFID in its field, PRESENT, no address; 0 when vfid is 0 or does not fit. */
uint64_t dom0_pf_pte_tag(unsigned vfid, unsigned graphics_verx100);

#endif
