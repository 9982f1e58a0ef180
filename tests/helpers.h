/* SPDX-License-Identifier: MIT */
/* Helpers shared by the Criterion tests. */
#ifndef TESTS_HELPERS_H
#define TESTS_HELPERS_H

#include <stdint.h>
#include <stdio.h>

#include "hw/backend_sim.h"
#include "hw/device.h"

/* Open a device string with the hosted backends; fails the test on error. */
struct hw_device *t_open(const char *spec);
/* The model behind a sim device. */
struct sim_device *t_sim(struct hw_device *dev);
/* Run a shell command; its stdout in out (NUL-terminated), returns the exit status. */
int t_run(const char *cmd, char *out, size_t n);
/* A fresh temporary directory (removed by the OS's tmp cleanup). */
void t_tmpdir(char *buf, size_t n);
/* A deterministic pseudo-random generator (xorshift64*). */
uint64_t t_rand(uint64_t *state);

#endif
