/* SPDX-License-Identifier: MIT */
/* The journaled, undo-logged writes of config space and BAR0 registers. */
#include "hw/write_path.h"
#include "hw/journal_write.h"

const char *hw_write_refused(const struct hw_device *dev)
{
	const char *j = hw_journal_error(dev);

	return j[0] ? j : dev->undo.error ? "undo log out of memory" : "";
}

int hw_cfg_write(struct hw_device *dev, unsigned off, unsigned width, uint32_t val)
{
	uint32_t old;
	int rc = dev->ops->cfg_read(dev->ctx, off, width, &old);

	if (rc)
		return rc;
	if ((rc = hw_journal_cfg(dev, off, width)))
		return rc;
	rc = hw_undo_record(dev, HW_UNDO_CFG, width, off, old);
	if (rc)
		return rc;
	dev->counters.cfg_writes++;
	return dev->ops->cfg_write(dev->ctx, off, width, val);
}

int hw_mmio_write32(struct hw_device *dev, uint32_t off, uint32_t val)
{
	int rc = hw_journal_mmio(dev, off, 4);

	if (!rc)
		rc = hw_undo_record(dev, HW_UNDO_MMIO32, 4, off, dev->ops->mmio_read32(dev->ctx, off));
	if (rc)
		return rc;
	dev->counters.mmio_writes++;
	if (hw_in_gsm(dev, off))
		dev->ptes_unflushed = true;
	dev->ops->mmio_write32(dev->ctx, off, val);
	return GTT_OK;
}

int hw_mmio_write64(struct hw_device *dev, uint32_t off, uint64_t val)
{
	int rc = hw_journal_mmio(dev, off, 8);

	if (!rc)
		rc = hw_undo_record(dev, HW_UNDO_MMIO64, 8, off, dev->ops->mmio_read64(dev->ctx, off));
	if (rc)
		return rc;
	dev->counters.mmio_writes++;
	if (hw_in_gsm(dev, off))
		dev->ptes_unflushed = true;
	dev->ops->mmio_write64(dev->ctx, off, val);
	return GTT_OK;
}
