/* SPDX-License-Identifier: MIT */
/*
 * The efi backend: a GPU through EFI_PCI_IO_PROTOCOL. "efi:SSSS:BB:DD.F"
 * opens the PCI I/O handle at that location, found through
 * LocateHandleBuffer; config space through Pci.Read/Write, BAR0 and BAR2
 * through Mem.Read/Write, test pages from AllocatePages (identity-mapped, so
 * the address is the physical one), memory decoding enabled through
 * Attributes. Over the application's own simulated instance, test pages and
 * the GPU-side accessor come from the model.
 */
#ifndef EFI_BACKEND_EFI_H
#define EFI_BACKEND_EFI_H

#include <efi.h>

#include "hw/backend.h"

extern const struct hw_backend_factory hw_efi_backend;

/* Every PCI I/O handle: location, vendor, device and class; returns how many (at most max). */
struct efi_pci_dev {
	EFI_PCI_IO_PROTOCOL *io;
	UINTN seg, bus, dev, fn;
	uint16_t vendor, device;
	uint8_t base_class;
};
size_t efi_pci_list(struct efi_pci_dev *out, size_t max);

/* The raw BAR path the backend uses: len bytes at a BAR offset. */
int efi_bar_read(EFI_PCI_IO_PROTOCOL *io, unsigned bar, uint64_t off, void *buf, size_t len);
int efi_bar_write(EFI_PCI_IO_PROTOCOL *io, unsigned bar, uint64_t off, const void *buf, size_t len);

#endif
