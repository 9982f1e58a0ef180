/* SPDX-License-Identifier: MIT */
/* `gttlab dom0 serve`: the Dom0 runtime serving guests over ivshmem (dom0/host/pv_serve.h). */
#define _GNU_SOURCE
#include "dom0/host/pv_serve.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dom0/guest_device.h"
#include "dom0/host/ivshmem_server.h"
#include "dom0/host/pv_answer.h"
#include "dom0/host/steal.h"
#include "dom0/ops.h"
#include "dom0/policy.h"
#include "dom0/runtime.h"
#include "dom0/sched.h"
#include "env/fmt.h"
#include "hw/pv_words.h"
#include "hw/raw_access.h"
#include "regs/pv_transport.h"

#define MS			1000000ull
#define SETUP_TIMEOUT_MS	120000	/* a QEMU guest boots OVMF to gttlab.efi in well under this, even under TCG */
#define MUTE_NS			(1 * MS)	/* a doorbell that rang for nothing is not listened to this long */
#define SPURIOUS_RINGS		2	/* ...after this many rings in a row with no request behind them */
#define MAX_KEYS		64	/* stamp keys remembered: the guests now and the last ones gone */
/*
 * Who is served: of the guests with a request ready, the one that has had
 * least of the serve thread (its virtual time: the steps' durations summed;
 * one that was idle comes back at most LAG_NS behind the last one served, so
 * idleness banks little), a step at a time. A guest that has had more than a
 * lighter one active in the last ACTIVE_NS is also held to SHARE_PERCENT of
 * the wall time while that one is active (a credit that fills at that rate,
 * at most CREDIT_CAP_NS, and pays for its steps): a flood cannot keep the
 * thread busy beside a guest that asks little. A lone guest has it all.
 */
#define LAG_NS			(50 * MS)
#define SHARE_PERCENT		25
#define CREDIT_CAP_NS		(2 * MS)
#define ACTIVE_NS		(20 * MS)
#define MUTE_MAX_NS		(64 * MS)	/* a doorbell that keeps ringing for nothing: muted up to this long */
#define RECONNECT_PAUSE_NS	(100 * MS)	/* a slot whose guest was dropped takes no connection this long */
#define POLICY_PERIOD_MS	500		/* gBalloon §3.2: f every 0.5 s */

struct slot {
	struct pv_guest g;		/* k 1-based, as in vgpuK.sock; its vGPU's view while connected (ops) */
	struct ivs_server *ivs;
	uint8_t *shm, *ram_cpu;		/* the current shared memory, made for the slot's next (or current) guest */
	struct hw_page *ram;		/* its guest memory as the device's pages, while the device holds them */
	bool held;			/* the device holds ram (adopted); false: the slot is out of service */
	int sock;			/* the connected guest's socket, -1 none */
	uint64_t since_ns;		/* when it connected */
	bool started;			/* it made a request: its setup is over */
	unsigned spurious;		/* doorbell rings with nothing behind them since its last answer */
	uint64_t mute_until_ns;		/* its doorbell is not listened to before then */
	int64_t credit_ns;		/* what it may still spend of the serve thread while others are active */
	uint64_t active_ns;		/* when it last made a step of a request */
	uint64_t vt;			/* its virtual time: the serve thread it has had */
	bool waiting;			/* it had a request ready at the last look */
	uint64_t mute_ns;		/* how long its doorbell is muted next (doubles while it rings for nothing) */
	uint64_t credit_at_ns;		/* when the credit was last filled */
	uint64_t closed_until_ns;	/* it dropped a guest: no connection is taken before then */
	struct dom0_guest_meter meter;	/* --policy: its QEMU's vCPU threads */
	bool metered;			/* ...while it is connected and its threads could be read */
};

struct server {
	const struct gtt_env *env;
	const struct pv_serve_opts *o;
	struct pv_serve_stats *st;
	struct hw_device *host;
	struct dom0_runtime *rt;
	struct slot s[PV_SERVE_MAX_GUESTS];
	uint64_t since_quantum;
	uint64_t vtime;			/* the virtual time of the last step served */
	struct pv_key keys[MAX_KEYS];	/* a ring: every guest's key, kept after it goes (a stamp of it may still be read) */
	unsigned n_keys, next_key;
	uint64_t next_period_ns;	/* --policy: the wall time of the next period */
	int last_class;			/* --policy: the class said last, -1 none: the next period is said */
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

static uint64_t now_ns(const struct server *sv)
{
	return sv->env->now_ns(sv->env);
}

/* Whether a guest that has had less of the thread than sl made a step of a request in the last ACTIVE_NS. */
static bool lighter_active(const struct server *sv, const struct slot *sl, uint64_t now)
{
	for (unsigned i = 0; i < sv->o->guests; i++) {
		const struct slot *o = &sv->s[i];
		if (o != sl && o->g.ops && o->vt < sl->vt && o->active_ns && now - o->active_ns < ACTIVE_NS)
			return true;
	}
	return false;
}

/* Whether slot sl is in debt while others are active: its request waits for its credit to fill. */
static bool throttled(struct server *sv, struct slot *sl, uint64_t now)
{
	sl->credit_ns += (int64_t)((now - sl->credit_at_ns) * SHARE_PERCENT / 100);
	sl->credit_at_ns = now;
	if (sl->credit_ns > (int64_t)CREDIT_CAP_NS)
		sl->credit_ns = (int64_t)CREDIT_CAP_NS;
	return sl->credit_ns < 0 && lighter_active(sv, sl, now);
}

static bool has_request(const struct slot *sl)
{
	return sl->g.ops && (sl->g.prog.on || pv_rd64(sl->g.mb, PV_MB_REQ_SEQ) != pv_rd64(sl->g.mb, PV_MB_ANS_SEQ));
}

/* The slot to serve a step of next: the ready one with the least virtual time not held to its share; NULL none. */
static struct slot *next_slot(struct server *sv, uint64_t now)
{
	struct slot *best = NULL;

	for (unsigned i = 0; i < sv->o->guests; i++) {
		struct slot *sl = &sv->s[i];
		if (!has_request(sl)) {
			sl->waiting = false;
			continue;
		}
		if (!sl->waiting && sl->vt + LAG_NS < sv->vtime)
			sl->vt = sv->vtime - LAG_NS;	/* back from idle: little banked */
		sl->waiting = true;
		if (throttled(sv, sl, now))
			continue;
		if (!best || sl->vt < best->vt)
			best = sl;
	}
	return best;
}

/* One bounded step of slot sl's request, if one waits; what was done. */
static enum pv_answered serve_one(struct server *sv, struct slot *sl)
{
	struct pv_answer_stats as = { 0 };
	struct pv_answer_env e = { &as, sv->o->say, sv->o->ctx, sv->keys, sv->n_keys };
	uint64_t t0 = now_ns(sv);

	if (!sl->g.ops)
		return PV_IDLE;
	enum pv_answered r = pv_answer(&sl->g, &e);
	if (r == PV_IDLE)
		return r;
	uint64_t t1 = now_ns(sv);
	sl->credit_ns -= (int64_t)(t1 - t0);
	sl->vt += t1 - t0;
	if (sl->vt > sv->vtime)
		sv->vtime = sl->vt;
	sl->active_ns = t1;
	sl->started = true;
	if (r == PV_UNDER_WAY)
		return r;
	sl->spurious = 0;
	sl->mute_ns = MUTE_NS;
	sv->st->rejected += as.rejected;
	sv->st->own_stamps += as.own_stamps;
	sv->st->foreign_stamps += as.foreign_stamps;
	sv->st->forged_stamps += as.forged_stamps;
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
	return r;
}

/* ---- the slot's memory: fresh for every guest ---- */

/*
 * The current shared memory made ready for a guest: the header, and its
 * memory taken by the device as test pages at the addresses its backend
 * finds. The mailbox is as a fresh object's: zeros.
 */
static int ready_memory(struct server *sv, struct slot *sl, struct gtt_err *err)
{
	const struct pv_serve_opts *o = sv->o;
	int rc;

	sl->shm = ivs_shm(sl->ivs);
	sl->g.mb = sl->shm + PV_MAILBOX(1);
	sl->ram_cpu = sl->shm + PV_RAM(1, 1, o->mem_pages);
	if ((rc = hw_adopt_test_pages(sv->host, o->mem_pages, sl->ram_cpu, sl->ram, err)))
		return rc;
	sl->held = true;
	pv_wr32(sl->shm, PV_HDR_VERSION, PV_VERSION);
	pv_wr32(sl->shm, PV_HDR_HOST_ID, 0);
	pv_wr32(sl->shm, PV_HDR_MAX_GUESTS, 1);
	pv_wr32(sl->shm, PV_HDR_RAM_PAGES, o->mem_pages);
	pv_wr32(sl->shm, PV_HDR_STATE, PV_HOST_SERVING);
	pv_wr32(sl->shm, PV_HDR_FEATURES, sv->host->ops->gpu_read && sv->host->ops->gpu_write ? PV_FEAT_GPU_SIDE : 0);
	pv_wr64(sl->shm, PV_HDR_MAGIC, PV_MAGIC);	/* last: a guest that sees it sees the rest */
	return GTT_OK;
}

/* The last guest's memory let go by the device and unmapped; a fresh object for the next. */
static void renew_memory(struct server *sv, struct slot *sl)
{
	struct gtt_err err = { 0 };
	char why[200];

	if (sl->held)
		hw_free_test_pages(sv->host, sv->o->mem_pages, sl->ram);
	sl->held = false;
	if (ivs_renew_shm(sl->ivs, why, sizeof(why)) || ready_memory(sv, sl, &err))
		say(sv, "guest %u: no fresh memory for the next guest (%s): the slot is out of service", sl->g.k,
		    why[0] ? why : err.msg);
}

/* A key for this guest's stamps alone, in its mailbox; remembered to verify stamps with. */
static void give_key(struct server *sv, struct slot *sl, uint64_t key[2])
{
	if (getrandom(key, 2 * sizeof(uint64_t), 0) != 2 * sizeof(uint64_t)) {
		/* no entropy source: still apart from every other guest's */
		key[0] = now_ns(sv) ^ 0x9e3779b97f4a7c15ull * (sl->g.k + 1);
		key[1] = (uint64_t)(uintptr_t)sl ^ sv->st->connects << 32;
	}
	pv_wr64(sl->g.mb, PV_MB_STAMP_KEY, key[0]);
	pv_wr64(sl->g.mb, PV_MB_STAMP_KEY + 8, key[1]);
}

/* ---- guests coming and going ---- */

/* --policy: W metered on the vCPU threads of the process at the other end of the guest's socket, or why not. */
static void say_meter(struct server *sv, struct slot *sl, const struct gtt_err *failed)
{
	sv->last_class = -1;	/* the period after a meter changed is said */
	if (failed) {
		sv->st->unmetered++;
		say(sv, "guest %u: W NOT metered, or no longer (the policy reads it as 0): %s", sl->g.k, failed->msg);
		return;
	}
	say(sv, "guest %u: W metered on %u %s of process %d", sl->g.k, sl->meter.n,
	    sl->meter.named ? "vCPU threads" : "threads (none named 'CPU n/...' yet: QEMU names them with -name ...,debug-threads=on)",
	    (int)sl->meter.pid);
}

static void meter_guest(struct server *sv, struct slot *sl)
{
	struct gtt_err err = { 0 };

	sl->metered = !dom0_guest_meter_start(&sl->meter, sl->sock, now_ns(sv), &err);
	say_meter(sv, sl, sl->metered ? NULL : &err);
}

/* --policy: each metered guest's W, then a period of the policy on the wall clock; said when its class changes or it acts. */
static int policy_period(struct server *sv, uint64_t now, struct gtt_err *err)
{
	unsigned metered = 0, acted = 0;
	int rc;

	for (unsigned i = 0; i < sv->o->guests; i++) {
		struct slot *sl = &sv->s[i];
		struct gtt_err e = { 0 };
		uint64_t w = 0;
		if (!sl->g.ops || !sl->metered)
			continue;
		bool restarted = false;
		if (dom0_guest_meter_sample(&sl->meter, now, &w, &restarted, &e) || dom0_policy_steal(sv->rt, sl->g.vgpu, w, &e)) {
			sl->metered = false;
			say_meter(sv, sl, &e);
			continue;
		}
		metered++;
		if (restarted)
			say_meter(sv, sl, NULL);
		if (w > sv->st->w_peak_mpct)
			sv->st->w_peak_mpct = w;
	}
	if ((rc = dom0_policy_tick(sv->rt, now / MS, &acted, err)))
		return rc;
	const struct dom0_policy_state *ps = dom0_policy_state(sv->rt);
	sv->st->policy_periods = ps->periods;
	if ((int)ps->cls != sv->last_class || acted)
		say(sv, "policy period %llu: W %.3f%% (%u guests metered), R_copy %.3f%%, f %.6f: %s, %u resizes",
		    (unsigned long long)ps->periods, (double)ps->w_mpct / 1000, metered, (double)ps->rcopy_mpct / 1000,
		    (double)ps->f_u / 1e6, ps->cls == DOM0_CLASS_LOW ? "low" : ps->cls == DOM0_CLASS_MID ? "mid" : "high", acted);
	sv->last_class = (int)ps->cls;
	return GTT_OK;
}

/* --policy: on, with R_copy measured (copy_ps_per_pte 0) and the wall clock this loop's. */
static int policy_start(struct server *sv, struct gtt_err *err)
{
	struct dom0_policy p = { .period_ms = POLICY_PERIOD_MS, .cpus = sv->o->policy_cpus, .caller_ticks = true };
	int rc = dom0_policy_set(sv->rt, &p, now_ns(sv) / MS, err);

	if (rc)
		return rc;
	sv->last_class = -1;
	sv->next_period_ns = now_ns(sv) + POLICY_PERIOD_MS * MS;
	say(sv, "policy on: gBalloon's f every %u ms, N = %u CPUs, W metered from each guest's vCPU threads, R_copy from the switches' timed copies",
	    POLICY_PERIOD_MS, sv->o->policy_cpus);
	return GTT_OK;
}

static void attach(struct server *sv, struct slot *sl)
{
	struct dom0_guest_view_params p = { .low_size = sv->o->low_size, .high_slots = sv->o->high_slots,
					    .fences = sv->o->fences, .mem_pages = sv->o->mem_pages, .ram = sl->ram,
					    .migrate = sv->o->migrate };
	struct gtt_err err = { 0 };
	uint64_t key[2];
	char why[200];
	unsigned id;
	int fd;

	give_key(sv, sl, key);		/* in its mailbox before the memory is sent */
	if (ivs_accept(sl->ivs, &id, &fd, why, sizeof(why))) {
		say(sv, "guest %u: %s", sl->g.k, why);
		return;
	}
	sl->sock = fd;
	sl->since_ns = now_ns(sv);
	sl->started = false;
	sl->spurious = 0;
	sl->mute_until_ns = 0;
	sl->credit_ns = (int64_t)CREDIT_CAP_NS;
	sl->credit_at_ns = sl->since_ns;
	sl->active_ns = 0;
	sl->vt = sv->vtime;
	sl->waiting = false;
	sl->mute_ns = MUTE_NS;
	sl->g.prog = (struct pv_progress){ 0 };
	sv->st->connects++;
	if (dom0_guest_view_open(sv->env, sv->host, sv->rt, &p, &sl->g.ops, &sl->g.ctx, &sl->g.vgpu, &err)) {
		snprintf((char *)sl->g.mb + PV_MB_MSG, PV_MSG_MAX, "no vGPU for this guest: %.200s", err.msg);
		pv_wr32(sl->g.mb, PV_MB_STATE, PV_GUEST_GONE);
		sl->g.ops = NULL;
		say(sv, "guest %u connected (ivshmem ID %u): no vGPU: %s", sl->g.k, id, err.msg);
		return;
	}
	sv->keys[sv->next_key] = (struct pv_key){ sl->g.vgpu, { key[0], key[1] } };
	sv->next_key = (sv->next_key + 1) % MAX_KEYS;
	if (sv->n_keys < MAX_KEYS)
		sv->n_keys++;
	dom0_set_busy(sv->rt, sl->g.vgpu, true, NULL);
	pv_wr32(sl->g.mb, PV_MB_VGT_ID, (uint32_t)sl->g.vgpu);
	pv_wr32(sl->g.mb, PV_MB_STATE, PV_GUEST_READY);
	say(sv, "guest %u connected (ivshmem ID %u): vGPU %d", sl->g.k, id, sl->g.vgpu);
	if (sv->o->policy_cpus)
		meter_guest(sv, sl);
}

static void reclaim(struct server *sv, struct slot *sl, const char *why)
{
	pv_wr32(sl->g.mb, PV_MB_STATE, PV_GUEST_GONE);
	if (sl->g.ops) {
		sl->g.ops->close(sl->g.ctx);	/* the vGPU goes: what it held back to the runtime */
		say(sv, "guest %u %s: vGPU %d reclaimed", sl->g.k, why, sl->g.vgpu);
	} else {
		say(sv, "guest %u %s", sl->g.k, why);
	}
	sl->g.ops = NULL;
	sl->g.ctx = NULL;
	sl->g.prog = (struct pv_progress){ 0 };
	sl->metered = false;
	ivs_drop(sl->ivs, 1);
	sl->sock = -1;
	sv->st->reclaims++;
	renew_memory(sv, sl);		/* the next guest here shares nothing with this one */
}

/* ---- setting up and tearing down ---- */

/*
 * The sockets' directory: made when missing, 0700 (0770 with a group); one
 * that exists must be this user's, not a link, and writable by no one else
 * (by its group only when that is the group named). Who may connect is
 * decided here, not by the umask.
 */
static int prepare_dir(const struct pv_serve_opts *o, struct gtt_err *err)
{
	mode_t mode = o->grouped ? 0770 : 0700;
	struct stat st;

	if (mkdir(o->dir, mode) == 0) {
		if (chmod(o->dir, mode) || (o->grouped && chown(o->dir, (uid_t)-1, o->group)))
			return gtt_err_set(err, GTT_EIO, "dom0 serve: setting the mode of %s: %s", o->dir, strerror(errno));
		return GTT_OK;
	}
	if (errno != EEXIST)
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: cannot make the socket directory %s: %s", o->dir, strerror(errno));
	if (lstat(o->dir, &st) || !S_ISDIR(st.st_mode))
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: %s is not a directory (a link is not taken)", o->dir);
	if (st.st_uid != geteuid())
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: %s belongs to user %u, not this one (%u): refused", o->dir,
				   (unsigned)st.st_uid, (unsigned)geteuid());
	if (st.st_mode & S_IWOTH)
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: %s is writable by others (mode %04o): anyone could put a socket there; refused",
				   o->dir, (unsigned)(st.st_mode & 07777));
	if ((st.st_mode & S_IWGRP) && !(o->grouped && st.st_gid == o->group))
		return gtt_err_set(err, GTT_EINVAL, "dom0 serve: %s is writable by its group %u (mode %04o), not the one named with --group: refused",
				   o->dir, (unsigned)st.st_gid, (unsigned)(st.st_mode & 07777));
	return GTT_OK;
}

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
	if (ivs_open(path, size, 1, o->grouped ? 0660 : 0600, o->grouped ? o->group : (gid_t)-1, &sl->ivs, why, sizeof(why)))
		return gtt_err_set(err, GTT_EIO, "dom0 serve: %s", why);
	if (!(sl->ram = calloc(o->mem_pages, sizeof(*sl->ram))))
		return gtt_err_set(err, GTT_ENOMEM, "dom0 serve: out of memory");
	int rc = ready_memory(sv, sl, err);
	if (rc)
		return rc;
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
		struct slot *sl = &sv->s[i];
		if (sl->held)
			hw_free_test_pages(sv->host, sv->o->mem_pages, sl->ram);
		ivs_close(sl->ivs);
		free(sl->ram);
	}
	return rc;
}

/* ---- the loop ---- */

/* What slot sl's socket and doorbell said in this round's poll (q: its three entries). */
static void slot_events(struct server *sv, struct slot *sl, const struct pollfd *q)
{
	uint64_t now = now_ns(sv), limit = sv->o->setup_timeout_ms ? sv->o->setup_timeout_ms : SETUP_TIMEOUT_MS;

	if (q[2].revents & POLLIN) {
		ivs_doorbell_take(sl->ivs);
		/* a ring with nothing behind it, again and again, is a flood: not listened to for a while */
		if (sl->g.ops && !sl->g.prog.on && pv_rd64(sl->g.mb, PV_MB_REQ_SEQ) == pv_rd64(sl->g.mb, PV_MB_ANS_SEQ) &&
		    ++sl->spurious > SPURIOUS_RINGS) {
			sl->mute_until_ns = now + sl->mute_ns;
			if (sl->mute_ns < MUTE_MAX_NS)
				sl->mute_ns *= 2;
		}
	}
	if (sl->sock >= 0 && (q[1].revents & (POLLIN | POLLHUP | POLLERR))) {
		enum ivs_client_state cs = ivs_client_state(sl->ivs, 1);
		if (cs == IVS_CLIENT_GONE) {
			/* a request written before the hang-up is answered first, then the guest goes */
			for (unsigned k = 0; k < 1u << 20 && serve_one(sv, sl) != PV_IDLE; k++)
				;
			reclaim(sv, sl, "gone");
		} else if (cs == IVS_CLIENT_SPOKE) {
			sv->st->dropped++;
			sl->closed_until_ns = now + RECONNECT_PAUSE_NS;
			reclaim(sv, sl, "sent bytes on its socket (an ivshmem client sends nothing): dropped");
		}
	}
	if (sl->sock >= 0 && !sl->started && now - sl->since_ns > limit * MS) {
		sv->st->dropped++;
		say(sv, "guest %u made no request in the %llu ms after it connected", sl->g.k, (unsigned long long)limit);
		sl->closed_until_ns = now + RECONNECT_PAUSE_NS;
		reclaim(sv, sl, "dropped, its slot freed");
	}
	if (q[0].revents & POLLIN) {
		if (sl->sock < 0 && sl->held) {
			attach(sv, sl);
		} else {
			uid_t uid;
			ivs_refuse(sl->ivs, &uid);
			sv->st->refused++;
			say(sv, "guest %u: a connection (user %d) refused: the slot %s (QEMU says \"server sent invalid ID\")",
			    sl->g.k, uid == (uid_t)-1 ? -1 : (int)uid, sl->held ? "holds a guest" : "is out of service");
		}
	}
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
	if ((rc = prepare_dir(o, err)))
		return rc;
	if ((rc = dom0_init(host, &cfg, &sv.rt, err)))
		return rc;
	for (unsigned i = 0; i < o->guests && !rc; i++)
		rc = open_slot(&sv, &sv.s[i], i + 1, err);
	if (!rc && o->policy_cpus)
		rc = policy_start(&sv, err);
	uint64_t last_answer = now_ns(&sv), spin = o->spin_ns ? o->spin_ns : 1000000;
	while (!rc && !(o->stop && *o->stop) && !(o->exit_after && st->reclaims >= o->exit_after)) {
		struct pollfd p[3 * PV_SERVE_MAX_GUESTS];
		unsigned n = 0;
		bool any = false;
		for (unsigned i = 0; i < o->guests; i++)
			if (sv.s[i].shm)
				pv_wr64(sv.s[i].shm, PV_HDR_HEARTBEAT, pv_rd64(sv.s[i].shm, PV_HDR_HEARTBEAT) + 1);
		/* a step of one guest's request, the one that has had least: none holds another longer than a step */
		struct slot *next = next_slot(&sv, now_ns(&sv));
		any = next && serve_one(&sv, next) != PV_IDLE;
		uint64_t now = now_ns(&sv);
		if (o->policy_cpus && now >= sv.next_period_ns) {
			if ((rc = policy_period(&sv, now, err)))
				break;
			sv.next_period_ns = now + POLICY_PERIOD_MS * MS;
		}
		if (any)
			last_answer = now;
		int timeout = 0;
		if (!any && (o->wait == DOM0_WAIT_SLEEP ||
			     (o->wait == DOM0_WAIT_HYBRID && now - last_answer > spin)))
			timeout = 100;	/* a live host's heartbeat moves at least this often */
		if (any && o->wait != DOM0_WAIT_SLEEP)
			continue;	/* polling: straight on to the next request */
		for (unsigned i = 0; i < o->guests; i++) {
			struct slot *sl = &sv.s[i];
			bool muted = sl->mute_until_ns > now, closed = sl->closed_until_ns > now;
			uint64_t wake = muted ? sl->mute_until_ns : 0;
			if (closed && (!wake || sl->closed_until_ns < wake))
				wake = sl->closed_until_ns;
			if (sl->g.ops && sl->credit_ns < 0 && (!wake || now + MS < wake))
				wake = now + MS;	/* in debt: its credit fills */
			if (wake && timeout && (wake - now) / MS + 1 < (uint64_t)timeout)
				timeout = (int)((wake - now) / MS + 1);
			p[n++] = (struct pollfd){ .fd = ivs_listen_fd(sl->ivs), .events = closed ? 0 : POLLIN };
			p[n++] = (struct pollfd){ .fd = sl->sock, .events = POLLIN };
			p[n++] = (struct pollfd){ .fd = ivs_doorbell_fd(sl->ivs), .events = muted ? 0 : POLLIN };
		}
		if (timeout)
			st->sleeps++;
		if (poll(p, n, any ? 0 : timeout) < 0 && errno != EINTR) {
			rc = gtt_err_set(err, GTT_EIO, "dom0 serve: poll: %s", strerror(errno));
			break;
		}
		for (unsigned i = 0; i < o->guests; i++)
			slot_events(&sv, &sv.s[i], &p[3 * i]);
	}
	int frc = close_all(&sv, rc ? &(struct gtt_err){ 0 } : err);
	return rc ? rc : frc;
}
