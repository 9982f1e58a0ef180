/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "env/env_posix.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void *posix_alloc(const struct gtt_env *env, size_t size)
{
	(void)env;
	return calloc(1, size ? size : 1);
}

static void posix_free(const struct gtt_env *env, void *ptr)
{
	(void)env;
	free(ptr);
}

static void posix_log(const struct gtt_env *env, enum gtt_log_level level, const char *line)
{
	static const char *const tag[] = { "error", "warning", "info", "debug" };

	if ((intptr_t)env->priv >= (intptr_t)level)
		fprintf(stderr, "gttlab: %s: %s\n", tag[level], line);
}

static uint64_t posix_now_ns(const struct gtt_env *env)
{
	struct timespec ts;

	(void)env;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

const struct gtt_env *gtt_env_posix(enum gtt_log_level max_level)
{
	static struct gtt_env envs[GTT_LOG_DEBUG + 1];

	struct gtt_env *e = &envs[max_level];
	e->alloc = posix_alloc;
	e->free = posix_free;
	e->log = posix_log;
	e->now_ns = posix_now_ns;
	e->priv = (void *)(intptr_t)max_level;
	return e;
}
