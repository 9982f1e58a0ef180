/* SPDX-License-Identifier: MIT */
/*
 * The crash journal's record format (docs/journal.md): a sequence of
 * records, each a 32-byte little-endian header (magic, kind, width, data
 * length, check, offset, aux) and its data, each with its own FNV-1a check;
 * the first is a header naming the device. Encoding, sealing and walking
 * records, no device and no I/O: the writer (hw/journal_write.h), the reader
 * (hw/journal_scan.h) and the replay (hw/journal_replay.h) share it.
 */
#ifndef HW_JOURNAL_FORMAT_H
#define HW_JOURNAL_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The record kinds of the format (docs/journal.md). */
enum hw_journal_kind {
	HW_JOURNAL_HEADER = 1,		/* text: key=value lines naming the device */
	HW_JOURNAL_CFG = 2,		/* config space: off, width 1/2/4, 4-byte value */
	HW_JOURNAL_MMIO = 3,		/* a BAR0 register: off, width 4/8, 8-byte value */
	HW_JOURNAL_PTES = 4,		/* a chunk of the GSM: off of its first PTE, width = PTE size */
	HW_JOURNAL_APERTURE = 5,	/* one aperture page: off, aux = PTE in effect, width 1 = original translation */
	HW_JOURNAL_FLUSH_REG = 6,	/* GFX_FLSH_CNTL_GEN6 as found: put back last */
};

#define HW_JOURNAL_REC_HDR	32u	/* bytes before a record's data */
#define HW_JOURNAL_CHUNK	4096u	/* bytes of GSM per PTE record, bytes of aperture per page record */
#define HW_JOURNAL_MAGIC	0x4a525447u	/* "GTRJ" little-endian */
#define HW_JOURNAL_HEADER_TEXT	"gttlab-journal 1\n"

/* One record as read back. */
struct hw_journal_rec {
	enum hw_journal_kind kind;
	unsigned width;
	uint64_t off, aux;
	const uint8_t *data;
	size_t len;
};

/* n little-endian bytes. */
void hw_journal_put_le(uint8_t *p, uint64_t v, unsigned n);
uint64_t hw_journal_get_le(const uint8_t *p, unsigned n);

/* Write a record's header at r, its check left zero until hw_journal_seal. */
void hw_journal_rec_start(uint8_t *r, enum hw_journal_kind kind, unsigned width, uint64_t off, uint64_t aux,
			  size_t data_len);
/* Fill in the check of every record in buf[0, len); the number of records. */
size_t hw_journal_seal(uint8_t *buf, size_t len);

/*
 * The record at *at, or false at the end or at a record that does not check
 * (then *bad says whether any bytes were left).
 */
bool hw_journal_next(const uint8_t *b, size_t n, size_t *at, struct hw_journal_rec *r, bool *bad);
/* Whether a record after the header is one gttlab writes (kind, width, length). */
bool hw_journal_rec_valid(const struct hw_journal_rec *r);

#endif
