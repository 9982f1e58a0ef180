/* SPDX-License-Identifier: MIT */
/*
 * The environment interface: everything the freestanding core (hw/, hw/sim/,
 * dom0/, the harness core) needs from the world it runs in. It is implemented
 * once for POSIX (env/env_posix.c) and once for UEFI (efi/). The core holds a
 * pointer to one of these in every handle; there is no global environment.
 */
#ifndef ENV_ENV_H
#define ENV_ENV_H

#include <stddef.h>
#include <stdint.h>

enum gtt_log_level { GTT_LOG_ERROR, GTT_LOG_WARN, GTT_LOG_INFO, GTT_LOG_DEBUG };

struct gtt_env {
	/* Zeroed allocation; NULL when out of memory. */
	void *(*alloc)(const struct gtt_env *env, size_t size);
	void (*free)(const struct gtt_env *env, void *ptr);
	/* One line of text, without a newline. */
	void (*log)(const struct gtt_env *env, enum gtt_log_level level, const char *line);
	/* Monotonic time in nanoseconds. */
	uint64_t (*now_ns)(const struct gtt_env *env);
	void *priv;
	/*
	 * Optional: an allocation whose bytes are left as they were, for an
	 * array the caller fills whole before it reads any of it (zeroing
	 * megabytes the caller overwrites at once cost most of a run under
	 * QEMU's TCG); NULL means alloc.
	 */
	void *(*alloc_raw)(const struct gtt_env *env, size_t size);
};

/* Log a formatted line through env->log (format as in env/fmt.h). */
void gtt_log(const struct gtt_env *env, enum gtt_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Allocate an array of n elements of the given size, zeroed, with overflow check. */
void *gtt_calloc(const struct gtt_env *env, size_t n, size_t size);
/* The same, not zeroed where the environment can skip it: for an array the caller fills whole first. */
void *gtt_alloc_uninit(const struct gtt_env *env, size_t n, size_t size);

#define gtt_memcpy(d, s, n)	__builtin_memcpy((d), (s), (n))
#define gtt_memset(d, c, n)	__builtin_memset((d), (c), (n))
#define gtt_memcmp(a, b, n)	__builtin_memcmp((a), (b), (n))

#endif
