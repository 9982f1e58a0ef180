/* SPDX-License-Identifier: MIT */
/* The undo log: recording old values before each write, and replaying them backwards. */
#include "hw/undo.h"
#include "env/fmt.h"
#include "hw/journal_write.h"
#include "hw/raw_access.h"
#include "hw/restore_failures.h"

static int grow(struct hw_device *dev, void **buf, size_t *cap, size_t need, size_t elem)
{
	size_t ncap = *cap ? *cap : 256;
	void *n;

	while (ncap < need)
		ncap *= 2;
	if (ncap == *cap)
		return GTT_OK;
	n = gtt_calloc(dev->env, ncap, elem);
	if (!n)
		return GTT_ENOMEM;
	if (*buf)
		gtt_memcpy(n, *buf, *cap * elem);
	dev->env->free(dev->env, *buf);
	*buf = n;
	*cap = ncap;
	return GTT_OK;
}

int hw_undo_record(struct hw_device *dev, enum hw_undo_kind kind, unsigned width, uint64_t off,
		   uint64_t old)
{
	struct hw_undo *u = &dev->undo;

	if (u->error || grow(dev, (void **)&u->entries, &u->cap, u->n + 1, sizeof(*u->entries)))
		return u->error = GTT_ENOMEM;
	u->entries[u->n++] = (struct hw_undo_entry){ kind, width, off, old, 0 };
	return GTT_OK;
}

int hw_undo_record_data(struct hw_device *dev, uint64_t off, const void *old, size_t len)
{
	struct hw_undo *u = &dev->undo;

	if (u->error || grow(dev, (void **)&u->data, &u->data_cap, u->data_len + len, 1))
		return u->error = GTT_ENOMEM;
	gtt_memcpy(u->data + u->data_len, old, len);
	int rc = hw_undo_record(dev, HW_UNDO_APERTURE, dev->ptes_unflushed, off, u->data_len);
	if (rc)
		return rc;
	u->entries[u->n - 1].len = len;
	u->data_len += len;
	return GTT_OK;
}

size_t hw_undo_mark(const struct hw_device *dev)
{
	return dev->undo.n;
}

static bool is_pte(const struct hw_device *dev, const struct hw_undo_entry *e)
{
	return (e->kind == HW_UNDO_MMIO32 || e->kind == HW_UNDO_MMIO64) && e->off >= dev->info.gsm_offset &&
	       e->off < dev->info.gsm_offset + dev->info.gsm_size;
}

static uint64_t mmio_get(struct hw_device *dev, const struct hw_undo_entry *e)
{
	return e->kind == HW_UNDO_MMIO64 ? dev->ops->mmio_read64(dev->ctx, (uint32_t)e->off)
					 : dev->ops->mmio_read32(dev->ctx, (uint32_t)e->off);
}

static void mmio_put(struct hw_device *dev, const struct hw_undo_entry *e, uint64_t v)
{
	if (e->kind == HW_UNDO_MMIO64)
		dev->ops->mmio_write64(dev->ctx, (uint32_t)e->off, v);
	else
		dev->ops->mmio_write32(dev->ctx, (uint32_t)e->off, (uint32_t)v);
}

/* Name what did not read back; the rest of the replay goes on. */
static void missed(struct hw_restore_failures *f, const struct hw_device *dev, const struct hw_undo_entry *e, uint64_t got)
{
	char name[64];

	if (e->kind == HW_UNDO_CFG) {
		hw_restore_failure(f, "config 0x%02llx reads 0x%llx, not 0x%llx", (unsigned long long)e->off,
				 (unsigned long long)got, (unsigned long long)e->old);
		return;
	}
	if (e->kind == HW_UNDO_APERTURE) {
		hw_restore_failure(f, "aperture bytes 0x%llx+%zu differ after the write", (unsigned long long)e->off, e->len);
		return;
	}
	hw_mmio_name(dev, e->off, name, sizeof(name));
	hw_restore_failure(f, "%s reads 0x%llx, not 0x%llx", name, (unsigned long long)got, (unsigned long long)e->old);
}

/* Put aperture bytes back and read them back; false when they differ. */
static bool put_bytes(struct hw_device *dev, const struct hw_undo_entry *e)
{
	const uint8_t *want = dev->undo.data + e->old;
	uint8_t chunk[64];

	if (dev->ops->aperture_write(dev->ctx, e->off, want, e->len))
		return false;
	for (size_t at = 0; at < e->len; at += sizeof(chunk)) {
		size_t n = e->len - at < sizeof(chunk) ? e->len - at : sizeof(chunk);
		if (dev->ops->aperture_read(dev->ctx, e->off + at, chunk, n) || gtt_memcmp(chunk, want + at, n))
			return false;
	}
	return true;
}

/*
 * Aperture bytes written while PTE writes were not yet invalidated went
 * through the translation of the last invalidate before them. Roll those PTE
 * writes back for the moment, invalidate, put the bytes back, and reapply
 * them. The current values are swapped into the entries while the old ones
 * are in the device, so this needs no memory and cannot lose an entry.
 */
static bool restore_stale(struct hw_device *dev, size_t at, size_t mark, const struct hw_undo_entry *ap)
{
	struct hw_undo *u = &dev->undo;
	size_t first = at;
	bool ok;

	while (first > mark && u->entries[first - 1].kind != HW_UNDO_FLUSH)
		first--;
	for (size_t i = at; i-- > first;)
		if (is_pte(dev, &u->entries[i])) {
			uint64_t now = mmio_get(dev, &u->entries[i]);
			mmio_put(dev, &u->entries[i], u->entries[i].old);
			u->entries[i].old = now;
		}
	hw_ggtt_invalidate_unlogged(dev);
	ok = put_bytes(dev, ap);
	for (size_t i = first; i < at; i++)
		if (is_pte(dev, &u->entries[i])) {
			uint64_t old = mmio_get(dev, &u->entries[i]);
			mmio_put(dev, &u->entries[i], u->entries[i].old);
			u->entries[i].old = old;
		}
	return ok;
}

int hw_undo_restore_to(struct hw_device *dev, size_t mark, struct gtt_err *err)
{
	struct hw_undo *u = &dev->undo;
	const struct hw_backend_ops *o = dev->ops;
	uint32_t gsm_lo = dev->info.gsm_offset;
	uint64_t gsm_hi = gsm_lo + dev->info.gsm_size;
	struct hw_restore_failures f = { 0 };
	bool ptes_dirty = false;
	uint32_t got32;

	if (mark > u->n)
		return gtt_err_set(err, GTT_EINVAL, "undo mark %zu is beyond the log's %zu entries", mark, u->n);
	/* every entry is put back and read back; one that does not read back is named, the rest still go back */
	while (u->n > mark) {
		struct hw_undo_entry *e = &u->entries[--u->n];
		switch (e->kind) {
		case HW_UNDO_CFG:
			if (o->cfg_write(dev->ctx, (unsigned)e->off, e->width, (uint32_t)e->old) ||
			    o->cfg_read(dev->ctx, (unsigned)e->off, e->width, &got32) || got32 != (uint32_t)e->old)
				missed(&f, dev, e, got32);
			break;
		case HW_UNDO_MMIO32:
		case HW_UNDO_MMIO64:
			mmio_put(dev, e, e->old);
			if (mmio_get(dev, e) != e->old)
				missed(&f, dev, e, mmio_get(dev, e));
			break;
		case HW_UNDO_APERTURE:
			if (e->width) {
				/* written through a stale TLB: through the translation then in effect */
				if (!restore_stale(dev, u->n, mark, e))
					missed(&f, dev, e, 0);
				ptes_dirty = true;
			} else {
				/* written through the PTEs as they stand now, once invalidated */
				if (ptes_dirty) {
					hw_ggtt_invalidate_unlogged(dev);
					ptes_dirty = false;
				}
				if (!put_bytes(dev, e))
					missed(&f, dev, e, 0);
			}
			u->data_len = e->old;
			break;
		case HW_UNDO_FLUSH:
			break;
		}
		if ((e->kind == HW_UNDO_MMIO32 || e->kind == HW_UNDO_MMIO64) && e->off >= gsm_lo && e->off < gsm_hi)
			ptes_dirty = true;
	}
	if (ptes_dirty)
		hw_ggtt_invalidate_unlogged(dev);
	hw_journal_put_flush_reg(dev);
	u->error = GTT_OK;
	return hw_restore_result(&f, err);
}

int hw_undo_restore(struct hw_device *dev, struct gtt_err *err)
{
	return hw_undo_restore_to(dev, 0, err);
}

void hw_undo_truncate(struct hw_device *dev, size_t mark)
{
	struct hw_undo *u = &dev->undo;

	while (u->n > mark) {
		struct hw_undo_entry *e = &u->entries[--u->n];
		if (e->kind == HW_UNDO_APERTURE)
			u->data_len = e->old;
	}
	u->error = GTT_OK;
}

void hw_undo_forget(struct hw_device *dev)
{
	dev->undo.n = 0;
	dev->undo.data_len = 0;
	dev->undo.error = GTT_OK;
}

void hw_undo_fini(struct hw_device *dev)
{
	dev->env->free(dev->env, dev->undo.entries);
	dev->env->free(dev->env, dev->undo.data);
	dev->undo = (struct hw_undo){ 0 };
}
