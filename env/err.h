/* SPDX-License-Identifier: MIT */
/*
 * Errors of the core: a negative code plus a one-line message that names the
 * value and the rule it broke. Library code fills one in and returns the code;
 * only front-ends print and exit.
 */
#ifndef ENV_ERR_H
#define ENV_ERR_H

enum gtt_errcode {
	GTT_OK = 0,
	GTT_EINVAL = -1,	/* bad input: front-ends exit 2 */
	GTT_ENODEV = -2,	/* no such device, or it is gone */
	GTT_EPERM = -3,		/* needs root */
	GTT_EBUSY = -4,		/* a driver owns the device */
	GTT_ENOMEM = -5,
	GTT_EIO = -6,		/* the device misbehaved */
	GTT_ERANGE = -7,	/* outside the device's ranges */
	GTT_ENOTSUP = -8,	/* the backend cannot do that */
};

#define GTT_ERR_MSG_MAX 240

struct gtt_err {
	int code;
	char msg[GTT_ERR_MSG_MAX];
};

/* Record code and message in err (which may be NULL) and return code. */
int gtt_err_set(struct gtt_err *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A short name for an error code ("invalid argument", ...). */
const char *gtt_strerror(int code);

#endif
