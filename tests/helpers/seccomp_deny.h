/* SPDX-License-Identifier: BSD-3-Clause */
/* Run a command under a seccomp filter that makes some system calls fail
 * with EPERM, as container runtimes' default profiles do: shared by the
 * seccomp_* helpers. */
#ifndef PINRUN_SECCOMP_DENY_H
#define PINRUN_SECCOMP_DENY_H

#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__i386__)
#define ARCH AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define ARCH AUDIT_ARCH_S390X
#endif

/* Deny the n calls in nrs (at most 8), then exec argv[1...]. Returns only
 * on failure, with the status to exit with. */
static inline int deny_and_exec(const char *name, const int *nrs, unsigned n,
				char **argv)
{
	struct sock_filter code[32];
	unsigned k = 0;
	struct sock_fprog prog;

	if (!argv[1] || n > 8) {
		fprintf(stderr, "usage: %s COMMAND [ARG...]\n", name);
		return 2;
	}
#ifdef ARCH
	/* Another ABI's numbers mean other calls: let them be. */
	code[k++] = (struct sock_filter)BPF_STMT(
	    BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	code[k++] =
	    (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0);
	code[k++] =
	    (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#endif
	code[k++] = (struct sock_filter)BPF_STMT(
	    BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	for (unsigned i = 0; i < n; i++) {
		code[k++] = (struct sock_filter)BPF_JUMP(
		    BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nrs[i], 0, 1);
		code[k++] = (struct sock_filter)BPF_STMT(
		    BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	}
	code[k++] =
	    (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)k;
	prog.filter = code;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		fprintf(stderr, "%s: PR_SET_NO_NEW_PRIVS: %s\n", name,
			strerror(errno));
		return 125;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0 &&
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		fprintf(stderr, "%s: seccomp: %s\n", name, strerror(errno));
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "%s: %s: %s\n", name, argv[1], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}

#endif
