/* SPDX-License-Identifier: MIT */
/*
 * Register layouts, from i915 (i9xx_plane_regs.h, intel_sprite_regs.h,
 * skl_universal_plane_regs.h, intel_cursor_regs.h, intel_display_device.c):
 *  - gen6-8 primary: DSPCNTR 0x70180 + 0x1000 pipe (bit 31 enable), DSPSTRIDE
 *    +0x8 (bytes), DSPSURF +0x1c; height from PIPESRC 0x6001c + 0x1000 pipe,
 *    (w - 1) << 16 | (h - 1);
 *  - Sandy Bridge sprite: DVSCNTR 0x72180 + 0x1000 pipe (bit 31), DVSSTRIDE
 *    +0x8, DVSSIZE +0x10 (h - 1) << 16 | (w - 1), DVSSURF +0x1c;
 *  - Ivy Bridge to Broadwell sprite: SPRCTL 0x70280 + 0x1000 pipe (bit 31),
 *    SPRSTRIDE +0x8, SPRSIZE +0x10, SPRSURF +0x1c;
 *  - gen9+ plane n: PLANE_CTL 0x70180 + 0x1000 pipe + 0x100 (n - 1) (bit 31,
 *    tiling 0 linear), PLANE_STRIDE +0x8 (64-byte units), PLANE_SIZE +0x10,
 *    PLANE_SURF +0x1c;
 *  - cursor: CURCNTR 0x70080 + 0x1000 pipe, Sandy Bridge's pipe B at 0x700c0
 *    (mode 0x27: 64x64 ARGB), CURBASE +0x4; kept off as 256 x 256 x 4 bytes.
 */
#include "tests/scanout_layout.h"

#define MiB (1ull << 20)
#define STRIDE 16384u			/* bytes a row of every plane and sprite */
#define CURSOR_BYTES (256ull * 256 * 4)

struct layout {
	void (*put32)(void *ctx, uint32_t off, uint32_t val);
	void *ctx;
	struct t_surface *out;
	size_t n;
	uint64_t next;			/* where the next kept-off range starts */
	uint32_t rows;			/* rows of every plane and sprite */
};

/* The next surface's address: its range starts where the last one ended. */
static uint32_t place(struct layout *l, uint64_t bytes, const char *what, int pipe)
{
	uint64_t surf = l->next + MiB;

	l->out[l->n++] = (struct t_surface){ l->next, surf + bytes + MiB, what, pipe };
	l->next = surf + bytes + MiB;
	return (uint32_t)surf;
}

static void cursor(struct layout *l, const struct gtt_platform *p, unsigned pipe)
{
	uint32_t cntr = p->gen < 70 && pipe == 1 ? 0x700c0 : 0x70080 + 0x1000 * pipe;

	l->put32(l->ctx, cntr + 4, place(l, CURSOR_BYTES, "cursor", (int)pipe));
	l->put32(l->ctx, cntr, 0x27);
}

size_t t_enable_every_surface(const struct gtt_platform *p, uint64_t aperture,
			      void (*put32)(void *ctx, uint32_t off, uint32_t val), void *ctx,
			      struct t_surface *out)
{
	unsigned per_pipe = p->gen < 90 ? 2 : p->num_planes;	/* gen6-8: the primary and one sprite */
	unsigned n_planes = p->num_pipes * per_pipe, n_cursors = p->num_pipes;
	uint64_t room = aperture - T_LAYOUT_FREE_BELOW - n_cursors * (CURSOR_BYTES + 2 * MiB);
	uint64_t each = (room + n_planes - 1) / n_planes - 2 * MiB;	/* rounded up: the last one reaches the end */
	struct layout l = { put32, ctx, out, 0, T_LAYOUT_FREE_BELOW, (uint32_t)((each + STRIDE - 1) / STRIDE) };
	uint64_t bytes = (uint64_t)l.rows * STRIDE;

	for (unsigned pipe = 0; pipe < p->num_pipes; pipe++) {
		uint32_t pipe_off = 0x1000 * pipe;
		if (p->gen >= 90) {
			for (unsigned n = 1; n <= p->num_planes; n++) {
				uint32_t base = 0x70180 + pipe_off + 0x100 * (n - 1);
				put32(ctx, base + 0x8, STRIDE / 64);
				put32(ctx, base + 0x10, (l.rows - 1) << 16 | (STRIDE / 4 - 1));
				put32(ctx, base + 0x1c, place(&l, bytes, n == 1 ? "primary plane" : "plane", (int)pipe));
				put32(ctx, base, 1u << 31);
			}
		} else {
			put32(ctx, 0x70188 + pipe_off, STRIDE);
			put32(ctx, 0x6001c + pipe_off, (STRIDE / 4 - 1) << 16 | (l.rows - 1));
			put32(ctx, 0x7019c + pipe_off, place(&l, bytes, "primary plane", (int)pipe));
			put32(ctx, 0x70180 + pipe_off, 1u << 31);
			uint32_t spr = (p->gen < 70 ? 0x72180 : 0x70280) + pipe_off;
			put32(ctx, spr + 0x8, STRIDE);
			put32(ctx, spr + 0x10, (l.rows - 1) << 16 | (STRIDE / 4 - 1));
			put32(ctx, spr + 0x1c, place(&l, bytes, "sprite", (int)pipe));
			put32(ctx, spr, 1u << 31);
		}
		cursor(&l, p, pipe);
	}
	return l.n;
}
