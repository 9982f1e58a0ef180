/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "hosted/backends.h"
#include "hosted/text_escape.h"
#include "env/num.h"
#include "hw/backend_sim.h"
#include "hw/journal.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("gttlab: ", stderr);
	va_start(ap, fmt);
	text_vfprintf_escaped(stderr, fmt, ap);	/* arguments and file contents reach a terminal */
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

int cli_set_device(struct cli *c, const char *s)
{
	struct gtt_err err = { 0 };

	if (hw_device_spec_parse(s, &c->spec, &err))
		return cli_report(&err);
	c->device = c->spec.text;
	return EXIT_OK;
}

const struct gtt_platform *cli_platform(const struct cli *c, const char *name)
{
	const struct gtt_platform *p;

	if (!name && c->spec.plat)
		return c->spec.plat;	/* the model's, as the grammar read it (sim:hsw,edram is hsw) */
	if (!name)
		name = HW_SIM_DEFAULT_PLATFORM;
	p = gtt_platform_by_name(name);
	if (!p) {
		char list[256] = "";
		size_t len = 0;
		for (size_t i = 0; i < gtt_num_platforms; i++)
			len += (size_t)snprintf(list + len, len < sizeof(list) ? sizeof(list) - len : 0, "%s%s",
						i ? ", " : "", gtt_platforms[i].name);
		cli_error("unknown platform '%s': one of %s", name, list);
	}
	return p;
}

/*
 * The model is the newcomer's default, never a lab's surprise: a run on it because no device was
 * named says so on stderr, every time (a verdict line says "simulated" as well).
 */
void cli_say_default(const struct cli *c)
{
	if (c->device_default && c->opened)
		fprintf(stderr, "gttlab: no --device: this ran on the model %s (simulated %s), gttlab's default; "
			"--device auto or pci:SSSS:BB:DD.F runs on hardware\n", c->spec.text, c->spec.plat->name);
}

int cli_open(struct cli *c, struct hw_device **dev)
{
	struct gtt_err err = { 0 };

	c->opened = true;
	if (hw_open_spec(c->env, &c->spec, gtt_posix_backends, gtt_num_posix_backends, &c->opts, dev, &err))
		return cli_report(&err);
	return 0;
}

void cli_close(struct hw_device *dev)
{
	hw_close(dev);
}

/* Root, and the crash journal of a device that is not the model; the error unsaid. */
static int journal_start(struct cli *c, struct hw_device *dev, struct journal_file *jf, struct gtt_err *err)
{
	jf->fd = -1;
	if (c->journal && !c->journal[0])
		return gtt_err_set(err, GTT_EINVAL, "--journal: the file name is empty");
	if (!dev->ops->in_process && geteuid() != 0)
		return gtt_err_set(err, GTT_EPERM, "writing the real device %s needs root (it writes the GGTT, fences and config space)",
				   dev->name);
	return journal_begin(dev, c->journal, &c->opts, jf, err);
}

int cli_journal_begin(struct cli *c, struct hw_device *dev, struct journal_file *jf)
{
	struct gtt_err err = { 0 };

	return journal_start(c, dev, jf, &err) ? cli_report(&err) : 0;
}

int cli_journal_end(struct hw_device *dev, struct journal_file *jf, bool restored)
{
	struct gtt_err err = { 0 };
	bool kept;

	if (!journal_end(dev, jf, restored, &kept, &err))
		return 0;
	cli_error("%s", err.msg);
	return kept ? EXIT_ABORT : EXIT_USAGE;
}

static int session_open_hook(void *ctx, struct hw_device **dev, struct gtt_err *err)
{
	struct cli_session *cs = ctx;

	cs->c->opened = true;
	return hw_open_spec(cs->c->env, &cs->c->spec, gtt_posix_backends, gtt_num_posix_backends, &cs->c->opts, dev, err);
}

static int session_journal_begin(void *ctx, struct hw_device *dev, struct gtt_err *err)
{
	struct cli_session *cs = ctx;

	return journal_start(cs->c, dev, &cs->jf, err);
}

static int session_journal_end(void *ctx, struct hw_device *dev, bool restored, struct gtt_err *err)
{
	struct cli_session *cs = ctx;

	return journal_end(dev, &cs->jf, restored, NULL, err);
}

void cli_session_init(struct cli_session *cs, struct cli *c, const char *fault)
{
	*cs = (struct cli_session){ .c = c, .jf = { .fd = -1 } };
	cs->s = (struct session){ .hooks = { session_open_hook, session_journal_begin, session_journal_end, cs } };
#ifdef GTTLAB_FAULTS
	cs->s.fault = fault;
#else
	(void)fault;
#endif
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

int cli_twice(const char *opt, const char *first, const char *second)
{
	if (!first)
		return cli_error("option %s given twice: give it once", opt);
	return cli_error("option %s given twice ('%s', then '%s'): give it once", opt, first, second);
}

/* The outputs open now: which were created by output_open (what output_drop removes). */
static struct output {
	FILE *f;
	bool created;
	char path[PATH_MAX];
} outputs[8];

static struct output *output_of(FILE *f)
{
	for (size_t i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		if (outputs[i].f == f)
			return &outputs[i];
	return NULL;
}

FILE *output_open(const char *path)
{
	struct output *o = output_of(NULL);
	bool created = true;
	int fd, fl;
	FILE *f;

	if (!o || strlen(path) >= sizeof(o->path)) {
		errno = o ? ENAMETOOLONG : EMFILE;
		return NULL;
	}
	/*
	 * O_NONBLOCK only for the open: a FIFO nobody reads fails with ENXIO. No O_TRUNC: a file
	 * that was there keeps its bytes until output_close cuts it to what was written, so a
	 * run refused after this (a device that does not open) leaves it as it was.
	 */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NONBLOCK | O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST) {
		created = false;
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
	}
	if (fd < 0)
		return NULL;
	if ((fl = fcntl(fd, F_GETFL)) < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0 || !(f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		if (created)
			unlink(path);
		errno = e;
		return NULL;
	}
	*o = (struct output){ .f = f, .created = created };
	memcpy(o->path, path, strlen(path) + 1);
	return f;
}

void output_drop(FILE *f)
{
	struct output *o = output_of(f);

	fclose(f);
	if (o && o->created)
		unlink(o->path);
	if (o)
		*o = (struct output){ 0 };
}

int output_close(FILE *f)
{
	struct output *o = output_of(f);
	struct stat st;
	int err = 0;

	errno = 0;
	if (fflush(f))
		err = errno ? errno : EIO;
	else if (ferror(f))
		err = EIO;	/* an earlier write failed; its errno is gone */
	/* a file that was there: what it held past what was written goes now */
	else if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && ftruncate(fileno(f), ftello(f)))
		err = errno;
	if (o)
		*o = (struct output){ 0 };
	if (fclose(f) && !err)
		err = errno ? errno : EIO;
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}
