/* SPDX-License-Identifier: BSD-3-Clause */
/* seccomp_nomempolicy: run a command where the NUMA memory policy calls
 * (set_mempolicy, get_mempolicy, mbind) are denied, as Docker's default
 * seccomp profile does (moby/moby#37241).
 *
 *   seccomp_nomempolicy COMMAND [ARG...] */
#include "nolsan.h"
#include "seccomp_deny.h"

int main(int argc, char **argv)
{
	static const int denied[] = { __NR_set_mempolicy, __NR_get_mempolicy,
				      __NR_mbind };

	(void)argc;
	return deny_and_exec("seccomp_nomempolicy", denied, 3, argv);
}
