/* SPDX-License-Identifier: MIT */
#include "efi/efi_files.h"
#include "env/fmt.h"

#include <efilib.h>

/* The root directory of VOLUME; NULL when there is no volume (a network boot without one) or it cannot be opened. */
static EFI_FILE_HANDLE root_of(EFI_HANDLE volume)
{
	return volume ? LibOpenRoot(volume) : NULL;
}

static void wide(const char *s, CHAR16 *out, size_t max)
{
	size_t i = 0;

	for (; s[i] && i + 1 < max; i++)
		out[i] = (CHAR16)(unsigned char)s[i];
	out[i] = 0;
}

char *efi_read_file(EFI_HANDLE volume, const char *path, size_t *len)
{
	EFI_FILE_HANDLE root = root_of(volume), f;
	CHAR16 p[256];
	char *buf = NULL;

	if (!root)
		return NULL;
	wide(path, p, 256);
	if (root->Open(root, &f, p, EFI_FILE_MODE_READ, 0) == EFI_SUCCESS) {
		EFI_FILE_INFO *info = LibFileInfo(f);
		if (info) {
			UINTN n = info->FileSize;
			FreePool(info);
			if (BS->AllocatePool(EfiLoaderData, n + 1, (void **)&buf) == EFI_SUCCESS) {
				if (f->Read(f, &n, buf) == EFI_SUCCESS) {
					buf[n] = '\0';
					*len = n;
				} else {
					BS->FreePool(buf);
					buf = NULL;
				}
			}
		}
		f->Close(f);
	}
	root->Close(root);
	return buf;
}

int efi_write_file(EFI_HANDLE volume, const char *dir, const char *name, const void *data, size_t len)
{
	EFI_FILE_HANDLE root = root_of(volume), d, f;
	CHAR16 p[256];
	int rc = -1;

	if (!root)
		return -1;
	wide(dir, p, 256);
	if (root->Open(root, &d, p, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY) == EFI_SUCCESS) {
		wide(name, p, 256);
		/* replace: delete an old file first so no stale tail remains */
		if (d->Open(d, &f, p, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0) == EFI_SUCCESS)
			f->Delete(f);
		if (d->Open(d, &f, p, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0) == EFI_SUCCESS) {
			UINTN n = len;
			if (f->Write(f, &n, (void *)data) == EFI_SUCCESS && n == len)
				rc = 0;
			f->Flush(f);
			f->Close(f);
		}
		d->Close(d);
	}
	root->Close(root);
	return rc;
}

EFI_FILE_HANDLE efi_open_append(EFI_HANDLE volume, const char *dir, const char *name)
{
	EFI_FILE_HANDLE root = root_of(volume), d, f = NULL;
	CHAR16 p[256];

	if (!root)
		return NULL;
	wide(dir, p, 256);
	if (root->Open(root, &d, p, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, EFI_FILE_DIRECTORY) == EFI_SUCCESS) {
		wide(name, p, 256);
		if (d->Open(d, &f, p, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE | EFI_FILE_MODE_CREATE, 0) != EFI_SUCCESS)
			f = NULL;
		else if (f->SetPosition(f, 0xffffffffffffffffull) != EFI_SUCCESS) {	/* the end of the file */
			f->Close(f);
			f = NULL;
		}
		d->Close(d);
	}
	root->Close(root);
	return f;
}

int efi_append(EFI_FILE_HANDLE f, const void *data, size_t len)
{
	UINTN n = len;

	if (f->Write(f, &n, (void *)data) != EFI_SUCCESS || n != len)
		return -1;
	return f->Flush(f) == EFI_SUCCESS ? 0 : -1;
}

int efi_delete_file(EFI_HANDLE volume, const char *path)
{
	EFI_FILE_HANDLE root = root_of(volume), f;
	CHAR16 p[256];
	int rc = 0;

	if (!root)
		return -1;
	wide(path, p, 256);
	if (root->Open(root, &f, p, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0) == EFI_SUCCESS)
		rc = f->Delete(f) == EFI_SUCCESS ? 0 : -1;	/* Delete closes the handle */
	root->Close(root);
	return rc;
}
