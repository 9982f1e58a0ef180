/* SPDX-License-Identifier: MIT */
/* "pv[:N]": the transport over QEMU's ivshmem-doorbell in UEFI (efi/backend_pv_efi.h). */
#include "efi/backend_pv_efi.h"
#include "efi/backend_efi.h"
#include "env/fmt.h"
#include "env/num.h"
#include "hw/backend_pv.h"
#include "regs/pv_transport.h"

#include <efilib.h>

struct epv {
	const struct gtt_env *env;
	EFI_PCI_IO_PROTOCOL *io;
	char where[32];
	const struct hw_backend_ops *pv_ops;
	struct hw_backend_ops ops;	/* the transport's table with this device's close */
	void *pv;
};

static void ring(void *ctx, uint32_t value)
{
	struct epv *e = ctx;

	efi_bar_write(e->io, IVSHMEM_REG_BAR, IVSHMEM_REG_DOORBELL, &value, 4);
}

static void stall(void *ctx)
{
	(void)ctx;
	BS->Stall(10);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* BAR2's address and length from its ACPI QWORD address space descriptor (UEFI spec, GetBarAttributes). */
static int shm_bar(EFI_PCI_IO_PROTOCOL *io, uint64_t *base, uint64_t *len)
{
	VOID *res = NULL;

	if (io->GetBarAttributes(io, IVSHMEM_SHM_BAR, NULL, &res) != EFI_SUCCESS || !res)
		return GTT_ENODEV;
	const uint8_t *d = res;
	int rc = d[0] == 0x8a ? GTT_OK : GTT_ENODEV;	/* QWORD address space descriptor */
	*base = le64(d + 14);				/* _MIN */
	*len = le64(d + 38);				/* _LEN */
	BS->FreePool(res);
	return rc;
}

static void e_close(void *ctx)
{
	struct epv *e = hw_pv_link_ctx(ctx);

	e->pv_ops->close(e->pv);
	e->env->free(e->env, e);
}

static int pv_open(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		   const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	static const char *const keys[] = { "wait", NULL };
	static const char rule[] = "wait=poll or wait=pause (the application takes no interrupts: it cannot sleep until an answer)";
	struct efi_pci_dev devs[64];
	size_t k = efi_pci_list(devs, 64), want = 0, seen = 0;
	enum hw_pv_wait wait = HW_PV_POLL;
	const char *why, *w = hw_spec_opt(spec, "wait");
	uint64_t v;
	int rc;

	(void)opts;
	/* pv[:N[,wait=poll|pause]] (or pv:wait=...): the grammar (hw/device_spec.h) gathered N and the options */
	if (*spec->target && gtt_parse_u64(spec->target, &v, &why))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': '%s' %s (pv:N, the N-th ivshmem device from 0)", spec->text,
				   spec->target, why);
	if (*spec->target)
		want = (size_t)v;
	if ((rc = hw_spec_opts_only(spec, keys, rule, err)))
		return rc;
	if (w && !gtt_strcmp(w, "pause"))
		wait = HW_PV_PAUSE;
	else if (w && gtt_strcmp(w, "poll"))
		return gtt_err_set(err, GTT_EINVAL, "device '%s': wait=%s: %s", spec->text, w, rule);
	for (size_t i = 0; i < k; i++) {
		struct efi_pci_dev *d = &devs[i];
		if (d->vendor != IVSHMEM_PCI_VENDOR || d->device != IVSHMEM_PCI_DEVICE || seen++ != want)
			continue;
		struct epv *e = env->alloc(env, sizeof(*e));
		uint64_t base = 0, len = 0;
		uint32_t id = 0;
		if (!e)
			return gtt_err_set(err, GTT_ENOMEM, "pv: out of memory");
		e->env = env;
		e->io = d->io;
		gtt_snprintf(e->where, sizeof(e->where), "%04llx:%02llx:%02llx.%llx", (unsigned long long)d->seg,
			     (unsigned long long)d->bus, (unsigned long long)d->dev, (unsigned long long)d->fn);
		d->io->Attributes(d->io, EfiPciIoAttributeOperationEnable, EFI_PCI_IO_ATTRIBUTE_MEMORY, NULL);
		if (shm_bar(d->io, &base, &len) || !base || !len) {
			env->free(env, e);
			return gtt_err_set(err, GTT_ENODEV, "pv: ivshmem %s: BAR2 (its shared memory) is not mapped", e->where);
		}
		efi_bar_read(d->io, IVSHMEM_REG_BAR, IVSHMEM_REG_IVPOSITION, &id, 4);
		struct hw_pv_link l = { .shm = (uint8_t *)(uintptr_t)base, .shm_size = len, .id = id, .ring = ring,
					.pause = stall, .wait = wait, .ctx = e, .where = e->where };
		if ((rc = hw_pv_open(env, &l, &e->pv_ops, &e->pv, err))) {
			env->free(env, e);
			return rc;
		}
		e->ops = *e->pv_ops;
		e->ops.close = e_close;
		*ops = &e->ops;
		*ctx = e->pv;
		return GTT_OK;
	}
	return gtt_err_set(err, GTT_ENODEV, "%s: %zu ivshmem devices (%04x:%04x) among %zu PCI devices, none number %zu", spec->text,
			   seen, IVSHMEM_PCI_VENDOR, IVSHMEM_PCI_DEVICE, k, want);
}

const struct hw_backend_factory hw_efi_pv_backend = {
	.scheme = "pv",
	.usage = "pv[:N[,wait=poll|pause]]",
	.open = pv_open,
};
