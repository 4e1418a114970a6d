/* seccomp_noptrace: run a command where ptrace(2) is denied, as some
 * container runtimes do.
 *
 *   seccomp_noptrace COMMAND [ARG...]
 *
 * Installs a seccomp filter (raw BPF) that makes every ptrace call fail
 * with EPERM, for this process and all it runs, then exec's COMMAND (127
 * if it is not found, 126 if it cannot be run). */
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

#include "nolsan.h"

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

int main(int argc, char **argv)
{
	struct sock_filter code[] = {
#ifdef ARCH
		/* Another ABI's numbers mean other calls: let them be. */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
#endif
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ptrace, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {
		.len = (unsigned short)(sizeof(code) / sizeof(code[0])),
		.filter = code,
	};

	if (argc < 2) {
		fprintf(stderr, "usage: seccomp_noptrace COMMAND [ARG...]\n");
		return 2;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		perror("seccomp_noptrace: PR_SET_NO_NEW_PRIVS");
		return 125;
	}
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0 &&
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) {
		perror("seccomp_noptrace: seccomp");
		return 125;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "seccomp_noptrace: %s: %s\n", argv[1], strerror(errno));
	return errno == ENOENT ? 127 : 126;
}
