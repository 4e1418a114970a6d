/* SPDX-License-Identifier: BSD-3-Clause */
/* Built with -fsanitize=address (make SAN=1), a helper would run
 * LeakSanitizer at exit, and LeakSanitizer ptraces its own process: that
 * fails under --follow (already traced) and under seccomp_noptrace. The
 * helpers leak nothing worth the check: turn it off. */
#ifndef NOLSAN_H
#define NOLSAN_H

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "detect_leaks=0";
}

#endif
