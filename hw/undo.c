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
	int rc = hw_undo_record(dev, HW_UNDO_APERTURE, 0, off, u->data_len);
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
			/* the data goes back through the mapping as restored so far */
			if (ptes_dirty) {
				hw_ggtt_invalidate_unlogged(dev);
				ptes_dirty = false;
			}
			o->aperture_write(dev->ctx, e->off, u->data + e->old, e->len);
			u->data_len = e->old;
			break;
		}
		if (e->kind != HW_UNDO_APERTURE && e->off >= gsm_lo && e->off < gsm_hi)
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
