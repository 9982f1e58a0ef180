/* SPDX-License-Identifier: MIT */
/* `gttlab dom0 serve`: the Dom0 runtime serving guests over ivshmem (dom0/host/pv_serve.h). */
#define _GNU_SOURCE
#include "dom0/host/pv_serve.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dom0/guest_device.h"
#include "dom0/host/ivshmem_server.h"
#include "dom0/runtime.h"
#include "dom0/sched.h"
#include "env/fmt.h"
#include "hw/pv_words.h"
#include "hw/raw_access.h"
#include "regs/pv_transport.h"

struct slot {
	unsigned k;			/* 1-based, as in vgpuK.sock */
	struct ivs_server *ivs;
	uint8_t *shm, *mb, *ram_cpu;
	struct hw_page *ram;		/* the guest's memory as the model's pages */
	int sock;			/* the connected guest's socket, -1 none */
	const struct hw_backend_ops *ops;	/* its vGPU's view while connected */
	void *ctx;
	int vgpu;
};

struct server {
	const struct gtt_env *env;
	const struct pv_serve_opts *o;
	struct pv_serve_stats *st;
	struct hw_device *host;
	struct dom0_runtime *rt;
	struct slot s[PV_SERVE_MAX_GUESTS];
	uint64_t since_quantum;
};

static void say(struct server *sv, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(struct server *sv, const char *fmt, ...)
{
	char line[400];
	va_list ap;

	if (!sv->o->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sv->o->say(sv->o->ctx, line);
}

/* ---- a request ---- */

struct answer {
	int status;
	uint64_t value, value2;
	char msg[PV_MSG_MAX];
};

static int refuse(struct server *sv, struct answer *a, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(struct server *sv, struct answer *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof(a->msg), fmt, ap);
	va_end(ap);
	sv->st->rejected++;
	return a->status = GTT_EINVAL;
}

/* Another guest's stamp in bytes a guest reads (at each page start of the graphics addresses read) is a leak. */
static void stamps(struct server *sv, struct slot *sl, uint64_t gm, const uint8_t *data, uint64_t len, const char *path)
{
	for (uint64_t i = (4096 - gm % 4096) % 4096; i + 16 <= len; i += 4096) {
		uint64_t magic, who;
		memcpy(&magic, data + i, 8);
		if (magic != PV_TAG_MAGIC)
			continue;
		memcpy(&who, data + i + 8, 8);
		if ((uint32_t)who == (uint32_t)sl->vgpu) {
			sv->st->own_stamps++;
			continue;
		}
		sv->st->foreign_stamps++;
		say(sv, "LEAK: guest %u (vGPU %d) read vGPU %u's stamped page (tag %u) at GM 0x%llx %s", sl->k, sl->vgpu,
		    (uint32_t)who, (uint32_t)(who >> 32), (unsigned long long)(gm + i), path);
	}
}

static bool mmio_ok(struct server *sv, struct answer *a, uint64_t off, unsigned size)
{
	uint64_t bar0 = sv->host->info.bar0_size;

	if (off % size || off >= bar0 || size > bar0 - off) {
		refuse(sv, a, "MMIO offset 0x%llx: must be %u-byte aligned inside BAR0 (0x%llx bytes)", (unsigned long long)off,
		       size, (unsigned long long)bar0);
		return false;
	}
	return true;
}

/* PTE_WRITE / PTE_READ: len entries of width bytes from BAR0 offset addr, one trapped access each. */
static void pte_run(struct server *sv, struct slot *sl, struct answer *a, uint32_t op, uint32_t width, uint64_t addr,
		    uint64_t len)
{
	const struct hw_backend_ops *ops = sl->ops;
	uint8_t *data = sl->mb + PV_MB_DATA;

	if ((width != 4 && width != 8) || !len || len > PV_DATA_MAX / width) {
		refuse(sv, a, "%llu PTEs of %u bytes: 4 or 8 bytes each, 1 to %llu of them", (unsigned long long)len, width,
		       (unsigned long long)(PV_DATA_MAX / (width ? width : 1)));
		return;
	}
	if (!mmio_ok(sv, a, addr, width) || !mmio_ok(sv, a, addr + (len - 1) * width, width))
		return;
	for (uint64_t i = 0; i < len; i++) {
		uint32_t off = (uint32_t)(addr + i * width);
		uint64_t e = 0;
		if (op == PV_OP_PTE_READ) {
			e = width == 8 ? ops->mmio_read64(sl->ctx, off) : ops->mmio_read32(sl->ctx, off);
			memcpy(data + i * width, &e, width);
		} else {
			memcpy(&e, data + i * width, width);
			if (width == 8)
				ops->mmio_write64(sl->ctx, off, e);
			else
				ops->mmio_write32(sl->ctx, off, (uint32_t)e);
		}
	}
}

/* Aperture and GPU-side bytes; what a guest reads is searched for others' stamps. */
static void byte_run(struct server *sv, struct slot *sl, struct answer *a, uint32_t op, uint64_t addr, uint64_t len)
{
	const struct hw_backend_ops *ops = sl->ops;
	uint8_t *data = sl->mb + PV_MB_DATA;
	bool ap = op == PV_OP_AP_READ || op == PV_OP_AP_WRITE, read = op == PV_OP_AP_READ || op == PV_OP_GPU_READ;

	if (!len || len > PV_DATA_MAX || addr + len < addr) {
		refuse(sv, a, "%llu bytes at 0x%llx: 1 to %llu bytes, not wrapping", (unsigned long long)len,
		       (unsigned long long)addr, (unsigned long long)PV_DATA_MAX);
		return;
	}
	if (ap)
		a->status = read ? ops->aperture_read(sl->ctx, addr, data, len) : ops->aperture_write(sl->ctx, addr, data, len);
	else
		a->status = read ? ops->gpu_read(sl->ctx, addr, data, len) : ops->gpu_write(sl->ctx, addr, data, len);
	if (!a->status && read)
		stamps(sv, sl, addr, data, len, ap ? "through the aperture" : "GPU-side");
	else if (a->status)
		snprintf(a->msg, sizeof(a->msg), "%s of %llu bytes at 0x%llx refused (%d)",
			 ap ? "aperture access" : "GPU-side access", (unsigned long long)len, (unsigned long long)addr,
			 a->status);
}

/* One request of slot sl, its words read from the mailbox; the answer in a. */
static void dispatch(struct server *sv, struct slot *sl, struct answer *a)
{
	uint8_t *mb = sl->mb;
	uint32_t op = pv_rd32(mb, PV_MB_OP), width = pv_rd32(mb, PV_MB_WIDTH), v32 = 0;
	uint64_t addr = pv_rd64(mb, PV_MB_ADDR), len = pv_rd64(mb, PV_MB_LEN);
	const struct hw_backend_ops *ops = sl->ops;
	void *c = sl->ctx;

	a->status = GTT_OK;
	switch (op) {
	case PV_OP_CFG_READ:
		if (!(a->status = ops->cfg_read(c, (unsigned)addr, width, &v32)))
			a->value = v32;
		else
			refuse(sv, a, "config read of %u bytes at 0x%llx: width 1, 2 or 4, aligned, inside 256 bytes", width,
			       (unsigned long long)addr);
		return;
	case PV_OP_CFG_WRITE:
		if ((a->status = ops->cfg_write(c, (unsigned)addr, width, (uint32_t)len)))
			refuse(sv, a, "config write of %u bytes at 0x%llx: width 1, 2 or 4, aligned, inside 256 bytes", width,
			       (unsigned long long)addr);
		return;
	case PV_OP_MMIO_READ32:
		if (mmio_ok(sv, a, addr, 4))
			a->value = ops->mmio_read32(c, (uint32_t)addr);
		return;
	case PV_OP_MMIO_WRITE32:
		if (mmio_ok(sv, a, addr, 4))
			ops->mmio_write32(c, (uint32_t)addr, (uint32_t)len);
		return;
	case PV_OP_MMIO_READ64:
		if (mmio_ok(sv, a, addr, 8))
			a->value = ops->mmio_read64(c, (uint32_t)addr);
		return;
	case PV_OP_MMIO_WRITE64:
		if (mmio_ok(sv, a, addr, 8))
			ops->mmio_write64(c, (uint32_t)addr, len);
		return;
	case PV_OP_PTE_WRITE:
	case PV_OP_PTE_READ:
		pte_run(sv, sl, a, op, width, addr, len);
		return;
	case PV_OP_AP_READ:
	case PV_OP_AP_WRITE:
	case PV_OP_GPU_READ:
	case PV_OP_GPU_WRITE:
		byte_run(sv, sl, a, op, addr, len);
		return;
	case PV_OP_BAR_INFO:
		if ((a->status = ops->bar_info(c, width, &a->value, &a->value2)))
			refuse(sv, a, "BAR %u: the vGPU has BAR0 and BAR2", width);
		return;
	case PV_OP_HOST_AUDIT:
		a->status = ops->host_audit(c, a->msg, sizeof(a->msg));
		return;
	default:
		refuse(sv, a, "operation %u: one of 1 to %u (regs/pv_transport.h)", op, PV_OP_MAX);
	}
}

/* Answer slot sl's request if one waits; whether one did. */
static bool serve_one(struct server *sv, struct slot *sl)
{
	uint64_t req = pv_rd64(sl->mb, PV_MB_REQ_SEQ);
	struct answer a = { 0 };

	if (!sl->ops || req == pv_rd64(sl->mb, PV_MB_ANS_SEQ))
		return false;
	dispatch(sv, sl, &a);
	pv_wr32(sl->mb, PV_MB_STATUS, (uint32_t)a.status);
	pv_wr64(sl->mb, PV_MB_VALUE, a.value);
	pv_wr64(sl->mb, PV_MB_VALUE2, a.value2);
	memcpy(sl->mb + PV_MB_MSG, a.msg, sizeof(a.msg));
	pv_wr64(sl->mb, PV_MB_ANS_SEQ, req);
	ivs_ring(sl->ivs, 1);
	sv->st->requests++;
	if (sv->o->switch_every && ++sv->since_quantum >= sv->o->switch_every) {
		struct gtt_err err = { 0 };
		sv->since_quantum = 0;
		if (dom0_run_quanta(sv->rt, 1, NULL, NULL, &err))
			say(sv, "scheduler quantum refused: %s", err.msg);
		else
			sv->st->quanta++;
	}
	return true;
}

/* ---- guests coming and going ---- */

static void attach(struct server *sv, struct slot *sl)
{
	struct dom0_guest_view_params p = { .low_size = sv->o->low_size, .high_slots = sv->o->high_slots,
					    .fences = sv->o->fences, .mem_pages = sv->o->mem_pages, .ram = sl->ram,
					    .migrate = sv->o->migrate };
	struct gtt_err err = { 0 };
	char why[200];
	unsigned id;
	int fd;

	if (ivs_accept(sl->ivs, &id, &fd, why, sizeof(why))) {
		say(sv, "guest %u: %s", sl->k, why);
		return;
	}
	sl->sock = fd;
	sv->st->connects++;
	/* whatever the last guest left unanswered is not this one's */
	pv_wr64(sl->mb, PV_MB_ANS_SEQ, pv_rd64(sl->mb, PV_MB_REQ_SEQ));
	if (dom0_guest_view_open(sv->env, sv->host, sv->rt, &p, &sl->ops, &sl->ctx, &sl->vgpu, &err)) {
		snprintf((char *)sl->mb + PV_MB_MSG, PV_MSG_MAX, "no vGPU for this guest: %.200s", err.msg);
		pv_wr32(sl->mb, PV_MB_STATE, PV_GUEST_GONE);
		sl->ops = NULL;
		say(sv, "guest %u connected (ivshmem ID %u): no vGPU: %s", sl->k, id, err.msg);
		return;
	}
	dom0_set_busy(sv->rt, sl->vgpu, true, NULL);
	pv_wr32(sl->mb, PV_MB_VGT_ID, (uint32_t)sl->vgpu);
	pv_wr32(sl->mb, PV_MB_STATE, PV_GUEST_READY);
	say(sv, "guest %u connected (ivshmem ID %u): vGPU %d", sl->k, id, sl->vgpu);
}

static void reclaim(struct server *sv, struct slot *sl)
{
	pv_wr32(sl->mb, PV_MB_STATE, PV_GUEST_GONE);
	if (sl->ops) {
		sl->ops->close(sl->ctx);	/* the vGPU goes: what it held back to the runtime */
		say(sv, "guest %u gone: vGPU %d reclaimed", sl->k, sl->vgpu);
	} else {
		say(sv, "guest %u gone", sl->k);
	}
	sl->ops = NULL;
	sl->ctx = NULL;
	memset(sl->ram_cpu, 0, (size_t)sv->o->mem_pages * PV_PAGE);	/* the next guest here starts on clean memory */
	ivs_drop(sl->ivs, 1);
	sl->sock = -1;
	sv->st->reclaims++;
}

/* ---- setting up and tearing down ---- */

static int open_slot(struct server *sv, struct slot *sl, unsigned k, struct gtt_err *err)
{
	const struct pv_serve_opts *o = sv->o;
	char path[200], why[200];
	/* a PCI BAR is a power of two long: QEMU maps the whole object as BAR2 */
	uint64_t size = PV_PAGE;
	while (size < PV_SHM_SIZE(1, o->mem_pages))
		size <<= 1;

	sl->k = k;
	sl->sock = -1;
	if ((size_t)snprintf(path, sizeof(path), "%s/vgpu%u.sock", o->dir, k) >= sizeof(path))
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: socket directory '%s' is too long", o->dir);
	if (ivs_open(path, size, 1, &sl->ivs, why, sizeof(why)))
		return gtt_err_set(err, GTT_EIO, "dom0 serve: %s", why);
	sl->shm = ivs_shm(sl->ivs);
	sl->mb = sl->shm + PV_MAILBOX(1);
	sl->ram_cpu = sl->shm + PV_RAM(1, 1, o->mem_pages);
	if (!(sl->ram = calloc(o->mem_pages, sizeof(*sl->ram))))
		return gtt_err_set(err, GTT_ENOMEM, "dom0 serve: out of memory");
	/* the guest's memory is the shared memory: the device reaches it at the addresses its backend finds */
	int rc = hw_adopt_test_pages(sv->host, o->mem_pages, sl->ram_cpu, sl->ram, err);
	if (rc)
		return rc;
	pv_wr32(sl->shm, PV_HDR_VERSION, PV_VERSION);
	pv_wr32(sl->shm, PV_HDR_HOST_ID, 0);
	pv_wr32(sl->shm, PV_HDR_MAX_GUESTS, 1);
	pv_wr32(sl->shm, PV_HDR_RAM_PAGES, o->mem_pages);
	pv_wr32(sl->shm, PV_HDR_STATE, PV_HOST_SERVING);
	pv_wr32(sl->shm, PV_HDR_FEATURES, sv->host->ops->gpu_read && sv->host->ops->gpu_write ? PV_FEAT_GPU_SIDE : 0);
	pv_wr64(sl->shm, PV_HDR_MAGIC, PV_MAGIC);	/* last: a guest that sees it sees the rest */
	say(sv, "guest %u: listening on %s (%llu KiB shared, %u pages of guest memory)", k, path,
	    (unsigned long long)(size >> 10), o->mem_pages);
	return GTT_OK;
}

static int close_all(struct server *sv, struct gtt_err *out)
{
	struct gtt_err err = { 0 };
	int rc = GTT_OK;

	for (unsigned i = 0; i < sv->o->guests; i++) {
		struct slot *sl = &sv->s[i];
		if (sl->shm)
			pv_wr32(sl->shm, PV_HDR_STATE, PV_HOST_STOPPED);
		if (sl->ops)
			sl->ops->close(sl->ctx);
		sl->ops = NULL;
	}
	if (sv->rt && dom0_fini(sv->rt, &err))
		rc = gtt_err_set(out, GTT_EIO, "dom0 serve: the runtime did not restore the device: %s", err.msg);
	for (unsigned i = 0; i < sv->o->guests; i++) {
		ivs_close(sv->s[i].ivs);
		free(sv->s[i].ram);
	}
	return rc;
}

/* ---- the loop ---- */

static uint64_t now_ns(const struct server *sv)
{
	return sv->env->now_ns(sv->env);
}

int pv_serve(const struct gtt_env *env, struct hw_device *host, const struct pv_serve_opts *o,
	     struct pv_serve_stats *st, struct gtt_err *err)
{
	struct server sv = { .env = env, .o = o, .st = st, .host = host };
	struct dom0_config cfg = { 0 };
	int rc = GTT_OK;

	if (o->faults)
		cfg.faults = *o->faults;
	*st = (struct pv_serve_stats){ 0 };
	if (!o->guests || o->guests > PV_SERVE_MAX_GUESTS)
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: %u guests: 1 to %u", o->guests, PV_SERVE_MAX_GUESTS);
	if (!host->ops->adopt_pages)
		return gtt_err_set(err, GTT_ENOTSUP, "dom0 serve: the %s backend cannot take the guests' shared memory as its pages (the model and a real GPU can)",
				   host->ops->name);
	if ((rc = dom0_init(host, &cfg, &sv.rt, err)))
		return rc;
	for (unsigned i = 0; i < o->guests && !rc; i++)
		rc = open_slot(&sv, &sv.s[i], i + 1, err);
	uint64_t last_answer = now_ns(&sv), spin = o->spin_ns ? o->spin_ns : 1000000;
	while (!rc && !(o->stop && *o->stop) && !(o->exit_after && st->reclaims >= o->exit_after)) {
		struct pollfd p[3 * PV_SERVE_MAX_GUESTS];
		unsigned n = 0;
		bool any = false;
		for (unsigned i = 0; i < o->guests; i++) {
			pv_wr64(sv.s[i].shm, PV_HDR_HEARTBEAT, pv_rd64(sv.s[i].shm, PV_HDR_HEARTBEAT) + 1);
			any |= serve_one(&sv, &sv.s[i]);
		}
		if (any)
			last_answer = now_ns(&sv);
		int timeout = 0;
		if (!any && (o->wait == DOM0_WAIT_SLEEP ||
			     (o->wait == DOM0_WAIT_HYBRID && now_ns(&sv) - last_answer > spin)))
			timeout = 100;	/* a live host's heartbeat moves at least this often */
		if (any && o->wait != DOM0_WAIT_SLEEP)
			continue;	/* polling: straight on to the next request */
		for (unsigned i = 0; i < o->guests; i++) {
			struct slot *sl = &sv.s[i];
			p[n++] = (struct pollfd){ .fd = ivs_listen_fd(sl->ivs), .events = sl->sock < 0 ? POLLIN : 0 };
			p[n++] = (struct pollfd){ .fd = sl->sock, .events = POLLIN };
			p[n++] = (struct pollfd){ .fd = ivs_doorbell_fd(sl->ivs), .events = POLLIN };
		}
		if (timeout)
			st->sleeps++;
		if (poll(p, n, any ? 0 : timeout) < 0 && errno != EINTR) {
			rc = gtt_err_set(err, GTT_EIO, "dom0 serve: poll: %s", strerror(errno));
			break;
		}
		for (unsigned i = 0; i < o->guests; i++) {
			struct slot *sl = &sv.s[i];
			struct pollfd *q = &p[3 * i];
			if (q[2].revents & POLLIN)
				ivs_doorbell_take(sl->ivs);
			/* a request written before the hang-up is answered first (serve_one), then the guest goes */
			if (sl->sock >= 0 && (q[1].revents & (POLLIN | POLLHUP | POLLERR)) && ivs_client_gone(sl->ivs, 1)) {
				while (serve_one(&sv, sl))
					;
				reclaim(&sv, sl);
			}
			if (sl->sock < 0 && (q[0].revents & POLLIN))
				attach(&sv, sl);
		}
	}
	int frc = close_all(&sv, rc ? &(struct gtt_err){ 0 } : err);
	return rc ? rc : frc;
}
