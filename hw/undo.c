/* SPDX-License-Identifier: MIT */
#include "hw/undo.h"
#include "hw/device.h"
#include "hw/ggtt.h"

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

/*
 * Aperture bytes written while PTE writes were not yet invalidated went
 * through the translation of the last invalidate before them. Roll those PTE
 * writes back for the moment, invalidate, put the bytes back, and reapply
 * them. Returns false when the log has no room to hold the current values.
 */
static bool restore_stale(struct hw_device *dev, size_t at, size_t mark, const struct hw_undo_entry *ap)
{
	struct hw_undo *u = &dev->undo;
	size_t first = at;

	while (first > mark && u->entries[first - 1].kind != HW_UNDO_FLUSH)
		first--;
	size_t n = 0;
	for (size_t i = first; i < at; i++)
		n += is_pte(dev, &u->entries[i]);
	uint64_t *now = n ? gtt_calloc(dev->env, n, sizeof(*now)) : NULL;
	if (n && !now)
		return false;
	size_t k = n;
	for (size_t i = at; i-- > first;)
		if (is_pte(dev, &u->entries[i])) {
			now[--k] = mmio_get(dev, &u->entries[i]);
			mmio_put(dev, &u->entries[i], u->entries[i].old);
		}
	hw_ggtt_invalidate_unlogged(dev);
	dev->ops->aperture_write(dev->ctx, ap->off, u->data + ap->old, ap->len);
	for (size_t i = first; i < at; i++)
		if (is_pte(dev, &u->entries[i]))
			mmio_put(dev, &u->entries[i], now[k++]);
	dev->env->free(dev->env, now);
	return true;
}

int hw_undo_restore_to(struct hw_device *dev, size_t mark, struct gtt_err *err)
{
	struct hw_undo *u = &dev->undo;
	const struct hw_backend_ops *o = dev->ops;
	uint32_t gsm_lo = dev->info.gsm_offset;
	uint64_t gsm_hi = gsm_lo + dev->info.gsm_size;
	bool ptes_dirty = false;

	if (mark > u->n)
		return gtt_err_set(err, GTT_EINVAL, "undo mark %zu is beyond the log's %zu entries", mark, u->n);
	while (u->n > mark) {
		struct hw_undo_entry *e = &u->entries[--u->n];
		switch (e->kind) {
		case HW_UNDO_CFG:
			o->cfg_write(dev->ctx, (unsigned)e->off, e->width, (uint32_t)e->old);
			break;
		case HW_UNDO_MMIO32:
			o->mmio_write32(dev->ctx, (uint32_t)e->off, (uint32_t)e->old);
			break;
		case HW_UNDO_MMIO64:
			o->mmio_write64(dev->ctx, (uint32_t)e->off, e->old);
			break;
		case HW_UNDO_APERTURE:
			if (e->width) {
				/* written through a stale TLB: through the translation then in effect */
				if (!restore_stale(dev, u->n, mark, e))
					return gtt_err_set(err, GTT_ENOMEM, "out of memory restoring aperture bytes at 0x%llx",
							   (unsigned long long)e->off);
				ptes_dirty = true;
			} else {
				/* written through the PTEs as they stand now, once invalidated */
				if (ptes_dirty) {
					hw_ggtt_invalidate_unlogged(dev);
					ptes_dirty = false;
				}
				o->aperture_write(dev->ctx, e->off, u->data + e->old, e->len);
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
	u->error = GTT_OK;
	return GTT_OK;
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
