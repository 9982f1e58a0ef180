/* SPDX-License-Identifier: MIT */
/* SipHash-2-4 (env/siphash.h), from the paper's description: 2 compression rounds, 4 finalization rounds. */
#include "env/siphash.h"

static uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static void sipround(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = rotl(v[1], 13);
	v[1] ^= v[0];
	v[0] = rotl(v[0], 32);
	v[2] += v[3];
	v[3] = rotl(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = rotl(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = rotl(v[1], 17);
	v[1] ^= v[2];
	v[2] = rotl(v[2], 32);
}

uint64_t gtt_siphash24(const uint64_t k[2], const void *data, size_t len)
{
	const uint8_t *in = data;
	uint64_t v[4] = { k[0] ^ 0x736f6d6570736575ull, k[1] ^ 0x646f72616e646f6dull, k[0] ^ 0x6c7967656e657261ull,
			  k[1] ^ 0x7465646279746573ull };
	uint64_t m;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		m = 0;
		for (unsigned b = 0; b < 8; b++)
			m |= (uint64_t)in[i + b] << (8 * b);
		v[3] ^= m;
		sipround(v);
		sipround(v);
		v[0] ^= m;
	}
	/* the last block: the remaining bytes, and the length's low byte at the top */
	m = (uint64_t)(len & 0xff) << 56;
	for (unsigned b = 0; i + b < len; b++)
		m |= (uint64_t)in[i + b] << (8 * b);
	v[3] ^= m;
	sipround(v);
	sipround(v);
	v[0] ^= m;
	v[2] ^= 0xff;
	for (unsigned r = 0; r < 4; r++)
		sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}
