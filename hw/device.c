/* SPDX-License-Identifier: MIT */
/* Opening a device by its string (backend, journal, detection) and closing it. */
#include "hw/device.h"
#include "env/fmt.h"
#include "hw/journal_write.h"

static int split_spec(const char *spec, char *scheme, size_t n, const char **arg)
{
	size_t i = 0;

	while (spec[i] && spec[i] != ':') {
		if (i + 1 >= n)
			return -1;
		scheme[i] = spec[i];
		i++;
	}
	scheme[i] = '\0';
	*arg = spec[i] == ':' ? spec + i + 1 : "";
	return 0;
}

static int unknown_device(const char *spec, const struct hw_backend_factory *const *b, size_t n,
			  struct gtt_err *err)
{
	char usage[160] = "";
	size_t len = 0;

	for (size_t i = 0; i < n; i++)
		len += (size_t)gtt_snprintf(usage + len, len < sizeof(usage) ? sizeof(usage) - len : 0,
					    "%s%s", i ? ", " : "", b[i]->usage);
	return gtt_err_set(err, GTT_EINVAL, "unknown device '%s': a device is one of %s", spec, usage);
}

int hw_open(const struct gtt_env *env, const char *spec, const struct hw_backend_factory *const *backends,
	    size_t n_backends, const struct hw_open_opts *opts, struct hw_device **out,
	    struct gtt_err *err)
{
	static const struct hw_open_opts no_opts;
	char scheme[16];
	const char *arg;
	struct hw_device *dev;
	int rc;

	if (!opts)
		opts = &no_opts;
	if (split_spec(spec, scheme, sizeof(scheme), &arg))
		return unknown_device(spec, backends, n_backends, err);
	/* "sim:" or "auto:": a colon promises an argument (sim: once meant skl, auto: meant auto) */
	if (spec[gtt_strlen(scheme)] == ':' && !*arg)
		return gtt_err_set(err, GTT_EINVAL, "device '%s' has nothing after the colon: write '%s' or name the argument",
				   spec, scheme);
	for (size_t i = 0; i < n_backends; i++) {
		if (gtt_strcmp(scheme, backends[i]->scheme))
			continue;
		dev = env->alloc(env, sizeof(*dev));
		if (!dev)
			return gtt_err_set(err, GTT_ENOMEM, "out of memory");
		dev->env = env;
		gtt_snprintf(dev->name, sizeof(dev->name), "%s", spec);
		rc = backends[i]->open(env, arg, opts, &dev->ops, &dev->ctx, err);
		if (rc) {
			env->free(env, dev);
			return rc;
		}
		/* before detection: sizing BARs through config space writes it */
		if (opts->journal && (rc = hw_journal_attach(dev, opts->journal, opts, err))) {
			hw_close(dev);
			return rc;
		}
		rc = hw_detect(dev, err);
		if (rc) {
			hw_close(dev);
			return rc;
		}
		*out = dev;
		return GTT_OK;
	}
	return unknown_device(spec, backends, n_backends, err);
}

void hw_close(struct hw_device *dev)
{
	if (!dev)
		return;
	if (dev->ops && dev->ops->close)
		dev->ops->close(dev->ctx);
	hw_journal_detach(dev);
	hw_undo_fini(dev);
	dev->env->free(dev->env, dev);
}
