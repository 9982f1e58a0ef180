/* SPDX-License-Identifier: MIT */
/*
 * The freestanding runtime functions of the EFI application. gnu-efi's
 * libefi defines memcpy and memset (its init.o) as CopyMem and SetMem, which
 * copy a byte an iteration: under QEMU's TCG a byte loop over the model's
 * megabytes cost most of a run. The link wraps both (ld --wrap) to the
 * loops here, four aligned words an iteration (plain loops: TCG translates
 * them better than rep movs/stos, measured on the P5 boot). memmove and
 * memcmp libefi lacks. Built with
 * -fno-tree-loop-distribute-patterns so the loops are not turned back into
 * calls to themselves.
 */
#include <stddef.h>
#include <stdint.h>

void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *__wrap_memcpy(void *d, const void *s, size_t n);
void *__wrap_memset(void *d, int c, size_t n);

void *__wrap_memcpy(void *d, const void *s, size_t n)
{
	unsigned char *o = d;
	const unsigned char *i = s;

	if (((uintptr_t)o | (uintptr_t)i) % 8 == 0) {
		uint64_t *ow = (uint64_t *)o;
		const uint64_t *iw = (const uint64_t *)i;
		for (; n >= 32; n -= 32, ow += 4, iw += 4)
			ow[0] = iw[0], ow[1] = iw[1], ow[2] = iw[2], ow[3] = iw[3];
		for (; n >= 8; n -= 8)
			*ow++ = *iw++;
		o = (unsigned char *)ow, i = (const unsigned char *)iw;
	}
	while (n--)
		*o++ = *i++;
	return d;
}

void *__wrap_memset(void *d, int c, size_t n)
{
	unsigned char *o = d;
	uint64_t v = (uint8_t)c * 0x0101010101010101ull;

	for (; n && (uintptr_t)o % 8; n--)
		*o++ = (unsigned char)c;
	uint64_t *ow = (uint64_t *)o;
	for (; n >= 32; n -= 32, ow += 4)
		ow[0] = v, ow[1] = v, ow[2] = v, ow[3] = v;
	for (; n >= 8; n -= 8)
		*ow++ = v;
	for (o = (unsigned char *)ow; n; n--)
		*o++ = (unsigned char)c;
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *o = d;
	const unsigned char *i = s;

	if (o < i)	/* ascending, so an overlap reads each word before it is written */
		return __wrap_memcpy(d, s, n);
	else
		while (n--)
			o[n] = i[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}
