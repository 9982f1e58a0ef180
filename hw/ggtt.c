/* SPDX-License-Identifier: MIT */
/* GGTT PTE reads and writes through the write path, and the logged GGTT invalidate. */
#include "hw/ggtt.h"
#include "hw/journal_write.h"
#include "regs/mmio.h"

static int check_range(const struct hw_device *dev, uint64_t first, size_t n, struct gtt_err *err)
{
	if (first >= dev->info.n_ptes || n > dev->info.n_ptes - first)
		return gtt_err_set(err, GTT_ERANGE, "PTE index %llu (+%zu) is beyond the %llu entries of the GGTT",
				   (unsigned long long)first, n, (unsigned long long)dev->info.n_ptes);
	return GTT_OK;
}

static uint64_t read_one(struct hw_device *dev, uint64_t index)
{
	uint32_t off = hw_ggtt_pte_offset(dev, index);

	dev->counters.pte_reads++;
	return dev->info.pte_size == 8 ? hw_mmio_read64(dev, off) : hw_mmio_read32(dev, off);
}

static int write_one(struct hw_device *dev, uint64_t index, uint64_t pte)
{
	uint32_t off = hw_ggtt_pte_offset(dev, index);

	dev->counters.pte_writes++;
	/* gen8+ writes the whole 64-bit PTE (writeq); gen6/7 one 32-bit word */
	return dev->info.pte_size == 8 ? hw_mmio_write64(dev, off, pte)
				       : hw_mmio_write32(dev, off, (uint32_t)pte);
}

static int check_width(const struct hw_device *dev, uint64_t pte, struct gtt_err *err)
{
	if (dev->info.pte_size == 4 && pte >> 32)
		return gtt_err_set(err, GTT_EINVAL, "PTE value 0x%llx does not fit the 32-bit PTE of %s",
				   (unsigned long long)pte, dev->info.plat->name);
	return GTT_OK;
}

int hw_ggtt_read_pte(struct hw_device *dev, uint64_t index, uint64_t *pte, struct gtt_err *err)
{
	int rc = check_range(dev, index, 1, err);

	if (!rc)
		*pte = read_one(dev, index);
	return rc;
}

int hw_ggtt_write_pte(struct hw_device *dev, uint64_t index, uint64_t pte, struct gtt_err *err)
{
	int rc = check_range(dev, index, 1, err);

	if (!rc)
		rc = check_width(dev, pte, err);
	if (!rc && (rc = write_one(dev, index, pte)))
		gtt_err_set(err, rc, "PTE %llu not written: %s", (unsigned long long)index, hw_write_refused(dev));
	return rc;
}

int hw_ggtt_read_range(struct hw_device *dev, uint64_t first, size_t n, uint64_t *ptes,
		       struct gtt_err *err)
{
	int rc = check_range(dev, first, n, err);

	if (rc)
		return rc;
	if (dev->ops->pte_read_bulk) {
		dev->ops->pte_read_bulk(dev->ctx, hw_ggtt_pte_offset(dev, first), ptes, n, dev->info.pte_size);
		dev->counters.pte_reads += n;
		dev->counters.mmio_reads += n;
		return GTT_OK;
	}
	for (size_t i = 0; i < n; i++)
		ptes[i] = read_one(dev, first + i);
	return GTT_OK;
}

/* A run of PTEs may be written: in the GGTT, each fits the PTE, and the chunks it touches are journaled (one append). */
static int range_ready(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes, struct gtt_err *err)
{
	int rc = check_range(dev, first, n, err);
	uint64_t high = 0;

	/* a 32-bit PTE format: the high halves ORed in one pass, the offending entry found only when one is set */
	for (size_t i = 0; !rc && dev->info.pte_size == 4 && i < n; i++)
		high |= ptes[i] >> 32;
	for (size_t i = 0; !rc && high && i < n; i++)
		rc = check_width(dev, ptes[i], err);
	if (!rc && (rc = hw_journal_ptes(dev, first, n)))
		gtt_err_set(err, rc, "PTEs %llu+%zu not written: %s", (unsigned long long)first, n, hw_write_refused(dev));
	return rc;
}

int hw_ggtt_write_range(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes,
			struct gtt_err *err)
{
	int rc = range_ready(dev, first, n, ptes, err);

	if (rc)
		return rc;
	if (dev->ops->pte_write_bulk) {
		/* log every old value first, then one bulk write */
		for (size_t i = 0; i < n; i++) {
			uint32_t off = hw_ggtt_pte_offset(dev, first + i);
			uint64_t old = dev->info.pte_size == 8 ? dev->ops->mmio_read64(dev->ctx, off)
							       : dev->ops->mmio_read32(dev->ctx, off);
			rc = hw_undo_record(dev, dev->info.pte_size == 8 ? HW_UNDO_MMIO64 : HW_UNDO_MMIO32,
					    dev->info.pte_size, off, old);
			if (rc)
				return gtt_err_set(err, rc, "PTEs %llu+%zu not written: %s", (unsigned long long)first, n,
						   hw_write_refused(dev));
		}
		dev->ptes_unflushed = true;
		dev->ops->pte_write_bulk(dev->ctx, hw_ggtt_pte_offset(dev, first), ptes, n, dev->info.pte_size);
		dev->counters.pte_writes += n;
		dev->counters.mmio_writes += n;
		return GTT_OK;
	}
	for (size_t i = 0; i < n; i++)
		if ((rc = write_one(dev, first + i, ptes[i])))
			return gtt_err_set(err, rc, "PTE %llu not written: %s", (unsigned long long)(first + i),
					   hw_write_refused(dev));
	return GTT_OK;
}

/* The stores of a run, in one bulk call where the backend has one. */
static void unlogged_store(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes)
{
	if (dev->ops->pte_write_bulk) {
		dev->ops->pte_write_bulk(dev->ctx, hw_ggtt_pte_offset(dev, first), ptes, n, dev->info.pte_size);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t off = hw_ggtt_pte_offset(dev, first + i);
		if (dev->info.pte_size == 8)
			dev->ops->mmio_write64(dev->ctx, off, ptes[i]);
		else
			dev->ops->mmio_write32(dev->ctx, off, (uint32_t)ptes[i]);
	}
}

int hw_ggtt_write_range_unlogged(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes,
				 struct gtt_err *err)
{
	int rc = range_ready(dev, first, n, ptes, err);

	if (rc)
		return rc;
	dev->ptes_unflushed = true;
	dev->counters.pte_writes += n;
	dev->counters.mmio_writes += n;
	unlogged_store(dev, first, n, ptes);
	return GTT_OK;
}

/*
 * How many entries from the first differ from held, up to n: four compared a
 * branch (between two vGPUs every entry differs, so this runs to the end).
 */
static size_t differing(const uint64_t *held, const uint64_t *ptes, size_t n)
{
	size_t k = 0;

	for (; k + 4 <= n; k += 4)
		if ((held[k] == ptes[k]) | (held[k + 1] == ptes[k + 1]) | (held[k + 2] == ptes[k + 2]) |
		    (held[k + 3] == ptes[k + 3]))
			break;
	while (k < n && held[k] != ptes[k])
		k++;
	return k;
}

/* hw_ggtt_write_changed and hw_ggtt_write_differing: update, when not NULL, is held brought level */
static int write_differing(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes, const uint64_t *held,
			   uint64_t *update, uint64_t *written, struct gtt_err *err)
{
	size_t w = 0, same = 0;
	int rc = check_range(dev, first, n, err);

	/* nothing journaled or checked for the entries before the first that differs */
	while (!rc && same < n && held[same] == ptes[same])
		same++;
	if (rc || same == n)
		return rc;
	first += same, n -= same, ptes += same, held += same;
	if (update)
		update += same;
	if ((rc = range_ready(dev, first, n, ptes, err)))
		return rc;
	if (dev->ops->pte_write_changed) {
		w = dev->ops->pte_write_changed(dev->ctx, hw_ggtt_pte_offset(dev, first), ptes, held, n,
						dev->info.pte_size);
	} else {
		for (size_t i = 0; i < n;) {
			if (held[i] == ptes[i]) {
				i++;
				continue;
			}
			size_t run = i + differing(held + i, ptes + i, n - i);
			unlogged_store(dev, first + i, run - i, ptes + i);
			w += run - i;
			i = run;
		}
	}
	if (w) {
		/* every entry that differed was stored, the others were equal: the GTT holds ptes */
		if (update)
			gtt_memcpy(update, ptes, n * sizeof(*ptes));
		dev->ptes_unflushed = true;
		dev->counters.pte_writes += w;
		dev->counters.mmio_writes += w;
	}
	if (written)
		*written += w;
	return GTT_OK;
}

int hw_ggtt_write_changed(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes, uint64_t *held,
			  uint64_t *written, struct gtt_err *err)
{
	return write_differing(dev, first, n, ptes, held, held, written, err);
}

int hw_ggtt_write_differing(struct hw_device *dev, uint64_t first, size_t n, const uint64_t *ptes,
			    const uint64_t *held, uint64_t *written, struct gtt_err *err)
{
	return write_differing(dev, first, n, ptes, held, NULL, written, err);
}

int hw_ggtt_invalidate(struct hw_device *dev)
{
	/* not state to undo, but a point the undo log needs to know the TLB's history */
	hw_undo_record(dev, HW_UNDO_FLUSH, 0, GFX_FLSH_CNTL_GEN6, 0);
	hw_ggtt_invalidate_unlogged(dev);
	return GTT_OK;
}
