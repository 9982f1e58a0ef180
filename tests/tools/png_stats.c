/* SPDX-License-Identifier: MIT */
/*
 * png_stats FILE: what a screenshot shows, for tests/vm/svg-render.sh. Decodes an
 * 8-bit RGB or RGBA, non-interlaced PNG (what Chromium writes) and prints
 * "WIDTHxHEIGHT ink=N colours=M": pixels that are not near-white, and distinct
 * colours among them (counted up to 256). Exit 2 for a file it cannot read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int paeth(int a, int b, int c)
{
	int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "png_stats: %s: %s\n", path, why);
	return 2;
}

int main(int argc, char **argv)
{
	if (argc != 2)
		return fprintf(stderr, "usage: png_stats FILE.png\n"), 2;
	FILE *f = fopen(argv[1], "rb");
	if (!f)
		return fail(argv[1], "cannot open it");
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	uint8_t *b = malloc((size_t)len + 1), *idat = malloc((size_t)len + 1);
	if (!b || !idat || fread(b, 1, (size_t)len, f) != (size_t)len)
		return fail(argv[1], "cannot read it");
	fclose(f);
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	if (len < 8 || memcmp(b, sig, 8))
		return fail(argv[1], "not a PNG");
	uint32_t w = 0, h = 0;
	int depth = 0, type = -1, interlace = 0;
	size_t n_idat = 0;
	for (long at = 8; at + 12 <= len;) {
		uint32_t n = be32(b + at);
		const uint8_t *t = b + at + 4, *d = b + at + 8;
		if ((long)n > len - at - 12)
			return fail(argv[1], "a chunk runs past the end");
		if (!memcmp(t, "IHDR", 4) && n >= 13) {
			w = be32(d);
			h = be32(d + 4);
			depth = d[8];
			type = d[9];
			interlace = d[12];
		} else if (!memcmp(t, "IDAT", 4)) {
			memcpy(idat + n_idat, d, n);
			n_idat += n;
		} else if (!memcmp(t, "IEND", 4)) {
			break;
		}
		at += 12 + (long)n;
	}
	if (depth != 8 || (type != 2 && type != 6) || interlace || !w || !h || w > 20000 || h > 20000)
		return fail(argv[1], "not an 8-bit RGB(A) non-interlaced PNG");
	size_t bpp = type == 6 ? 4 : 3, stride = w * bpp;
	uLongf raw_len = (uLongf)(h * (stride + 1));
	uint8_t *raw = malloc(raw_len), *img = malloc(h * stride);
	if (!raw || !img || uncompress(raw, &raw_len, idat, (uLong)n_idat) != Z_OK || raw_len != h * (stride + 1))
		return fail(argv[1], "its image data do not inflate to its size");
	for (uint32_t y = 0; y < h; y++) {
		const uint8_t *in = raw + y * (stride + 1) + 1;
		uint8_t *out = img + y * stride, *up = y ? img + (y - 1) * stride : NULL;
		int filter = raw[y * (stride + 1)];
		for (size_t x = 0; x < stride; x++) {
			int a = x >= bpp ? out[x - bpp] : 0, u = up ? up[x] : 0, c = up && x >= bpp ? up[x - bpp] : 0, v;
			switch (filter) {
			case 0: v = in[x]; break;
			case 1: v = in[x] + a; break;
			case 2: v = in[x] + u; break;
			case 3: v = in[x] + (a + u) / 2; break;
			case 4: v = in[x] + paeth(a, u, c); break;
			default: return fail(argv[1], "an unknown row filter");
			}
			out[x] = (uint8_t)v;
		}
	}
	uint32_t colours[256];
	size_t n_col = 0, ink = 0;
	for (size_t i = 0; i < (size_t)w * h; i++) {
		const uint8_t *p = img + i * bpp;
		if (p[0] > 240 && p[1] > 240 && p[2] > 240)
			continue;
		ink++;
		uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
		size_t k = 0;
		while (k < n_col && colours[k] != c)
			k++;
		if (k == n_col && n_col < 256)
			colours[n_col++] = c;
	}
	printf("%ux%u ink=%zu colours=%zu\n", w, h, ink, n_col);
	free(b);
	free(idat);
	free(raw);
	free(img);
	return 0;
}
