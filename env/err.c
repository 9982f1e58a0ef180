/* SPDX-License-Identifier: MIT */
#include "env/err.h"
#include "env/env.h"
#include "env/fmt.h"

int gtt_err_set(struct gtt_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	err->code = code;
	va_start(ap, fmt);
	gtt_vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	return code;
}

const char *gtt_strerror(int code)
{
	switch (code) {
	case GTT_OK: return "success";
	case GTT_EINVAL: return "invalid argument";
	case GTT_ENODEV: return "no such device";
	case GTT_EPERM: return "permission denied";
	case GTT_EBUSY: return "device busy";
	case GTT_ENOMEM: return "out of memory";
	case GTT_EIO: return "device error";
	case GTT_ERANGE: return "out of range";
	case GTT_ENOTSUP: return "not supported";
	}
	return "unknown error";
}

void gtt_log(const struct gtt_env *env, enum gtt_log_level level, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	if (!env || !env->log)
		return;
	va_start(ap, fmt);
	gtt_vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	env->log(env, level, line);
}

void *gtt_calloc(const struct gtt_env *env, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return 0;
	return env->alloc(env, n * size);
}

void *gtt_alloc_uninit(const struct gtt_env *env, size_t n, size_t size)
{
	if (size && n > (size_t)-1 / size)
		return 0;
	return env->alloc_raw ? env->alloc_raw(env, n * size) : env->alloc(env, n * size);
}
