/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "env/env_posix.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

static void *posix_alloc(const struct gtt_env *env, size_t size)
{
	(void)env;
	return calloc(1, size ? size : 1);
}

static void *posix_alloc_raw(const struct gtt_env *env, size_t size)
{
	(void)env;
	return malloc(size ? size : 1);
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

/*
 * The runtime allocates and frees tables of megabytes (a vGPU's shadow, a
 * runtime's owners) again and again, a check after a check. glibc returns a
 * large block to the kernel at its free, so the next one faults every page
 * in again; kept in the heap (up to 256 MiB a block), it is reused. Benchmark
 * P5 measures the difference.
 */
static void keep_freed_memory(void)
{
#ifdef __GLIBC__
	/* mallopt takes the allocator's lock: any thread may call this, any number of times */
	mallopt(M_MMAP_THRESHOLD, 256 << 20);
	mallopt(M_TRIM_THRESHOLD, 1 << 30);
	mallopt(M_TOP_PAD, 64 << 20);
#endif
}

const struct gtt_env *gtt_env_posix(enum gtt_log_level max_level)
{
	static struct gtt_env envs[GTT_LOG_DEBUG + 1];

	keep_freed_memory();

	struct gtt_env *e = &envs[max_level];
	e->alloc = posix_alloc;
	e->alloc_raw = posix_alloc_raw;
	e->free = posix_free;
	e->log = posix_log;
	e->now_ns = posix_now_ns;
	e->priv = (void *)(intptr_t)max_level;
	return e;
}
