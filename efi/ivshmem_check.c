/* SPDX-License-Identifier: MIT */
#include "efi/ivshmem_check.h"
#include "efi/backend_efi.h"
#include "env/fmt.h"

uint64_t ivshmem_pattern(size_t i)
{
	return ((0x100000ull + i) << 12) | 1;	/* a present gen8 PTE for page 4 GiB + i * 4 KiB */
}

int ivshmem_check(char *reason, size_t n)
{
	struct efi_pci_dev devs[64];
	size_t k = efi_pci_list(devs, 64);

	for (size_t i = 0; i < k; i++) {
		if (devs[i].vendor != IVSHMEM_VENDOR || devs[i].device != IVSHMEM_DEVICE)
			continue;
		EFI_PCI_IO_PROTOCOL *io = devs[i].io;
		io->Attributes(io, EfiPciIoAttributeOperationEnable, EFI_PCI_IO_ATTRIBUTE_MEMORY, NULL);
		for (size_t e = 0; e < IVSHMEM_PTES; e++) {
			uint64_t v = ivshmem_pattern(e);
			if (efi_bar_write(io, IVSHMEM_BAR, e * 8, &v, 8))
				return gtt_snprintf(reason, n, "BAR%u write of entry %zu failed", IVSHMEM_BAR, e), -1;
		}
		for (size_t e = 0; e < IVSHMEM_PTES; e++) {
			uint64_t v = 0;
			if (efi_bar_read(io, IVSHMEM_BAR, e * 8, &v, 8) || v != ivshmem_pattern(e))
				return gtt_snprintf(reason, n, "entry %zu reads back 0x%llx, wrote 0x%llx", e,
						    (unsigned long long)v, (unsigned long long)ivshmem_pattern(e)), -1;
		}
		gtt_snprintf(reason, n, "%d entries written to %04llx:%02llx:%02llx.%llx BAR%u and read back", IVSHMEM_PTES,
			     (unsigned long long)devs[i].seg, (unsigned long long)devs[i].bus, (unsigned long long)devs[i].dev,
			     (unsigned long long)devs[i].fn, IVSHMEM_BAR);
		return 0;
	}
	gtt_snprintf(reason, n, "no ivshmem device (%04x:%04x) among %zu PCI devices", IVSHMEM_VENDOR, IVSHMEM_DEVICE, k);
	return -1;
}
