/* SPDX-License-Identifier: MIT */
/* Opening a device by its string, raw access with counters and undo logging. */
#include "hw/device.h"
#include "env/fmt.h"
#include "hw/journal.h"

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

const char *hw_write_refused(const struct hw_device *dev)
{
	const char *j = hw_journal_error(dev);

	return j[0] ? j : dev->undo.error ? "undo log out of memory" : "";
}

void hw_counters_reset(struct hw_device *dev)
{
	dev->counters = (struct hw_counters){ 0 };
}

int hw_cfg_read(struct hw_device *dev, unsigned off, unsigned width, uint32_t *val)
{
	dev->counters.cfg_reads++;
	return dev->ops->cfg_read(dev->ctx, off, width, val);
}

int hw_cfg_write(struct hw_device *dev, unsigned off, unsigned width, uint32_t val)
{
	uint32_t old;
	int rc = dev->ops->cfg_read(dev->ctx, off, width, &old);

	if (rc)
		return rc;
	if ((rc = hw_journal_cfg(dev, off, width)))
		return rc;
	rc = hw_undo_record(dev, HW_UNDO_CFG, width, off, old);
	if (rc)
		return rc;
	dev->counters.cfg_writes++;
	return dev->ops->cfg_write(dev->ctx, off, width, val);
}

uint32_t hw_mmio_read32(struct hw_device *dev, uint32_t off)
{
	dev->counters.mmio_reads++;
	return dev->ops->mmio_read32(dev->ctx, off);
}

int hw_mmio_write32(struct hw_device *dev, uint32_t off, uint32_t val)
{
	int rc = hw_journal_mmio(dev, off, 4);

	if (!rc)
		rc = hw_undo_record(dev, HW_UNDO_MMIO32, 4, off, dev->ops->mmio_read32(dev->ctx, off));
	if (rc)
		return rc;
	dev->counters.mmio_writes++;
	if (off >= dev->info.gsm_offset && off - dev->info.gsm_offset < dev->info.gsm_size)
		dev->ptes_unflushed = true;
	dev->ops->mmio_write32(dev->ctx, off, val);
	return GTT_OK;
}

uint64_t hw_mmio_read64(struct hw_device *dev, uint32_t off)
{
	dev->counters.mmio_reads++;
	return dev->ops->mmio_read64(dev->ctx, off);
}

int hw_mmio_write64(struct hw_device *dev, uint32_t off, uint64_t val)
{
	int rc = hw_journal_mmio(dev, off, 8);

	if (!rc)
		rc = hw_undo_record(dev, HW_UNDO_MMIO64, 8, off, dev->ops->mmio_read64(dev->ctx, off));
	if (rc)
		return rc;
	dev->counters.mmio_writes++;
	if (off >= dev->info.gsm_offset && off - dev->info.gsm_offset < dev->info.gsm_size)
		dev->ptes_unflushed = true;
	dev->ops->mmio_write64(dev->ctx, off, val);
	return GTT_OK;
}

int hw_alloc_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	if (!dev->ops->alloc_pages)
		return gtt_err_set(err, GTT_ENOTSUP, "%s backend cannot allocate test pages", dev->ops->name);
	return dev->ops->alloc_pages(dev->ctx, n, pages, err);
}

void hw_free_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages)
{
	if (dev->ops->free_pages)
		dev->ops->free_pages(dev->ctx, n, pages);
}

static int gpu_range(struct hw_device *dev, uint64_t gm, size_t len, struct gtt_err *err)
{
	if (gm > dev->info.ggtt_size || len > dev->info.ggtt_size - gm)
		return gtt_err_set(err, GTT_ERANGE, "GGTT address 0x%llx+0x%zx is beyond the %llu-byte GGTT",
				   (unsigned long long)gm, len, (unsigned long long)dev->info.ggtt_size);
	return GTT_OK;
}

int hw_gpu_read(struct hw_device *dev, uint64_t gm, void *buf, size_t len, struct gtt_err *err)
{
	if (!dev->ops->gpu_read)
		return gtt_err_set(err, GTT_ENOTSUP, "%s backend has no GPU-side accessor", dev->ops->name);
	int rc = gpu_range(dev, gm, len, err);
	if (rc)
		return rc;
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);
	return dev->ops->gpu_read(dev->ctx, gm, buf, len);
}

int hw_gpu_write(struct hw_device *dev, uint64_t gm, const void *buf, size_t len, struct gtt_err *err)
{
	if (!dev->ops->gpu_write)
		return gtt_err_set(err, GTT_ENOTSUP, "%s backend has no GPU-side accessor", dev->ops->name);
	int rc = gpu_range(dev, gm, len, err);
	if (rc)
		return rc;
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);
	rc = dev->ops->gpu_write(dev->ctx, gm, buf, len);
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);
	return rc;
}
