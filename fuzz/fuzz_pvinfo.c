/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer harness for the guests' side of the request channel and what
 * answers it: admission, the policy, migration. The input is an 8-byte
 * header, then a program of 8-byte steps (op, vGPU, 16-bit offset, 32-bit
 * value) run on a Dom0 runtime with three vGPUs over a simulated Skylake
 * opened for it, and a second runtime over a simulated Kaby Lake opened at
 * its first move to another device.
 *
 * The header is the config: admission policy (off, fifo, bf, ru, rand),
 * share limit (0-3), slot size (64, 256 or 512 MiB: fewer slots, more
 * pauses; or a layout at the runtime's limits: about 1000 slots, one slot,
 * 255 slots with runs), a 1 MiB fence pool and few guest fence registers (pauses of
 * fences and creates), and RAND's seed. A header of zeros is the runtime's
 * defaults with admission off.
 *
 * Steps: PVINFO writes at any offset with any value; well-formed requests
 * (expand, reduce, evictions, withdraw) then a serve; serves, policy periods
 * with steal rates, guest PTE and fence writes, switches, direct resizes,
 * withdrawals, destroys and re-creates (releases, paused creates), and
 * migrations to a slot or to the other device, with a failure injected after
 * any of VOCL's steps.
 *
 * Beyond ASan/UBSan, after every step: each vGPU's PVINFO range words and
 * slot count are its range, lying in high memory; a paused create holds no
 * slots and is never the render owner; no slot is held by more vGPUs than the
 * share limit. A refused PVINFO write or migration must not move the vGPU; a
 * refused device migration leaves it on the source and the target as it was;
 * a device migration carries the guest's memory; a slot migration leaves no
 * entry of the vGPU in the slots it left; a paused vGPU is never switched
 * in; a withdrawal takes back exactly what was paused. At the end every
 * runtime's restore must read back (dom0_fini) and, every eighth input,
 * each device's whole GSM (read here) be as it booted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dom0/dom0.h"
#include "env/env_posix.h"
#include "hosted/backends.h"
#include "hw/fence.h"
#include "hw/backend_sim.h"
#include "hw/ggtt.h"
#include "hw/pte.h"
#include "hw/sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NV		3
#define MAX_STEPS	512
#define PV_OFF(reg)	((reg) - VGT_PVINFO_PAGE)

/*
 * The devices: fresh ones for every input (the second only once the input
 * moves a vGPU there), closed at its end. The model never frees a test page
 * while it is open, so a device kept across inputs would grow by every
 * input's guest memory, and every input would end with more allocations than
 * frees: libFuzzer then runs it again for a leak check, which cost more than
 * the fresh device does. Now an input's allocations balance and a leak is its
 * own. Booting is deterministic: each device's GSM as booted is read once, at
 * its first open, and the end of every eighth input is compared with it.
 */
struct fdev {
	const char *spec;
	struct hw_device *dev;
	uint64_t *gsm_boot, *gsm_now;
};
static struct fdev devs[2] = { { .spec = "sim:skl" }, { .spec = "sim:kbl" } };

/* One input's runtimes and where each of its vGPUs is. */
struct fz {
	struct dom0_config cfg;
	struct dom0_runtime *rt[2];
	int id[NV], on[NV];
	bool alive[NV];
	int fail_step;			/* a migration fails after this step (enum dom0_migrate_step); -1 never */
};

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_pvinfo: %s%s%s\n", what, msg ? ": " : "", msg ? msg : "");
	abort();
}

static void open_dev(struct fdev *d)
{
	struct gtt_err err = { 0 };

	if (hw_open(gtt_env_posix(GTT_LOG_ERROR), d->spec, gtt_posix_backends, gtt_num_posix_backends, NULL, &d->dev,
		    &err))
		die("cannot open a simulated device", err.msg);
	if (d->gsm_boot)
		return;
	/* kept for the whole run: LeakSanitizer does not count what is still reachable */
	d->gsm_boot = calloc(d->dev->info.n_ptes, sizeof(uint64_t));
	d->gsm_now = calloc(d->dev->info.n_ptes, sizeof(uint64_t));
	if (!d->gsm_boot || !d->gsm_now || hw_ggtt_read_range(d->dev, 0, d->dev->info.n_ptes, d->gsm_boot, &err))
		die("cannot read the GSM", err.msg);
}

static int after_step(void *ctx, struct dom0_runtime *rt, int id, enum dom0_migrate_step s)
{
	const struct fz *z = ctx;

	(void)rt;
	(void)id;
	return (int)s == z->fail_step ? GTT_EIO : GTT_OK;
}

static void start_runtime(struct fz *z, int d)
{
	struct gtt_err err = { 0 };

	if (!devs[d].dev)
		open_dev(&devs[d]);
	if (dom0_init(devs[d].dev, &z->cfg, &z->rt[d], &err))
		die("dom0_init", err.msg);
	if (dom0_policy_set(z->rt[d], &(struct dom0_policy){ .copy_ps_per_pte = 50000 }, 0, &err))
		die("policy", err.msg);
}

/* The header: what the runtimes are configured with. */
static void configure(struct fz *z, const uint8_t *h)
{
	static const enum dom0_admission adm[] = { DOM0_ADMIT_OFF, DOM0_ADMIT_FIFO, DOM0_ADMIT_BF, DOM0_ADMIT_RU,
						   DOM0_ADMIT_RAND };
	/*
	 * 0: the default 64 MiB; fewer, larger slots (more pauses); and the
	 * layouts at the runtime's limits: 4 MiB (959 slots), 3836 KiB (1023, about
	 * DOM0_MAX_SLOTS), one slot as large as high memory (with host-high 4 MiB),
	 * 15 MiB (255: about DOM0_MAX_RUN_SLOTS, the most with runs)
	 */
	static const uint64_t slot[] = { 0, 256ull << 20, 512ull << 20, 4ull << 20, 3836ull << 10, 3836ull << 20, 15ull << 20 };
	unsigned nslot = sizeof(slot) / sizeof(slot[0]);

	z->cfg.admission = adm[h[0] % 5];
	z->cfg.share_limit = h[1] % 4;
	z->cfg.slot_size = slot[h[2] % nslot];
	if (z->cfg.slot_size == 3836ull << 20)
		z->cfg.host_high_size = 4ull << 20;
	if (h[3] & 1)
		z->cfg.pool_size = 1 << 20;
	if (h[3] & 2)
		z->cfg.host_fences = 29;	/* 3 guest fence registers on a 32-fence device */
	z->cfg.seed = (uint64_t)h[4] | (uint64_t)h[5] << 8 | (uint64_t)h[6] << 16 | (uint64_t)h[7] << 24;
	if (h[3] & 4) {
		z->cfg.slot_runs = 2 + (h[3] >> 3) % (DOM0_MAX_RUNS - 1);	/* non-contiguous slots */
		if (z->cfg.slot_size && z->cfg.slot_size < (15ull << 20))
			z->cfg.slot_size = 15ull << 20;		/* at most DOM0_MAX_RUN_SLOTS slots with runs */
	}
	z->cfg.migrate_hooks = (struct dom0_migrate_hooks){ .after_step = after_step, .ctx = z };
}

static void create(struct fz *z, int k, int d, unsigned slots, unsigned fences)
{
	struct dom0_vgpu_params p = { .low_size = 1 << 20, .high_slots = slots, .fences = fences, .mem_pages = 64 };

	/*
	 * Refused when it does not fit and admission is off (or it never could
	 * fit): then there is no vGPU k, and its steps name id -1, which every
	 * call refuses (a stale id could name a vGPU created since).
	 */
	z->on[k] = d;
	z->alive[k] = !dom0_vgpu_create(z->rt[d], &p, &z->id[k], NULL);
	if (!z->alive[k])
		z->id[k] = -1;
}

static void consistent(const struct fz *z)
{
	for (int d = 0; d < 2; d++) {
		struct dom0_runtime *rt = z->rt[d];
		unsigned occ[DOM0_MAX_SLOTS] = { 0 };

		if (!rt)
			continue;
		const struct dom0_layout *l = dom0_layout(rt);
		for (int k = 0; k < NV; k++) {
			struct dom0_vgpu_info in;
			uint32_t base = 0, size = 0, slots = 0;
			if (!z->alive[k] || z->on[k] != d)
				continue;
			if (dom0_vgpu_info(rt, z->id[k], &in))
				die("a vGPU vanished", NULL);
			dom0_pvinfo_read(rt, z->id[k], PV_OFF(VGT_IF_NONMAPPABLE_BASE), &base, NULL);
			dom0_pvinfo_read(rt, z->id[k], PV_OFF(VGT_IF_NONMAPPABLE_SIZE), &size, NULL);
			dom0_pvinfo_read(rt, z->id[k], PV_OFF(GTTLAB_IF_GM_SLOTS), &slots, NULL);
			unsigned total = 0;
			if (in.n_runs > (z->cfg.slot_runs > 1 ? z->cfg.slot_runs : 1))
				die("a vGPU holds its slots in more runs than the config allows", NULL);
			for (unsigned r = 0; r < in.n_runs; r++) {
				uint32_t rb = 0, rs = 0;
				if (in.runs[r].first + in.runs[r].n > l->num_slots || !in.runs[r].n ||
				    (r && in.runs[r].first <= in.runs[r - 1].first + in.runs[r - 1].n))
					die("a vGPU's runs are empty, past high memory, or not ascending and apart", NULL);
				total += in.runs[r].n;
				for (unsigned s = 0; s < in.runs[r].n; s++)
					occ[in.runs[r].first + s]++;
				if (!r)
					continue;
				dom0_pvinfo_read(rt, z->id[k], PV_OFF(GTTLAB_IF_GM_RUN_BASE(r)), &rb, NULL);
				dom0_pvinfo_read(rt, z->id[k], PV_OFF(GTTLAB_IF_GM_RUN_SIZE(r)), &rs, NULL);
				if (rb != (uint32_t)(l->slots_base + (uint64_t)in.runs[r].first * l->slot_size) ||
				    rs != (uint32_t)((uint64_t)in.runs[r].n * l->slot_size))
					die("PVINFO's run words are not the vGPU's runs", NULL);
			}
			if (total != in.slots)
				die("a vGPU's runs do not add up to its slots", NULL);
			if (base != (uint32_t)in.high_base || size != (uint32_t)in.high_size)
				die("PVINFO's non-mappable range is not the vGPU's", NULL);
			if (slots != in.slots)
				die("PVINFO's slot count is not the vGPU's", NULL);
			if (in.paused == DOM0_PAUSE_CREATE && (in.slots || dom0_render_owner(rt) == z->id[k]))
				die("a paused create holds slots or owns the render", NULL);
		}
		for (unsigned s = 0; z->cfg.share_limit && s < l->num_slots; s++)
			if (occ[s] > z->cfg.share_limit)
				die("a slot is held by more vGPUs than the share limit", NULL);
	}
}

/* A guest fence value from the step: a fence in the vGPU's low range (or not), X or Y, or off, or raw. */
static uint64_t fence_value(struct dom0_runtime *rt, int id, uint32_t off, uint32_t val)
{
	const struct hw_device *dev = dom0_device(rt);
	struct dom0_vgpu_info in;
	uint64_t v = 0;

	if (off & 0x100)
		return (uint64_t)val << 32 | (uint32_t)(val * 2654435761u);
	if (val & 8 || dom0_vgpu_info(rt, id, &in))
		return 0;
	struct hw_fence f = { .tiling = val & 1 ? HW_TILING_Y : HW_TILING_X, .stride = 4096u << (val >> 1 & 1), .valid = true };
	f.size = (uint64_t)f.stride * (f.tiling == HW_TILING_Y ? 32 : 8) * (1 + (val >> 4) % 8);
	f.start = in.low_base + (uint64_t)((val >> 12) % 4) * 0x10000;
	hw_fence_encode(dev->info.plat, dev->info.aperture_size, &f, &v, NULL);
	return v;
}

/*
 * The guest's memory as the device holds it: 8 bytes of the host page behind
 * guest page gfn, through the model (no runtime call reads guest memory).
 * With tag, they are written; else read into buf.
 */
static bool guest_bytes(struct dom0_runtime *rt, int id, uint64_t gfn, const uint64_t *tag, uint64_t *buf)
{
	struct hw_page pg;
	struct sim_device *sim = hw_sim_model(dom0_device(rt));

	if (!sim || dom0_guest_page(rt, id, gfn, &pg))
		return false;
	if (tag)
		sim_mem_write(sim, pg.phys + 8 * (gfn % 500), tag, sizeof(*tag));
	else
		sim_mem_read(sim, pg.phys + 8 * (gfn % 500), buf, sizeof(*buf));
	return true;
}

/* vGPUs on a runtime: ids are small and never far above the number ever created */
static unsigned count_vgpus(const struct dom0_runtime *rt)
{
	unsigned n = 0;

	for (int id = 1; id <= 4 * MAX_STEPS; id++)
		n += dom0_vgpu_exists(rt, id);
	return n;
}

static void same_place(struct dom0_runtime *rt, int id, const struct dom0_vgpu_info *a, const char *what)
{
	struct dom0_vgpu_info b;

	if (dom0_vgpu_info(rt, id, &b) || a->first_slot != b.first_slot || a->slots != b.slots)
		die(what, NULL);
}

static void step(struct fz *z, const uint8_t *s)
{
	int k = s[1] % NV;
	struct dom0_runtime *rt = z->rt[z->on[k]];
	int id = z->id[k];
	uint32_t off = (uint32_t)s[2] | (uint32_t)s[3] << 8, val;
	struct dom0_vgpu_info a;
	enum dom0_pause p = z->alive[k] ? dom0_vgpu_paused(rt, id) : DOM0_PAUSE_NONE;
	bool known = z->alive[k] && !dom0_vgpu_info(rt, id, &a);

	memcpy(&val, s + 4, 4);
	switch (s[0] % 16) {
	case 0: case 1: case 2:
		if (dom0_pvinfo_write(rt, id, off % 0x1400, val, NULL) && known)
			same_place(rt, id, &a, "a refused PVINFO write moved the vGPU");
		break;
	case 3:
		/* a well-formed request with the fuzzer's count: expand, reduce, evictions or withdraw */
		dom0_pvinfo_write(rt, id, PV_OFF(GTTLAB_IF_GM_CODE), 1 + off % 4, NULL);
		dom0_pvinfo_write(rt, id, PV_OFF(GTTLAB_IF_GM_COUNT), val % 64, NULL);
		dom0_pvinfo_write(rt, id, PV_OFF(GTTLAB_IF_GM_SEQ), off, NULL);
		dom0_pvinfo_write(rt, id, PV_OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, NULL);
		/* fall through: and serve it */
	case 4:
		if (dom0_serve_requests(rt, NULL, NULL))
			die("serving failed", NULL);
		break;
	case 5:
		dom0_policy_steal(rt, id, val, NULL);
		if (dom0_run_quanta(rt, 1 + off % 64, NULL, NULL, NULL))
			die("run failed", NULL);
		break;
	case 6: {
		uint64_t pte = 0;
		if (!known)
			break;
		hw_pte_encode(dom0_device(rt)->info.plat, (uint64_t)(val % 96) << 12, HW_CACHE_NONE, &pte, NULL);
		dom0_guest_pte_write(rt, id, a.high_base / 4096 + off * 7u % (a.high_size / 4096 + 1), pte, NULL);
		break;
	}
	case 7: {
		int rc = dom0_switch(rt, id, NULL, NULL);
		if (!rc && p != DOM0_PAUSE_NONE)
			die("a paused vGPU was switched in", NULL);
		if (rc && z->alive[k] && p == DOM0_PAUSE_NONE)
			die("switch failed", NULL);
		break;
	}
	case 8: {
		int rc = dom0_withdraw(rt, id, NULL);
		bool takeable = p == DOM0_PAUSE_EXPAND || p == DOM0_PAUSE_FENCE;
		if (!rc != takeable)
			die(rc ? "a paused request could not be withdrawn" : "a withdrawal took back what was not paused", NULL);
		if (!rc && dom0_vgpu_paused(rt, id) != DOM0_PAUSE_NONE)
			die("a withdrawn vGPU is still paused", NULL);
		break;
	}
	case 9:
		if (off & 1)
			dom0_reduce(rt, id, 1 + val % 8, NULL, NULL, NULL);
		else
			dom0_expand(rt, id, 1 + val % 8, NULL, NULL, NULL);
		break;
	case 10:
		/* a release, and a create that may be paused or refused */
		if (z->alive[k] && dom0_vgpu_destroy(rt, id, NULL))
			die("destroy failed", NULL);
		z->alive[k] = false;
		z->id[k] = -1;
		if (!(off & 1))
			create(z, k, z->on[k], 1 + val % 8, (val >> 8) % 3);
		break;
	case 11:
		dom0_guest_fence_write(rt, id, off % 4, fence_value(rt, id, off, val), NULL);
		break;
	case 12: {
		/* to a slot, failing after step s[4] % 8 when s[4]'s top bit is set */
		struct dom0_migration m;
		unsigned to = off % (dom0_layout(rt)->num_slots + 2);
		z->fail_step = s[4] & 0x80 ? s[4] % 8 : -1;
		int rc = dom0_migrate(rt, id, to, &m, NULL);
		z->fail_step = -1;
		if (rc && known)
			same_place(rt, id, &a, "a refused or rolled back migration moved the vGPU");
		if (rc)
			break;
		struct dom0_vgpu_info b;
		if (dom0_vgpu_info(rt, id, &b) || b.first_slot != to)
			die("a migration to a slot put the vGPU elsewhere", NULL);
		/* the release: no slot it left holds its entries in the physical GTT any more */
		uint64_t slot_ptes = known && a.slots ? a.high_size / 4096 / a.slots : 0;
		for (unsigned j = 0; known && j < a.slots; j++) {
			uint64_t first = a.high_base / 4096 + j * slot_ptes;
			if ((first < b.high_base / 4096 || first >= (b.high_base + b.high_size) / 4096) &&
			    dom0_physical_owner(rt, first) == id)
				die("a slot a migration left still holds the vGPU's entries", NULL);
		}
		break;
	}
	case 13: {
		/* to the other device and back, failing after step s[4] % 8 when s[4]'s top bit is set */
		struct dom0_migration m;
		int to = !z->on[k], nid = 0;
		if (!z->rt[to])
			start_runtime(z, to);
		unsigned there = count_vgpus(z->rt[to]);
		/* the guest's first and last page carry a mark of this step: the move must copy them */
		uint64_t mark[2] = { 0x6d61726b00000000ull | off, 0x6c61737400000000ull | val }, got = 0;
		bool marked = known && guest_bytes(rt, id, 0, &mark[0], NULL) &&
			      guest_bytes(rt, id, a.mem_pages - 1, &mark[1], NULL);
		z->fail_step = s[4] & 0x80 ? s[4] % 8 : -1;
		int rc = dom0_migrate_device(rt, id, z->rt[to], &nid, &m, NULL);
		z->fail_step = -1;
		if (count_vgpus(z->rt[to]) != there + !rc)
			die("a device migration left the target with a vGPU too many or too few", NULL);
		if (rc && known)
			same_place(rt, id, &a, "a refused or rolled back device migration moved the vGPU");
		if (!rc) {
			if (!z->alive[k] || dom0_vgpu_exists(rt, id) || !dom0_vgpu_exists(z->rt[to], nid))
				die("a device migration left the vGPU on the source, or nowhere", NULL);
			for (int j = 0; marked && j < 2; j++)
				if (!guest_bytes(z->rt[to], nid, j ? a.mem_pages - 1 : 0, NULL, &got) || got != mark[j])
					die("a device migration did not carry the guest's memory", NULL);
			z->id[k] = nid;
			z->on[k] = to;
		}
		break;
	}
	case 14:
		for (int d = 0; d < 2; d++)
			if (z->rt[d] && dom0_run_quanta(z->rt[d], 1 + off % 16, NULL, NULL, NULL))
				die("run failed", NULL);
		break;
	default: {
		/*
		 * The guest takes its request back over PVINFO (answered in the
		 * trap), and the host serves. An expansion the guest was told is
		 * PAUSED must then be answered WITHDRAWN and be paused no more.
		 */
		uint32_t before = 0, after = 0;
		dom0_pvinfo_read(rt, id, PV_OFF(GTTLAB_IF_GM_STATUS), &before, NULL);
		dom0_pvinfo_write(rt, id, PV_OFF(GTTLAB_IF_GM_CODE), GTTLAB_GM_REQ_WITHDRAW, NULL);
		int rc = dom0_pvinfo_write(rt, id, PV_OFF(VGT_IF_G2V_NOTIFY), GTTLAB_G2V_GM_REQUEST, NULL);
		dom0_pvinfo_read(rt, id, PV_OFF(GTTLAB_IF_GM_STATUS), &after, NULL);
		if (p == DOM0_PAUSE_EXPAND && before == GTTLAB_GM_ST_PAUSED &&
		    (rc || after != GTTLAB_GM_ST_WITHDRAWN || dom0_vgpu_paused(rt, id) != DOM0_PAUSE_NONE))
			die("a paused expansion withdrawn over PVINFO was not taken back", NULL);
		if (dom0_serve_requests(rt, NULL, NULL))
			die("serving failed", NULL);
		break;
	}
	}
}

static void gsm_as_found(struct fdev *d)
{
	struct gtt_err err = { 0 };

	if (hw_ggtt_read_range(d->dev, 0, d->dev->info.n_ptes, d->gsm_now, &err))
		die("cannot read the GSM", err.msg);
	if (memcmp(d->gsm_boot, d->gsm_now, d->dev->info.n_ptes * sizeof(uint64_t)))
		die("the GSM is not as found after dom0_fini", d->spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t no_header[8];
	struct fz z = { .fail_step = -1 };
	struct gtt_err err = { 0 };

	configure(&z, size >= 8 ? data : no_header);
	start_runtime(&z, 0);
	for (int k = 0; k < NV; k++)
		create(&z, k, 0, 1 + (unsigned)k, 1 + (unsigned)k % 2);	/* 4 fences: k = 2 waits for 3 guest ones */
	for (size_t i = 8; i + 8 <= size && i < 8 * (MAX_STEPS + 1); i += 8) {
		step(&z, data + i);
		consistent(&z);
	}
	/* the runtime's own read-back judged every input; each whole GSM, read here, every eighth */
	static unsigned n;
	bool whole = !(n++ % 8);
	for (int d = 0; d < 2; d++) {
		if (!z.rt[d])
			continue;
		if (dom0_fini(z.rt[d], &err))
			die("dom0_fini did not read back", err.msg);
		if (whole)
			gsm_as_found(&devs[d]);
		hw_close(devs[d].dev);
		devs[d].dev = NULL;
	}
	return 0;
}
