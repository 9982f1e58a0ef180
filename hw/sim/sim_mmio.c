/* SPDX-License-Identifier: MIT */
/*
 * BAR0 of the model: the 2 MiB register file, the GSM (PTE window) and the
 * GGTT TLB. PTE writes land in the GSM at once (BAR0 reads them back) but the
 * translation hardware only sees them after a write to GFX_FLSH_CNTL_GEN6:
 * until then aperture and GPU accesses use the stale entries. This is the
 * strict reading of the invalidate rule (docs/hardware.md §3).
 */
#include "hw/sim/sim_internal.h"
#include "regs/mmio.h"
#include "regs/sriov.h"

static bool in_regs(uint32_t off)
{
	return off < GTT_MMIO_SIZE;
}

static bool in_gsm(const struct sim_device *sim, uint32_t off, uint64_t *gsm_off)
{
	if (off < sim->plat->gsm_offset || off - sim->plat->gsm_offset >= sim->gsm_size)
		return false;
	*gsm_off = off - sim->plat->gsm_offset;
	return true;
}

struct sim_fault *sim_fault_find(struct sim_device *sim, uint32_t off)
{
	for (size_t i = 0; i < sim->n_faults; i++)
		if (sim->faults[i].off == off)
			return &sim->faults[i];
	return NULL;
}

/* GSM bytes [g, g + len) written: their blocks are copied into the TLB at the next flush. */
static void mark_dirty(struct sim_device *sim, uint64_t g, uint64_t len)
{
	for (uint64_t b = g / SIM_DIRTY_BLOCK; len && b <= (g + len - 1) / SIM_DIRTY_BLOCK; b++) {
		if (sim->dirty_map[b / 8] & (1u << (b % 8)))
			continue;
		sim->dirty_map[b / 8] |= (uint8_t)(1u << (b % 8));
		sim->dirty[sim->n_dirty++] = b;
	}
}

/* The GGTT invalidate: the TLB picks up every PTE written since the last one. */
static void ggtt_flush(struct sim_device *sim)
{
	for (size_t i = 0; i < sim->n_dirty; i++) {
		uint64_t b = sim->dirty[i], at = b * SIM_DIRTY_BLOCK;
		uint64_t len = sim->gsm_size - at < SIM_DIRTY_BLOCK ? sim->gsm_size - at : SIM_DIRTY_BLOCK;
		gtt_memcpy(sim->tlb + at, sim->gsm + at, (size_t)len);
		sim->dirty_map[b / 8] = 0;
	}
	sim->n_dirty = 0;
	sim_trace_record(sim, SIM_GGTT_FLUSH, 0, GFX_FLSH_CNTL_GEN6, 0);
}

void sim_gsm_boot(struct sim_device *sim)
{
	uint64_t pte = sim_pte_for(sim, SIM_SCRATCH_PHYS);
	unsigned sz = sim->pte_fmt->entry_bytes;

	/* the first entry, then the filled part copied onto the rest, doubling */
	for (unsigned b = 0; b < sz; b++)
		sim->gsm[b] = (uint8_t)(pte >> (8 * b));
	for (uint64_t done = sz; done < sim->gsm_size;) {
		uint64_t n = done < sim->gsm_size - done ? done : sim->gsm_size - done;
		gtt_memcpy(sim->gsm + done, sim->gsm, (size_t)n);
		done += n;
	}
	gtt_memcpy(sim->tlb, sim->gsm, sim->gsm_size);
}

static uint32_t gsm_read32(const struct sim_device *sim, uint64_t gsm_off)
{
	const uint8_t *p = sim->gsm + gsm_off;

	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

uint64_t sim_gsm_entry(const struct sim_device *sim, uint64_t index)
{
	uint64_t v = 0;

	if (index >= sim->n_ptes)
		return 0;
	for (unsigned b = sim->pte_fmt->entry_bytes; b-- > 0;)
		v = v << 8 | sim->gsm[index * sim->pte_fmt->entry_bytes + b];
	return v;
}

static void reg_write(struct sim_device *sim, uint32_t off, uint32_t val)
{
	uint32_t *r = &sim->regs[off / 4];

	switch (off) {
	case GFX_FLSH_CNTL_GEN6:
		/* not a VF's register: its GGTT invalidate is a GuC CT action (docs/model.md, "A VF") */
		if (val & GFX_FLSH_CNTL_EN && !sim->vf.id)
			ggtt_flush(sim);
		*r = 0;		/* self-clearing */
		return;
	case ARB_MODE:
		/* masked register: bits 31:16 select which of 15:0 change */
		*r = (*r & ~(val >> 16)) | (val & (val >> 16) & 0xffff);
		return;
	case HSW_EDRAM_CAP:
	case VF_CAP_REG:
		/* a capability of the part: no write changes it */
		return;
	case GUC_HOST_INTERRUPT:
		*r = val;
		if (sim->vf.id)
			sim_vf_doorbell(sim);
		return;
	}
	*r = val;
}

uint32_t sim_mmio_read32(struct sim_device *sim, uint32_t off)
{
	uint64_t g;
	uint32_t v = 0;
	struct sim_fault *f;

	if (sim->gone || !sim_mem_decode_enabled(sim) || off % 4 || off >= sim->plat->bar0_size) {
		v = 0xffffffffu;
	} else if ((f = sim_fault_find(sim, off)) && f->stick) {
		v = f->value;
	} else if (in_regs(off)) {
		v = sim->regs[off / 4];
	} else if (in_gsm(sim, off, &g)) {
		v = gsm_read32(sim, g);
		if (sim->vf.id)
			v = sim_vf_gsm_view(sim, g, v);
	}
	sim_trace_record(sim, SIM_MMIO_READ, 4, off, v);
	return v;
}

void sim_mmio_write32(struct sim_device *sim, uint32_t off, uint32_t val)
{
	uint64_t g;
	struct sim_fault *f;

	sim_trace_record(sim, SIM_MMIO_WRITE, 4, off, val);
	if (sim->gone || !sim_mem_decode_enabled(sim) || off % 4 || off >= sim->plat->bar0_size)
		return;
	f = sim_fault_find(sim, off);
	if (f && f->passes)
		f->passes--;
	else if (f && (f->stick || f->drops)) {
		if (f->drops > 0)
			f->drops--;
		return;
	}
	if (in_regs(off)) {
		reg_write(sim, off, val);
	} else if (in_gsm(sim, off, &g)) {
		if (sim->vf.id && !sim_vf_gsm_merge(sim, g, gsm_read32(sim, g), &val))
			return;		/* not this VF's PTE: the write does not take */
		for (unsigned b = 0; b < 4; b++)
			sim->gsm[g + b] = (uint8_t)(val >> (8 * b));
		mark_dirty(sim, g, 4);
	}
}

/*
 * A 64-bit access is two 32-bit halves, low first, as the bus splits it; a
 * fence written this way is briefly half-written, which is why i915 writes
 * fences in its careful order (docs/hardware.md §4.5).
 */
uint64_t sim_mmio_read64(struct sim_device *sim, uint32_t off)
{
	uint64_t lo = sim_mmio_read32(sim, off);

	return lo | (uint64_t)sim_mmio_read32(sim, off + 4) << 32;
}

void sim_mmio_write64(struct sim_device *sim, uint32_t off, uint64_t val)
{
	sim_mmio_write32(sim, off, (uint32_t)val);
	sim_mmio_write32(sim, off + 4, (uint32_t)(val >> 32));
}

/*
 * A run of n PTEs of `size` bytes (4 or 8) at BAR0 offset off: exactly n
 * reads or writes of that size, counted and traced as those. When no fault
 * and no trace is armed and the run lies inside the GSM with decoding on, it
 * is one copy (and, for writes, the run marked dirty for the next flush).
 */
static bool run_fast(const struct sim_device *sim, uint32_t off, size_t n, unsigned size, uint64_t *g)
{
	return !sim->trace_cap && !sim->n_faults && !sim->gone && !sim->vf.id && sim_mem_decode_enabled(sim) && n &&
	       in_gsm(sim, off, g) && n <= (sim->gsm_size - *g) / size && *g % size == 0;
}

void sim_gsm_read_run(struct sim_device *sim, uint32_t off, uint64_t *ptes, size_t n, unsigned size)
{
	uint64_t g;

	if (run_fast(sim, off, n, size, &g)) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (size == 8) {
			gtt_memcpy(ptes, sim->gsm + g, n * 8);
			sim->counts[SIM_MMIO_READ] += n * 2;
			sim->seq += n * 2;
			return;
		}
#endif
		for (size_t i = 0; i < n; i++) {
			const uint8_t *p = sim->gsm + g + i * size;
			uint64_t v = 0;
			for (unsigned b = size; b-- > 0;)
				v = v << 8 | p[b];
			ptes[i] = v;
		}
		sim->counts[SIM_MMIO_READ] += n * (size / 4);
		sim->seq += n * (size / 4);
		return;
	}
	for (size_t i = 0; i < n; i++)
		ptes[i] = size == 8 ? sim_mmio_read64(sim, off + (uint32_t)(i * 8)) : sim_mmio_read32(sim, off + (uint32_t)(i * 4));
}

void sim_gsm_write_run(struct sim_device *sim, uint32_t off, const uint64_t *ptes, size_t n, unsigned size)
{
	uint64_t g;

	if (run_fast(sim, off, n, size, &g)) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		if (size == 8) {
			gtt_memcpy(sim->gsm + g, ptes, n * 8);	/* the GSM is little-endian bytes, as the host's words */
		} else if (size == 4) {
			for (size_t i = 0; i < n; i++) {
				uint32_t v = (uint32_t)ptes[i];
				gtt_memcpy(sim->gsm + g + i * 4, &v, 4);
			}
		} else
#endif
		for (size_t i = 0; i < n; i++) {
			uint8_t *p = sim->gsm + g + i * size;
			for (unsigned b = 0; b < size; b++)
				p[b] = (uint8_t)(ptes[i] >> (8 * b));
		}
		mark_dirty(sim, g, n * size);
		sim->counts[SIM_MMIO_WRITE] += n * (size / 4);
		sim->seq += n * (size / 4);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		if (size == 8)
			sim_mmio_write64(sim, off + (uint32_t)(i * 8), ptes[i]);
		else
			sim_mmio_write32(sim, off + (uint32_t)(i * 4), (uint32_t)ptes[i]);
	}
}

int sim_fault_drop_writes(struct sim_device *sim, uint32_t off, int count)
{
	struct sim_fault *f = sim_fault_find(sim, off);

	if (!f) {
		if (sim->n_faults == SIM_MAX_FAULTS)
			return GTT_ENOMEM;
		f = &sim->faults[sim->n_faults++];
		*f = (struct sim_fault){ .off = off };
	}
	f->drops = count;
	return GTT_OK;
}

int sim_fault_freeze_after(struct sim_device *sim, uint32_t off, unsigned passes)
{
	int rc = sim_fault_drop_writes(sim, off, -1);

	if (!rc)
		sim_fault_find(sim, off)->passes = passes;
	return rc;
}

int sim_fault_stick(struct sim_device *sim, uint32_t off, uint32_t value)
{
	struct sim_fault *f = sim_fault_find(sim, off);

	if (!f) {
		if (sim->n_faults == SIM_MAX_FAULTS)
			return GTT_ENOMEM;
		f = &sim->faults[sim->n_faults++];
		*f = (struct sim_fault){ .off = off };
	}
	f->stick = true;
	f->value = value;
	/* the register holds the value for the hardware too, not only for reads */
	uint64_t g;
	if (in_regs(off) && off % 4 == 0)
		sim->regs[off / 4] = value;
	else if (in_gsm(sim, off, &g)) {
		for (unsigned b = 0; b < 4; b++)
			sim->gsm[g + b] = (uint8_t)(value >> (8 * b));
		mark_dirty(sim, g, 4);
	}
	return GTT_OK;
}

void sim_fault_clear(struct sim_device *sim)
{
	sim->n_faults = 0;
}

void sim_fault_gone(struct sim_device *sim, bool gone)
{
	sim->gone = gone;
}
