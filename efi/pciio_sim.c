/* SPDX-License-Identifier: MIT */
#include "efi/pciio_sim.h"

#include <efilib.h>

struct pciio_sim {
	EFI_PCI_IO_PROTOCOL proto;	/* first: the protocol pointer is the instance */
	struct sim_device *sim;
	UINTN segment;
};

static unsigned width_bytes(EFI_PCI_IO_PROTOCOL_WIDTH w)
{
	switch (w) {
	case EfiPciIoWidthUint8: return 1;
	case EfiPciIoWidthUint16: return 2;
	case EfiPciIoWidthUint32: return 4;
	case EfiPciIoWidthUint64: return 8;
	default: return 0;
	}
}

static struct sim_device *me(EFI_PCI_IO_PROTOCOL *p)
{
	return ((struct pciio_sim *)p)->sim;
}

static EFI_STATUS EFIAPI mem_read(EFI_PCI_IO_PROTOCOL *p, EFI_PCI_IO_PROTOCOL_WIDTH w, UINT8 bar, UINT64 off,
				  UINTN count, VOID *buf)
{
	unsigned b = width_bytes(w);
	uint8_t *out = buf;

	if (!b || (bar != 0 && bar != 2))
		return EFI_INVALID_PARAMETER;
	if (bar == 2) {
		sim_aperture_read(me(p), off, buf, count * b);
		return EFI_SUCCESS;
	}
	if (b == 8 && (uintptr_t)out % 8 == 0) {
		/* qwords into aligned words: the model's run access, straight into the buffer */
		sim_gsm_read_run(me(p), (uint32_t)off, (uint64_t *)out, count, 8);
		return EFI_SUCCESS;
	}
	if (b >= 4) {
		/* a run of dwords or qwords: the model's run access (one copy inside the GSM) */
		uint64_t tmp[256];
		for (UINTN i = 0; i < count;) {
			size_t k = count - i < 256 ? (size_t)(count - i) : 256;
			sim_gsm_read_run(me(p), (uint32_t)off, tmp, k, b);
			for (size_t j = 0; j < k; j++)
				gtt_memcpy(out + j * b, &tmp[j], b);	/* little-endian */
			i += k;
			off += k * b;
			out += k * b;
		}
		return EFI_SUCCESS;
	}
	for (UINTN i = 0; i < count; i++, off += b, out += b) {
		uint32_t v = sim_mmio_read32(me(p), (uint32_t)off & ~3u) >> (8 * (off & 3));
		gtt_memcpy(out, &v, b);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI mem_write(EFI_PCI_IO_PROTOCOL *p, EFI_PCI_IO_PROTOCOL_WIDTH w, UINT8 bar, UINT64 off,
				   UINTN count, VOID *buf)
{
	unsigned b = width_bytes(w);
	const uint8_t *in = buf;

	if (!b || (bar != 0 && bar != 2))
		return EFI_INVALID_PARAMETER;
	if (bar == 2) {
		sim_aperture_write(me(p), off, buf, count * b);
		return EFI_SUCCESS;
	}
	if (b < 4)
		return EFI_UNSUPPORTED;	/* the GPU's registers are 32-bit */
	if (b == 8 && (uintptr_t)in % 8 == 0) {
		sim_gsm_write_run(me(p), (uint32_t)off, (const uint64_t *)in, count, 8);
		return EFI_SUCCESS;
	}
	uint64_t tmp[256];
	for (UINTN i = 0; i < count;) {
		size_t k = count - i < 256 ? (size_t)(count - i) : 256;
		for (size_t j = 0; j < k; j++) {
			tmp[j] = 0;
			gtt_memcpy(&tmp[j], in + j * b, b);	/* little-endian */
		}
		sim_gsm_write_run(me(p), (uint32_t)off, tmp, k, b);
		i += k;
		off += k * b;
		in += k * b;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI cfg_read(EFI_PCI_IO_PROTOCOL *p, EFI_PCI_IO_PROTOCOL_WIDTH w, UINT32 off, UINTN count, VOID *buf)
{
	unsigned b = width_bytes(w);
	uint8_t *out = buf;

	if (!b || b == 8)
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < count; i++, off += b, out += b) {
		uint32_t v = sim_cfg_read(me(p), off, b);
		gtt_memcpy(out, &v, b);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI cfg_write(EFI_PCI_IO_PROTOCOL *p, EFI_PCI_IO_PROTOCOL_WIDTH w, UINT32 off, UINTN count, VOID *buf)
{
	unsigned b = width_bytes(w);
	const uint8_t *in = buf;

	if (!b || b == 8)
		return EFI_INVALID_PARAMETER;
	for (UINTN i = 0; i < count; i++, off += b, in += b) {
		uint32_t v = 0;
		gtt_memcpy(&v, in, b);
		sim_cfg_write(me(p), off, b, v);
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI get_location(EFI_PCI_IO_PROTOCOL *p, UINTN *seg, UINTN *bus, UINTN *dev, UINTN *fn)
{
	*seg = ((struct pciio_sim *)p)->segment;
	*bus = 0;
	*dev = 2;
	*fn = 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI attributes(EFI_PCI_IO_PROTOCOL *p, EFI_PCI_IO_PROTOCOL_ATTRIBUTE_OPERATION op, UINT64 attr,
				    UINT64 *result)
{
	uint32_t cmd = sim_cfg_read(me(p), 0x04, 2);

	if (op == EfiPciIoAttributeOperationGet || op == EfiPciIoAttributeOperationSupported) {
		if (result)
			*result = EFI_PCI_IO_ATTRIBUTE_MEMORY | EFI_PCI_IO_ATTRIBUTE_BUS_MASTER | EFI_PCI_IO_ATTRIBUTE_IO;
		return EFI_SUCCESS;
	}
	uint32_t bits = (attr & EFI_PCI_IO_ATTRIBUTE_MEMORY ? 2 : 0) | (attr & EFI_PCI_IO_ATTRIBUTE_BUS_MASTER ? 4 : 0) |
			(attr & EFI_PCI_IO_ATTRIBUTE_IO ? 1 : 0);
	if (op == EfiPciIoAttributeOperationEnable)
		cmd |= bits;
	else if (op == EfiPciIoAttributeOperationDisable)
		cmd &= ~bits;
	else if (op == EfiPciIoAttributeOperationSet)
		cmd = (cmd & ~7u) | bits;
	sim_cfg_write(me(p), 0x04, 2, cmd);
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI unsupported(void)
{
	return EFI_UNSUPPORTED;
}

int pciio_sim_install(const struct gtt_env *env, const struct gtt_platform *plat, const struct sim_params *params,
		      EFI_HANDLE *handle, struct gtt_err *err)
{
	return pciio_sim_install_at(env, plat, params, PCIIO_SIM_SEGMENT, handle, err);
}

int pciio_sim_install_at(const struct gtt_env *env, const struct gtt_platform *plat, const struct sim_params *params,
			 unsigned segment, EFI_HANDLE *handle, struct gtt_err *err)
{
	struct pciio_sim *ps = env->alloc(env, sizeof(*ps));
	int rc;

	if (!ps)
		return gtt_err_set(err, GTT_ENOMEM, "out of memory");
	if ((rc = sim_create(env, plat, params, &ps->sim, err))) {
		env->free(env, ps);
		return rc;
	}
	ps->segment = segment;
	ps->proto.Mem.Read = mem_read;
	ps->proto.Mem.Write = mem_write;
	ps->proto.Pci.Read = cfg_read;
	ps->proto.Pci.Write = cfg_write;
	ps->proto.GetLocation = get_location;
	ps->proto.Attributes = attributes;
	/* the rest exists so a caller gets an error, not a jump to NULL */
	ps->proto.PollMem = (void *)unsupported;
	ps->proto.PollIo = (void *)unsupported;
	ps->proto.Io.Read = (void *)unsupported;
	ps->proto.Io.Write = (void *)unsupported;
	ps->proto.CopyMem = (void *)unsupported;
	ps->proto.Map = (void *)unsupported;
	ps->proto.Unmap = (void *)unsupported;
	ps->proto.AllocateBuffer = (void *)unsupported;
	ps->proto.FreeBuffer = (void *)unsupported;
	ps->proto.Flush = (void *)unsupported;
	ps->proto.GetBarAttributes = (void *)unsupported;
	ps->proto.SetBarAttributes = (void *)unsupported;
	*handle = NULL;
	if (BS->InstallProtocolInterface(handle, &PciIoProtocol, EFI_NATIVE_INTERFACE, &ps->proto) != EFI_SUCCESS) {
		sim_destroy(ps->sim);
		env->free(env, ps);
		return gtt_err_set(err, GTT_EIO, "cannot install the simulated device's EFI_PCI_IO_PROTOCOL");
	}
	return GTT_OK;
}

struct sim_device *pciio_sim_model(EFI_PCI_IO_PROTOCOL *p)
{
	return p && p->Mem.Read == mem_read ? me(p) : NULL;
}
