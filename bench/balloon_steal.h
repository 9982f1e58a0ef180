/* SPDX-License-Identifier: MIT */
/* W measured on this host's real threads, against the CPU model (bench/balloon_steal.c). */
#ifndef BENCH_BALLOON_STEAL_H
#define BENCH_BALLOON_STEAL_H

#include <stdbool.h>

#include "bench/balloon_result.h"

/* Run §4.3's vCPU mix as real threads on this host for 0.5 s (quick) or 2 s, metered; dies if it cannot. */
void balloon_steal_measure(bool quick, struct bench_balloon_steal *out);

#endif
