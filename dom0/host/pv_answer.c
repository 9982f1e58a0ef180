/* SPDX-License-Identifier: MIT */
/* One request of a guest's mailbox, answered (dom0/host/pv_answer.h). */
#include "dom0/host/pv_answer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "env/siphash.h"
#include "hw/pv_words.h"
#include "regs/pv_transport.h"

static void speak(const struct pv_answer_env *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void speak(const struct pv_answer_env *e, const char *fmt, ...)
{
	char line[400];
	va_list ap;

	if (!e->say)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	e->say(e->ctx, line);
}

struct answer {
	int status;
	uint64_t value, value2;
	char msg[PV_MSG_MAX];
};

static int refuse(const struct pv_answer_env *e, struct answer *a, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(const struct pv_answer_env *e, struct answer *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->msg, sizeof(a->msg), fmt, ap);
	va_end(ap);
	e->st->rejected++;
	return a->status = GTT_EINVAL;
}

/* The key given with vGPU id whose tag `mac` of `who` verifies, if any. */
static bool verifies(const struct pv_answer_env *e, uint32_t id, uint64_t who, uint64_t mac)
{
	uint8_t le[8];

	for (unsigned i = 0; i < 8; i++)
		le[i] = (uint8_t)(who >> (8 * i));
	for (unsigned i = 0; i < e->n_keys; i++)
		if ((uint32_t)e->keys[i].vgpu == id && gtt_siphash24(e->keys[i].key, le, sizeof(le)) == mac)
			return true;
	return false;
}

/*
 * Every stamp in bytes a guest read, at any offset (a read need not start on
 * a page): its own counted; another vGPU's whose tag verifies under that
 * vGPU's key a leak, said; one that does not verify a forgery (the reader
 * made it: it cannot know another's key). A stamp cut off by the read's end
 * is not judged.
 */
static void stamps(const struct pv_guest *g, const struct pv_answer_env *e, uint64_t gm, const uint8_t *data, uint64_t len, const char *path)
{
	const uint8_t first = (uint8_t)PV_TAG_MAGIC;

	for (uint64_t i = 0; i + PV_STAMP_SIZE <= len; i++) {
		const uint8_t *at = memchr(data + i, first, (size_t)(len - PV_STAMP_SIZE + 1 - i));
		if (!at)
			break;
		i = (uint64_t)(at - data);
		uint64_t magic, who, mac;
		memcpy(&magic, at, 8);
		if (magic != PV_TAG_MAGIC)
			continue;
		memcpy(&who, at + 8, 8);
		memcpy(&mac, at + 16, 8);
		if ((uint32_t)who == (uint32_t)g->vgpu) {
			e->st->own_stamps++;
			continue;
		}
		if (!verifies(e, (uint32_t)who, who, mac)) {
			e->st->forged_stamps++;
			continue;
		}
		e->st->foreign_stamps++;
		speak(e, "LEAK: guest %u (vGPU %d) read vGPU %u's stamped page (tag %u) at GM 0x%llx %s", g->k, g->vgpu,
		      (uint32_t)who, (uint32_t)(who >> 32), (unsigned long long)(gm + i), path);
	}
}

static bool mmio_ok(const struct pv_guest *g, const struct pv_answer_env *e, struct answer *a, uint64_t off,
		    unsigned size)
{
	uint64_t bar0 = g->bar0_size;

	if (off % size || off >= bar0 || size > bar0 - off) {
		refuse(e, a, "MMIO offset 0x%llx: must be %u-byte aligned inside BAR0 (0x%llx bytes)", (unsigned long long)off,
		       size, (unsigned long long)bar0);
		return false;
	}
	return true;
}

/*
 * PTE_WRITE / PTE_READ: len entries of width bytes from BAR0 offset addr,
 * one trapped access each, PV_STEP_PTES a step. Whether it is done.
 */
static bool pte_step(struct pv_guest *g, const struct pv_answer_env *e, struct answer *a)
{
	struct pv_progress *pr = &g->prog;
	const struct hw_backend_ops *ops = g->ops;
	uint8_t *data = g->mb + PV_MB_DATA;
	uint32_t width = pr->width;
	uint64_t len = pr->len;

	if (!pr->done) {
		if ((width != 4 && width != 8) || !len || len > PV_DATA_MAX / width) {
			refuse(e, a, "%llu PTEs of %u bytes: 4 or 8 bytes each, 1 to %llu of them", (unsigned long long)len, width,
			       (unsigned long long)(PV_DATA_MAX / (width ? width : 1)));
			return true;
		}
		if (!mmio_ok(g, e, a, pr->addr, width) || !mmio_ok(g, e, a, pr->addr + (len - 1) * width, width))
			return true;
	}
	uint64_t end = len - pr->done > PV_STEP_PTES ? pr->done + PV_STEP_PTES : len;
	for (uint64_t i = pr->done; i < end; i++) {
		uint32_t off = (uint32_t)(pr->addr + i * width);
		uint64_t ent = 0;
		if (pr->op == PV_OP_PTE_READ) {
			ent = width == 8 ? ops->mmio_read64(g->ctx, off) : ops->mmio_read32(g->ctx, off);
			memcpy(data + i * width, &ent, width);
		} else {
			memcpy(&ent, data + i * width, width);
			if (width == 8)
				ops->mmio_write64(g->ctx, off, ent);
			else
				ops->mmio_write32(g->ctx, off, (uint32_t)ent);
		}
	}
	pr->done = end;
	return end == len;
}

/* HOST_AUDIT: PV_STEP_AUDIT GGTT entries a step where the view can go in steps. Whether it is done. */
static bool audit_step(struct pv_guest *g, struct answer *a)
{
	if (!g->ops->host_audit_step) {
		a->status = g->ops->host_audit(g->ctx, a->msg, sizeof(a->msg));
		return true;
	}
	int rc = g->ops->host_audit_step(g->ctx, &g->prog.done, PV_STEP_AUDIT, a->msg, sizeof(a->msg));
	if (rc == 1)
		return false;
	a->status = rc;
	return true;
}

/* Aperture and GPU-side bytes; what a guest reads is searched for others' stamps. */
static void byte_run(const struct pv_guest *g, const struct pv_answer_env *e, struct answer *a, uint32_t op, uint64_t addr, uint64_t len)
{
	const struct hw_backend_ops *ops = g->ops;
	uint8_t *data = g->mb + PV_MB_DATA;
	bool ap = op == PV_OP_AP_READ || op == PV_OP_AP_WRITE, read = op == PV_OP_AP_READ || op == PV_OP_GPU_READ;

	if (!len || len > PV_DATA_MAX || addr + len < addr) {
		refuse(e, a, "%llu bytes at 0x%llx: 1 to %llu bytes, not wrapping", (unsigned long long)len,
		       (unsigned long long)addr, (unsigned long long)PV_DATA_MAX);
		return;
	}
	if (ap)
		a->status = read ? ops->aperture_read(g->ctx, addr, data, len) : ops->aperture_write(g->ctx, addr, data, len);
	else
		a->status = read ? ops->gpu_read(g->ctx, addr, data, len) : ops->gpu_write(g->ctx, addr, data, len);
	if (!a->status && read)
		stamps(g, e, addr, data, len, ap ? "through the aperture" : "GPU-side");
	else if (a->status)
		snprintf(a->msg, sizeof(a->msg), "%s of %llu bytes at 0x%llx refused (%d)",
			 ap ? "aperture access" : "GPU-side access", (unsigned long long)len, (unsigned long long)addr,
			 a->status);
}

/* One step of g's request, its words as latched; the answer in a. Whether it is done. */
static bool dispatch(struct pv_guest *g, const struct pv_answer_env *e, struct answer *a)
{
	const struct pv_progress *pr = &g->prog;
	uint32_t op = pr->op, width = pr->width, v32 = 0;
	uint64_t addr = pr->addr, len = pr->len;
	const struct hw_backend_ops *ops = g->ops;
	void *c = g->ctx;

	a->status = GTT_OK;
	switch (op) {
	case PV_OP_CFG_READ:
		if (!(a->status = ops->cfg_read(c, (unsigned)addr, width, &v32)))
			a->value = v32;
		else
			refuse(e, a, "config read of %u bytes at 0x%llx: width 1, 2 or 4, aligned, inside 256 bytes", width,
			       (unsigned long long)addr);
		return true;
	case PV_OP_CFG_WRITE:
		if ((a->status = ops->cfg_write(c, (unsigned)addr, width, (uint32_t)len)))
			refuse(e, a, "config write of %u bytes at 0x%llx: width 1, 2 or 4, aligned, inside 256 bytes", width,
			       (unsigned long long)addr);
		return true;
	case PV_OP_MMIO_READ32:
		if (mmio_ok(g, e, a, addr, 4))
			a->value = ops->mmio_read32(c, (uint32_t)addr);
		return true;
	case PV_OP_MMIO_WRITE32:
		if (mmio_ok(g, e, a, addr, 4))
			ops->mmio_write32(c, (uint32_t)addr, (uint32_t)len);
		return true;
	case PV_OP_MMIO_READ64:
		if (mmio_ok(g, e, a, addr, 8))
			a->value = ops->mmio_read64(c, (uint32_t)addr);
		return true;
	case PV_OP_MMIO_WRITE64:
		if (mmio_ok(g, e, a, addr, 8))
			ops->mmio_write64(c, (uint32_t)addr, len);
		return true;
	case PV_OP_PTE_WRITE:
	case PV_OP_PTE_READ:
		return pte_step(g, e, a);
	case PV_OP_AP_READ:
	case PV_OP_AP_WRITE:
	case PV_OP_GPU_READ:
	case PV_OP_GPU_WRITE:
		byte_run(g, e, a, op, addr, len);
		return true;
	case PV_OP_BAR_INFO:
		if ((a->status = ops->bar_info(c, width, &a->value, &a->value2)))
			refuse(e, a, "BAR %u: the vGPU has BAR0 and BAR2", width);
		return true;
	case PV_OP_HOST_AUDIT:
		return audit_step(g, a);
	default:
		refuse(e, a, "operation %u: one of 1 to %u (regs/pv_transport.h)", op, PV_OP_MAX);
		return true;
	}
}

enum pv_answered pv_answer(struct pv_guest *g, const struct pv_answer_env *e)
{
	struct pv_progress *pr = &g->prog;
	struct answer a = { 0 };

	if (!pr->on) {
		uint64_t req = pv_rd64(g->mb, PV_MB_REQ_SEQ);
		if (req == pv_rd64(g->mb, PV_MB_ANS_SEQ))
			return PV_IDLE;
		/* latched once: the guest's later writes to these words are not this request's */
		*pr = (struct pv_progress){ .on = true, .seq = req, .op = pv_rd32(g->mb, PV_MB_OP),
					    .width = pv_rd32(g->mb, PV_MB_WIDTH), .addr = pv_rd64(g->mb, PV_MB_ADDR),
					    .len = pv_rd64(g->mb, PV_MB_LEN) };
	}
	if (!dispatch(g, e, &a))
		return PV_UNDER_WAY;
	pr->on = false;
	pv_wr32(g->mb, PV_MB_STATUS, (uint32_t)a.status);
	pv_wr64(g->mb, PV_MB_VALUE, a.value);
	pv_wr64(g->mb, PV_MB_VALUE2, a.value2);
	memcpy(g->mb + PV_MB_MSG, a.msg, sizeof(a.msg));
	pv_wr64(g->mb, PV_MB_ANS_SEQ, pr->seq);
	return PV_ANSWERED;
}
