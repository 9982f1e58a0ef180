/* SPDX-License-Identifier: MIT */
/*
 * The two of the four freestanding runtime functions that gnu-efi's libefi
 * does not define (its init.o has memcpy and memset). Built with
 * -fno-tree-loop-distribute-patterns so the loops are not turned back into
 * calls to themselves.
 */
#include <stddef.h>

void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *o = d;
	const unsigned char *i = s;

	if (o < i)
		while (n--)
			*o++ = *i++;
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
