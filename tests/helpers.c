/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "tests/helpers.h"
#include "env/env_posix.h"
#include "hosted/backends.h"

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

struct hw_device *t_open(const char *spec)
{
	struct hw_device *dev = NULL;
	struct gtt_err err = { 0 };
	int rc = hw_open(gtt_env_posix(GTT_LOG_WARN), spec, gtt_posix_backends, gtt_num_posix_backends,
			 NULL, &dev, &err);

	cr_assert_eq(rc, 0, "opening %s: %s", spec, err.msg);
	return dev;
}

struct sim_device *t_sim(struct hw_device *dev)
{
	struct sim_device *s = hw_sim_model(dev);

	cr_assert_not_null(s, "%s is not a simulated device", dev->name);
	return s;
}

int t_run(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	size_t len = 0;

	cr_assert_not_null(p, "popen %s", cmd);
	while (len + 1 < n) {
		size_t r = fread(out + len, 1, n - 1 - len, p);
		if (!r)
			break;
		len += r;
	}
	out[len] = '\0';
	int st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

void t_tmpdir(char *buf, size_t n)
{
	snprintf(buf, n, "/tmp/gttlab-test-XXXXXX");
	cr_assert_not_null(mkdtemp(buf));
}

uint64_t t_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}
