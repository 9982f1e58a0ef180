/* SPDX-License-Identifier: MIT */
/* CPU access through the aperture: reads, and writes that journal and log the bytes they overwrite. */
#include "hw/aperture.h"
#include "hw/journal_write.h"

static int check(const struct hw_device *dev, uint64_t off, size_t len, struct gtt_err *err)
{
	if (off > dev->info.aperture_size || len > dev->info.aperture_size - off)
		return gtt_err_set(err, GTT_ERANGE, "aperture range 0x%llx+0x%zx is beyond the 0x%llx-byte aperture",
				   (unsigned long long)off, len, (unsigned long long)dev->info.aperture_size);
	return GTT_OK;
}

int hw_aperture_read(struct hw_device *dev, uint64_t off, void *buf, size_t len, struct gtt_err *err)
{
	int rc = check(dev, off, len, err);

	if (rc)
		return rc;
	dev->counters.aperture_read_bytes += len;
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);
	rc = dev->ops->aperture_read(dev->ctx, off, buf, len);
	return rc ? gtt_err_set(err, rc, "aperture read at 0x%llx failed", (unsigned long long)off) : GTT_OK;
}

int hw_aperture_write(struct hw_device *dev, uint64_t off, const void *buf, size_t len,
		      struct gtt_err *err)
{
	uint8_t chunk[512];
	int rc = check(dev, off, len, err);

	if (rc)
		return rc;
	if ((rc = hw_journal_aperture(dev, off, len)))
		return gtt_err_set(err, rc, "aperture bytes 0x%llx+0x%zx not written: %s", (unsigned long long)off, len,
				   hw_write_refused(dev));
	/* record what is overwritten, in chunks, before writing */
	for (size_t done = 0; done < len;) {
		size_t n = len - done < sizeof(chunk) ? len - done : sizeof(chunk);
		if ((rc = dev->ops->aperture_read(dev->ctx, off + done, chunk, n)) ||
		    (rc = hw_undo_record_data(dev, off + done, chunk, n)))
			return gtt_err_set(err, rc, "cannot record aperture bytes at 0x%llx before writing them",
					   (unsigned long long)(off + done));
		done += n;
	}
	dev->counters.aperture_write_bytes += len;
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);
	rc = dev->ops->aperture_write(dev->ctx, off, buf, len);
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);	/* the CPU must not read stale lines of what went to memory */
	return rc ? gtt_err_set(err, rc, "aperture write at 0x%llx failed", (unsigned long long)off) : GTT_OK;
}
