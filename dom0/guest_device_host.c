/* SPDX-License-Identifier: MIT */
/*
 * The host side of a vgpu: device: its options, the model it runs on, the
 * Dom0 runtime over it, the guest's vGPU and its busy peers (each maps its
 * own pages over its whole low range, which overlaps the start of the
 * guest's as gScale's shared low graphics memory does, and over the first
 * pages of its high range, with tagged bytes and a fence of its own: data a
 * faulty mediator could damage), and the render-owner switches between the
 * guest's accesses.
 */
#include "dom0/guest_device.h"
#include "dom0/guest_device_internal.h"
#include "dom0/guest_gtt.h"
#include "dom0/ladder.h"
#include "dom0/migrate.h"
#include "dom0/ops.h"
#include "dom0/runtime.h"
#include "dom0/state.h"
#include "dom0/switch.h"
#include "dom0/vgpu.h"
#include "dom0/vgpu_info.h"
#include "env/fmt.h"
#include "env/num.h"
#include "hw/backend_sim.h"
#include "hw/fence.h"
#include "hw/pte.h"
#include "hw/raw_access.h"

#define MiB (1ull << 20)

/* The options: name, limits and what the value means (the rule an error names). */
static const struct gd_key {
	const char *name;
	uint64_t min, max;
	const char *rule;
} gd_keys[] = {
	{ "low", 1, 4096, "the guest's aperture slice in MiB" },
	{ "high", 0, 1024, "the guest's high graphics memory in slots" },
	{ "fences", 0, DOM0_MAX_GUEST_FENCES, "the guest's fences (GVT-g traps 16)" },
	{ "mem", 1, 1u << 18, "the guest's memory in 4 KiB pages, each one host memory of the model" },
	{ "peers", 0, GD_MAX_PEERS, "busy peer vGPUs beside the guest (GVT-g runs 8 vGPUs)" },
	{ "switch", 0, 1u << 30, "trapped guest accesses between render-owner switches, 0 never" },
	{ "migrate", 0, 1u << 30, "reads of PVINFO's EPOCH between host moves of the guest's high range, 0 never" },
	{ "hog", 0, 1u << 20, "trapped accesses between the host's releases while a request waits (ConVGPU admission, GVT-g's exclusive slots), 0 off" },
	{ "move", 0, 1u << 30, "reads of PVINFO's EPOCH between host moves of the guest to a spare model and back (VOCL's device migration), 0 never" },
	{ "runs", 0, DOM0_MAX_RUNS, "runs of slots the host may give a vGPU (non-contiguous slots: 2 and up, a tenant in slot 1 splitting the guest's), 0 off" },
};
#define GD_NKEYS (sizeof(gd_keys) / sizeof(gd_keys[0]))

/* KEY=VALUE, one option the grammar gathered (hw/device_spec.h: each key once), into the value it names. */
static int parse_option(const struct hw_spec_opt *opt, uint64_t *vals, bool *seen, struct gtt_err *err)
{
	const char *why;
	uint64_t v;

	for (unsigned k = 0; k < GD_NKEYS; k++) {
		const struct gd_key *key = &gd_keys[k];
		if (gtt_strcmp(opt->key, key->name))
			continue;
		if (gtt_parse_u64(opt->value, &v, &why))
			return gtt_err_set(err, GTT_EINVAL, "vgpu: option '%s=%s': '%s' %s", opt->key, opt->value, opt->value, why);
		if (v < key->min || v > key->max)
			return gtt_err_set(err, GTT_EINVAL, "vgpu: option '%s=%s': %s is %s, %llu to %llu", opt->key, opt->value,
					   key->name, key->rule, (unsigned long long)key->min, (unsigned long long)key->max);
		seen[k] = true;
		vals[k] = v;
		return GTT_OK;
	}
	return gtt_err_set(err, GTT_EINVAL, "vgpu: option '%s=%s': no such option (low, high, fences, mem, peers, switch, migrate, hog, move, runs)",
			   opt->key, opt->value);
}

/*
 * runs=: 1 is one run (write 0); a migration and hog='s tenants move and
 * place whole runs, so neither goes with it; migrate= defaults to 0 then.
 */
static int runs_rules(const char *arg, struct gd_opts *o, bool migrate_given, struct gtt_err *err)
{
	if (!o->runs)
		return GTT_OK;
	if (o->runs == 1)
		return gtt_err_set(err, GTT_EINVAL, "%s: runs=1 is one run of slots, the default: write runs=0, or 2 to %d",
				   arg, DOM0_MAX_RUNS);
	if ((migrate_given && o->migrate) || o->move || o->hog)
		return gtt_err_set(err, GTT_EINVAL, "%s: runs= with %s: %s", arg, o->hog ? "hog=" : "migrate= or move=",
				   o->hog ? "hog='s tenants sit beside one run of the guest's" : "a migration moves one run of slots");
	if (o->high < 2)
		return gtt_err_set(err, GTT_EINVAL, "%s: runs= splits the guest's slots in two: it needs high=2 or more, not %u",
				   arg, o->high);
	o->migrate = 0;
	return GTT_OK;
}

int gd_parse(const struct hw_device_spec *spec, struct gd_opts *o, struct gtt_err *err)
{
	uint64_t vals[GD_NKEYS] = { 32, 1, 4, 1024, 2, 16, 4, 0, 0, 0 };
	bool seen[GD_NKEYS] = { false };
	int rc;

	*o = (struct gd_opts){ 0 };
	if (!spec->plat)
		return gtt_err_set(err, GTT_EINVAL, "%s: the host must be the model, sim[:PLATFORM]", spec->text);
	/* the host: the model the grammar read, as sim:PLATFORM[,edram] parses */
	hw_device_spec_model(&o->host, spec->plat, spec->edram);
	for (unsigned i = 0; i < spec->n_opts; i++)
		if ((rc = parse_option(&spec->opts[i], vals, seen, err)))
			return rc;
	o->low_mib = vals[0];
	o->high = (unsigned)vals[1];
	o->n_fences = (unsigned)vals[2];
	o->ram_pages = (unsigned)vals[3];
	o->peers = (unsigned)vals[4];
	o->every = (unsigned)vals[5];
	o->migrate = (unsigned)vals[6];
	o->hog = (unsigned)vals[7];
	o->move = (unsigned)vals[8];
	o->runs = (unsigned)vals[9];
	if ((rc = runs_rules(spec->text, o, seen[6], err)))
		return rc;
	if (o->hog && o->move)
		return gtt_err_set(err, GTT_EINVAL, "%s: hog= and move= together: under hog='s admission the way back from the spare model could wait, stranding the guest there",
				   spec->text);
	return GTT_OK;
}

/* The options against the host's layout: what the runtime would refuse, said in the options' words. */
static int check_fit(const struct guest_dev *g, const struct dom0_layout *l, struct gtt_err *err)
{
	const char *plat = g->host->info.plat->name;

	if (g->o.low_mib * MiB > l->guest_low_size)
		return gtt_err_set(err, GTT_EINVAL, "vgpu: option 'low=%llu': the guest low area of a %s is %llu MiB (low=1 to %llu)",
				   (unsigned long long)g->o.low_mib, plat, (unsigned long long)(l->guest_low_size / MiB),
				   (unsigned long long)(l->guest_low_size / MiB));
	if (g->o.high > l->num_slots)
		return gtt_err_set(err, GTT_EINVAL, "vgpu: option 'high=%u': high graphics memory of a %s has %u slots",
				   g->o.high, plat, l->num_slots);
	if (g->o.n_fences + g->o.peers > l->guest_fences)
		return gtt_err_set(err, GTT_EINVAL, "vgpu: option 'fences=%u': a %s leaves %u physical fences to vGPUs and the %u peers hold one each",
				   g->o.n_fences, plat, l->guest_fences, g->o.peers);
	/* runs=: the guest's slots and the tenant between its two runs */
	if (g->o.runs && g->o.high + 1 > l->num_slots)
		return gtt_err_set(err, GTT_EINVAL, "vgpu: option 'runs=%u': high=%u and the tenant in slot 1 need more than the %u slots of a %s",
				   g->o.runs, g->o.high, l->num_slots, plat);
	/* hog= makes every slot one vGPU's: the guest's, each peer's and the tenants' must fit side by side */
	if (g->o.hog && g->o.high + g->o.peers + GD_HOGS > l->num_slots)
		return gtt_err_set(err, GTT_EINVAL, "vgpu: option 'hog=%u': slots are exclusive then, and high=%u, %u peers and %u tenants need more than the %u slots of a %s",
				   g->o.hog, g->o.high, g->o.peers, GD_HOGS, l->num_slots, plat);
	return GTT_OK;
}

void gd_peer_page(unsigned k, uint64_t gm, uint64_t *words)
{
	/* "PE", the peer, the word's graphics address: a byte that moves or changes shows */
	for (unsigned w = 0; w < 512; w++)
		words[w] = 0x5045ull << 48 | (uint64_t)(k + 1) << 40 | ((gm >> 3) + w);
}

/* A guest PTE of vGPU id naming its page gfn, written through the trap as the peer's driver would. */
static int peer_pte(struct guest_dev *g, int id, uint64_t index, uint64_t gfn, struct gtt_err *err)
{
	uint64_t pte;
	int rc = hw_pte_encode_for(&g->host->info, gfn << 12, HW_CACHE_LLC, &pte, err);

	return rc ? rc : dom0_guest_pte_write(g->rt, id, index, pte, err);
}

/* Peer k's fence: two X-tile rows at the start of its low range, re-homed by the runtime into the pool. */
static int peer_fence(struct guest_dev *g, int id, const struct dom0_vgpu_info *in, struct gtt_err *err)
{
	struct hw_fence f = { .start = in->low_base, .size = GD_PEER_FENCE_SIZE, .stride = GD_PEER_FENCE_STRIDE,
			      .tiling = HW_TILING_X, .valid = true };
	uint64_t val;
	int rc = hw_fence_encode(g->host->info.plat, g->host->info.aperture_size, &f, &val, err);

	return rc ? rc : dom0_guest_fence_write(g->rt, id, 0, val, err);
}

/*
 * Peer k's pages mapped, its fence set and its bytes tagged. Its PTEs go in
 * before it is switched in (one copy, one invalidate); its low range is
 * written through its own aperture view, so the fenced part holds what the
 * detiled path gives back; its high pages through their CPU mapping.
 */
static int peer_setup(struct guest_dev *g, unsigned k, struct gtt_err *err)
{
	int id = g->peer[k];
	struct dom0_vgpu_info in;
	uint64_t *words = g->work[0];
	struct hw_page pg;
	int rc = dom0_vgpu_info(g->rt, id, &in);
	uint64_t low_pages = in.low_size >> 12;

	for (uint64_t p = 0; !rc && p < low_pages; p++)
		rc = peer_pte(g, id, (in.low_base >> 12) + p, p, err);
	for (uint64_t j = 0; !rc && j < GD_PEER_HIGH_PAGES && j < in.high_size >> 12; j++)
		rc = peer_pte(g, id, (in.high_base >> 12) + j, low_pages + j, err);
	if (rc || (rc = dom0_switch(g->rt, id, NULL, err)) || (rc = peer_fence(g, id, &in, err)))
		return rc;
	for (uint64_t p = 0; !rc && p < low_pages; p++) {
		gd_peer_page(k, in.low_base + p * 4096, words);
		rc = dom0_guest_aperture_write(g->rt, id, in.low_base + p * 4096, words, 4096, err);
	}
	for (uint64_t j = 0; !rc && j < GD_PEER_HIGH_PAGES && j < in.high_size >> 12; j++) {
		gd_peer_page(k, in.high_base + j * 4096, words);
		if (!(rc = dom0_guest_page(g->rt, id, low_pages + j, &pg)))
			gtt_memcpy(pg.cpu, words, 4096);
	}
	return rc;
}

/*
 * hog=: the host's other tenants hold the two slots right of the guest's
 * high range and the one left of it, each alone (share limit 1, GVT-g's
 * partitioning), so an expansion of the guest by up to two slots waits for
 * admission (FIFO) until they are released, one every `hog` trapped accesses
 * while a request waits (gd_trapped): the first release alone is not enough.
 */
static int make_hogs(struct guest_dev *g, const struct dom0_layout *l, struct gtt_err *err)
{
	struct dom0_vgpu_info in;
	int rc = dom0_vgpu_info(g->rt, g->guest, &in);
	unsigned at[GD_HOGS] = { in.first_slot + in.slots, in.first_slot + in.slots + 1, in.first_slot - 1 };

	for (unsigned k = 0; !rc && k < GD_HOGS; k++) {
		struct dom0_vgpu_params q = { .low_size = 4096, .high_slots = 1, .mem_pages = 1, .place = true, .at_slot = at[k] };
		/* a side the guest's range touches the end of high memory on, or a peer's slot, has no hog */
		if ((k == 2 && !in.first_slot) || at[k] >= l->num_slots - g->n_peers)
			continue;
		if (!(rc = dom0_vgpu_create(g->rt, &q, &g->hog[g->n_hogs], err)))
			g->n_hogs++;
	}
	return rc;
}

/*
 * The guest's vGPU, then the peers, each with one fence, the guest's low
 * size up to GD_PEER_LOW_MAX (every peer page is host memory of the model:
 * seven peers over a 384 MiB slice would take 2.6 GiB) and one slot, at the
 * top of high memory: what the guest's high range grows into and gives back
 * at its end is its own alone, so a released slot the mediator leaves mapped
 * stays for the audit to see instead of being overwritten at the next
 * switch of a peer sharing it.
 */
static int make_vgpus(struct guest_dev *g, const struct dom0_layout *l, struct gtt_err *err)
{
	struct dom0_vgpu_params p = { .low_size = g->o.low_mib * MiB, .high_slots = g->o.high, .fences = g->o.n_fences,
				      .mem_pages = g->o.ram_pages, .mem = g->ram };
	uint64_t peer_low = p.low_size < GD_PEER_LOW_MAX ? p.low_size : GD_PEER_LOW_MAX;
	int rc = GTT_OK;

	if (g->o.runs) {
		/*
		 * A tenant in slot 1 and the guest in slot 0, grown by the rest:
		 * the generalised Algorithm 1 passes over the tenant's slot, so the
		 * guest's slots are two runs, slot 0 and from slot 2 on.
		 */
		struct dom0_vgpu_params t = { .low_size = 4096, .high_slots = 1, .mem_pages = 1, .place = true, .at_slot = 1 };
		struct dom0_vgpu_params first = p;
		first.high_slots = 1;
		first.place = true;
		first.at_slot = 0;
		if (!(rc = dom0_vgpu_create(g->rt, &t, &g->spacer, err)) &&
		    !(rc = dom0_vgpu_create(g->rt, &first, &g->guest, err)))
			rc = dom0_expand(g->rt, g->guest, p.high_slots - 1, NULL, NULL, err);
	} else {
		rc = dom0_vgpu_create(g->rt, &p, &g->guest, err);
	}

	for (unsigned k = 0; !rc && k < g->o.peers; k++) {
		struct dom0_vgpu_params q = { .low_size = peer_low, .high_slots = 1, .fences = 1,
					      .mem_pages = (unsigned)(peer_low >> 12) + GD_PEER_HIGH_PAGES,
					      .place = true, .at_slot = l->num_slots > k ? l->num_slots - 1 - k : 0 };
		/* runs=: the peers share the guest's second run, so each switch back must copy it */
		if (g->o.runs && 2 + k < l->num_slots)
			q.at_slot = 2 + k;
		if (!(rc = dom0_vgpu_create(g->rt, &q, &g->peer[k], err))) {
			g->n_peers++;
			rc = peer_setup(g, k, err);
		}
	}
	if (!rc && g->o.hog)
		rc = make_hogs(g, l, err);
	return rc ? rc : dom0_switch(g->rt, g->guest, NULL, err);
}

/* The guest's memory, the VM's: the runtime maps it and a move between models brings it along. */
static int guest_ram(struct guest_dev *g, struct gtt_err *err)
{
	int rc;

	if (!(g->ram = gtt_calloc(g->env, g->o.ram_pages, sizeof(*g->ram))))
		return gtt_err_set(err, GTT_ENOMEM, "vgpu: out of memory for the table of the guest's %u pages", g->o.ram_pages);
	if ((rc = hw_alloc_test_pages(g->host, g->o.ram_pages, g->ram, err))) {
		g->env->free(g->env, g->ram);
		g->ram = NULL;
	}
	return rc;
}

/* Let a[r] sink to its place in the max-heap a[0..n). */
static void sift(uint64_t *a, size_t r, size_t n)
{
	for (size_t c; (c = 2 * r + 1) < n; r = c) {
		if (c + 1 < n && a[c + 1] > a[c])
			c++;
		if (a[r] >= a[c])
			return;
		uint64_t t = a[r];
		a[r] = a[c];
		a[c] = t;
	}
}

/* Ascending, in place (heapsort: no recursion, no allocation). */
static void sort_u64(uint64_t *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(a, i, n);
	for (size_t end = n; end-- > 1;) {
		uint64_t t = a[0];
		a[0] = a[end];
		a[end] = t;
		sift(a, 0, end);
	}
}

/*
 * What the audit compares with: the physical fences once the peers are set
 * up, each peer's scratch page (read on the model, whose memory the test
 * pages are), and the host addresses of the guest's pages.
 */
static int snapshots(struct guest_dev *g, struct gtt_err *err)
{
	struct sim_device *model = hw_sim_model(g->host);
	struct dom0_vgpu_info in;
	struct hw_page pg;
	int rc = GTT_OK;

	for (unsigned i = 0; !rc && i < g->host->info.num_fences; i++)
		rc = hw_fence_read(g->host, i, &g->fence_setup[i], err);
	if (rc)
		return rc;
	g->peer_scratch = gtt_calloc(g->env, g->n_peers ? g->n_peers : 1, 4096);
	g->gfn_used = gtt_calloc(g->env, g->o.ram_pages, 1);
	g->guest_phys = gtt_calloc(g->env, g->o.ram_pages, sizeof(uint64_t));
	if (!g->peer_scratch || !g->gfn_used || !g->guest_phys)
		return gtt_err_set(err, GTT_ENOMEM, "vgpu: out of memory for the state of %u guest pages and %u peers",
				   g->o.ram_pages, g->n_peers);
	for (unsigned k = 0; !rc && k < g->n_peers; k++)
		if (!(rc = dom0_vgpu_info(g->rt, g->peer[k], &in)))
			sim_mem_read(model, in.scratch_phys, g->peer_scratch + (size_t)k * 4096, 4096);
	for (unsigned gfn = 0; !rc && gfn < g->o.ram_pages; gfn++)
		if (!(rc = dom0_guest_page(g->rt, g->guest, gfn, &pg)))
			g->guest_phys[gfn] = pg.phys;
	if (rc)
		return gtt_err_set(err, rc, "vgpu: the host runtime does not show the vGPUs it just created");
	sort_u64(g->guest_phys, g->o.ram_pages);
	return GTT_OK;
}

int gd_host_open(struct guest_dev *g, const struct hw_open_opts *opts, struct gtt_err *err)
{
	static const struct hw_backend_factory *const model[] = { &hw_sim_backend };
	struct hw_open_opts ho = { .sim_mmio_seed = opts->sim_mmio_seed, .sim_mmio_seed_len = opts->sim_mmio_seed_len };
	struct dom0_config cfg = { 0 };
	struct dom0_layout lay;
	int rc;

#ifdef GTTLAB_FAULTS
	if (opts->host_faults)
		cfg.faults = *(const struct dom0_faults *)opts->host_faults;
#endif
	if (g->o.hog) {
		cfg.admission = DOM0_ADMIT_FIFO;
		cfg.share_limit = 1;
	}
	cfg.slot_runs = g->o.runs;
	if ((rc = hw_open_spec(g->env, &g->o.host, model, 1, &ho, &g->host, err)))
		return rc;
	if ((rc = dom0_layout_for(&g->host->info, &cfg, &lay, err)) || (rc = check_fit(g, &lay, err)) ||
	    (rc = guest_ram(g, err)) || (rc = dom0_init(g->host, &cfg, &g->rt, err)) ||
	    (g->o.move && ((rc = hw_open_spec(g->env, &g->o.host, model, 1, &ho, &g->spare, err)) ||
			   (rc = dom0_init(g->spare, &cfg, &g->spare_rt, err)))) ||
	    (rc = make_vgpus(g, &lay, err)) || (rc = snapshots(g, err))) {
		gd_host_close(g);
		return rc;
	}
	return GTT_OK;
}

int gd_view_open(struct guest_dev *g, const struct dom0_guest_view_params *p, struct gtt_err *err)
{
	struct dom0_vgpu_params q = { .low_size = p->low_size, .high_slots = p->high_slots, .fences = p->fences,
				      .mem_pages = p->mem_pages, .mem = p->ram };
	int rc;

	g->view = true;
	g->o = (struct gd_opts){ .low_mib = p->low_size >> 20, .high = p->high_slots, .n_fences = p->fences,
				 .ram_pages = p->mem_pages, .migrate = p->migrate };
	if (!p->ram || !p->mem_pages)
		return gtt_err_set(err, GTT_EINVAL, "vgpu view: no guest memory given (%u pages)", p->mem_pages);
	if ((rc = dom0_vgpu_create(g->rt, &q, &g->guest, err)))
		return rc;
	if (dom0_vgpu_paused(g->rt, g->guest)) {
		dom0_vgpu_destroy(g->rt, g->guest, NULL);
		return gtt_err_set(err, GTT_EBUSY, "vgpu view: a vGPU of %llu MiB low, %u slots and %u fences does not fit the host now",
				   (unsigned long long)(p->low_size >> 20), p->high_slots, p->fences);
	}
	if ((rc = snapshots(g, err)))
		gd_view_close(g);
	return rc;
}

void gd_view_close(struct guest_dev *g)
{
	struct gtt_err err = { 0 };

	if (g->rt && g->guest && dom0_vgpu_destroy(g->rt, g->guest, &err))
		gtt_log(g->env, GTT_LOG_WARN, "vgpu view: destroying vGPU %d: %s", g->guest, err.msg);
	g->env->free(g->env, g->peer_scratch);
	g->env->free(g->env, g->gfn_used);
	g->env->free(g->env, g->guest_phys);
	g->peer_scratch = g->gfn_used = NULL;
	g->guest_phys = NULL;
	g->rt = NULL;
	g->host = NULL;
	g->guest = 0;
}

/* Stop a runtime (restoring its model) and close the model; what fails is said, as a close cannot fail. */
static void close_host(struct guest_dev *g, struct dom0_runtime *rt, struct hw_device *host, const char *which)
{
	struct gtt_err err = { 0 };

	/* the runtime puts back every PTE and fence it wrote and reads them back */
	if (rt && dom0_fini(rt, &err))
		gtt_log(g->env, GTT_LOG_WARN, "vgpu: the %s runtime did not restore its model: %s", which, err.msg);
	if (host && hw_undo_restore(host, &err))
		gtt_log(g->env, GTT_LOG_WARN, "vgpu: the %s model's undo log did not read back: %s", which, err.msg);
}

void gd_host_close(struct guest_dev *g)
{
	close_host(g, g->spare_rt, g->spare, "spare");
	hw_close(g->spare);
	close_host(g, g->rt, g->host, "host");
	/* the guest's memory outlives its vGPU, as a VM's RAM does its mediated device */
	if (g->ram)
		hw_free_test_pages(g->host, g->o.ram_pages, g->ram);
	hw_close(g->host);
	g->env->free(g->env, g->ram);
	g->env->free(g->env, g->peer_scratch);
	g->env->free(g->env, g->gfn_used);
	g->env->free(g->env, g->guest_phys);
	g->rt = g->spare_rt = NULL;
	g->host = g->spare = NULL;
	g->ram = NULL;
	g->peer_scratch = g->gfn_used = NULL;
	g->guest_phys = NULL;
}

/* hog=: while any request waits for admission, a tenant is destroyed every `hog` trapped accesses. */
static void release_hog(struct guest_dev *g)
{
	struct gtt_err err = { 0 };

	if (!g->o.hog || g->hogs_released >= g->n_hogs || !dom0_paused_count(g->rt) || ++g->hog_traps % g->o.hog)
		return;
	/* a tenant that cannot go stays a tenant: the audit keeps checking it, and the next trap tries again */
	if (dom0_vgpu_destroy(g->rt, g->hog[g->hogs_released], &err))
		gtt_log(g->env, GTT_LOG_WARN, "vgpu: releasing the host's tenant vGPU %d refused: %s", g->hog[g->hogs_released],
			err.msg);
	else
		g->hogs_released++;
}

void gd_trapped(struct guest_dev *g)
{
	struct gtt_err err = { 0 };
	int cur, next;

	release_hog(g);
	if (!g->o.every || ++g->traps % g->o.every)
		return;
	/* round-robin over guest, peer 0, peer 1, ...: whoever owns it now hands over to the next */
	cur = dom0_render_owner(g->rt);
	next = g->n_peers && cur == g->guest ? g->peer[0] : g->guest;
	for (unsigned k = 0; k < g->n_peers; k++)
		if (cur == g->peer[k])
			next = k + 1 < g->n_peers ? g->peer[k + 1] : g->guest;
	if (next != cur && dom0_switch(g->rt, next, NULL, &err))
		gtt_log(g->env, GTT_LOG_WARN, "vgpu: switching vGPU %d in refused: %s", next, err.msg);
}

/*
 * A read of PVINFO's EPOCH is where a gBalloon-aware guest looks for range
 * changes the host made on its own, so it is where this host makes them:
 * every `migrate=` such reads it moves the guest's high range to other slots
 * (dom0_migrate, VOCL's steps), trying the runs after the current one first.
 * A refusal (nothing fits, a slot at the share limit) moves nothing.
 */
static void move_slots(struct guest_dev *g)
{
	const struct dom0_layout *l = dom0_layout(g->rt);
	struct dom0_vgpu_info in;
	struct gtt_err err = { 0 };

	if (dom0_vgpu_info(g->rt, g->guest, &in) || !in.slots || in.slots > l->num_slots)
		return;
	for (unsigned k = 1; k <= l->num_slots - in.slots; k++) {
		unsigned to = (in.first_slot + k) % (l->num_slots - in.slots + 1);
		if (to != in.first_slot && !dom0_migrate(g->rt, g->guest, to, NULL, &err))
			return;
	}
	gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: no slot run took vGPU %d's high range: %s", g->guest, err.msg);
}

/* What the guest left in its memory once its vGPU runs elsewhere: gone, as the old host's copy is. */
static void scrub_ram(struct guest_dev *g)
{
	for (unsigned i = 0; i < g->o.ram_pages; i++)
		gtt_memset(g->ram[i].cpu, 0x6b, 4096);
}

/*
 * move=: the guest goes to the spare model (dom0_migrate_device: the target's
 * own pages), its memory here is scrubbed, and it comes back onto that memory
 * (dom0_migrate_device_onto), between two of its accesses: what it finds
 * afterwards in its pages is only what both copies carried. A guest that
 * cannot come back is lost: said once, and the audit fails with it.
 */
static void move_device(struct guest_dev *g)
{
	struct gtt_err err = { 0 };
	int away, back;

	if (g->lost[0])
		return;
	if (dom0_migrate_device(g->rt, g->guest, g->spare_rt, &away, NULL, &err)) {
		gtt_log(g->env, GTT_LOG_DEBUG, "vgpu: vGPU %d stays on the host: %s", g->guest, err.msg);
		return;
	}
	scrub_ram(g);
	if (dom0_migrate_device_onto(g->spare_rt, away, g->rt, g->ram, &back, NULL, &err)) {
		gtt_snprintf(g->lost, sizeof(g->lost), "vGPU %d did not come back from the spare model (its vGPU %d there): %s",
			     g->guest, away, err.msg);
		gtt_log(g->env, GTT_LOG_ERROR, "vgpu: %s", g->lost);
		return;
	}
	g->guest = back;
}

void gd_epoch_read(struct guest_dev *g)
{
	++g->epoch_reads;
	if (g->o.migrate && !(g->epoch_reads % g->o.migrate))
		move_slots(g);
	if (g->o.move && !(g->epoch_reads % g->o.move))
		move_device(g);
}
