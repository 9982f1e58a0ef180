/* SPDX-License-Identifier: MIT */
#include "efi/efi_journal.h"
#include "efi/efi_env.h"
#include "efi/efi_files.h"
#include "env/fmt.h"
#include "hw/device.h"

#include <efilib.h>

static int append(void *ctx, const void *buf, size_t len, struct gtt_err *err)
{
	struct efi_journal *j = ctx;

	if (efi_append(j->f, buf, len))
		return gtt_err_set(err, GTT_EIO, "cannot write %zu bytes to %s on the results volume", len, EFI_JOURNAL_PATH);
	return GTT_OK;
}

int efi_journal_create(EFI_HANDLE volume, struct efi_journal *j, struct gtt_err *err)
{
	size_t len;
	char *old = efi_read_file(volume, EFI_JOURNAL_PATH, &len);

	j->volume = volume;
	j->f = NULL;
	if (old) {
		BS->FreePool(old);
		return gtt_err_set(err, GTT_EBUSY, "%s is still on the results volume: the device was not restored", EFI_JOURNAL_PATH);
	}
	if (!(j->f = efi_open_append(volume, EFI_JOURNAL_DIR, EFI_JOURNAL_NAME)))
		return gtt_err_set(err, GTT_EIO, "cannot create %s on the results volume", EFI_JOURNAL_PATH);
	j->sink = (struct hw_journal_sink){ append, j };
	return GTT_OK;
}

void *efi_journal_contents(struct efi_journal *j, size_t *len)
{
	return efi_read_file(j->volume, EFI_JOURNAL_PATH, len);
}

void efi_journal_close(struct efi_journal *j, bool remove)
{
	if (!j->f)
		return;
	if (remove) {
		j->f->Delete(j->f);	/* closes it too */
	} else {
		j->f->Flush(j->f);
		j->f->Close(j->f);
	}
	j->f = NULL;
}

int efi_journal_restore(EFI_HANDLE volume, const struct gtt_env *env, const struct hw_backend_factory *const *backends,
			size_t n_backends, bool *did, struct gtt_err *err)
{
	struct hw_journal_info info;
	struct hw_device *dev = NULL;
	char line[GTT_ERR_MSG_MAX + 160];
	size_t len;
	char *buf = efi_read_file(volume, EFI_JOURNAL_PATH, &len);
	int rc;

	*did = false;
	if (!buf)
		return GTT_OK;
	/* created, then reset before its header was in: the device was never written (hw/journal.h) */
	if (hw_journal_unstarted(buf, len)) {
		BS->FreePool(buf);
		if (efi_delete_file(volume, EFI_JOURNAL_PATH))
			return gtt_err_set(err, GTT_EIO, "cannot delete %s, a journal whose header was never written", EFI_JOURNAL_PATH);
		int n = gtt_snprintf(line, sizeof(line), "removed %s: a run was reset before its header was written "
						 "(%zu bytes), so it never touched the device\n", EFI_JOURNAL_PATH, len);
		efi_print(line);
		efi_write_file(volume, EFI_JOURNAL_DIR, "restore.txt", line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
		return GTT_OK;
	}
	if ((rc = hw_journal_scan(buf, len, &info, err)) ||
	    (rc = hw_open(env, info.spec, backends, n_backends, NULL, &dev, err))) {
		BS->FreePool(buf);
		return rc;
	}
	rc = hw_journal_replay(dev, buf, len, &info, err);
	hw_close(dev);
	BS->FreePool(buf);
	if (rc)
		return rc;
	if (efi_delete_file(volume, EFI_JOURNAL_PATH))
		return gtt_err_set(err, GTT_EIO, "restored %s, but cannot delete %s", info.spec, EFI_JOURNAL_PATH);
	*did = true;
	int n = gtt_snprintf(line, sizeof(line),
			     "restored %s from %s: %u config, %u register, %u PTE chunk and %u aperture page records%s\n",
			     info.spec, EFI_JOURNAL_PATH, info.cfg, info.mmio + info.flush_reg, info.pte_chunks,
			     info.ap_orig + info.ap_own, info.torn ? " (the last was cut short: its write never happened)" : "");
	efi_print(line);
	efi_write_file(volume, EFI_JOURNAL_DIR, "restore.txt", line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	return GTT_OK;
}
