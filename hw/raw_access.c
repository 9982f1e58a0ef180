/* SPDX-License-Identifier: MIT */
/*
 * Backend access: counted reads, test pages, GPU-side access and the raw
 * BAR0 helpers of the restore paths, straight through the operations table.
 */
#include "hw/raw_access.h"
#include "regs/mmio.h"

int hw_cfg_read(struct hw_device *dev, unsigned off, unsigned width, uint32_t *val)
{
	dev->counters.cfg_reads++;
	return dev->ops->cfg_read(dev->ctx, off, width, val);
}

uint32_t hw_mmio_read32(struct hw_device *dev, uint32_t off)
{
	dev->counters.mmio_reads++;
	return dev->ops->mmio_read32(dev->ctx, off);
}

uint64_t hw_mmio_read64(struct hw_device *dev, uint32_t off)
{
	dev->counters.mmio_reads++;
	return dev->ops->mmio_read64(dev->ctx, off);
}

void hw_counters_reset(struct hw_device *dev)
{
	dev->counters = (struct hw_counters){ 0 };
}

int hw_alloc_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	if (!dev->ops->alloc_pages)
		return gtt_err_set(err, GTT_ENOTSUP, "%s backend cannot allocate test pages", dev->ops->name);
	return dev->ops->alloc_pages(dev->ctx, n, pages, err);
}

int hw_adopt_test_pages(struct hw_device *dev, size_t n, void *cpu, struct hw_page *pages, struct gtt_err *err)
{
	if (!dev->ops->adopt_pages)
		return gtt_err_set(err, GTT_ENOTSUP, "%s backend cannot take memory of the caller's as test pages",
				   dev->ops->name);
	return dev->ops->adopt_pages(dev->ctx, n, cpu, pages, err);
}

void hw_free_test_pages(struct hw_device *dev, size_t n, struct hw_page *pages)
{
	if (dev->ops->free_pages)
		dev->ops->free_pages(dev->ctx, n, pages);
}

/* Before a GPU-side access: the backend has the accessor, the range lies in the GGTT, CPU caches are synced. */
static int gpu_begin(struct hw_device *dev, bool has_op, uint64_t gm, size_t len, struct gtt_err *err)
{
	if (!has_op)
		return gtt_err_set(err, GTT_ENOTSUP, "%s backend has no GPU-side accessor", dev->ops->name);
	if (gm > dev->info.ggtt_size || len > dev->info.ggtt_size - gm)
		return gtt_err_set(err, GTT_ERANGE, "GGTT address 0x%llx+0x%zx is beyond the %llu-byte GGTT",
				   (unsigned long long)gm, len, (unsigned long long)dev->info.ggtt_size);
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);
	return GTT_OK;
}

/* A backend's refusal, which carries no message of its own, said with the range. */
static int refused(struct hw_device *dev, int rc, const char *what, uint64_t gm, size_t len, struct gtt_err *err)
{
	return rc ? gtt_err_set(err, rc, "%s backend refused the GPU-side %s of GM 0x%llx+0x%zx (error %d)", dev->ops->name,
				what, (unsigned long long)gm, len, rc) : GTT_OK;
}

int hw_gpu_read(struct hw_device *dev, uint64_t gm, void *buf, size_t len, struct gtt_err *err)
{
	int rc = gpu_begin(dev, dev->ops->gpu_read != NULL, gm, len, err);

	return rc ? rc : refused(dev, dev->ops->gpu_read(dev->ctx, gm, buf, len), "read", gm, len, err);
}

int hw_gpu_write(struct hw_device *dev, uint64_t gm, const void *buf, size_t len, struct gtt_err *err)
{
	int rc = gpu_begin(dev, dev->ops->gpu_write != NULL, gm, len, err);

	if (rc)
		return rc;
	rc = dev->ops->gpu_write(dev->ctx, gm, buf, len);
	if (dev->ops->cache_sync)
		dev->ops->cache_sync(dev->ctx);	/* the device's bytes reach the CPU's view too */
	return refused(dev, rc, "write", gm, len, err);
}

uint32_t hw_ggtt_pte_offset(const struct hw_device *dev, uint64_t index)
{
	return dev->info.gsm_offset + (uint32_t)(index * dev->info.pte_size);
}

bool hw_in_gsm(const struct hw_device *dev, uint64_t off)
{
	return off >= dev->info.gsm_offset && off - dev->info.gsm_offset < dev->info.gsm_size;
}

uint64_t hw_raw_mmio_get(struct hw_device *dev, uint32_t off, unsigned width)
{
	return width == 8 ? dev->ops->mmio_read64(dev->ctx, off) : dev->ops->mmio_read32(dev->ctx, off);
}

void hw_raw_mmio_put(struct hw_device *dev, uint32_t off, unsigned width, uint64_t v)
{
	if (width == 8)
		dev->ops->mmio_write64(dev->ctx, off, v);
	else
		dev->ops->mmio_write32(dev->ctx, off, (uint32_t)v);
}

void hw_ggtt_invalidate_unlogged(struct hw_device *dev)
{
	/*
	 * A VF has no GGTT invalidate of its own: xe and the i915 SR-IOV driver
	 * send GuC's TLB_INVALIDATION over the CT buffer, and GFX_FLSH_CNTL is
	 * not a register a VF reaches (docs/hardware.md §10.1). gttlab opens
	 * no CT buffer: nothing is written, and the TLB may hold old entries.
	 */
	if (dev->info.vf.active)
		return;
	dev->ops->mmio_write32(dev->ctx, GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_EN);
	(void)dev->ops->mmio_read32(dev->ctx, GFX_FLSH_CNTL_GEN6);	/* posting read */
	dev->counters.mmio_writes++;
	dev->counters.mmio_reads++;
	dev->counters.invalidates++;
	dev->ptes_unflushed = false;
}
