/* SPDX-License-Identifier: MIT */
/*
 * The POSIX implementation of the environment interface, for the CLI and the
 * tests. Logging goes to stderr at or above the given level.
 */
#ifndef ENV_ENV_POSIX_H
#define ENV_ENV_POSIX_H

#include "env/env.h"

/* The process-wide POSIX environment; log lines at or below max_level are printed. */
const struct gtt_env *gtt_env_posix(enum gtt_log_level max_level);

#endif
