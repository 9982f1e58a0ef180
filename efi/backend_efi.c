/* SPDX-License-Identifier: MIT */
#include "efi/backend_efi.h"
#include "efi/pciio_sim.h"
#include "env/fmt.h"
#include "regs/pci_config.h"

#include <efilib.h>

struct ex {
	const struct gtt_env *env;
	EFI_PCI_IO_PROTOCOL *io;
	struct sim_device *sim;		/* the application's own simulated instance, or NULL */
	UINTN loc[4];			/* segment, bus, device, function */
};

size_t efi_pci_list(struct efi_pci_dev *out, size_t max)
{
	EFI_HANDLE *h = NULL;
	UINTN n = 0;
	size_t k = 0;

	if (BS->LocateHandleBuffer(ByProtocol, &PciIoProtocol, NULL, &n, &h) != EFI_SUCCESS)
		return 0;
	for (UINTN i = 0; i < n && k < max; i++) {
		EFI_PCI_IO_PROTOCOL *io;
		uint32_t id = 0, cls = 0;
		if (BS->HandleProtocol(h[i], &PciIoProtocol, (void **)&io) != EFI_SUCCESS)
			continue;
		struct efi_pci_dev *d = &out[k];
		d->io = io;
		io->GetLocation(io, &d->seg, &d->bus, &d->dev, &d->fn);
		io->Pci.Read(io, EfiPciIoWidthUint32, PCI_CFG_VENDOR_ID, 1, &id);
		io->Pci.Read(io, EfiPciIoWidthUint32, 0x08, 1, &cls);
		d->vendor = (uint16_t)id;
		d->device = (uint16_t)(id >> 16);
		d->base_class = (uint8_t)(cls >> 24);
		k++;
	}
	BS->FreePool(h);
	return k;
}

static EFI_PCI_IO_PROTOCOL_WIDTH best_width(uint64_t off, size_t len, unsigned *b)
{
	if (!(off % 8) && !(len % 8)) {
		*b = 8;
		return EfiPciIoWidthUint64;
	}
	if (!(off % 4) && !(len % 4)) {
		*b = 4;
		return EfiPciIoWidthUint32;
	}
	*b = 1;
	return EfiPciIoWidthUint8;
}

int efi_bar_read(EFI_PCI_IO_PROTOCOL *io, unsigned bar, uint64_t off, void *buf, size_t len)
{
	unsigned b;
	EFI_PCI_IO_PROTOCOL_WIDTH w = best_width(off, len, &b);

	return io->Mem.Read(io, w, (UINT8)bar, off, len / b, buf) == EFI_SUCCESS ? GTT_OK : GTT_EIO;
}

int efi_bar_write(EFI_PCI_IO_PROTOCOL *io, unsigned bar, uint64_t off, const void *buf, size_t len)
{
	unsigned b;
	EFI_PCI_IO_PROTOCOL_WIDTH w = best_width(off, len, &b);

	return io->Mem.Write(io, w, (UINT8)bar, off, len / b, (void *)buf) == EFI_SUCCESS ? GTT_OK : GTT_EIO;
}

static int x_cfg_read(void *ctx, unsigned off, unsigned width, uint32_t *val)
{
	struct ex *x = ctx;
	EFI_PCI_IO_PROTOCOL_WIDTH w = width == 1 ? EfiPciIoWidthUint8 : width == 2 ? EfiPciIoWidthUint16 : EfiPciIoWidthUint32;

	*val = 0;
	return x->io->Pci.Read(x->io, w, off, 1, val) == EFI_SUCCESS ? GTT_OK : GTT_EIO;
}

static int x_cfg_write(void *ctx, unsigned off, unsigned width, uint32_t val)
{
	struct ex *x = ctx;
	EFI_PCI_IO_PROTOCOL_WIDTH w = width == 1 ? EfiPciIoWidthUint8 : width == 2 ? EfiPciIoWidthUint16 : EfiPciIoWidthUint32;

	return x->io->Pci.Write(x->io, w, off, 1, &val) == EFI_SUCCESS ? GTT_OK : GTT_EIO;
}

static uint32_t x_read32(void *ctx, uint32_t off)
{
	struct ex *x = ctx;
	uint32_t v = 0xffffffffu;

	x->io->Mem.Read(x->io, EfiPciIoWidthUint32, GTTMMADR_BAR, off, 1, &v);
	return v;
}

static void x_write32(void *ctx, uint32_t off, uint32_t v)
{
	struct ex *x = ctx;

	x->io->Mem.Write(x->io, EfiPciIoWidthUint32, GTTMMADR_BAR, off, 1, &v);
}

static uint64_t x_read64(void *ctx, uint32_t off)
{
	struct ex *x = ctx;
	uint64_t v = ~0ull;

	x->io->Mem.Read(x->io, EfiPciIoWidthUint64, GTTMMADR_BAR, off, 1, &v);
	return v;
}

static void x_write64(void *ctx, uint32_t off, uint64_t v)
{
	struct ex *x = ctx;

	x->io->Mem.Write(x->io, EfiPciIoWidthUint64, GTTMMADR_BAR, off, 1, &v);
}

/*
 * A run of PTEs in one Mem.Write / Mem.Read with a count, as the GSM holds
 * them: 8-byte entries are the caller's words as they lie (x86 is
 * little-endian), 4-byte ones packed through a page-sized buffer. A read that
 * fails leaves all-ones, as a bus read of a missing device.
 */
static void x_pte_bulk(void *ctx, uint32_t off, const uint64_t *ptes, size_t n, unsigned pte_size)
{
	struct ex *x = ctx;
	uint32_t buf[1024];

	if (pte_size == 8) {
		x->io->Mem.Write(x->io, EfiPciIoWidthUint64, GTTMMADR_BAR, off, n, (void *)ptes);
		return;
	}
	for (size_t i = 0; i < n; i += 1024) {
		size_t k = n - i < 1024 ? n - i : 1024;
		for (size_t j = 0; j < k; j++)
			buf[j] = (uint32_t)ptes[i + j];
		x->io->Mem.Write(x->io, EfiPciIoWidthUint32, GTTMMADR_BAR, off + i * 4, k, buf);
	}
}

static void x_pte_read_bulk(void *ctx, uint32_t off, uint64_t *ptes, size_t n, unsigned pte_size)
{
	struct ex *x = ctx;
	uint32_t buf[1024];

	if (pte_size == 8) {
		if (x->io->Mem.Read(x->io, EfiPciIoWidthUint64, GTTMMADR_BAR, off, n, ptes) != EFI_SUCCESS)
			gtt_memset(ptes, 0xff, n * 8);
		return;
	}
	for (size_t i = 0; i < n; i += 1024) {
		size_t k = n - i < 1024 ? n - i : 1024;
		if (x->io->Mem.Read(x->io, EfiPciIoWidthUint32, GTTMMADR_BAR, off + i * 4, k, buf) != EFI_SUCCESS)
			gtt_memset(buf, 0xff, k * 4);
		for (size_t j = 0; j < k; j++)
			ptes[i + j] = buf[j];
	}
}

static int x_ap_read(void *ctx, uint64_t off, void *buf, size_t len)
{
	return efi_bar_read(((struct ex *)ctx)->io, GFXMEM_BAR, off, buf, len);
}

static int x_ap_write(void *ctx, uint64_t off, const void *buf, size_t len)
{
	return efi_bar_write(((struct ex *)ctx)->io, GFXMEM_BAR, off, buf, len);
}

static int x_alloc_pages(void *ctx, size_t n, struct hw_page *pages, struct gtt_err *err)
{
	struct ex *x = ctx;

	if (x->sim) {
		/* the model translates into its own memory: its pages are the test pages */
		uint64_t base = sim_alloc_pages(x->sim, n);
		if (!base)
			return gtt_err_set(err, GTT_ENOMEM, "sim: no memory for %zu test pages", n);
		for (size_t i = 0; i < n; i++) {
			pages[i].phys = base + i * 4096;
			pages[i].cpu = sim_mem_page(x->sim, pages[i].phys);
		}
		return GTT_OK;
	}
	for (size_t i = 0; i < n; i++) {
		EFI_PHYSICAL_ADDRESS a = 0;
		if (BS->AllocatePages(AllocateAnyPages, EfiLoaderData, 1, &a) != EFI_SUCCESS) {
			for (size_t k = 0; k < i; k++)
				BS->FreePages(pages[k].phys, 1);
			return gtt_err_set(err, GTT_ENOMEM, "AllocatePages failed after %zu of %zu test pages", i, n);
		}
		pages[i].phys = a;
		pages[i].cpu = (void *)(uintptr_t)a;	/* UEFI maps memory 1:1 */
	}
	return GTT_OK;
}

static void x_free_pages(void *ctx, size_t n, struct hw_page *pages)
{
	struct ex *x = ctx;

	if (x->sim)
		return;
	for (size_t i = 0; i < n; i++)
		BS->FreePages(pages[i].phys, 1);
}

static int x_gpu_read(void *ctx, uint64_t gm, void *buf, size_t len)
{
	struct ex *x = ctx;

	return x->sim ? sim_gpu_read(x->sim, gm, buf, len) : GTT_ENOTSUP;
}

static int x_gpu_write(void *ctx, uint64_t gm, const void *buf, size_t len)
{
	struct ex *x = ctx;

	return x->sim ? sim_gpu_write(x->sim, gm, buf, len) : GTT_ENOTSUP;
}

static struct sim_device *x_model(void *ctx)
{
	return ((struct ex *)ctx)->sim;
}

static void x_close(void *ctx)
{
	struct ex *x = ctx;

	x->env->free(x->env, x);
}

static int x_location(void *ctx, char *spec, size_t n)
{
	struct ex *x = ctx;
	int len = gtt_snprintf(spec, n, "efi:%04llx:%02llx:%02llx.%llx", (unsigned long long)x->loc[0],
			       (unsigned long long)x->loc[1], (unsigned long long)x->loc[2], (unsigned long long)x->loc[3]);

	return len < 0 || (size_t)len >= n ? -1 : 0;
}

static const struct hw_backend_ops efi_ops = {
	.name = "efi",
	.cfg_read = x_cfg_read,
	.cfg_write = x_cfg_write,
	.mmio_read32 = x_read32,
	.mmio_write32 = x_write32,
	.mmio_read64 = x_read64,
	.mmio_write64 = x_write64,
	.pte_write_bulk = x_pte_bulk,
	.pte_read_bulk = x_pte_read_bulk,
	.aperture_read = x_ap_read,
	.aperture_write = x_ap_write,
	.alloc_pages = x_alloc_pages,
	.free_pages = x_free_pages,
	.gpu_read = x_gpu_read,
	.gpu_write = x_gpu_write,
	.location = x_location,
	.model = x_model,
	.close = x_close,
};

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* "SSSS:BB:DD.F" in hex */
static int parse_loc(const char *s, UINTN v[4])
{
	static const char seps[] = { ':', ':', '.', 0 };

	for (int f = 0; f < 4; f++) {
		v[f] = 0;
		int digits = 0;
		for (; hexval(*s) >= 0; s++, digits++)
			v[f] = v[f] * 16 + (UINTN)hexval(*s);
		if (!digits || *s != seps[f])
			return -1;
		if (*s)
			s++;
	}
	return 0;
}

static int efi_open(const struct gtt_env *env, const struct hw_device_spec *spec, const struct hw_open_opts *opts,
		    const struct hw_backend_ops **ops, void **ctx, struct gtt_err *err)
{
	struct efi_pci_dev devs[64];
	const char *arg = spec->target;
	UINTN loc[4];

	(void)opts;
	if (parse_loc(arg, loc))
		return gtt_err_set(err, GTT_EINVAL, "device 'efi:%s' is not of the form efi:SSSS:BB:DD.F (hex)", arg);
	size_t n = efi_pci_list(devs, 64);
	for (size_t i = 0; i < n; i++) {
		struct efi_pci_dev *d = &devs[i];
		if (d->seg != loc[0] || d->bus != loc[1] || d->dev != loc[2] || d->fn != loc[3])
			continue;
		if (d->vendor != PCI_VENDOR_ID_INTEL || d->base_class != PCI_BASE_CLASS_DISPLAY)
			return gtt_err_set(err, GTT_ENODEV, "%s is %04x:%04x class 0x%02x, not an Intel display device", arg,
					   d->vendor, d->device, d->base_class);
		struct ex *x = env->alloc(env, sizeof(*x));
		if (!x)
			return gtt_err_set(err, GTT_ENOMEM, "out of memory");
		x->env = env;
		x->io = d->io;
		x->sim = pciio_sim_model(d->io);
		for (int f = 0; f < 4; f++)
			x->loc[f] = loc[f];
		d->io->Attributes(d->io, EfiPciIoAttributeOperationEnable,
				  EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER, NULL);
		*ops = &efi_ops;
		*ctx = x;
		return GTT_OK;
	}
	return gtt_err_set(err, GTT_ENODEV, "no EFI_PCI_IO_PROTOCOL handle at %s (%zu PCI devices found)", arg, n);
}

const struct hw_backend_factory hw_efi_backend = {
	.scheme = "efi",
	.usage = "efi:SSSS:BB:DD.F",
	.open = efi_open,
};
