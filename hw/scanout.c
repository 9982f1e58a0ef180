/* SPDX-License-Identifier: MIT */
/*
 * Scanout surfaces, the way i915's initial-plane code finds the firmware
 * framebuffer (i9xx_get_initial_plane_config, skl_get_initial_plane_config):
 * the surface address from DSPSURF/PLANE_SURF, the pitch from the stride
 * register, the height from PIPESRC or PLANE_SIZE. The platform table says
 * how many pipes (A-D) and universal planes per pipe (3, 5 or 7) there are,
 * and which sprite registers a gen6-8 pipe has (DVS on Sandy Bridge, SPR on
 * Ivy Bridge, Haswell and Broadwell).
 *
 * A sprite is read like the primary plane: enable bit, surface, stride in
 * bytes and height from its size register, or from its scaler's source size
 * where that is larger (Sandy Bridge's DVSSCALE, Ivy Bridge's SPRSCALE; i915
 * scales sprites on no later part). The x/y offset inside the surface
 * (LINOFF, TILEOFF, OFFSET) is not read: i915 moves all of it but less than
 * a page (linear, 4 KiB intel_linear_alignment) or a tile row (X-tiled)
 * into the surface address (intel_plane_compute_aligned_offset), so what is
 * left is under 8 rows of at most 16 KiB (g4x/hsw_sprite_max_stride),
 * inside the 1 MiB margin.
 */
#include "hw/scanout.h"
#include "regs/display.h"

#define MiB (1ull << 20)

struct scan {
	struct hw_scanout *out;
	size_t n, max, found;
};

static void add(struct scan *s, uint64_t base, uint64_t size, const char *what, unsigned pipe)
{
	s->found++;
	if (s->n >= s->max)
		return;
	if (!size || size > 256 * MiB)
		size = 16 * MiB;
	uint64_t start = base > MiB ? base - MiB : 0;
	s->out[s->n++] = (struct hw_scanout){ start, base + size + MiB, what, pipe };
}

/* The sprite of a gen6-8 pipe: DVS* on Sandy Bridge, SPR* from Ivy Bridge. */
static void sprite(struct hw_device *dev, const struct gtt_platform *p, unsigned pipe, struct scan *s)
{
	bool dvs = p->sprite == SPRITE_DVS;
	uint32_t ctl = hw_mmio_read32(dev, dvs ? DVSCNTR(pipe) : SPRCTL(pipe));

	if (!(ctl & (dvs ? DVS_ENABLE : SPRITE_ENABLE)))
		return;
	uint64_t stride = hw_mmio_read32(dev, dvs ? DVSSTRIDE(pipe) : SPRSTRIDE(pipe)) & 0xffffffc0u;
	uint64_t height = ((hw_mmio_read32(dev, dvs ? DVSSIZE(pipe) : SPRSIZE(pipe)) >> 16) & 0xffff) + 1;
	/* a downscaling sprite fetches more rows than it shows; of the SPR parts only Ivy Bridge scales */
	if (dvs || p->gen == 70) {
		uint32_t scale = hw_mmio_read32(dev, dvs ? DVSSCALE(pipe) : SPRSCALE(pipe));
		uint64_t src = (scale & (dvs ? DVS_SRC_HEIGHT_MASK : SPRITE_SRC_HEIGHT_MASK)) + 1;
		if (scale & (dvs ? DVS_SCALE_ENABLE : SPRITE_SCALE_ENABLE) && src > height)
			height = src;
	}
	uint64_t base = hw_mmio_read32(dev, dvs ? DVSSURF(pipe) : SPRSURF(pipe)) & (dvs ? DVS_ADDR_MASK : SPRITE_ADDR_MASK);
	add(s, base, stride * height, "sprite", pipe);
}

size_t hw_scanout_scan(struct hw_device *dev, struct hw_scanout *out, size_t max, size_t *found)
{
	const struct gtt_platform *p = dev->info.plat;
	unsigned pipes = p->num_pipes;
	struct scan s = { out, 0, max, 0 };

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
				add(&s, base, stride * height, plane == 1 ? "primary plane" : "plane", pipe);
			}
		} else if (hw_mmio_read32(dev, DSPCNTR(pipe)) & DISP_ENABLE) {
			uint64_t stride = hw_mmio_read32(dev, DSPSTRIDE(pipe)) & 0xffffffc0u;
			uint64_t height = (hw_mmio_read32(dev, PIPESRC(pipe)) & 0xffff) + 1;
			uint64_t base = hw_mmio_read32(dev, DSPSURF(pipe)) & DISP_ADDR_MASK;
			add(&s, base, stride * height, "primary plane", pipe);
		}
		if (p->sprite != SPRITE_NONE)
			sprite(dev, p, pipe, &s);
		uint32_t cntr_off = p->gen >= 70 || pipe == 0 ? CURCNTR_IVB(pipe) : _CURBCNTR_SNB;
		uint32_t base_off = p->gen >= 70 || pipe == 0 ? CURBASE_IVB(pipe) : _CURBBASE_SNB;
		if (hw_mmio_read32(dev, cntr_off) & MCURSOR_MODE_MASK)
			add(&s, hw_mmio_read32(dev, base_off) & ~0xfffu, CURSOR_MAX_BYTES, "cursor", pipe);
	}
	if (found)
		*found = s.found;
	return s.n;
}

size_t hw_scanout_ranges(struct hw_device *dev, struct hw_scanout *out, size_t max)
{
	return hw_scanout_scan(dev, out, max, NULL);
}
