/* SPDX-License-Identifier: MIT */
#include "hw/journal.h"
#include "hw/device.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "hw/restore_faults.h"
#include "env/fmt.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"

#define REC_MAGIC	0x4a525447u	/* "GTRJ" little-endian */
#define HEADER_TEXT	"gttlab-journal 1\n"
#define CFG_BYTES	4096u

struct hw_journal {
	struct hw_journal_sink sink;
	char error[GTT_ERR_MSG_MAX];	/* set once an append failed: every later write is refused */
	char refused[GTT_ERR_MSG_MAX];	/* why the last write was refused, when the journal is fine */
	size_t records;
	uint8_t cfg_map[CFG_BYTES / 8];	/* per config byte */
	bool maps_ready;
	uint8_t *mmio_map;		/* per BAR0 dword outside the GSM */
	size_t mmio_dwords;
	uint8_t *pte_map;		/* per GSM chunk */
	uint8_t **pte_copy;		/* the chunk as journaled: the original PTEs */
	size_t chunks;
	uint8_t *ap_orig, *ap_own;	/* per aperture page: journaled through the original / an own translation */
	size_t ap_pages;
	bool flush_saved;
	uint32_t flush_orig;
	uint8_t *buf;			/* records being assembled for one append */
	size_t len, cap;
};

static bool bit(const uint8_t *m, size_t i)
{
	return m[i / 8] >> (i % 8) & 1;
}

static void set_bit(uint8_t *m, size_t i)
{
	m[i / 8] |= (uint8_t)(1u << (i % 8));
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, unsigned n)
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

/* Room for one more record of data_len bytes in the batch; its data area, or NULL (then the journal has failed). */
static uint8_t *rec_add(struct hw_device *dev, enum hw_journal_kind kind, unsigned width, uint64_t off, uint64_t aux,
			size_t data_len)
{
	struct hw_journal *j = dev->journal;
	size_t need = j->len + HW_JOURNAL_REC_HDR + data_len;

	if (need > j->cap) {
		size_t cap = j->cap ? j->cap : 8192;
		while (cap < need)
			cap *= 2;
		uint8_t *n = dev->env->alloc(dev->env, cap);
		if (!n) {
			gtt_snprintf(j->error, sizeof(j->error), "journal: out of memory assembling %zu bytes", need);
			return NULL;
		}
		if (j->buf)
			gtt_memcpy(n, j->buf, j->len);
		dev->env->free(dev->env, j->buf);
		j->buf = n;
		j->cap = cap;
	}
	uint8_t *r = j->buf + j->len;
	put_le(r, REC_MAGIC, 4);
	put_le(r + 4, kind, 2);
	put_le(r + 6, width, 2);
	put_le(r + 8, data_len, 4);
	put_le(r + 12, 0, 4);
	put_le(r + 16, off, 8);
	put_le(r + 24, aux, 8);
	j->len = need;
	return r + HW_JOURNAL_REC_HDR;
}

/* Seal the batch's records with their checks and make them durable. */
static int rec_flush(struct hw_device *dev)
{
	struct hw_journal *j = dev->journal;
	struct gtt_err err = { 0 };
	size_t n = 0;

	for (size_t at = 0; at < j->len; n++) {
		uint8_t *r = j->buf + at;
		size_t dlen = (size_t)get_le(r + 8, 4);
		put_le(r + 12, rec_check(r, dlen), 4);
		at += HW_JOURNAL_REC_HDR + dlen;
	}
	int rc = j->sink.append(j->sink.ctx, j->buf, j->len, &err);
	j->len = 0;
	if (rc) {
		gtt_snprintf(j->error, sizeof(j->error), "journal: %s", err.msg[0] ? err.msg : gtt_strerror(rc));
		return GTT_EIO;
	}
	j->records += n;
	return GTT_OK;
}

static int failed(const struct hw_journal *j)
{
	return j->error[0] ? GTT_EIO : GTT_OK;
}

/*
 * Before an original is read from a BAR: with memory decoding off, BAR reads
 * return all ones, so the original cannot be read (and the write would be
 * lost anyway). Refused, rather than journaled as all ones; not a failure of
 * the journal, so writes go on once decoding is back.
 */
static int decoding(struct hw_device *dev)
{
	uint32_t cmd = 0;

	if (dev->ops->cfg_read(dev->ctx, PCI_CFG_COMMAND, 2, &cmd) || !(cmd & PCI_CMD_MEM_SPACE)) {
		gtt_snprintf(dev->journal->refused, sizeof(dev->journal->refused),
			     "journal: memory decoding is off (PCI_COMMAND 0x%04x): a BAR's original cannot be read", cmd);
		return GTT_EIO;
	}
	return GTT_OK;
}

/* The per-range maps, once the device's sizes are known. */
static int maps(struct hw_device *dev)
{
	struct hw_journal *j = dev->journal;
	const struct hw_info *in = &dev->info;

	j->refused[0] = '\0';
	if (j->maps_ready)
		return GTT_OK;
	if (!in->bar0_size || !in->gsm_size || !in->aperture_size || !in->pte_size) {
		gtt_snprintf(j->error, sizeof(j->error), "journal: a BAR0 or aperture write before the device was detected");
		return GTT_EIO;
	}
	j->mmio_dwords = (size_t)(in->bar0_size / 4);
	j->chunks = (size_t)((in->gsm_size + HW_JOURNAL_CHUNK - 1) / HW_JOURNAL_CHUNK);
	j->ap_pages = (size_t)(in->aperture_size / HW_JOURNAL_CHUNK);
	j->mmio_map = gtt_calloc(dev->env, (j->mmio_dwords + 7) / 8, 1);
	j->pte_map = gtt_calloc(dev->env, (j->chunks + 7) / 8, 1);
	j->pte_copy = gtt_calloc(dev->env, j->chunks, sizeof(*j->pte_copy));
	j->ap_orig = gtt_calloc(dev->env, (j->ap_pages + 7) / 8, 1);
	j->ap_own = gtt_calloc(dev->env, (j->ap_pages + 7) / 8, 1);
	if (!j->mmio_map || !j->pte_map || !j->pte_copy || !j->ap_orig || !j->ap_own) {
		gtt_snprintf(j->error, sizeof(j->error), "journal: out of memory for the maps of what is journaled");
		return GTT_EIO;
	}
	j->maps_ready = true;
	return GTT_OK;
}

static uint64_t raw_mmio(struct hw_device *dev, uint32_t off, unsigned width)
{
	return width == 8 ? dev->ops->mmio_read64(dev->ctx, off) : dev->ops->mmio_read32(dev->ctx, off);
}

static void raw_mmio_put(struct hw_device *dev, uint32_t off, unsigned width, uint64_t v)
{
	if (width == 8)
		dev->ops->mmio_write64(dev->ctx, off, v);
	else
		dev->ops->mmio_write32(dev->ctx, off, (uint32_t)v);
}

int hw_journal_attach(struct hw_device *dev, const struct hw_journal_sink *sink, const struct hw_open_opts *opts,
		      struct gtt_err *err)
{
	char spec[96], text[768];
	const char *root = opts && opts->sysfs_root ? opts->sysfs_root : "";
	struct hw_journal *j;

	if (!dev->ops->location || dev->ops->location(dev->ctx, spec, sizeof(spec)))
		return gtt_err_set(err, GTT_ENOTSUP, "the %s backend cannot name its device for a journal", dev->ops->name);
	for (const char *p = root; *p; p++)
		if (*p == '\n')
			return gtt_err_set(err, GTT_EINVAL, "sysfs root '%s' has a newline: a journal cannot name it", root);
	int tlen = gtt_snprintf(text, sizeof(text), HEADER_TEXT "spec=%s\nsysfs_root=%s\nallow_i915=%d\n", spec, root,
				opts && opts->allow_i915);
	if (tlen < 0 || (size_t)tlen >= sizeof(text))
		return gtt_err_set(err, GTT_EINVAL, "sysfs root '%s' is too long for a journal header", root);
	if (!(j = dev->env->alloc(dev->env, sizeof(*j))))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for the journal");
	j->sink = *sink;
	dev->journal = j;
	uint8_t *d = rec_add(dev, HW_JOURNAL_HEADER, 0, 0, 0, (size_t)tlen);
	if (d) {
		gtt_memcpy(d, text, (size_t)tlen);
		/* invalidates write GFX_FLSH_CNTL_GEN6 outside the undo log: its value is journaled up front */
		if (!decoding(dev)) {
			j->flush_orig = dev->ops->mmio_read32(dev->ctx, GFX_FLSH_CNTL_GEN6);
			d = rec_add(dev, HW_JOURNAL_FLUSH_REG, 4, GFX_FLSH_CNTL_GEN6, 0, 8);
			if (d) {
				put_le(d, j->flush_orig, 8);
				j->flush_saved = true;
			}
		}
	}
	if (!d || rec_flush(dev)) {
		gtt_err_set(err, GTT_EIO, "%s", j->error);
		hw_journal_detach(dev);
		return GTT_EIO;
	}
	return GTT_OK;
}

void hw_journal_detach(struct hw_device *dev)
{
	struct hw_journal *j = dev->journal;
	const struct gtt_env *env = dev->env;

	if (!j)
		return;
	for (size_t c = 0; j->pte_copy && c < j->chunks; c++)
		env->free(env, j->pte_copy[c]);
	env->free(env, j->pte_copy);
	env->free(env, j->mmio_map);
	env->free(env, j->pte_map);
	env->free(env, j->ap_orig);
	env->free(env, j->ap_own);
	env->free(env, j->buf);
	env->free(env, j);
	dev->journal = NULL;
}

size_t hw_journal_records(const struct hw_device *dev)
{
	return dev->journal ? dev->journal->records : 0;
}

const char *hw_journal_error(const struct hw_device *dev)
{
	if (!dev->journal)
		return "";
	return dev->journal->error[0] ? dev->journal->error : dev->journal->refused;
}

int hw_journal_cfg(struct hw_device *dev, unsigned off, unsigned width)
{
	struct hw_journal *j = dev->journal;
	uint32_t v;
	bool all = true;

	if (!j)
		return GTT_OK;
	if (failed(j))
		return GTT_EIO;
	if (off >= CFG_BYTES || width > CFG_BYTES - off)
		return GTT_OK;		/* the backend refuses such an access */
	for (unsigned i = 0; i < width; i++)
		all &= bit(j->cfg_map, off + i);
	if (all)
		return GTT_OK;
	int rc = dev->ops->cfg_read(dev->ctx, off, width, &v);
	if (rc)
		return rc;
	uint8_t *d = rec_add(dev, HW_JOURNAL_CFG, width, off, 0, 4);
	if (!d)
		return GTT_EIO;
	put_le(d, v, 4);
	if ((rc = rec_flush(dev)))
		return rc;
	for (unsigned i = 0; i < width; i++)
		set_bit(j->cfg_map, off + i);
	return GTT_OK;
}

static bool in_gsm(const struct hw_device *dev, uint64_t off)
{
	return off >= dev->info.gsm_offset && off - dev->info.gsm_offset < dev->info.gsm_size;
}

/* Add a record for every chunk of PTEs [first, first + n) not journaled yet; the caller flushes. */
static int add_ptes(struct hw_device *dev, uint64_t first, size_t n)
{
	struct hw_journal *j = dev->journal;
	unsigned ps = dev->info.pte_size;
	uint64_t per = HW_JOURNAL_CHUNK / ps;

	for (uint64_t c = first / per; n && c <= (first + n - 1) / per && c < j->chunks; c++) {
		if (bit(j->pte_map, (size_t)c) || j->pte_copy[c])
			continue;
		if (decoding(dev))
			return GTT_EIO;
		uint64_t off = dev->info.gsm_offset + c * HW_JOURNAL_CHUNK;
		uint64_t len = dev->info.gsm_size - c * HW_JOURNAL_CHUNK < HW_JOURNAL_CHUNK ?
			dev->info.gsm_size - c * HW_JOURNAL_CHUNK : HW_JOURNAL_CHUNK;
		uint8_t *copy = dev->env->alloc(dev->env, HW_JOURNAL_CHUNK);
		uint8_t *d = copy ? rec_add(dev, HW_JOURNAL_PTES, ps, off, 0, (size_t)len) : NULL;
		if (!d) {
			dev->env->free(dev->env, copy);
			if (!j->error[0])
				gtt_snprintf(j->error, sizeof(j->error), "journal: out of memory for a chunk of PTEs");
			return GTT_EIO;
		}
		for (uint64_t i = 0; i < len; i += ps)
			put_le(copy + i, raw_mmio(dev, (uint32_t)(off + i), ps), ps);
		gtt_memcpy(d, copy, (size_t)len);
		j->pte_copy[c] = copy;		/* marked journaled once the batch is durable */
	}
	return GTT_OK;
}

/* Mark the chunks add_ptes copied as journaled (after the flush), or drop the copies (after a failure). */
static void settle_ptes(struct hw_device *dev, uint64_t first, size_t n, bool durable)
{
	struct hw_journal *j = dev->journal;
	uint64_t per = HW_JOURNAL_CHUNK / dev->info.pte_size;

	for (uint64_t c = first / per; n && c <= (first + n - 1) / per && c < j->chunks; c++) {
		if (bit(j->pte_map, (size_t)c) || !j->pte_copy[c])
			continue;
		if (durable) {
			set_bit(j->pte_map, (size_t)c);
		} else {
			dev->env->free(dev->env, j->pte_copy[c]);
			j->pte_copy[c] = NULL;
		}
	}
}

/* The journal a BAR write must go through: NULL with *rc GTT_OK when there is none, NULL with an error when it cannot take the write. */
static struct hw_journal *active(struct hw_device *dev, int *rc)
{
	struct hw_journal *j = dev->journal;

	*rc = GTT_OK;
	if (j && ((*rc = failed(j)) || (*rc = maps(dev))))
		return NULL;
	return j;
}

int hw_journal_ptes(struct hw_device *dev, uint64_t first, size_t n)
{
	int rc;
	struct hw_journal *j = active(dev, &rc);

	if (!j)
		return rc;
	rc = add_ptes(dev, first, n);
	if (!rc && j->len)
		rc = rec_flush(dev);
	j->len = 0;
	settle_ptes(dev, first, n, !rc);
	return rc;
}

int hw_journal_mmio(struct hw_device *dev, uint32_t off, unsigned width)
{
	int rc;
	struct hw_journal *j = active(dev, &rc);

	if (!j)
		return rc;
	if (in_gsm(dev, off))
		return hw_journal_ptes(dev, (off - dev->info.gsm_offset) / dev->info.pte_size, 1);
	size_t first = off / 4, last = ((uint64_t)off + width - 1) / 4;
	if (last >= j->mmio_dwords)
		return GTT_OK;		/* the backend refuses such an access */
	if (bit(j->mmio_map, first) && bit(j->mmio_map, last))
		return GTT_OK;
	if ((rc = decoding(dev)))
		return rc;
	uint8_t *d = rec_add(dev, HW_JOURNAL_MMIO, width, off, 0, 8);
	if (!d)
		return GTT_EIO;
	put_le(d, raw_mmio(dev, off, width), 8);
	if ((rc = rec_flush(dev)))
		return rc;
	set_bit(j->mmio_map, first);
	set_bit(j->mmio_map, last);
	return GTT_OK;
}

/* PTE `index` as the journal first found it. */
static uint64_t pte_original(struct hw_device *dev, uint64_t index)
{
	struct hw_journal *j = dev->journal;
	unsigned ps = dev->info.pte_size;
	uint64_t per = HW_JOURNAL_CHUNK / ps, c = index / per;

	if (c < j->chunks && bit(j->pte_map, (size_t)c))
		return get_le(j->pte_copy[c] + (index % per) * ps, ps);
	return raw_mmio(dev, hw_ggtt_pte_offset(dev, index), ps);
}

/*
 * PTE `index` as the translation hardware uses it now: the register, unless
 * PTEs were written since the last invalidate; then the value the undo log
 * holds from before the first of those writes.
 */
static uint64_t pte_in_effect(struct hw_device *dev, uint64_t index)
{
	uint32_t off = hw_ggtt_pte_offset(dev, index);
	const struct hw_undo *u = &dev->undo;
	uint64_t v = raw_mmio(dev, off, dev->info.pte_size);

	if (!dev->ptes_unflushed)
		return v;
	for (size_t i = u->n; i-- > 0 && u->entries[i].kind != HW_UNDO_FLUSH;)
		if ((u->entries[i].kind == HW_UNDO_MMIO32 || u->entries[i].kind == HW_UNDO_MMIO64) && u->entries[i].off == off)
			v = u->entries[i].old;
	return v;
}

int hw_journal_aperture(struct hw_device *dev, uint64_t off, size_t len)
{
	int rc;
	struct hw_journal *j = len ? active(dev, &rc) : NULL;

	if (!j)
		return len ? rc : GTT_OK;
	uint64_t p0 = off / HW_JOURNAL_CHUNK, p1 = (off + len - 1) / HW_JOURNAL_CHUNK;
	for (uint64_t p = p0; p <= p1 && p < j->ap_pages; p++) {
		if (bit(j->ap_orig, (size_t)p) && bit(j->ap_own, (size_t)p))
			continue;
		if (decoding(dev)) {
			j->len = 0;
			return GTT_EIO;
		}
		uint64_t now = pte_in_effect(dev, p);
		bool orig = now == pte_original(dev, p);
		if (bit(orig ? j->ap_orig : j->ap_own, (size_t)p))
			continue;
		uint8_t *d = rec_add(dev, HW_JOURNAL_APERTURE, orig, p * HW_JOURNAL_CHUNK, now, HW_JOURNAL_CHUNK);
		if (!d)
			goto fail;
		if ((rc = dev->ops->aperture_read(dev->ctx, p * HW_JOURNAL_CHUNK, d, HW_JOURNAL_CHUNK))) {
			gtt_snprintf(j->error, sizeof(j->error), "journal: cannot read aperture page 0x%llx",
				     (unsigned long long)(p * HW_JOURNAL_CHUNK));
			goto fail;
		}
	}
	if (j->len && (rc = rec_flush(dev)))
		return rc;
	/* durable: mark what the batch held */
	for (uint64_t p = p0; p <= p1 && p < j->ap_pages; p++)
		set_bit(pte_in_effect(dev, p) == pte_original(dev, p) ? j->ap_orig : j->ap_own, (size_t)p);
	return GTT_OK;
fail:
	j->len = 0;
	if (!j->error[0])
		gtt_snprintf(j->error, sizeof(j->error), "journal: out of memory for an aperture page");
	return GTT_EIO;
}

void hw_journal_put_flush_reg(struct hw_device *dev)
{
	if (dev->journal && dev->journal->flush_saved)
		dev->ops->mmio_write32(dev->ctx, GFX_FLSH_CNTL_GEN6, dev->journal->flush_orig);
}

/* ---- reading and replaying a journal ---- */

struct rec {
	enum hw_journal_kind kind;
	unsigned width;
	uint64_t off, aux;
	const uint8_t *data;
	size_t len;
};

/* The record at *at, or false at the end or at a record that does not check (then *bad says whether any bytes were left). */
static bool next_rec(const uint8_t *b, size_t n, size_t *at, struct rec *r, bool *bad)
{
	*bad = false;
	if (*at == n)
		return false;
	*bad = true;
	if (n - *at < HW_JOURNAL_REC_HDR)
		return false;
	const uint8_t *p = b + *at;
	size_t dlen = (size_t)get_le(p + 8, 4);
	if (get_le(p, 4) != REC_MAGIC || dlen > n - *at - HW_JOURNAL_REC_HDR || get_le(p + 12, 4) != rec_check(p, dlen))
		return false;
	*r = (struct rec){ (enum hw_journal_kind)get_le(p + 4, 2), (unsigned)get_le(p + 6, 2), get_le(p + 16, 8),
			   get_le(p + 24, 8), p + HW_JOURNAL_REC_HDR, dlen };
	*at += HW_JOURNAL_REC_HDR + dlen;
	*bad = false;
	return true;
}

bool hw_journal_unstarted(const void *buf, size_t len)
{
	const uint8_t *b = buf;
	uint8_t want[8];

	put_le(want, REC_MAGIC, 4);
	put_le(want + 4, HW_JOURNAL_HEADER, 2);
	for (size_t i = 0; i < len && i < 6; i++)
		if (b[i] != want[i])
			return false;
	if (len < 12)
		return true;
	/* the header's length is known: the record is cut short only if it reaches past the end */
	return HW_JOURNAL_REC_HDR + (size_t)get_le(b + 8, 4) > len;
}

/* "key=" at the start of a line of the header text: copy its value. */
static bool header_value(const struct rec *r, const char *key, char *out, size_t n)
{
	size_t klen = gtt_strlen(key);

	for (size_t at = 0; at < r->len;) {
		size_t end = at;
		while (end < r->len && r->data[end] != '\n')
			end++;
		if (end - at > klen && !gtt_strncmp((const char *)r->data + at, key, klen) && r->data[at + klen] == '=') {
			size_t v = at + klen + 1, vl = end - v;
			if (vl >= n)
				return false;
			gtt_memcpy(out, r->data + v, vl);
			out[vl] = '\0';
			return true;
		}
		at = end + 1;
	}
	return false;
}

static bool valid_rec(const struct rec *r)
{
	switch (r->kind) {
	case HW_JOURNAL_CFG:
		return r->len == 4 && (r->width == 1 || r->width == 2 || r->width == 4);
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

int hw_journal_scan(const void *buf, size_t len, struct hw_journal_info *info, struct gtt_err *err)
{
	const uint8_t *b = buf;
	size_t at = 0, before;
	struct rec r;
	bool bad;
	char allow[4];

	*info = (struct hw_journal_info){ 0 };
	if (!next_rec(b, len, &at, &r, &bad) || r.kind != HW_JOURNAL_HEADER || r.len < sizeof(HEADER_TEXT) - 1 ||
	    gtt_strncmp((const char *)r.data, HEADER_TEXT, sizeof(HEADER_TEXT) - 1))
		return gtt_err_set(err, GTT_EINVAL, "not a gttlab journal (no header record at its start)");
	if (!header_value(&r, "spec", info->spec, sizeof(info->spec)) || !info->spec[0] ||
	    !header_value(&r, "sysfs_root", info->sysfs_root, sizeof(info->sysfs_root)) ||
	    !header_value(&r, "allow_i915", allow, sizeof(allow)))
		return gtt_err_set(err, GTT_EINVAL, "the journal's header does not name its device");
	info->allow_i915 = allow[0] == '1';
	info->records = 1;
	for (before = at; next_rec(b, len, &at, &r, &bad); before = at) {
		if (!valid_rec(&r))
			return gtt_err_set(err, GTT_EIO, "journal record at byte %zu (kind %u, %zu bytes) is not one gttlab writes",
					   before, r.kind, r.len);
		info->records++;
		info->cfg += r.kind == HW_JOURNAL_CFG;
		info->mmio += r.kind == HW_JOURNAL_MMIO;
		info->pte_chunks += r.kind == HW_JOURNAL_PTES;
		info->ap_orig += r.kind == HW_JOURNAL_APERTURE && r.width;
		info->ap_own += r.kind == HW_JOURNAL_APERTURE && !r.width;
		info->flush_reg += r.kind == HW_JOURNAL_FLUSH_REG;
	}
	if (bad) {
		/* a torn append is only ever the last: whatever follows a damaged record means another writer */
		size_t skip = before + HW_JOURNAL_REC_HDR <= len ? (size_t)get_le(b + before + 8, 4) : 0;
		if (before + HW_JOURNAL_REC_HDR <= len && get_le(b + before, 4) == REC_MAGIC &&
		    skip <= len - before - HW_JOURNAL_REC_HDR && before + HW_JOURNAL_REC_HDR + skip < len)
			return gtt_err_set(err, GTT_EIO, "journal record at byte %zu is damaged and not the last one", before);
		info->torn = true;
	}
	info->bytes = before;
	return GTT_OK;
}

/* Write a PTE and read it back. */
static bool put_pte(struct hw_device *dev, uint64_t index, uint64_t v)
{
	uint32_t off = hw_ggtt_pte_offset(dev, index);

	raw_mmio_put(dev, off, dev->info.pte_size, v);
	return raw_mmio(dev, off, dev->info.pte_size) == v;
}

static bool put_page(struct hw_device *dev, uint64_t off, const uint8_t *want)
{
	uint8_t chunk[256];

	if (dev->ops->aperture_write(dev->ctx, off, want, HW_JOURNAL_CHUNK))
		return false;
	for (size_t at = 0; at < HW_JOURNAL_CHUNK; at += sizeof(chunk))
		if (dev->ops->aperture_read(dev->ctx, off + at, chunk, sizeof(chunk)) || gtt_memcmp(chunk, want + at, sizeof(chunk)))
			return false;
	return true;
}

static void replay_state(struct hw_device *dev, const struct rec *r, struct hw_restore_faults *f)
{
	char name[64];
	uint32_t got = 0;

	switch (r->kind) {
	case HW_JOURNAL_CFG: {
		uint32_t want = (uint32_t)get_le(r->data, 4);
		if (dev->ops->cfg_write(dev->ctx, (unsigned)r->off, r->width, want) ||
		    dev->ops->cfg_read(dev->ctx, (unsigned)r->off, r->width, &got) || got != want)
			hw_restore_fault(f, "config 0x%02llx reads 0x%x, not 0x%x", (unsigned long long)r->off, got, want);
		break;
	}
	case HW_JOURNAL_MMIO: {
		uint64_t want = get_le(r->data, 8), now;
		if (r->off > dev->info.bar0_size - r->width) {
			hw_restore_fault(f, "MMIO 0x%llx is outside this device's BAR0", (unsigned long long)r->off);
			break;
		}
		raw_mmio_put(dev, (uint32_t)r->off, r->width, want);
		if ((now = raw_mmio(dev, (uint32_t)r->off, r->width)) != want) {
			hw_mmio_name(dev, r->off, name, sizeof(name));
			hw_restore_fault(f, "%s reads 0x%llx, not 0x%llx", name, (unsigned long long)now, (unsigned long long)want);
		}
		break;
	}
	case HW_JOURNAL_PTES: {
		unsigned ps = dev->info.pte_size;
		if (r->width != ps || !in_gsm(dev, r->off) || r->len > dev->info.gsm_offset + dev->info.gsm_size - r->off) {
			hw_restore_fault(f, "PTE chunk at BAR0 0x%llx does not fit this device's GSM", (unsigned long long)r->off);
			break;
		}
		uint64_t first = (r->off - dev->info.gsm_offset) / ps;
		for (size_t i = 0; i < r->len / ps; i++) {
			uint64_t want = get_le(r->data + i * ps, ps);
			if (!put_pte(dev, first + i, want))
				hw_restore_fault(f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)(first + i),
						 (unsigned long long)raw_mmio(dev, hw_ggtt_pte_offset(dev, first + i), ps),
						 (unsigned long long)want);
		}
		break;
	}
	default:
		break;
	}
}

/* An aperture page written through a PTE gttlab had set: put back through a page of our own. */
static void replay_own(struct hw_device *dev, const struct rec *r, struct hw_page *own, bool *have_own,
		       struct hw_restore_faults *f)
{
	struct gtt_err err = { 0 };
	uint64_t index = r->off / HW_JOURNAL_CHUNK, pte;
	uint32_t off = hw_ggtt_pte_offset(dev, index);
	uint64_t orig = raw_mmio(dev, off, dev->info.pte_size);

	if (!*have_own) {
		if (!dev->ops->alloc_pages || dev->ops->alloc_pages(dev->ctx, 1, own, &err)) {
			hw_restore_fault(f, "aperture page 0x%llx: no page of its own to write it through (%s)",
					 (unsigned long long)r->off, err.msg[0] ? err.msg : "the backend has no test pages");
			return;
		}
		*have_own = true;
	}
	if (hw_pte_encode_for(&dev->info, own->phys, HW_CACHE_NONE, &pte, &err)) {
		hw_restore_fault(f, "aperture page 0x%llx: %s", (unsigned long long)r->off, err.msg);
		return;
	}
	raw_mmio_put(dev, off, dev->info.pte_size, pte);
	hw_ggtt_invalidate_unlogged(dev);
	bool ok = put_page(dev, r->off, r->data);
	if (!put_pte(dev, index, orig))
		hw_restore_fault(f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)index,
				 (unsigned long long)raw_mmio(dev, off, dev->info.pte_size), (unsigned long long)orig);
	hw_ggtt_invalidate_unlogged(dev);
	if (!ok)
		hw_restore_fault(f, "aperture page 0x%llx differs after the write", (unsigned long long)r->off);
}

int hw_journal_replay(struct hw_device *dev, const void *buf, size_t len, struct hw_journal_info *info,
		      struct gtt_err *err)
{
	const uint8_t *b = buf;
	struct hw_restore_faults f = { 0 };
	size_t at = 0, n = 0, *offs;
	struct rec r;
	bool bad, have_own = false;
	struct hw_page own = { 0 };
	uint64_t flush = 0;
	bool have_flush = false;
	int rc;

	if ((rc = hw_journal_scan(buf, len, info, err)))
		return rc;
	if (!info->cfg && !info->mmio && !info->pte_chunks && !info->ap_orig && !info->ap_own)
		return GTT_OK;		/* nothing was written: nothing to put back, not even an invalidate */
	if (!(offs = gtt_calloc(dev->env, info->records, sizeof(*offs))))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory reading the journal");
	len = (size_t)info->bytes;
	for (size_t before = at; next_rec(b, len, &at, &r, &bad); before = at)
		offs[n++] = before;
	/* config space first: with memory decoding off, no register or PTE would take its value */
	for (size_t i = n; i-- > 1;) {
		at = offs[i];
		next_rec(b, len, &at, &r, &bad);
		if (r.kind == HW_JOURNAL_CFG)
			replay_state(dev, &r, &f);
	}
	/* every journaled fence disabled next, so none is valid while half restored */
	for (size_t i = 1; i < n; i++) {
		at = offs[i];
		next_rec(b, len, &at, &r, &bad);
		for (unsigned k = 0; r.kind == HW_JOURNAL_MMIO && k < dev->info.num_fences; k++)
			if (r.off == FENCE_REG_GEN6_LO(k) || r.off == FENCE_REG_GEN6_HI(k))
				dev->ops->mmio_write32(dev->ctx, FENCE_REG_GEN6_LO(k), 0);
	}
	/* registers and PTEs, newest first: the oldest original is written last */
	for (size_t i = n; i-- > 1;) {
		at = offs[i];
		next_rec(b, len, &at, &r, &bad);
		if (r.kind == HW_JOURNAL_FLUSH_REG) {
			flush = get_le(r.data, 8);
			have_flush = true;
		}
		if (r.kind != HW_JOURNAL_CFG)
			replay_state(dev, &r, &f);
	}
	hw_ggtt_invalidate_unlogged(dev);
	/* aperture pages, newest first, each through the translation it was written through */
	for (size_t i = n; i-- > 1;) {
		at = offs[i];
		next_rec(b, len, &at, &r, &bad);
		if (r.kind != HW_JOURNAL_APERTURE)
			continue;
		if (r.off >= dev->info.aperture_size)
			hw_restore_fault(&f, "aperture page 0x%llx is outside this device's aperture", (unsigned long long)r.off);
		else if (r.width && !put_page(dev, r.off, r.data))
			hw_restore_fault(&f, "aperture page 0x%llx differs after the write", (unsigned long long)r.off);
		else if (!r.width)
			replay_own(dev, &r, &own, &have_own, &f);
	}
	if (have_own)
		dev->ops->free_pages(dev->ctx, 1, &own);
	if (have_flush)
		dev->ops->mmio_write32(dev->ctx, GFX_FLSH_CNTL_GEN6, (uint32_t)flush);
	dev->env->free(dev->env, offs);
	return hw_restore_result(&f, err);
}
