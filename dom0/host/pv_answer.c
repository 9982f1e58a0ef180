/* SPDX-License-Identifier: MIT */
/* One request of a guest's mailbox, answered (dom0/host/pv_answer.h). */
#include "dom0/host/pv_answer.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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

/* Another guest's stamp in bytes a guest reads (at each page start of the graphics addresses read) is a leak. */
static void stamps(const struct pv_guest *g, const struct pv_answer_env *e, uint64_t gm, const uint8_t *data, uint64_t len, const char *path)
{
	for (uint64_t i = (4096 - gm % 4096) % 4096; i + 16 <= len; i += 4096) {
		uint64_t magic, who;
		memcpy(&magic, data + i, 8);
		if (magic != PV_TAG_MAGIC)
			continue;
		memcpy(&who, data + i + 8, 8);
		if ((uint32_t)who == (uint32_t)g->vgpu) {
			e->st->own_stamps++;
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

/* PTE_WRITE / PTE_READ: len entries of width bytes from BAR0 offset addr, one trapped access each. */
static void pte_run(const struct pv_guest *g, const struct pv_answer_env *e, struct answer *a, uint32_t op, uint32_t width, uint64_t addr,
		    uint64_t len)
{
	const struct hw_backend_ops *ops = g->ops;
	uint8_t *data = g->mb + PV_MB_DATA;

	if ((width != 4 && width != 8) || !len || len > PV_DATA_MAX / width) {
		refuse(e, a, "%llu PTEs of %u bytes: 4 or 8 bytes each, 1 to %llu of them", (unsigned long long)len, width,
		       (unsigned long long)(PV_DATA_MAX / (width ? width : 1)));
		return;
	}
	if (!mmio_ok(g, e, a, addr, width) || !mmio_ok(g, e, a, addr + (len - 1) * width, width))
		return;
	for (uint64_t i = 0; i < len; i++) {
		uint32_t off = (uint32_t)(addr + i * width);
		uint64_t ent = 0;
		if (op == PV_OP_PTE_READ) {
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

/* One request of slot sl, its words read from the mailbox; the answer in a. */
static void dispatch(const struct pv_guest *g, const struct pv_answer_env *e, struct answer *a)
{
	uint8_t *mb = g->mb;
	uint32_t op = pv_rd32(mb, PV_MB_OP), width = pv_rd32(mb, PV_MB_WIDTH), v32 = 0;
	uint64_t addr = pv_rd64(mb, PV_MB_ADDR), len = pv_rd64(mb, PV_MB_LEN);
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
		return;
	case PV_OP_CFG_WRITE:
		if ((a->status = ops->cfg_write(c, (unsigned)addr, width, (uint32_t)len)))
			refuse(e, a, "config write of %u bytes at 0x%llx: width 1, 2 or 4, aligned, inside 256 bytes", width,
			       (unsigned long long)addr);
		return;
	case PV_OP_MMIO_READ32:
		if (mmio_ok(g, e, a, addr, 4))
			a->value = ops->mmio_read32(c, (uint32_t)addr);
		return;
	case PV_OP_MMIO_WRITE32:
		if (mmio_ok(g, e, a, addr, 4))
			ops->mmio_write32(c, (uint32_t)addr, (uint32_t)len);
		return;
	case PV_OP_MMIO_READ64:
		if (mmio_ok(g, e, a, addr, 8))
			a->value = ops->mmio_read64(c, (uint32_t)addr);
		return;
	case PV_OP_MMIO_WRITE64:
		if (mmio_ok(g, e, a, addr, 8))
			ops->mmio_write64(c, (uint32_t)addr, len);
		return;
	case PV_OP_PTE_WRITE:
	case PV_OP_PTE_READ:
		pte_run(g, e, a, op, width, addr, len);
		return;
	case PV_OP_AP_READ:
	case PV_OP_AP_WRITE:
	case PV_OP_GPU_READ:
	case PV_OP_GPU_WRITE:
		byte_run(g, e, a, op, addr, len);
		return;
	case PV_OP_BAR_INFO:
		if ((a->status = ops->bar_info(c, width, &a->value, &a->value2)))
			refuse(e, a, "BAR %u: the vGPU has BAR0 and BAR2", width);
		return;
	case PV_OP_HOST_AUDIT:
		a->status = ops->host_audit(c, a->msg, sizeof(a->msg));
		return;
	default:
		refuse(e, a, "operation %u: one of 1 to %u (regs/pv_transport.h)", op, PV_OP_MAX);
	}
}

bool pv_answer(const struct pv_guest *g, const struct pv_answer_env *e)
{
	uint64_t req = pv_rd64(g->mb, PV_MB_REQ_SEQ);
	struct answer a = { 0 };

	if (req == pv_rd64(g->mb, PV_MB_ANS_SEQ))
		return false;
	dispatch(g, e, &a);
	pv_wr32(g->mb, PV_MB_STATUS, (uint32_t)a.status);
	pv_wr64(g->mb, PV_MB_VALUE, a.value);
	pv_wr64(g->mb, PV_MB_VALUE2, a.value2);
	memcpy(g->mb + PV_MB_MSG, a.msg, sizeof(a.msg));
	pv_wr64(g->mb, PV_MB_ANS_SEQ, req);
	return true;
}
