/* SPDX-License-Identifier: MIT */
#define _GNU_SOURCE
#include "hosted/journal_file.h"
#include "hw/backend_sim.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int dir_of(const char *path, char *dir, size_t n)
{
	const char *slash = strrchr(path, '/');
	size_t len = slash ? (size_t)(slash - path) : 1;

	if (len >= n)
		return -1;
	if (!slash)
		memcpy(dir, ".", 2);
	else if (!len)
		memcpy(dir, "/", 2);
	else {
		memcpy(dir, path, len);
		dir[len] = '\0';
	}
	return 0;
}

/* Make a file's appearance or removal durable. */
static void sync_dir(const char *path)
{
	char dir[1024];
	int fd;

	if (dir_of(path, dir, sizeof(dir)))
		return;
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
}

static int append(void *ctx, const void *buf, size_t len, struct gtt_err *err)
{
	struct journal_file *jf = ctx;
	const char *p = buf;

	while (len) {
		ssize_t w = write(jf->fd, p, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return gtt_err_set(err, GTT_EIO, "cannot write the journal %s: %s", jf->path,
					   w < 0 ? strerror(errno) : "no progress");
		p += w;
		len -= (size_t)w;
	}
	if (fdatasync(jf->fd))
		return gtt_err_set(err, GTT_EIO, "cannot sync the journal %s to disk: %s", jf->path, strerror(errno));
	return GTT_OK;
}

int journal_default_path(const char *spec, const char *sysfs_root, char *out, size_t n)
{
	const char *bdf = strchr(spec, ':') ? strchr(spec, ':') + 1 : spec;
	int len;

	if (!sysfs_root || !strcmp(sysfs_root, "/sys")) {
		len = snprintf(out, n, "%s/%s.journal", JOURNAL_DIR, bdf);
	} else {
		uint32_t h = 0x811c9dc5u;
		for (const unsigned char *p = (const unsigned char *)sysfs_root; *p; p++)
			h = (h ^ *p) * 0x01000193u;
		len = snprintf(out, n, "%s/%s@%08x.journal", JOURNAL_DIR, bdf, h);
	}
	return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* The pid holding a write lock on fd, 0 when none does. */
static pid_t holder(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	if (fcntl(fd, F_GETLK, &fl) || fl.l_type == F_UNLCK)
		return 0;
	return fl.l_pid ? fl.l_pid : -1;
}

static int lock(int fd)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };

	return fcntl(fd, F_SETLK, &fl);
}

/* Why an existing journal stands in the way. */
static int existing(const char *path, struct gtt_err *err)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	pid_t pid = fd >= 0 ? holder(fd) : 0;

	if (fd >= 0)
		close(fd);
	if (pid > 0)
		return gtt_err_set(err, GTT_EBUSY, "the device is in use: gttlab (pid %d) is running on it with the journal %s",
				   (int)pid, path);
	return gtt_err_set(err, GTT_EBUSY,
			   "the journal %s is left from a run that did not restore the device: run 'gttlab restore --journal %s' first",
			   path, path);
}

/*
 * The journal is written nameless first (O_TMPFILE in its directory, or a
 * temporary name where the file system has none) and takes its name only
 * with its header durable (journal_file_publish): a run killed before that
 * leaves no journal at all, never one without the header that names its
 * device, and nothing was written to the device yet.
 */
int journal_file_create(struct journal_file *jf, const char *path, struct gtt_err *err)
{
	char dir[1024];
	struct stat st;

	jf->fd = -1;
	jf->published = false;
	jf->tmp[0] = '\0';
	if (snprintf(jf->path, sizeof(jf->path), "%s", path) >= (int)sizeof(jf->path))
		return gtt_err_set(err, GTT_EINVAL, "journal path '%s' is too long", path);
	if (dir_of(path, dir, sizeof(dir)))
		return gtt_err_set(err, GTT_EINVAL, "journal path '%s' is too long", path);
	if (!strcmp(dir, JOURNAL_DIR) && mkdir(dir, 0700) && errno != EEXIST)
		return gtt_err_set(err, GTT_EPERM, "cannot create the journal directory %s: %s", dir, strerror(errno));
	if (!lstat(path, &st))
		return existing(path, err);
	jf->fd = open(dir, O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);
	if (jf->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
		if (snprintf(jf->tmp, sizeof(jf->tmp), "%s.%d.tmp", path, (int)getpid()) >= (int)sizeof(jf->tmp))
			return gtt_err_set(err, GTT_EINVAL, "journal path '%s' is too long", path);
		jf->fd = open(jf->tmp, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	}
	if (jf->fd < 0)
		return gtt_err_set(err, errno == EACCES || errno == EPERM ? GTT_EPERM : GTT_EIO,
				   "cannot create the journal %s: %s", path, strerror(errno));
	if (lock(jf->fd)) {
		int e = errno;
		close(jf->fd);
		if (jf->tmp[0])
			unlink(jf->tmp);
		jf->fd = -1;
		return gtt_err_set(err, GTT_EIO, "cannot lock the journal %s: %s", path, strerror(e));
	}
	jf->sink = (struct hw_journal_sink){ append, jf };
	return GTT_OK;
}

int journal_file_publish(struct journal_file *jf, struct gtt_err *err)
{
	char proc[64];
	int rc;

	if (jf->tmp[0]) {
		rc = link(jf->tmp, jf->path);
	} else {
		/* root may link a nameless file by its descriptor; /proc's link to it works for anyone */
		rc = linkat(jf->fd, "", AT_FDCWD, jf->path, AT_EMPTY_PATH);
		if (rc && errno != EEXIST) {
			snprintf(proc, sizeof(proc), "/proc/self/fd/%d", jf->fd);
			rc = linkat(AT_FDCWD, proc, AT_FDCWD, jf->path, AT_SYMLINK_FOLLOW);
		}
	}
	int e = errno;
	if (jf->tmp[0]) {
		unlink(jf->tmp);
		jf->tmp[0] = '\0';
	}
	if (rc) {
		if (e == EEXIST)
			return existing(jf->path, err);
		return gtt_err_set(err, GTT_EIO, "cannot give the journal its name %s: %s", jf->path, strerror(e));
	}
	jf->published = true;
	sync_dir(jf->path);
	return GTT_OK;
}

int journal_file_close(struct journal_file *jf, bool remove, struct gtt_err *err)
{
	int rc = GTT_OK;

	if (jf->fd < 0)
		return GTT_OK;
	if (jf->tmp[0]) {
		unlink(jf->tmp);
		jf->tmp[0] = '\0';
	}
	if (remove && jf->published) {
		if (unlink(jf->path))
			rc = gtt_err_set(err, GTT_EIO, "cannot remove the journal %s: %s", jf->path, strerror(errno));
		else
			sync_dir(jf->path);
	}
	close(jf->fd);		/* releases the lock */
	jf->fd = -1;
	return rc;
}

static int read_all(struct journal_file *jf, void **buf, size_t *len, struct gtt_err *err)
{
	struct stat st;
	size_t got = 0;

	if (fstat(jf->fd, &st))
		return gtt_err_set(err, GTT_EIO, "cannot stat the journal %s: %s", jf->path, strerror(errno));
	if (!(*buf = malloc(st.st_size ? (size_t)st.st_size : 1)))
		return gtt_err_set(err, GTT_ENOMEM, "out of memory reading the journal %s", jf->path);
	while (got < (size_t)st.st_size) {
		ssize_t r = pread(jf->fd, (char *)*buf + got, (size_t)st.st_size - got, (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	*len = got;
	return GTT_OK;
}

int journal_file_contents(struct journal_file *jf, void **buf, size_t *len, struct gtt_err *err)
{
	*buf = NULL;
	*len = 0;
	return read_all(jf, buf, len, err);
}

int journal_file_load(struct journal_file *jf, const char *path, void **buf, size_t *len, struct gtt_err *err)
{
	struct stat st;
	pid_t pid;

	*buf = NULL;
	*len = 0;
	jf->published = true;	/* found under its name: restoring it removes it */
	jf->tmp[0] = '\0';
	if (snprintf(jf->path, sizeof(jf->path), "%s", path) >= (int)sizeof(jf->path))
		return gtt_err_set(err, GTT_EINVAL, "journal path '%s' is too long", path);
	jf->fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
	if (jf->fd < 0)
		return gtt_err_set(err, errno == ENOENT ? GTT_ENODEV : GTT_EIO, "cannot open the journal %s: %s", path,
				   strerror(errno));
	if (fstat(jf->fd, &st) || !S_ISREG(st.st_mode)) {
		journal_file_close(jf, false, NULL);
		return gtt_err_set(err, GTT_EINVAL, "the journal %s is not a regular file", path);
	}
	if (lock(jf->fd)) {
		pid = holder(jf->fd);
		journal_file_close(jf, false, NULL);
		return gtt_err_set(err, GTT_EBUSY, "the journal %s belongs to a running gttlab (pid %d): it restores the device itself",
				   path, (int)pid);
	}
	int rc = read_all(jf, buf, len, err);
	if (rc)
		journal_file_close(jf, false, NULL);
	return rc;
}

int journal_begin(struct hw_device *dev, const char *path, const struct hw_open_opts *opts, struct journal_file *jf,
		  struct gtt_err *err)
{
	char def[1024], spec[96];
	int rc;

	jf->fd = -1;
	if (dev->ops->in_process) {
		if (path)
			return gtt_err_set(err, GTT_EINVAL,
					   "journal '%s': %s lives in this process and keeps no journal (it dies with the process)",
					   path, dev->name);
		return GTT_OK;
	}
	if (path && !path[0])
		return gtt_err_set(err, GTT_EINVAL, "the journal's file name is empty");
	if (!path) {
		if (!dev->ops->location || dev->ops->location(dev->ctx, spec, sizeof(spec)) ||
		    journal_default_path(spec, opts ? opts->sysfs_root : NULL, def, sizeof(def)))
			return gtt_err_set(err, GTT_EINVAL, "%s: no default journal for this device; name one", dev->name);
		path = def;
	}
	if ((rc = journal_file_create(jf, path, err)))
		return rc;
	if ((rc = hw_journal_attach(dev, &jf->sink, opts, err))) {
		journal_file_close(jf, true, NULL);
		return rc;
	}
	/* the header is on disk: now the journal may be found */
	if ((rc = journal_file_publish(jf, err))) {
		hw_journal_detach(dev);
		journal_file_close(jf, false, NULL);
	}
	return rc;
}

int journal_end(struct hw_device *dev, struct journal_file *jf, bool restored, bool *kept, struct gtt_err *err)
{
	struct hw_journal_info info;
	const char *stage = "";
	void *buf = NULL;
	size_t len;
	int rc = GTT_OK;

	if (kept)
		*kept = false;
	if (jf->fd < 0)
		return GTT_OK;
	hw_journal_detach(dev);
	if (!restored)
		rc = gtt_err_set(err, GTT_EIO, "the device was not restored");
	else if (!(rc = journal_file_contents(jf, &buf, &len, err)) && (rc = hw_journal_replay(dev, buf, len, &info, err)))
		stage = "the journal's replay did not read back: ";
	free(buf);
	if (rc) {
		char why[GTT_ERR_MSG_MAX];	/* err->msg is rewritten from a copy of itself */
		snprintf(why, sizeof(why), "%s", err->msg);
		gtt_err_set(err, GTT_EIO, "%s%s; the journal %s keeps what the device held: run 'gttlab restore --journal %s'",
			    stage, why, jf->path, jf->path);
		journal_file_close(jf, false, NULL);
		if (kept)
			*kept = true;
		return GTT_EIO;
	}
	return journal_file_close(jf, true, err);
}
