/* SPDX-License-Identifier: BSD-3-Clause */
/* pinrun's exit statuses: the man page's EXIT STATUS and the tests use
 * these same numbers (as env(1) and timeout(1) do). A leaf header: the
 * tracer (follow*.c) uses it without knowing the rest of pinrun. */
#ifndef PINRUN_EXITCODE_H
#define PINRUN_EXITCODE_H

#include <errno.h>

enum pinrun_exit {
	PINRUN_EXIT_OK = 0,
	PINRUN_EXIT_FAILURE = 125,    /* pinrun's own failure, usage too */
	PINRUN_EXIT_CANNOT_RUN = 126, /* the command exists but won't run */
	PINRUN_EXIT_NOT_FOUND = 127,  /* the command was not found */
};

/* The status for a command that could not be exec'd (err is execvp's
 * errno), as env(1) and timeout(1) have it. */
static inline int pinrun_exec_status(int err)
{
	return err == ENOENT ? PINRUN_EXIT_NOT_FOUND : PINRUN_EXIT_CANNOT_RUN;
}

#endif
