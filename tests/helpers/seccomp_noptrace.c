/* SPDX-License-Identifier: BSD-3-Clause */
/* seccomp_noptrace: run a command where ptrace(2) is denied, as some
 * container runtimes do.
 *
 *   seccomp_noptrace COMMAND [ARG...]
 *
 * The filter makes every ptrace call fail with EPERM, for this process and
 * all it runs (127 if COMMAND is not found, 126 if it cannot be run). */
#include "nolsan.h"
#include "seccomp_deny.h"

int main(int argc, char **argv)
{
	static const int denied[] = { __NR_ptrace };

	(void)argc;
	return deny_and_exec("seccomp_noptrace", denied, 1, argv);
}
