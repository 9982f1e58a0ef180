/* SPDX-License-Identifier: MIT */
/*
 * Replaying a journal onto a freshly opened device: config space, fences
 * off, registers and PTEs, an invalidate, aperture pages each through its
 * translation, GFX_FLSH_CNTL_GEN6 last; everything read back.
 */
#include "hw/journal_replay.h"
#include "hw/journal_format.h"
#include "hw/pte.h"
#include "hw/raw_access.h"
#include "hw/restore_failures.h"
#include "env/fmt.h"
#include "regs/mmio.h"

/* Write a PTE and read it back. */
static bool put_pte(struct hw_device *dev, uint64_t index, uint64_t v)
{
	uint32_t off = hw_ggtt_pte_offset(dev, index);

	hw_raw_mmio_put(dev, off, dev->info.pte_size, v);
	return hw_raw_mmio_get(dev, off, dev->info.pte_size) == v;
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

static void replay_state(struct hw_device *dev, const struct hw_journal_rec *r, struct hw_restore_failures *f)
{
	char name[64];
	uint32_t got = 0;

	switch (r->kind) {
	case HW_JOURNAL_CFG: {
		uint32_t want = (uint32_t)hw_journal_get_le(r->data, 4);
		if (dev->ops->cfg_write(dev->ctx, (unsigned)r->off, r->width, want) ||
		    dev->ops->cfg_read(dev->ctx, (unsigned)r->off, r->width, &got) || got != want)
			hw_restore_failure(f, "config 0x%02llx reads 0x%x, not 0x%x", (unsigned long long)r->off, got, want);
		break;
	}
	case HW_JOURNAL_MMIO: {
		uint64_t want = hw_journal_get_le(r->data, 8), now;
		if (r->off > dev->info.bar0_size - r->width) {
			hw_restore_failure(f, "MMIO 0x%llx is outside this device's BAR0", (unsigned long long)r->off);
			break;
		}
		hw_raw_mmio_put(dev, (uint32_t)r->off, r->width, want);
		if ((now = hw_raw_mmio_get(dev, (uint32_t)r->off, r->width)) != want) {
			hw_mmio_name(dev, r->off, name, sizeof(name));
			hw_restore_failure(f, "%s reads 0x%llx, not 0x%llx", name, (unsigned long long)now, (unsigned long long)want);
		}
		break;
	}
	case HW_JOURNAL_PTES: {
		unsigned ps = dev->info.pte_size;
		if (r->width != ps || !hw_in_gsm(dev, r->off) || r->len > dev->info.gsm_offset + dev->info.gsm_size - r->off) {
			hw_restore_failure(f, "PTE chunk at BAR0 0x%llx does not fit this device's GSM", (unsigned long long)r->off);
			break;
		}
		uint64_t first = (r->off - dev->info.gsm_offset) / ps;
		for (size_t i = 0; i < r->len / ps; i++) {
			uint64_t want = hw_journal_get_le(r->data + i * ps, ps);
			if (!put_pte(dev, first + i, want))
				hw_restore_failure(f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)(first + i),
						 (unsigned long long)hw_raw_mmio_get(dev, hw_ggtt_pte_offset(dev, first + i), ps),
						 (unsigned long long)want);
		}
		break;
	}
	default:
		break;
	}
}

/* An aperture page written through a PTE gttlab had set: put back through a page of our own. */
static void replay_own(struct hw_device *dev, const struct hw_journal_rec *r, struct hw_page *own, bool *have_own,
		       struct hw_restore_failures *f)
{
	struct gtt_err err = { 0 };
	uint64_t index = r->off / HW_JOURNAL_CHUNK, pte;
	uint32_t off = hw_ggtt_pte_offset(dev, index);
	uint64_t orig = hw_raw_mmio_get(dev, off, dev->info.pte_size);

	if (!*have_own) {
		if (!dev->ops->alloc_pages || dev->ops->alloc_pages(dev->ctx, 1, own, &err)) {
			hw_restore_failure(f, "aperture page 0x%llx: no page of its own to write it through (%s)",
					 (unsigned long long)r->off, err.msg[0] ? err.msg : "the backend has no test pages");
			return;
		}
		*have_own = true;
	}
	if (hw_pte_encode_for(&dev->info, own->phys, HW_CACHE_NONE, &pte, &err)) {
		hw_restore_failure(f, "aperture page 0x%llx: %s", (unsigned long long)r->off, err.msg);
		return;
	}
	hw_raw_mmio_put(dev, off, dev->info.pte_size, pte);
	hw_ggtt_invalidate_unlogged(dev);
	bool ok = put_page(dev, r->off, r->data);
	if (!put_pte(dev, index, orig))
		hw_restore_failure(f, "PTE %llu reads 0x%llx, not 0x%llx", (unsigned long long)index,
				 (unsigned long long)hw_raw_mmio_get(dev, off, dev->info.pte_size), (unsigned long long)orig);
	hw_ggtt_invalidate_unlogged(dev);
	if (!ok)
		hw_restore_failure(f, "aperture page 0x%llx differs after the write", (unsigned long long)r->off);
}

int hw_journal_replay(struct hw_device *dev, const void *buf, size_t len, struct hw_journal_info *info,
		      struct gtt_err *err)
{
	const uint8_t *b = buf;
	struct hw_restore_failures f = { 0 };
	size_t at = 0, n = 0, *offs;
	struct hw_journal_rec r;
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
	for (size_t before = at; hw_journal_next(b, len, &at, &r, &bad); before = at)
		offs[n++] = before;
	/* config space first: with memory decoding off, no register or PTE would take its value */
	for (size_t i = n; i-- > 1;) {
		at = offs[i];
		hw_journal_next(b, len, &at, &r, &bad);
		if (r.kind == HW_JOURNAL_CFG)
			replay_state(dev, &r, &f);
	}
	/* every journaled fence disabled next, so none is valid while half restored */
	for (size_t i = 1; i < n; i++) {
		at = offs[i];
		hw_journal_next(b, len, &at, &r, &bad);
		for (unsigned k = 0; r.kind == HW_JOURNAL_MMIO && k < dev->info.num_fences; k++)
			if (r.off == FENCE_REG_GEN6_LO(k) || r.off == FENCE_REG_GEN6_HI(k))
				dev->ops->mmio_write32(dev->ctx, FENCE_REG_GEN6_LO(k), 0);
	}
	/* registers and PTEs, newest first: the oldest original is written last */
	for (size_t i = n; i-- > 1;) {
		at = offs[i];
		hw_journal_next(b, len, &at, &r, &bad);
		if (r.kind == HW_JOURNAL_FLUSH_REG) {
			flush = hw_journal_get_le(r.data, 8);
			have_flush = true;
		}
		if (r.kind != HW_JOURNAL_CFG)
			replay_state(dev, &r, &f);
	}
	hw_ggtt_invalidate_unlogged(dev);
	/* aperture pages, newest first, each through the translation it was written through */
	for (size_t i = n; i-- > 1;) {
		at = offs[i];
		hw_journal_next(b, len, &at, &r, &bad);
		if (r.kind != HW_JOURNAL_APERTURE)
			continue;
		if (r.off >= dev->info.aperture_size)
			hw_restore_failure(&f, "aperture page 0x%llx is outside this device's aperture", (unsigned long long)r.off);
		else if (r.width && !put_page(dev, r.off, r.data))
			hw_restore_failure(&f, "aperture page 0x%llx differs after the write", (unsigned long long)r.off);
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
