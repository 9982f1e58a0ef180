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
#include "dom0/host/pv_answer.h"
#include "dom0/runtime.h"
#include "dom0/sched.h"
#include "env/fmt.h"
#include "hw/pv_words.h"
#include "hw/raw_access.h"
#include "regs/pv_transport.h"

struct slot {
	struct pv_guest g;		/* k 1-based, as in vgpuK.sock; its vGPU's view while connected (ops) */
	struct ivs_server *ivs;
	uint8_t *shm, *ram_cpu;
	struct hw_page *ram;		/* the guest's memory as the device's pages */
	int sock;			/* the connected guest's socket, -1 none */
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

/* Answer slot sl's request if one waits; whether one did. */
static bool serve_one(struct server *sv, struct slot *sl)
{
	struct pv_answer_stats as = { 0 };
	struct pv_answer_env e = { &as, sv->o->say, sv->o->ctx };

	if (!sl->g.ops || !pv_answer(&sl->g, &e))
		return false;
	sv->st->rejected += as.rejected;
	sv->st->own_stamps += as.own_stamps;
	sv->st->foreign_stamps += as.foreign_stamps;
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
		say(sv, "guest %u: %s", sl->g.k, why);
		return;
	}
	sl->sock = fd;
	sv->st->connects++;
	/* whatever the last guest left unanswered is not this one's */
	pv_wr64(sl->g.mb, PV_MB_ANS_SEQ, pv_rd64(sl->g.mb, PV_MB_REQ_SEQ));
	if (dom0_guest_view_open(sv->env, sv->host, sv->rt, &p, &sl->g.ops, &sl->g.ctx, &sl->g.vgpu, &err)) {
		snprintf((char *)sl->g.mb + PV_MB_MSG, PV_MSG_MAX, "no vGPU for this guest: %.200s", err.msg);
		pv_wr32(sl->g.mb, PV_MB_STATE, PV_GUEST_GONE);
		sl->g.ops = NULL;
		say(sv, "guest %u connected (ivshmem ID %u): no vGPU: %s", sl->g.k, id, err.msg);
		return;
	}
	dom0_set_busy(sv->rt, sl->g.vgpu, true, NULL);
	pv_wr32(sl->g.mb, PV_MB_VGT_ID, (uint32_t)sl->g.vgpu);
	pv_wr32(sl->g.mb, PV_MB_STATE, PV_GUEST_READY);
	say(sv, "guest %u connected (ivshmem ID %u): vGPU %d", sl->g.k, id, sl->g.vgpu);
}

static void reclaim(struct server *sv, struct slot *sl)
{
	pv_wr32(sl->g.mb, PV_MB_STATE, PV_GUEST_GONE);
	if (sl->g.ops) {
		sl->g.ops->close(sl->g.ctx);	/* the vGPU goes: what it held back to the runtime */
		say(sv, "guest %u gone: vGPU %d reclaimed", sl->g.k, sl->g.vgpu);
	} else {
		say(sv, "guest %u gone", sl->g.k);
	}
	sl->g.ops = NULL;
	sl->g.ctx = NULL;
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

	sl->g.k = k;
	sl->g.bar0_size = sv->host->info.bar0_size;
	sl->sock = -1;
	if ((size_t)snprintf(path, sizeof(path), "%s/vgpu%u.sock", o->dir, k) >= sizeof(path))
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: socket directory '%s' is too long", o->dir);
	if (ivs_open(path, size, 1, &sl->ivs, why, sizeof(why)))
		return gtt_err_set(err, GTT_EIO, "dom0 serve: %s", why);
	sl->shm = ivs_shm(sl->ivs);
	sl->g.mb = sl->shm + PV_MAILBOX(1);
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
		if (sl->g.ops)
			sl->g.ops->close(sl->g.ctx);
		sl->g.ops = NULL;
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

#ifdef GTTLAB_FAULTS
	if (o->faults)
		cfg.faults = *o->faults;
#endif
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
