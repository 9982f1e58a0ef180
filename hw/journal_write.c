/* SPDX-License-Identifier: MIT */
/*
 * The journal's writing side: attached to a device, it appends the original
 * of every config byte, register, chunk of PTEs and aperture page before the
 * first write to it, and returns only once the sink has made it durable.
 * Records are assembled in a batch and sealed in the format of
 * hw/journal_format.h; bitmaps make every later write to what is already
 * journaled cost one test.
 */
#include "hw/journal_write.h"
#include "hw/journal_format.h"
#include "hw/raw_access.h"
#include "env/fmt.h"
#include "regs/mmio.h"
#include "regs/pci_config.h"

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
	hw_journal_rec_start(r, kind, width, off, aux, data_len);
	j->len = need;
	return r + HW_JOURNAL_REC_HDR;
}

/* Seal the batch's records with their checks and make them durable. */
static int rec_flush(struct hw_device *dev)
{
	struct hw_journal *j = dev->journal;
	struct gtt_err err = { 0 };
	size_t n = hw_journal_seal(j->buf, j->len);
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
	int tlen = gtt_snprintf(text, sizeof(text), HW_JOURNAL_HEADER_TEXT "spec=%s\nsysfs_root=%s\nallow_i915=%d\n", spec, root,
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
				hw_journal_put_le(d, j->flush_orig, 8);
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
	hw_journal_put_le(d, v, 4);
	if ((rc = rec_flush(dev)))
		return rc;
	for (unsigned i = 0; i < width; i++)
		set_bit(j->cfg_map, off + i);
	return GTT_OK;
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
			hw_journal_put_le(copy + i, hw_raw_mmio_get(dev, (uint32_t)(off + i), ps), ps);
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
	if (hw_in_gsm(dev, off))
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
	hw_journal_put_le(d, hw_raw_mmio_get(dev, off, width), 8);
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
		return hw_journal_get_le(j->pte_copy[c] + (index % per) * ps, ps);
	return hw_raw_mmio_get(dev, hw_ggtt_pte_offset(dev, index), ps);
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
	uint64_t v = hw_raw_mmio_get(dev, off, dev->info.pte_size);

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
