/* SPDX-License-Identifier: MIT */
/* The backends the hosted (Linux) programs are built with. */
#ifndef HOSTED_BACKENDS_H
#define HOSTED_BACKENDS_H

#include "hw/backend.h"

extern const struct hw_backend_factory *const gtt_posix_backends[];
extern const size_t gtt_num_posix_backends;

#endif
