/* SPDX-License-Identifier: MIT */
/* The journal's record format: little-endian fields, checks, walking records. */
#include "hw/journal_format.h"

void hw_journal_put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint64_t hw_journal_get_le(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

/* FNV-1a 32 over a record with its check field taken as zero. */
static uint32_t rec_check(const uint8_t *rec, size_t data_len)
{
	uint32_t h = 0x811c9dc5u;

	for (size_t i = 0; i < HW_JOURNAL_REC_HDR + data_len; i++)
		h = (h ^ (i >= 12 && i < 16 ? 0 : rec[i])) * 0x01000193u;
	return h;
}

void hw_journal_rec_start(uint8_t *r, enum hw_journal_kind kind, unsigned width, uint64_t off, uint64_t aux,
			  size_t data_len)
{
	hw_journal_put_le(r, HW_JOURNAL_MAGIC, 4);
	hw_journal_put_le(r + 4, kind, 2);
	hw_journal_put_le(r + 6, width, 2);
	hw_journal_put_le(r + 8, data_len, 4);
	hw_journal_put_le(r + 12, 0, 4);
	hw_journal_put_le(r + 16, off, 8);
	hw_journal_put_le(r + 24, aux, 8);
}

size_t hw_journal_seal(uint8_t *buf, size_t len)
{
	size_t n = 0;

	for (size_t at = 0; at < len; n++) {
		uint8_t *r = buf + at;
		size_t dlen = (size_t)hw_journal_get_le(r + 8, 4);
		hw_journal_put_le(r + 12, rec_check(r, dlen), 4);
		at += HW_JOURNAL_REC_HDR + dlen;
	}
	return n;
}

bool hw_journal_next(const uint8_t *b, size_t n, size_t *at, struct hw_journal_rec *r, bool *bad)
{
	*bad = false;
	if (*at == n)
		return false;
	*bad = true;
	if (n - *at < HW_JOURNAL_REC_HDR)
		return false;
	const uint8_t *p = b + *at;
	size_t dlen = (size_t)hw_journal_get_le(p + 8, 4);
	if (hw_journal_get_le(p, 4) != HW_JOURNAL_MAGIC || dlen > n - *at - HW_JOURNAL_REC_HDR ||
	    hw_journal_get_le(p + 12, 4) != rec_check(p, dlen))
		return false;
	*r = (struct hw_journal_rec){ (enum hw_journal_kind)hw_journal_get_le(p + 4, 2),
				      (unsigned)hw_journal_get_le(p + 6, 2), hw_journal_get_le(p + 16, 8),
				      hw_journal_get_le(p + 24, 8), p + HW_JOURNAL_REC_HDR, dlen };
	*at += HW_JOURNAL_REC_HDR + dlen;
	*bad = false;
	return true;
}

bool hw_journal_rec_valid(const struct hw_journal_rec *r)
{
	switch (r->kind) {
	case HW_JOURNAL_CFG:	/* inside the 4 KiB of PCI Express config space, aligned to its width */
		return r->len == 4 && (r->width == 1 || r->width == 2 || r->width == 4) && r->off < 4096 && r->off % r->width == 0;
	case HW_JOURNAL_MMIO:
	case HW_JOURNAL_FLUSH_REG:
		return r->len == 8 && (r->width == 4 || r->width == 8);
	case HW_JOURNAL_PTES:
		return (r->width == 4 || r->width == 8) && r->len && r->len % r->width == 0 && r->len <= HW_JOURNAL_CHUNK;
	case HW_JOURNAL_APERTURE:
		return r->len == HW_JOURNAL_CHUNK && r->width <= 1 && r->off % HW_JOURNAL_CHUNK == 0;
	case HW_JOURNAL_HEADER:
		return false;		/* only first */
	}
	return false;
}
