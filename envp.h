/* SPDX-License-Identifier: BSD-3-Clause */
/* The one reader of an environment handed as an array ("NAME=value"
 * strings, NULL-terminated, as environ and execve's envp), for the pure
 * modules that decide from one (launcher.c, tell.c): they never call
 * getenv, so that the tests and fuzzers can hand them any. Pure. */
#ifndef PINRUN_ENVP_H
#define PINRUN_ENVP_H

/* NAME's value in envp (NULL envp: none), or NULL when it is not set. The
 * first entry wins, as getenv's. */
const char *envp_get(char *const *envp, const char *name);

#endif
