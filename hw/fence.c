/* SPDX-License-Identifier: MIT */
/* Gen6+ fence registers: validation, encoding, decoding, and programming in i915's order. */
#include "hw/fence.h"
#include "regs/fence_reg.h"
#include "regs/mmio.h"

const char *hw_tiling_name(enum hw_tiling t)
{
	return t == HW_TILING_X ? "x" : t == HW_TILING_Y ? "y" : "none";
}

int hw_fence_validate(const struct gtt_platform *p, uint64_t aperture_size, const struct hw_fence *f,
		      struct gtt_err *err)
{
	uint64_t max_stride = (uint64_t)p->fence_max_pitch_val * FENCE_PITCH_UNIT;

	if (f->tiling != HW_TILING_X && f->tiling != HW_TILING_Y)
		return gtt_err_set(err, GTT_EINVAL, "tiling %d: a fence detiles only x or y", f->tiling);
	if (f->start % I965_FENCE_PAGE)
		return gtt_err_set(err, GTT_EINVAL, "start 0x%llx is not 4 KiB aligned (fence start alignment)",
				   (unsigned long long)f->start);
	if (!f->size)
		return gtt_err_set(err, GTT_EINVAL, "size 0: a fence covers at least one 4 KiB page");
	if (f->size % I965_FENCE_PAGE)
		return gtt_err_set(err, GTT_EINVAL, "size 0x%llx is not a multiple of 4 KiB",
				   (unsigned long long)f->size);
	if (!f->stride || f->stride % FENCE_PITCH_UNIT)
		return gtt_err_set(err, GTT_EINVAL, "stride %u is not a multiple of 128 bytes", f->stride);
	if (f->tiling == HW_TILING_X && f->stride % X_TILE_WIDTH)
		return gtt_err_set(err, GTT_EINVAL, "stride %u is not a multiple of 512 bytes, the X-tile width",
				   f->stride);
	if (f->stride > max_stride)
		return gtt_err_set(err, GTT_EINVAL, "stride %u exceeds the %s maximum of %llu bytes (pitch field <= 0x%x)",
				   f->stride, p->name, (unsigned long long)max_stride, p->fence_max_pitch_val);
	if (f->start + f->size < f->start || f->start + f->size - I965_FENCE_PAGE > FENCE_ADDR_MASK)
		return gtt_err_set(err, GTT_EINVAL, "end 0x%llx+0x%llx is not after start within the 32-bit fence range",
				   (unsigned long long)f->start, (unsigned long long)f->size);
	if (aperture_size && f->start + f->size > aperture_size)
		return gtt_err_set(err, GTT_EINVAL, "range 0x%llx..0x%llx ends beyond the 0x%llx-byte aperture",
				   (unsigned long long)f->start, (unsigned long long)(f->start + f->size - 1),
				   (unsigned long long)aperture_size);
	return GTT_OK;
}

int hw_fence_encode(const struct gtt_platform *p, uint64_t aperture_size, const struct hw_fence *f,
		    uint64_t *val, struct gtt_err *err)
{
	int rc = hw_fence_validate(p, aperture_size, f, err);

	if (rc)
		return rc;
	uint32_t lo = (uint32_t)f->start | I965_FENCE_REG_VALID;
	if (f->tiling == HW_TILING_Y)
		lo |= 1u << I965_FENCE_TILING_Y_SHIFT;
	uint32_t hi = (uint32_t)(f->start + f->size - I965_FENCE_PAGE) | (f->stride / FENCE_PITCH_UNIT - 1);
	*val = (uint64_t)hi << 32 | lo;
	return GTT_OK;
}

void hw_fence_decode(const struct gtt_platform *p, uint64_t val, struct hw_fence *f)
{
	uint32_t lo = (uint32_t)val, hi = (uint32_t)(val >> 32);

	(void)p;	/* one gen6+ layout; the parameter keeps the door open for gen4/5 */
	f->valid = lo & I965_FENCE_REG_VALID;
	f->tiling = lo & (1u << I965_FENCE_TILING_Y_SHIFT) ? HW_TILING_Y : HW_TILING_X;
	f->start = lo & FENCE_ADDR_MASK;
	uint64_t last = hi & FENCE_ADDR_MASK;
	f->size = last >= f->start ? last - f->start + I965_FENCE_PAGE : 0;
	f->stride = ((hi & GEN6_FENCE_PITCH_MASK) + 1) * FENCE_PITCH_UNIT;
}

void hw_fence_fields(const struct gtt_platform *p, uint64_t val, struct hw_fence_fields *f)
{
	uint32_t lo = (uint32_t)val, hi = (uint32_t)(val >> 32);

	f->start = lo & FENCE_ADDR_MASK;
	f->end = (hi & FENCE_ADDR_MASK) | (I965_FENCE_PAGE - 1);
	f->end_below_start = (hi & FENCE_ADDR_MASK) < f->start;
	f->pitch_field = hi & GEN6_FENCE_PITCH_MASK;
	f->pitch_over_max = f->pitch_field + 1 > p->fence_max_pitch_val;
	f->reserved = lo & ~(FENCE_ADDR_MASK | I965_FENCE_REG_VALID | (1u << I965_FENCE_TILING_Y_SHIFT));
}

static int check_index(struct hw_device *dev, unsigned i, struct gtt_err *err)
{
	if (i >= dev->info.num_fences)
		return gtt_err_set(err, GTT_EINVAL, "fence %u does not exist: %s has fences 0..%u",
				   i, dev->info.plat->name, dev->info.num_fences - 1);
	return GTT_OK;
}

int hw_fence_read(struct hw_device *dev, unsigned i, uint64_t *val, struct gtt_err *err)
{
	int rc = check_index(dev, i, err);

	if (rc)
		return rc;
	uint32_t lo = hw_mmio_read32(dev, FENCE_REG_GEN6_LO(i));
	uint32_t hi = hw_mmio_read32(dev, FENCE_REG_GEN6_HI(i));
	*val = (uint64_t)hi << 32 | lo;
	return GTT_OK;
}

int hw_fence_write(struct hw_device *dev, unsigned i, uint64_t val, struct gtt_err *err)
{
	int rc = check_index(dev, i, err);

	if (rc)
		return rc;
	/* on failure the fence is left disabled (LO = 0), never half written */
	if ((rc = hw_mmio_write32(dev, FENCE_REG_GEN6_LO(i), 0)))
		goto oom;
	(void)hw_mmio_read32(dev, FENCE_REG_GEN6_LO(i));
	if ((rc = hw_mmio_write32(dev, FENCE_REG_GEN6_HI(i), (uint32_t)(val >> 32))))
		goto oom;
	if ((rc = hw_mmio_write32(dev, FENCE_REG_GEN6_LO(i), (uint32_t)val)))
		goto oom;
	(void)hw_mmio_read32(dev, FENCE_REG_GEN6_LO(i));
	dev->counters.fence_writes++;
	return GTT_OK;
oom:
	return gtt_err_set(err, rc, "fence %u not written (left disabled if it was touched): %s", i, hw_write_refused(dev));
}
