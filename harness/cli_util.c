/* SPDX-License-Identifier: MIT */
#include "harness/cli.h"
#include "harness/backends.h"
#include "env/num.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("gttlab: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int cli_report(const struct gtt_err *err)
{
	return cli_error("%s", err->msg[0] ? err->msg : gtt_strerror(err->code));
}

int cli_parse_u64(const char *what, const char *s, uint64_t *out)
{
	const char *why;

	if (gtt_parse_u64(s, out, &why))
		return cli_error("%s '%s' %s", what, s ? s : "", why);
	return 0;
}

int cli_opt(int argc, char **argv, int *i, const char *name, const char **val)
{
	const char *a = argv[*i];
	size_t n = strlen(name);

	if (strncmp(a, name, n))
		return 0;
	if (a[n] == '=') {
		*val = a + n + 1;
		return 1;
	}
	if (a[n])
		return 0;
	if (*i + 1 >= argc) {
		cli_error("option %s needs a value", name);
		return -1;
	}
	*val = argv[++*i];
	return 1;
}

const struct gtt_platform *cli_platform(const struct cli *c, const char *name)
{
	const struct gtt_platform *p;

	if (!name) {
		/* the device's platform when it is a simulated one, else Skylake */
		name = !strncmp(c->device, "sim:", 4) ? c->device + 4 : "skl";
	}
	p = gtt_platform_by_name(name);
	if (!p) {
		char list[128] = "";
		for (size_t i = 0; i < gtt_num_platforms; i++) {
			strcat(list, i ? ", " : "");
			strcat(list, gtt_platforms[i].name);
		}
		cli_error("unknown platform '%s': one of %s", name, list);
	}
	return p;
}

int cli_open(struct cli *c, struct hw_device **dev)
{
	struct gtt_err err = { 0 };

	if (hw_open(c->env, c->device, gtt_posix_backends, gtt_num_posix_backends, &c->opts, dev, &err))
		return cli_report(&err);
	return 0;
}

void cli_close(struct hw_device *dev)
{
	hw_close(dev);
}

const char *cli_size(uint64_t b, char *buf, size_t n)
{
	static const char *const unit[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (u < 4 && b >= 1024 && !(b & 1023)) {
		b >>= 10;
		u++;
	}
	snprintf(buf, n, "%" PRIu64 " %s", b, unit[u]);
	return buf;
}

const char *cli_gen(unsigned gen, char *buf, size_t n)
{
	if (gen % 10)
		snprintf(buf, n, "%u.%u", gen / 10, gen % 10);
	else
		snprintf(buf, n, "%u", gen / 10);
	return buf;
}
