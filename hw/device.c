/* SPDX-License-Identifier: MIT */
/* Opening a device by its string (backend, journal, detection) and closing it. */
#include "hw/device.h"
#include "env/fmt.h"
#include "hw/journal_write.h"

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

int hw_open_spec(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_backend_factory *const *backends,
		 size_t n_backends, const struct hw_open_opts *opts, struct hw_device **out, struct gtt_err *err)
{
	static const struct hw_open_opts no_opts;
	struct hw_device *dev;
	int rc;

	if (!opts)
		opts = &no_opts;
	for (size_t i = 0; i < n_backends; i++) {
		if (gtt_strcmp(spec->scheme, backends[i]->scheme))
			continue;
		dev = env->alloc(env, sizeof(*dev));
		if (!dev)
			return gtt_err_set(err, GTT_ENOMEM, "out of memory");
		dev->env = env;
		gtt_snprintf(dev->name, sizeof(dev->name), "%s", spec->text);
		gtt_snprintf(dev->scheme, sizeof(dev->scheme), "%s", spec->scheme);
		rc = backends[i]->open(env, spec, opts, &dev->ops, &dev->ctx, err);
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
	return unknown_device(spec->text, backends, n_backends, err);
}

int hw_open(const struct gtt_env *env, const char *s, const struct hw_backend_factory *const *backends,
	    size_t n_backends, const struct hw_open_opts *opts, struct hw_device **out,
	    struct gtt_err *err)
{
	/* allocated: a parsed string is over a kilobyte, more than a caller's stack should give */
	struct hw_device_spec *spec = env->alloc(env, sizeof(*spec));
	int rc;

	if (!spec)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory");
	rc = hw_device_spec_parse(s, spec, err);
	if (!rc)
		rc = hw_open_spec(env, spec, backends, n_backends, opts, out, err);
	env->free(env, spec);
	return rc;
}

const char *hw_device_kind(const struct hw_device *dev)
{
	if (!gtt_strcmp(dev->scheme, "vgpu"))
		return "vGPU on the simulated device";
	if (!gtt_strcmp(dev->scheme, "pv"))
		return "pv guest";
	if (dev->ops->model && dev->ops->model(dev->ctx))
		return "simulated";
	return dev->info.pvinfo.active ? "hardware, GVT-g guest" : dev->info.vf.active ? "hardware, SR-IOV VF" : "hardware";
}

const char *hw_device_where(const struct hw_device *dev, char *buf, size_t n)
{
	/* the model's own name (sim:skl), not the PCI function the EFI application installs it as */
	if (!hw_device_pci_id(dev) || !dev->ops->location || dev->ops->location(dev->ctx, buf, n))
		return dev->name;
	return buf;
}

uint16_t hw_device_pci_id(const struct hw_device *dev)
{
	return gtt_strncmp(hw_device_kind(dev), "hardware", 8) ? 0 : dev->info.devid;
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
