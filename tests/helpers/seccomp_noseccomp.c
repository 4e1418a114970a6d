/* SPDX-License-Identifier: BSD-3-Clause */
/* seccomp_noseccomp: run a command where seccomp(2) itself is denied, so
 * that no further filter can be installed (as under some sandboxes).
 *
 *   seccomp_noseccomp COMMAND [ARG...]
 *
 * seccomp(2) fails with EPERM for this process and all it runs (127 if
 * COMMAND is not found, 126 if it cannot be run). */
#include "nolsan.h"
#include "seccomp_deny.h"

int main(int argc, char **argv)
{
	static const int denied[] = { __NR_seccomp };

	(void)argc;
	return deny_and_exec("seccomp_noseccomp", denied, 1, argv);
}
