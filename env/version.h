/* SPDX-License-Identifier: MIT */
/*
 * gttlab's version: git describe of the tree it was built from ("-dirty"
 * when that had uncommitted changes), or a release's VERSION file. Every
 * front-end says it, and every report carries it. Freestanding.
 */
#ifndef ENV_VERSION_H
#define ENV_VERSION_H

extern const char gttlab_version[];

#endif
