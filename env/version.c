/* SPDX-License-Identifier: MIT */
/* gttlab's version (env/version.h), from the build's generated gttlab_version.h (the Makefile). */
#include "env/version.h"
#include "gttlab_version.h"

const char gttlab_version[] = GTTLAB_VERSION;
