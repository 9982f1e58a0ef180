/* SPDX-License-Identifier: MIT */
/*
 * The pv backend (hw/backend_pv.h): hw/'s operations table over the guest's
 * mailbox of the paravirtual transport (regs/pv_transport.h). A request is
 * written, its sequence number last, the host's doorbell rung, and the
 * answer's sequence number waited for; the host's heartbeat tells a slow
 * host from a dead one. Once the host is lost every operation fails at once
 * (reads give all ones), and hw_pv_lost says why.
 */
#include "hw/backend_pv.h"
#include "env/fmt.h"
#include "hw/pv_words.h"
#include "regs/pv_transport.h"

#define DEFAULT_TIMEOUT_NS	10000000000ull

struct pv {
	const struct gtt_env *env;
	struct hw_pv_link link;
	uint8_t *mb;			/* this guest's mailbox */
	uint8_t *ram;			/* this guest's memory */
	uint32_t ram_pages, host_id;
	uint8_t *used;			/* per page of ram: handed out by alloc_pages */
	uint64_t seq;
	uint64_t requests, wait_ns;
	struct hw_backend_ops ops;	/* pv_ops, without the GPU side where the host has none */
	char lost[GTT_ERR_MSG_MAX];	/* "" while the host answers */
};

static const char *const op_names[] = {
	"?", "cfg_read", "cfg_write", "mmio_read32", "mmio_write32", "mmio_read64", "mmio_write64", "aperture_read",
	"aperture_write", "gpu_read", "gpu_write", "bar_info", "host_audit", "pte_write", "pte_read",
};

/* Whether the host still serves this mailbox; sets lost with why when not. */
static bool host_alive(struct pv *p, uint64_t hb0, uint64_t t0, uint32_t op)
{
	uint32_t st = pv_rd32(p->link.shm, PV_HDR_STATE), mb = pv_rd32(p->mb, PV_MB_STATE);
	uint64_t limit = p->link.timeout_ns ? p->link.timeout_ns : DEFAULT_TIMEOUT_NS;

	if (st == PV_HOST_STOPPED)
		gtt_snprintf(p->lost, sizeof(p->lost), "pv %s: the host stopped serving (request %llu, %s, unanswered)",
			     p->link.where, (unsigned long long)p->seq, op_names[op]);
	else if (mb != PV_GUEST_READY)
		gtt_snprintf(p->lost, sizeof(p->lost), "pv %s: the host reclaimed this guest's vGPU (mailbox %u state %u)",
			     p->link.where, p->link.id, mb);
	else if (pv_rd64(p->link.shm, PV_HDR_HEARTBEAT) == hb0 && p->env->now_ns(p->env) - t0 > limit)
		gtt_snprintf(p->lost, sizeof(p->lost), "pv %s: the host's heartbeat stood still for %llu ms with request %llu (%s) unanswered: the device is lost",
			     p->link.where, (unsigned long long)(limit / 1000000), (unsigned long long)p->seq, op_names[op]);
	else
		return true;
	return false;
}

/* One request, its words already in the mailbox: sequence, doorbell, wait. The host's status, or GTT_ENODEV. */
static int call(struct pv *p, uint32_t op)
{
	if (p->lost[0])
		return GTT_ENODEV;
	pv_wr32(p->mb, PV_MB_OP, op);
	pv_wr64(p->mb, PV_MB_REQ_SEQ, ++p->seq);
	p->link.ring(p->link.ctx, p->host_id << 16 | PV_VECTOR);
	uint64_t start = p->env->now_ns(p->env), t0 = start, hb0 = pv_rd64(p->link.shm, PV_HDR_HEARTBEAT);
	enum hw_pv_wait w = p->link.wait;
	if (w == HW_PV_SLEEP && !p->link.sleep)
		w = HW_PV_POLL;
	for (unsigned k = 0; pv_rd64(p->mb, PV_MB_ANS_SEQ) != p->seq; k++) {
		if (w == HW_PV_PAUSE && p->link.pause)
			p->link.pause(p->link.ctx);
		else if (w == HW_PV_SLEEP)
			p->link.sleep(p->link.ctx, 1000000);	/* until the host's interrupt, or 1 ms: the heartbeat is looked at */
		if (w == HW_PV_POLL && k % 1024)
			continue;
		uint64_t hb = pv_rd64(p->link.shm, PV_HDR_HEARTBEAT);
		if (hb != hb0) {
			hb0 = hb;
			t0 = p->env->now_ns(p->env);
		} else if (!host_alive(p, hb0, t0, op)) {
			gtt_log(p->env, GTT_LOG_ERROR, "%s", p->lost);
			return GTT_ENODEV;
		}
	}
	p->requests++;
	p->wait_ns += p->env->now_ns(p->env) - start;
	return (int32_t)pv_rd32(p->mb, PV_MB_STATUS);
}

static void args(struct pv *p, uint32_t width, uint64_t addr, uint64_t len)
{
	pv_wr32(p->mb, PV_MB_WIDTH, width);
	pv_wr64(p->mb, PV_MB_ADDR, addr);
	pv_wr64(p->mb, PV_MB_LEN, len);
}

static int p_cfg_read(void *ctx, unsigned off, unsigned width, uint32_t *val)
{
	struct pv *p = ctx;
	int rc;

	args(p, width, off, 0);
	if (!(rc = call(p, PV_OP_CFG_READ)))
		*val = (uint32_t)pv_rd64(p->mb, PV_MB_VALUE);
	return rc;
}

static int p_cfg_write(void *ctx, unsigned off, unsigned width, uint32_t val)
{
	struct pv *p = ctx;

	args(p, width, off, val);
	return call(p, PV_OP_CFG_WRITE);
}

static uint64_t mmio_read(struct pv *p, uint32_t op, uint32_t off)
{
	args(p, 0, off, 0);
	return call(p, op) ? ~0ull : pv_rd64(p->mb, PV_MB_VALUE);
}

static uint32_t p_mmio_read32(void *ctx, uint32_t off)
{
	return (uint32_t)mmio_read(ctx, PV_OP_MMIO_READ32, off);
}

static uint64_t p_mmio_read64(void *ctx, uint32_t off)
{
	return mmio_read(ctx, PV_OP_MMIO_READ64, off);
}

static void p_mmio_write32(void *ctx, uint32_t off, uint32_t val)
{
	args(ctx, 0, off, val);
	call(ctx, PV_OP_MMIO_WRITE32);
}

static void p_mmio_write64(void *ctx, uint32_t off, uint64_t val)
{
	args(ctx, 0, off, val);
	call(ctx, PV_OP_MMIO_WRITE64);
}

/* Entries in runs of what one request carries. */
static void ptes(struct pv *p, uint32_t op, uint32_t off, uint64_t *e, size_t n, unsigned size)
{
	size_t per = PV_DATA_MAX / size;

	for (size_t i = 0; i < n; i += per) {
		size_t k = n - i < per ? n - i : per;
		args(p, size, off + i * size, k);
		if (op == PV_OP_PTE_WRITE) {
			for (size_t j = 0; j < k; j++)
				gtt_memcpy(p->mb + PV_MB_DATA + j * size, &e[i + j], size);
			call(p, op);
			continue;
		}
		int rc = call(p, op);
		for (size_t j = 0; j < k; j++) {
			e[i + j] = rc ? ~0ull : 0;
			if (!rc)
				gtt_memcpy(&e[i + j], p->mb + PV_MB_DATA + j * size, size);
		}
	}
}

static void p_pte_write_bulk(void *ctx, uint32_t off, const uint64_t *e, size_t n, unsigned size)
{
	ptes(ctx, PV_OP_PTE_WRITE, off, (uint64_t *)e, n, size);
}

static void p_pte_read_bulk(void *ctx, uint32_t off, uint64_t *e, size_t n, unsigned size)
{
	ptes(ctx, PV_OP_PTE_READ, off, e, n, size);
}

/* Bytes in runs of what one request carries. */
static int bytes(struct pv *p, uint32_t op, bool write, uint64_t addr, uint8_t *buf, size_t len)
{
	for (size_t done = 0; done < len;) {
		size_t k = len - done < PV_DATA_MAX ? len - done : PV_DATA_MAX;
		int rc;
		args(p, 0, addr + done, k);
		if (write)
			gtt_memcpy(p->mb + PV_MB_DATA, buf + done, k);
		if ((rc = call(p, op)))
			return rc;
		if (!write)
			gtt_memcpy(buf + done, p->mb + PV_MB_DATA, k);
		done += k;
	}
	return GTT_OK;
}

static int p_ap_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	return bytes(ctx, PV_OP_AP_READ, false, off, buf, len);
}

static int p_ap_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	return bytes(ctx, PV_OP_AP_WRITE, true, off, (uint8_t *)buf, len);
}

static int p_gpu_read(void *ctx, uint64_t gm, void *buf, size_t len)
{
	return bytes(ctx, PV_OP_GPU_READ, false, gm, buf, len);
}

static int p_gpu_write(void *ctx, uint64_t gm, const void *buf, size_t len)
{
	return bytes(ctx, PV_OP_GPU_WRITE, true, gm, (uint8_t *)buf, len);
}

static int p_bar_info(void *ctx, unsigned bar, uint64_t *base, uint64_t *size)
{
	struct pv *p = ctx;
	int rc;

	args(p, bar, 0, 0);
	if (!(rc = call(p, PV_OP_BAR_INFO))) {
		*base = pv_rd64(p->mb, PV_MB_VALUE);
		*size = pv_rd64(p->mb, PV_MB_VALUE2);
	}
	return rc;
}

static int p_host_audit(void *ctx, char *why, size_t n)
{
	struct pv *p = ctx;
	int rc = call(p, PV_OP_HOST_AUDIT);

	if (rc == GTT_ENODEV && p->lost[0])
		gtt_snprintf(why, n, "%s", p->lost);
	else if (rc && n) {
		/* the host's words, bounded: a guest takes no terminator on trust */
		size_t k = 0;
		for (; k + 1 < n && k < PV_MSG_MAX - 1 && p->mb[PV_MB_MSG + k]; k++)
			why[k] = (char)p->mb[PV_MB_MSG + k];
		why[k] = '\0';
	}
	return rc;
}

/* Test pages: the guest's own memory, named by guest-physical address as the host's vGPU maps it. */
static int p_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	struct pv *p = ctx;
	size_t k = 0;

	for (uint32_t gfn = 0; k < n && gfn < p->ram_pages; gfn++)
		if (!p->used[gfn]) {
			p->used[gfn] = 1;
			pages[k++] = (struct hw_page){ .phys = (uint64_t)gfn << 12, .cpu = p->ram + (uint64_t)gfn * PV_PAGE };
		}
	if (k == n)
		return GTT_OK;
	for (size_t i = 0; i < k; i++)
		p->used[pages[i].phys >> 12] = 0;
	return gtt_err_set(err, GTT_ENOMEM, "pv %s: %zu test pages asked, %zu of the guest's %u pages are free", p->link.where,
			   n, k, p->ram_pages);
}

static void p_free_pages(void *ctx, size_t n, struct hw_page *pages)
{
	struct pv *p = ctx;

	for (size_t i = 0; i < n; i++)
		if (pages[i].phys >> 12 < p->ram_pages)
			p->used[pages[i].phys >> 12] = 0;
}

static void p_close(void *ctx)
{
	struct pv *p = ctx;

	p->env->free(p->env, p->used);
	p->env->free(p->env, p);
}

/* The key the host put in this guest's mailbox at its connect: its stamps' (regs/pv_transport.h). */
static void p_stamp_key(void *ctx, uint64_t key[2])
{
	struct pv *p = ctx;

	key[0] = pv_rd64(p->mb, PV_MB_STAMP_KEY);
	key[1] = pv_rd64(p->mb, PV_MB_STAMP_KEY + 8);
}

static const struct hw_backend_ops pv_ops = {
	.name = "pv",
	.in_process = true,	/* what it writes is the host's to journal and restore */
	.cfg_read = p_cfg_read,
	.cfg_write = p_cfg_write,
	.mmio_read32 = p_mmio_read32,
	.mmio_write32 = p_mmio_write32,
	.mmio_read64 = p_mmio_read64,
	.mmio_write64 = p_mmio_write64,
	.pte_write_bulk = p_pte_write_bulk,
	.pte_read_bulk = p_pte_read_bulk,
	.aperture_read = p_ap_read,
	.aperture_write = p_ap_write,
	.bar_info = p_bar_info,
	.alloc_pages = p_alloc_pages,
	.free_pages = p_free_pages,
	.gpu_read = p_gpu_read,
	.gpu_write = p_gpu_write,
	.host_audit = p_host_audit,
	.stamp_key = p_stamp_key,
	.lost = hw_pv_lost,
	.close = p_close,
};

/* The header and this guest's place in it; GTT_ENODEV naming what does not hold. */
static int attach(struct pv *p, struct gtt_err *err)
{
	const struct hw_pv_link *l = &p->link;
	uint64_t magic = l->shm_size >= PV_PAGE ? pv_rd64(l->shm, PV_HDR_MAGIC) : 0;
	uint32_t max;

	if (magic != PV_MAGIC)
		return gtt_err_set(err, GTT_ENODEV, "pv %s: no gttlab transport in its shared memory (magic 0x%016llx, want 0x%016llx): is `gttlab dom0 serve` its ivshmem server?",
				   l->where, (unsigned long long)magic, (unsigned long long)PV_MAGIC);
	if (pv_rd32(l->shm, PV_HDR_VERSION) != PV_VERSION)
		return gtt_err_set(err, GTT_ENODEV, "pv %s: transport version %u, this gttlab speaks %u", l->where,
				   pv_rd32(l->shm, PV_HDR_VERSION), PV_VERSION);
	max = pv_rd32(l->shm, PV_HDR_MAX_GUESTS);
	p->ram_pages = pv_rd32(l->shm, PV_HDR_RAM_PAGES);
	p->host_id = pv_rd32(l->shm, PV_HDR_HOST_ID);
	if (!max || max > 4096 || !p->ram_pages || p->ram_pages > (1u << 18) ||
	    l->shm_size < PV_SHM_SIZE(max, p->ram_pages))
		return gtt_err_set(err, GTT_ENODEV, "pv %s: the header's %u guests of %u pages need 0x%llx bytes of shared memory, the device has 0x%llx",
				   l->where, max, p->ram_pages, (unsigned long long)PV_SHM_SIZE(max, p->ram_pages),
				   (unsigned long long)l->shm_size);
	if (!l->id || l->id > max || l->id == p->host_id)
		return gtt_err_set(err, GTT_ENODEV, "pv %s: IVPosition %u is no guest's mailbox (1-%u, the host is %u)", l->where,
				   l->id, max, p->host_id);
	p->mb = l->shm + PV_MAILBOX(l->id);
	p->ram = l->shm + PV_RAM(l->id, max, p->ram_pages);
	p->seq = pv_rd64(p->mb, PV_MB_REQ_SEQ);
	uint64_t t0 = p->env->now_ns(p->env), limit = l->timeout_ns ? l->timeout_ns : DEFAULT_TIMEOUT_NS;
	while (pv_rd32(p->mb, PV_MB_STATE) != PV_GUEST_READY) {
		if (p->env->now_ns(p->env) - t0 > limit)
			return gtt_err_set(err, GTT_ENODEV, "pv %s: no vGPU behind mailbox %u after %llu ms (state %u)", l->where,
					   l->id, (unsigned long long)(limit / 1000000), pv_rd32(p->mb, PV_MB_STATE));
		if (l->pause)
			l->pause(l->ctx);
	}
	/* a request left unanswered by an earlier run of the guest is the host's to drop: start past both */
	uint64_t ans = pv_rd64(p->mb, PV_MB_ANS_SEQ);
	if (ans > p->seq)
		p->seq = ans;
	if (!(p->used = gtt_calloc(p->env, p->ram_pages, 1)))
		return gtt_err_set(err, GTT_ENOMEM, "pv: out of memory for %u pages' state", p->ram_pages);
	return GTT_OK;
}

int hw_pv_open(const struct gtt_env *env, const struct hw_pv_link *link, const struct hw_backend_ops **ops,
	       void **ctx, struct gtt_err *err)
{
	struct pv *p = gtt_calloc(env, 1, sizeof(*p));
	int rc;

	if (!p)
		return gtt_err_set(err, GTT_ENOMEM, "pv: out of memory");
	p->env = env;
	p->link = *link;
	if (!p->link.where)
		p->link.where = "ivshmem";
	if ((rc = attach(p, err))) {
		p_close(p);
		return rc;
	}
	p->ops = pv_ops;
	if (!(pv_rd32(p->link.shm, PV_HDR_FEATURES) & PV_FEAT_GPU_SIDE)) {
		p->ops.gpu_read = NULL;
		p->ops.gpu_write = NULL;
	}
	*ops = &p->ops;
	*ctx = p;
	return GTT_OK;
}

int hw_pv_lost(void *ctx, char *why, size_t n)
{
	struct pv *p = ctx;

	if (!p->lost[0])
		return GTT_OK;
	gtt_snprintf(why, n, "%s", p->lost);
	return GTT_ENODEV;
}

enum hw_pv_wait hw_pv_set_wait(void *ctx, enum hw_pv_wait w)
{
	struct pv *p = ctx;
	enum hw_pv_wait was = p->link.wait;

	p->link.wait = w;
	return was;
}

void *hw_pv_link_ctx(void *ctx)
{
	return ((struct pv *)ctx)->link.ctx;
}

void hw_pv_stats(void *ctx, uint64_t *requests, uint64_t *wait_ns)
{
	struct pv *p = ctx;

	*requests = p->requests;
	*wait_ns = p->wait_ns;
}
