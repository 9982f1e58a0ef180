/* SPDX-License-Identifier: MIT */
/* The GGTT map of a device, read back (picture.h). */
#include "hosted/picture.h"
#include "hw/ggtt.h"
#include "hw/pte.h"

#include <stdlib.h>
#include <string.h>

static void add_region(struct picture_map *m, const char *label, uint64_t start, uint64_t size)
{
	if (!size || m->n_regions == sizeof(m->region) / sizeof(m->region[0]))
		return;
	struct picture_region *r = &m->region[m->n_regions++];
	snprintf(r->label, sizeof(r->label), "%s", label);
	r->start = start;
	r->end = start + size;
}

/* The address most entries name in one run: the scratch page a fill leaves. */
static uint64_t longest_run_addr(const struct gtt_platform *p, const uint64_t *ptes, uint64_t n)
{
	uint64_t best = 0, best_n = 0, run = 0, addr = 0;
	struct hw_pte d;

	for (uint64_t i = 0; i < n; i++) {
		hw_pte_decode(p, ptes[i], &d);
		uint64_t a = d.valid ? d.addr : UINT64_MAX;
		run = i && a == addr ? run + 1 : 1;
		addr = a;
		if (a != UINT64_MAX && run > best_n) {
			best_n = run;
			best = a;
		}
	}
	return best;
}

int picture_map_from_device(struct hw_device *dev, const struct dom0_runtime *rt, const struct dom0_layout *l,
			    const char *const *names, struct picture_map *m, struct gtt_err *err)
{
	const struct hw_info *in = &dev->info;
	uint64_t n = in->n_ptes, *ptes = malloc((size_t)n * sizeof(*ptes));
	char label[32];
	int rc;

	if (!ptes)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory for %llu PTEs", (unsigned long long)n);
	if ((rc = hw_ggtt_read_range(dev, 0, (size_t)n, ptes, err))) {
		free(ptes);
		return rc;
	}
	m->ggtt_size = in->ggtt_size;
	m->aperture_size = in->aperture_size;
	add_region(m, "host low", l->host_low_base, l->host_low_size);
	add_region(m, "guest low", l->guest_low_base, l->guest_low_size);
	add_region(m, "fence pool", l->pool_base, l->pool_size);
	add_region(m, "reserved", l->reserved_base, l->reserved_size);
	add_region(m, "host high", l->host_high_base, l->host_high_size);
	for (unsigned s = 0; s < l->num_slots; s++) {
		snprintf(label, sizeof(label), "slot %u", s);
		add_region(m, label, l->slots_base + (uint64_t)s * l->slot_size, l->slot_size);
	}
	uint64_t scratch = longest_run_addr(in->plat, ptes, n);
	for (uint64_t i = 0; i < n; i++) {
		struct hw_pte d;
		int owner = rt ? dom0_physical_owner(rt, i) : 0;
		enum picture_class c = PIC_NOT_PRESENT;
		hw_pte_decode(in->plat, ptes[i], &d);
		if (d.valid) {
			struct dom0_vgpu_info vi;
			bool own_scratch = owner && !dom0_vgpu_info(rt, owner, &vi) && vi.scratch_phys == d.addr;
			c = d.addr == scratch || own_scratch ? PIC_SCRATCH : PIC_MAPPED;
		}
		picture_map_add(m, n, i, c, owner);
	}
	picture_map_finish(m);
	for (int id = 1; names && id < 64; id++)
		m->owner_name[id] = names[id];
	m->n_scanout = hw_scanout_ranges(dev, m->scanout, sizeof(m->scanout) / sizeof(m->scanout[0]));
	free(ptes);
	return GTT_OK;
}
