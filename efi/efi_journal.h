/* SPDX-License-Identifier: MIT */
/*
 * The crash journal on the results volume (efi/efi_volume.h): \gttlab\journal.bin, appended and flushed
 * to the medium before every device write it covers (hw/journal.h). At the
 * next boot, before anything else runs, the application restores the device
 * the journal names and deletes the journal.
 */
#ifndef EFI_EFI_JOURNAL_H
#define EFI_EFI_JOURNAL_H

#include <efi.h>
#include <stdbool.h>

#include "hw/backend.h"
#include "hw/journal.h"

#define EFI_JOURNAL_DIR  "\\gttlab"
#define EFI_JOURNAL_NAME "journal.bin"
#define EFI_JOURNAL_PATH EFI_JOURNAL_DIR "\\" EFI_JOURNAL_NAME

struct efi_journal {
	EFI_HANDLE volume;	/* the file system it lives on (efi/efi_volume.h) */
	EFI_FILE_HANDLE f;
	struct hw_journal_sink sink;
};

/* Start the journal file; GTT_EBUSY when one is there already (a restore that did not finish). */
int efi_journal_create(EFI_HANDLE volume, struct efi_journal *j, struct gtt_err *err);

/* The journal's bytes so far (pool memory, freed by the caller with FreePool); NULL when unreadable. */
void *efi_journal_contents(struct efi_journal *j, size_t *len);

/* Close it; deleted when the device was restored, kept for the next boot when not. */
void efi_journal_close(struct efi_journal *j, bool remove);

/*
 * At boot: when a journal is on the volume, open the device it names with the
 * given backends, replay it, delete it and write \gttlab\restore.txt saying
 * what went back. Returns 0 when there was none or it was restored (*did
 * says which), else an error in err (the journal is kept).
 */
int efi_journal_restore(EFI_HANDLE volume, const struct gtt_env *env, const struct hw_backend_factory *const *backends,
			size_t n_backends, bool *did, struct gtt_err *err);

#endif
