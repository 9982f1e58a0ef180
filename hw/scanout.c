/* SPDX-License-Identifier: MIT */
/*
 * Scanout surfaces, the way i915's initial-plane code finds the firmware
 * framebuffer (i9xx_get_initial_plane_config, skl_get_initial_plane_config):
 * the surface address from DSPSURF/PLANE_SURF, the pitch from the stride
 * register, the height from PIPESRC or PLANE_SIZE. The platform table says
 * how many pipes (A-D) and universal planes per pipe (3, 5 or 7) there are.
 */
#include "hw/scanout.h"
#include "regs/display.h"

#define MiB (1ull << 20)

static size_t add(struct hw_scanout *out, size_t n, size_t max, uint64_t base, uint64_t size, const char *what,
		  unsigned pipe)
{
	if (n >= max)
		return n;
	if (!size || size > 256 * MiB)
		size = 16 * MiB;
	uint64_t start = base > MiB ? base - MiB : 0;
	out[n] = (struct hw_scanout){ start, base + size + MiB, what, pipe };
	return n + 1;
}

size_t hw_scanout_ranges(struct hw_device *dev, struct hw_scanout *out, size_t max)
{
	const struct gtt_platform *p = dev->info.plat;
	unsigned pipes = p->num_pipes;
	size_t n = 0;

	for (unsigned pipe = 0; pipe < pipes; pipe++) {
		if (p->gen >= 90) {
			for (unsigned plane = 1; plane <= p->num_planes; plane++) {
				uint32_t ctl = hw_mmio_read32(dev, PLANE_REG(_PLANE_CTL_1_A, pipe, plane));
				if (!(ctl & PLANE_CTL_ENABLE))
					continue;
				uint32_t tiling = (ctl & PLANE_CTL_TILED_MASK) >> PLANE_CTL_TILED_SHIFT;
				uint64_t unit = tiling == 0 ? 64 : tiling == 1 ? 512 : 128;
				uint64_t stride = (hw_mmio_read32(dev, PLANE_REG(_PLANE_STRIDE_1_A, pipe, plane)) & 0xfff) * unit;
				uint64_t height = ((hw_mmio_read32(dev, PLANE_REG(_PLANE_SIZE_1_A, pipe, plane)) >> 16) & 0xffff) + 1;
				uint64_t base = hw_mmio_read32(dev, PLANE_REG(_PLANE_SURF_1_A, pipe, plane)) & PLANE_SURF_ADDR_MASK;
				n = add(out, n, max, base, stride * height, plane == 1 ? "primary plane" : "plane", pipe);
			}
		} else if (hw_mmio_read32(dev, DSPCNTR(pipe)) & DISP_ENABLE) {
			uint64_t stride = hw_mmio_read32(dev, DSPSTRIDE(pipe)) & 0xffffffc0u;
			uint64_t height = (hw_mmio_read32(dev, PIPESRC(pipe)) & 0xffff) + 1;
			uint64_t base = hw_mmio_read32(dev, DSPSURF(pipe)) & DISP_ADDR_MASK;
			n = add(out, n, max, base, stride * height, "primary plane", pipe);
		}
		uint32_t cntr_off = p->gen >= 70 || pipe == 0 ? CURCNTR_IVB(pipe) : _CURBCNTR_SNB;
		uint32_t base_off = p->gen >= 70 || pipe == 0 ? CURBASE_IVB(pipe) : _CURBBASE_SNB;
		if (hw_mmio_read32(dev, cntr_off) & MCURSOR_MODE_MASK)
			n = add(out, n, max, hw_mmio_read32(dev, base_off) & ~0xfffu, CURSOR_MAX_BYTES, "cursor", pipe);
	}
	return n;
}
