/* SPDX-License-Identifier: MIT */
/*
 * The crash journal's file on a POSIX system (hosted). One file per device,
 * by default /var/lib/gttlab/DDDD:BB:DD.F.journal. The run that writes it
 * holds a write lock on it (fcntl), so a second gttlab can tell a live run
 * from a dead one; every append is write() then fdatasync(); the file gets
 * its name only with its header durable, and the directory is synced when
 * the name appears and when it goes.
 */
#ifndef HOSTED_JOURNAL_FILE_H
#define HOSTED_JOURNAL_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "hw/device.h"
#include "hw/journal.h"

#define JOURNAL_DIR "/var/lib/gttlab"

struct journal_file {
	int fd;
	char path[1024];
	char tmp[1040];			/* the temporary name before publishing, where O_TMPFILE is not there; "" none */
	bool published;			/* it has its name: a crash from now on leaves it to `gttlab restore` */
	struct hw_journal_sink sink;
};

/*
 * The default journal of a device: JOURNAL_DIR/BDF.journal for a device
 * under /sys, JOURNAL_DIR/BDF@HASH.journal under another sysfs root (a
 * test tree), HASH being FNV-1a-32 of the root. `spec` is the backend's
 * location ("pci:0000:00:02.0").
 */
int journal_default_path(const char *spec, const char *sysfs_root, char *out, size_t n);

/*
 * Create the journal for `path` (its directory too), nameless, and lock it.
 * When a journal is there already: GTT_EBUSY saying whether a running gttlab
 * (its pid) holds it or it is left from a run that did not restore, then to
 * run `gttlab restore`.
 */
int journal_file_create(struct journal_file *jf, const char *path, struct gtt_err *err);
/*
 * Give it its name, once its header is durable (a kill before leaves no
 * journal: nothing was written to the device). GTT_EBUSY as above when
 * another run's journal took the name meanwhile.
 */
int journal_file_publish(struct journal_file *jf, struct gtt_err *err);

/* The journal as written so far (malloc'ed into *buf), for the replay that ends a run. */
int journal_file_contents(struct journal_file *jf, void **buf, size_t *len, struct gtt_err *err);

/* End the run's journal: removed when the device was restored, kept (for gttlab restore) when not. */
int journal_file_close(struct journal_file *jf, bool remove, struct gtt_err *err);

/*
 * Open an existing journal for restoring: locked (GTT_EBUSY naming the pid
 * of a run that holds it), read whole into *buf (malloc'ed). GTT_ENODEV when
 * there is none.
 */
int journal_file_load(struct journal_file *jf, const char *path, void **buf, size_t *len, struct gtt_err *err);

/*
 * Journal a device that is not the model before its first write: the file
 * at `path` (NULL: the device's default), created, locked and attached. On
 * the model nothing is done (jf->fd stays -1); a path given for the model is
 * GTT_EINVAL. Errors name the file (an unrestored journal says to run
 * `gttlab restore`).
 */
int journal_begin(struct hw_device *dev, const char *path, const struct hw_open_opts *opts, struct journal_file *jf,
		  struct gtt_err *err);

/*
 * End it, before the device is closed. `restored`: the run put the device
 * back; the journal is replayed once more (what the undo log does not hold:
 * aperture bytes the Dom0 runtime wrote, GFX_FLSH_CNTL_GEN6; a run that wrote
 * nothing replays nothing) and removed. Not restored, or a replay that does
 * not read back: kept (*kept, when given, says so), GTT_EIO with the reason
 * and the restore command. A journal that cannot be removed is an error too.
 */
int journal_end(struct hw_device *dev, struct journal_file *jf, bool restored, bool *kept, struct gtt_err *err);

#endif
