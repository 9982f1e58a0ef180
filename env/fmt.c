/* SPDX-License-Identifier: MIT */
#include "env/fmt.h"

#include <stdint.h>

struct out {
	char *buf;
	size_t size;
	size_t len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padded(struct out *o, const char *s, size_t n, int width, int left, char pad)
{
	int fill = width > (int)n ? width - (int)n : 0;

	if (!left)
		while (fill-- > 0)
			put(o, pad);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (left)
		while (fill-- > 0)
			put(o, ' ');
}

static void put_number(struct out *o, uintmax_t v, int neg, unsigned base, int upper,
		       int width, int left, int zero)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	if (neg) {
		if (zero && !left) {
			put(o, '-');
			width--;
		} else {
			tmp[n++] = '-';
		}
	}
	char rev[24];
	for (int i = 0; i < n; i++)
		rev[i] = tmp[n - 1 - i];
	put_padded(o, rev, (size_t)n, width, left, zero && !left ? '0' : ' ');
}

/* one conversion's flags, width and length modifier, as read after its '%' */
struct spec {
	int left, zero, width;
	int prec; /* %s: at most this many characters; -1 none (numbers ignore it) */
	int lng; /* 0 int, 1 long, 2 long long, 3 size_t, 4 intmax_t, -1 short, -2 char */
};

/* Reads the flags, width and length modifier at p; returns the conversion character's address. */
static const char *parse_spec(const char *p, struct spec *sp, va_list *ap)
{
	sp->left = sp->zero = sp->width = sp->lng = 0;
	sp->prec = -1;
	for (;; p++) {
		if (*p == '-')
			sp->left = 1;
		else if (*p == '0')
			sp->zero = 1;
		else
			break;
	}
	if (*p == '*') {
		sp->width = va_arg(*ap, int);
		p++;
	}
	while (*p >= '0' && *p <= '9')
		sp->width = sp->width * 10 + (*p++ - '0');
	if (*p == '.') {
		sp->prec = 0;
		if (*++p == '*') {
			sp->prec = va_arg(*ap, int);
			p++;
		}
		while (*p >= '0' && *p <= '9')
			sp->prec = sp->prec * 10 + (*p++ - '0');
		if (sp->prec < 0)
			sp->prec = -1;	/* a negative precision is taken as none, as in C */
	}
	for (;; p++) {
		if (*p == 'l')
			sp->lng = sp->lng == 1 ? 2 : 1;
		else if (*p == 'z')
			sp->lng = 3;
		else if (*p == 'j')
			sp->lng = 4;
		else if (*p == 'h')
			sp->lng = sp->lng == -1 ? -2 : -1;
		else
			break;
	}
	return p;
}

static void put_signed(struct out *o, const struct spec *sp, va_list *ap)
{
	intmax_t v;
	if (sp->lng == 1)
		v = va_arg(*ap, long);
	else if (sp->lng == 2)
		v = va_arg(*ap, long long);
	else if (sp->lng == 3)
		v = (intmax_t)va_arg(*ap, size_t);
	else if (sp->lng == 4)
		v = va_arg(*ap, intmax_t);
	else
		v = va_arg(*ap, int);
	uintmax_t mag = v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v;
	put_number(o, mag, v < 0, 10, 0, sp->width, sp->left, sp->zero);
}

static void put_unsigned(struct out *o, const struct spec *sp, char conv, va_list *ap)
{
	uintmax_t v;
	if (sp->lng == 1)
		v = va_arg(*ap, unsigned long);
	else if (sp->lng == 2)
		v = va_arg(*ap, unsigned long long);
	else if (sp->lng == 3)
		v = va_arg(*ap, size_t);
	else if (sp->lng == 4)
		v = va_arg(*ap, uintmax_t);
	else
		v = va_arg(*ap, unsigned int);
	if (sp->lng == -1)
		v = (unsigned short)v;
	else if (sp->lng == -2)
		v = (unsigned char)v;
	put_number(o, v, 0, conv == 'u' ? 10 : 16, conv == 'X', sp->width, sp->left, sp->zero);
}

/* Writes the conversion at p; returns p, or p - 1 when the format ended after its '%'. */
static const char *put_conversion(struct out *o, const char *p, const struct spec *sp, va_list *ap)
{
	switch (*p) {
	case 'd':
	case 'i':
		put_signed(o, sp, ap);
		break;
	case 'u':
	case 'x':
	case 'X':
		put_unsigned(o, sp, *p, ap);
		break;
	case 'p':
		put(o, '0');
		put(o, 'x');
		put_number(o, (uintptr_t)va_arg(*ap, void *), 0, 16, 0, 0, 0, 0);
		break;
	case 'c': {
		char c = (char)va_arg(*ap, int);
		put_padded(o, &c, 1, sp->width, sp->left, ' ');
		break;
	}
	case 's': {
		const char *s = va_arg(*ap, const char *);
		if (!s)
			s = "(null)";
		size_t n = 0;
		/* with a precision, no byte past it is read: the string need not be terminated */
		while ((sp->prec < 0 || n < (size_t)sp->prec) && s[n])
			n++;
		put_padded(o, s, n, sp->width, sp->left, ' ');
		break;
	}
	case '%':
		put(o, '%');
		break;
	case '\0':
		p--;
		break;
	default:
		put(o, '%');
		put(o, *p);
		break;
	}
	return p;
}

int gtt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	va_list aq;

	/* a copy whose address can be passed on: va_list may be an array type */
	va_copy(aq, ap);
	for (const char *p = fmt; *p; p++) {
		if (*p != '%') {
			put(&o, *p);
			continue;
		}
		struct spec sp;
		p = parse_spec(p + 1, &sp, &aq);
		p = put_conversion(&o, p, &sp, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int gtt_snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = gtt_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

size_t gtt_strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int gtt_strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int gtt_strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i] != b[i] || !a[i])
			return (unsigned char)a[i] - (unsigned char)b[i];
	}
	return 0;
}
