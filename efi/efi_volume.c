/* SPDX-License-Identifier: MIT */
/* The FAT volumes for gttlab.cfg, the journal and the reports (efi_volume.h). */
#include "efi/efi_volume.h"
#include "env/fmt.h"

#include <efilib.h>

/* The device the image was loaded from; NULL when unknown. */
static EFI_HANDLE boot_device(EFI_HANDLE image)
{
	EFI_LOADED_IMAGE *li;

	if (BS->HandleProtocol(image, &LoadedImageProtocol, (void **)&li) != EFI_SUCCESS)
		return NULL;
	return li->DeviceHandle;
}

/* DEV's label and read-only flag, from its file system's information; false when its root cannot be opened. */
static bool describe(EFI_HANDLE dev, struct efi_volume *v)
{
	EFI_FILE_HANDLE root = LibOpenRoot(dev);

	if (!root)
		return false;
	*v = (struct efi_volume){ .dev = dev };
	EFI_FILE_SYSTEM_INFO *info = LibFileSystemInfo(root);
	if (info) {
		size_t i = 0;
		for (; info->VolumeLabel[i] && i + 1 < sizeof(v->label); i++) {
			CHAR16 c = info->VolumeLabel[i];
			v->label[i] = c > 0x20 && c < 0x7f ? (char)c : '_';
		}
		v->label[i] = '\0';
		v->read_only = info->ReadOnly;
		FreePool(info);
	}
	root->Close(root);
	return true;
}

/*
 * Bind the drivers to every controller, recursively: a firmware that booted from the network
 * need not have connected its disk controllers (OVMF connects only the boot device), and a volume
 * nobody connected has no file system to find. What the UEFI shell's "connect -r" does; done once,
 * before the model's own PCI function is installed.
 */
static void connect_disks(void)
{
	static bool done;
	EFI_HANDLE *handles = NULL;
	UINTN count = 0;

	if (done)
		return;
	done = true;
	if (LibLocateHandle(AllHandles, NULL, NULL, &count, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < count; i++)
		BS->ConnectController(handles[i], NULL, NULL, TRUE);
	FreePool(handles);
}

size_t efi_volumes(EFI_HANDLE image, struct efi_volume *v, size_t max)
{
	EFI_HANDLE boot = boot_device(image), *handles = NULL;
	UINTN count = 0;
	size_t n = 0;

	connect_disks();

	if (boot && n < max && describe(boot, &v[n])) {
		v[n].boot = true;
		n++;
	}
	if (LibLocateHandle(ByProtocol, &FileSystemProtocol, NULL, &count, &handles) != EFI_SUCCESS)
		return n;
	for (UINTN i = 0; i < count && n < max; i++)
		if (handles[i] != boot && describe(handles[i], &v[n]))
			n++;
	FreePool(handles);
	return n;
}

int efi_volume_choose(EFI_HANDLE image, const char *label, struct efi_volume *out, char *why, size_t n)
{
	struct efi_volume v[EFI_VOLUMES_MAX];
	size_t k = efi_volumes(image, v, EFI_VOLUMES_MAX);

	for (size_t i = 0; i < k; i++) {
		if (label ? gtt_strcmp(v[i].label, label) : v[i].read_only)
			continue;
		if (v[i].read_only) {
			gtt_snprintf(why, n, "--volume %s: that volume is read-only", label);
			return -1;
		}
		*out = v[i];
		out->named = label != NULL;
		return 0;
	}
	if (label)
		gtt_snprintf(why, n, "--volume %s: no file system has that label (%zu volume%s here)", label, k, k == 1 ? "" : "s");
	else
		gtt_snprintf(why, n, "no writable FAT volume for the journal and reports (%zu volume%s here, %s)", k,
			     k == 1 ? "" : "s", boot_device(image) && k && v[0].boot ? "the boot volume read-only" :
			     "the image was not loaded from one: a network boot");
	return -1;
}

const char *efi_volume_text(const struct efi_volume *v, char *buf, size_t n)
{
	gtt_snprintf(buf, n, "%s (%s)", v->label[0] ? v->label : "(no label)",
		     v->named ? "named by --volume" : v->boot ? "the boot volume" :
		     "the first writable volume; the boot volume is read-only or none");
	return buf;
}
