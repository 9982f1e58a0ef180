/* SPDX-License-Identifier: MIT */
/*
 * The freestanding runtime functions of the EFI application. gnu-efi's
 * libefi defines memcpy and memset (its init.o) as CopyMem and SetMem, which
 * copy a byte an iteration: under QEMU's TCG a byte loop over the model's
 * megabytes cost most of a run. The link wraps both (ld --wrap) to the
 * string instructions here, eight bytes an iteration (UEFI calls with the
 * direction flag clear). memmove and memcmp libefi lacks. Built with
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
	void *o = d;
	size_t q = n / 8, r = n % 8;

	__asm__ volatile("rep movsq" : "+D"(d), "+S"(s), "+c"(q) : : "memory");
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(r) : : "memory");
	return o;
}

void *__wrap_memset(void *d, int c, size_t n)
{
	void *o = d;
	uint64_t v = (uint8_t)c * 0x0101010101010101ull;
	size_t q = n / 8, r = n % 8;

	__asm__ volatile("rep stosq" : "+D"(d), "+c"(q) : "a"(v) : "memory");
	__asm__ volatile("rep stosb" : "+D"(d), "+c"(r) : "a"(v) : "memory");
	return o;
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
