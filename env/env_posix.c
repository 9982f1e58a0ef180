/* SPDX-License-Identifier: MIT */
#define _DEFAULT_SOURCE
#include "env/env_posix.h"

#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

/*
 * A block of megabytes in huge pages where the kernel offers them for the
 * asking (transparent_hugepage "madvise"): one fault per 2 MiB instead of
 * 512. The runtime's tables and the model's memory are megabytes touched
 * once each run; in 4 KiB pages their faults were most of `gttlab check`'s
 * time (Benchmark P5). Asked before the block is first touched; the ends
 * outside whole huge pages stay as they are. A refusal changes nothing.
 */
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define GTT_HAS_SANITIZER 1
#endif
#endif
#ifndef GTT_HAS_SANITIZER
#define GTT_HAS_SANITIZER 0
#endif

#define HUGE_PAGE	(2u << 20)
#define HEAP_MARKED	((size_t)192 << 20)

static void *huge(void *p, size_t size)
{
	uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
	uintptr_t e = ((uintptr_t)p + size) & ~(uintptr_t)(HUGE_PAGE - 1);

	if (p && e > a)
		madvise((void *)a, e - a, MADV_HUGEPAGE);
	return p;
}

static void *posix_alloc_raw(const struct gtt_env *env, size_t size)
{
	(void)env;
	return size >= HUGE_PAGE ? huge(malloc(size), size) : malloc(size ? size : 1);
}

/* calloc knows whether the block is fresh (then it writes nothing): the advice comes before the first touch either way */
static void *posix_alloc(const struct gtt_env *env, size_t size)
{
	(void)env;
	return size >= HUGE_PAGE ? huge(calloc(1, size), size) : calloc(1, size ? size : 1);
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
	/*
	 * The heap's first 192 MiB in huge pages: a block that size taken from
	 * the heap's top (below the mmap threshold), marked, and freed again
	 * (above it nothing is trimmed), so every block carved from it later
	 * lies in marked memory; untouched, it costs address space only.
	 */
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__) && !GTT_HAS_SANITIZER
	/* (not under a sanitizer: its allocator would poison, or hold in quarantine, every byte of it) */
	static bool marked;
	if (!marked) {
		marked = true;
		free(huge(malloc(HEAP_MARKED), HEAP_MARKED));
	}
#endif
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
