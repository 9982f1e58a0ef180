/* SPDX-License-Identifier: MIT */
/*
 * Sparse simulated system memory: 4 KiB pages allocated on first write, in an
 * open-addressing hash table keyed by page frame number. Unwritten memory
 * reads as zero.
 */
#include "hw/sim/sim_internal.h"

#define PAGE 4096u

static size_t slot_of(uint64_t pfn, size_t cap)
{
	/* Fibonacci hashing: frames are often consecutive */
	return (size_t)((pfn * 0x9e3779b97f4a7c15ull) >> 20) & (cap - 1);
}

int sim_memory_init(struct sim_device *sim)
{
	struct sim_memory *m = &sim->mem;

	m->cap = 1024;
	m->keys = gtt_calloc(sim->env, m->cap, sizeof(*m->keys));
	m->pages = gtt_calloc(sim->env, m->cap, sizeof(*m->pages));
	m->foreign = gtt_calloc(sim->env, m->cap, sizeof(*m->foreign));
	return m->keys && m->pages && m->foreign ? GTT_OK : GTT_ENOMEM;
}

void sim_memory_fini(struct sim_device *sim)
{
	struct sim_memory *m = &sim->mem;

	for (size_t i = 0; m->pages && i < m->cap; i++)
		if (m->keys[i] && !m->foreign[i])
			sim->env->free(sim->env, m->pages[i]);
	sim->env->free(sim->env, m->keys);
	sim->env->free(sim->env, m->pages);
	sim->env->free(sim->env, m->foreign);
}

static uint8_t *lookup(struct sim_device *sim, uint64_t pfn)
{
	struct sim_memory *m = &sim->mem;

	for (size_t i = slot_of(pfn, m->cap);; i = (i + 1) & (m->cap - 1)) {
		if (!m->keys[i])
			return NULL;
		if (m->keys[i] == pfn + 1)
			return m->pages[i];
	}
}

static int grow(struct sim_device *sim)
{
	struct sim_memory *m = &sim->mem, n = { .cap = m->cap * 2 };

	n.keys = gtt_calloc(sim->env, n.cap, sizeof(*n.keys));
	n.pages = gtt_calloc(sim->env, n.cap, sizeof(*n.pages));
	n.foreign = gtt_calloc(sim->env, n.cap, sizeof(*n.foreign));
	if (!n.keys || !n.pages || !n.foreign) {
		sim->env->free(sim->env, n.keys);
		sim->env->free(sim->env, n.pages);
		sim->env->free(sim->env, n.foreign);
		return GTT_ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		if (!m->keys[i])
			continue;
		size_t j = slot_of(m->keys[i] - 1, n.cap);
		while (n.keys[j])
			j = (j + 1) & (n.cap - 1);
		n.keys[j] = m->keys[i];
		n.pages[j] = m->pages[i];
		n.foreign[j] = m->foreign[i];
	}
	n.used = m->used;
	sim->env->free(sim->env, m->keys);
	sim->env->free(sim->env, m->pages);
	sim->env->free(sim->env, m->foreign);
	*m = n;
	return GTT_OK;
}

/* Put a page at pfn (not there yet); foreign: the caller's memory. */
static int insert(struct sim_device *sim, uint64_t pfn, uint8_t *page, bool foreign)
{
	struct sim_memory *m = &sim->mem;

	if ((m->used + 1) * 2 > m->cap && grow(sim))
		return GTT_ENOMEM;
	size_t i = slot_of(pfn, m->cap);
	while (m->keys[i])
		i = (i + 1) & (m->cap - 1);
	m->keys[i] = pfn + 1;
	m->pages[i] = page;
	m->foreign[i] = foreign;
	m->used++;
	return GTT_OK;
}

void *sim_mem_page(struct sim_device *sim, uint64_t phys)
{
	uint64_t pfn = phys / PAGE;
	uint8_t *page = lookup(sim, pfn);

	if (page)
		return page;
	page = sim->env->alloc(sim->env, PAGE);
	if (!page)
		return NULL;
	if (insert(sim, pfn, page, false)) {
		sim->env->free(sim->env, page);
		return NULL;
	}
	return page;
}

void sim_mem_read(struct sim_device *sim, uint64_t phys, void *buf, size_t len)
{
	uint8_t *out = buf;

	while (len) {
		size_t off = phys % PAGE, run = PAGE - off;
		const uint8_t *page = lookup(sim, phys / PAGE);
		if (run > len)
			run = len;
		if (page)
			gtt_memcpy(out, page + off, run);
		else
			gtt_memset(out, 0, run);
		out += run;
		phys += run;
		len -= run;
	}
}

void sim_mem_write(struct sim_device *sim, uint64_t phys, const void *buf, size_t len)
{
	const uint8_t *in = buf;

	while (len) {
		size_t off = phys % PAGE, run = PAGE - off;
		uint8_t *page = sim_mem_page(sim, phys);
		if (run > len)
			run = len;
		if (page)	/* out of host memory: the write is lost, as to absent RAM */
			gtt_memcpy(page + off, in, run);
		in += run;
		phys += run;
		len -= run;
	}
}

uint64_t sim_attach_pages(struct sim_device *sim, size_t n, void *cpu)
{
	uint64_t base = sim->next_page;

	for (size_t i = 0; i < n; i++)
		if (insert(sim, base / PAGE + i, (uint8_t *)cpu + i * PAGE, true))
			return 0;	/* the pages inserted so far stay the model's until it goes: never handed out */
	sim->next_page += (uint64_t)n * PAGE;
	return base;
}

/*
 * Take the caller's page at phys back out of the memory map (backward-shift
 * deletion: the probe runs of the pages after it stay whole). The model's
 * own pages stay until the device goes.
 */
void sim_detach_page(struct sim_device *sim, uint64_t phys)
{
	struct sim_memory *m = &sim->mem;
	uint64_t pfn = phys / PAGE;
	size_t i = slot_of(pfn, m->cap), mask = m->cap - 1;

	for (; m->keys[i] != pfn + 1; i = (i + 1) & mask)
		if (!m->keys[i])
			return;
	if (!m->foreign[i])
		return;
	for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
		size_t home = slot_of(m->keys[j] - 1, m->cap);
		/* j's entry may fill the hole at i unless its home lies cyclically in (i, j] */
		bool stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
		if (stays)
			continue;
		m->keys[i] = m->keys[j];
		m->pages[i] = m->pages[j];
		m->foreign[i] = m->foreign[j];
		i = j;
	}
	m->keys[i] = 0;
	m->pages[i] = NULL;
	m->foreign[i] = false;
	m->used--;
}

uint64_t sim_alloc_pages(struct sim_device *sim, size_t n)
{
	uint64_t base = sim->next_page;

	for (size_t i = 0; i < n; i++)
		if (!sim_mem_page(sim, base + i * PAGE))
			return 0;
	sim->next_page += (uint64_t)n * PAGE;
	return base;
}
