/* SPDX-License-Identifier: MIT */
/* SecureBoot and SetupMode from efivarfs: a file per variable, NAME-GUID, attributes then data. */
#define _POSIX_C_SOURCE 200809L
#include "cli/firmware_efivarfs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* EFI_GLOBAL_VARIABLE, as efivarfs spells it in a file name */
#define GLOBAL_GUID "8be4df61-93ca-11d2-aa0d-00e098032b8c"

static int read_var(const char *dir, const char *name)
{
	char path[512];
	uint8_t buf[16];

	snprintf(path, sizeof(path), "%s/%s-" GLOBAL_GUID, dir, name);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? FW_VAR_ABSENT : FW_VAR_UNREAD;
	ssize_t n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return FW_VAR_UNREAD;
	/* the 4-byte attributes first; no data at all is as malformed as too much */
	return n < 4 ? FW_VAR_MALFORMED : fw_var_value(buf + 4, (size_t)n - 4);
}

void fw_policy_read_efivarfs(const char *dir, struct fw_policy *p)
{
	struct stat st;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		p->secure_boot = p->setup_mode = FW_VAR_UNREAD;
		return;
	}
	p->secure_boot = read_var(dir, "SecureBoot");
	p->setup_mode = read_var(dir, "SetupMode");
}
