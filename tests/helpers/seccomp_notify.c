/* SPDX-License-Identifier: BSD-3-Clause */
/* seccomp_notify: whether --follow can hand ptrace attaches to its tracer
 * here: a seccomp filter with a user-notification listener can be
 * installed (with no_new_privs, in a child), and the kernel is Linux 5.8
 * or later (POLLHUP on the listener). Exits 0, or prints why not and
 * exits 1. */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nolsan.h"

int main(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	struct utsname u;
	unsigned major = 0, minor = 0;
	int st, fd;
	pid_t pid;

	if (uname(&u) < 0 || sscanf(u.release, "%u.%u", &major, &minor) != 2 ||
	    major < 5 || (major == 5 && minor < 8)) {
		printf("Linux %s is older than 5.8\n", u.release);
		return 1;
	}
	if ((pid = fork()) == 0) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(2);
		fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (fd < 0)
			printf("seccomp: %s\n", strerror(errno));
		_exit(fd < 0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 1;
	return WEXITSTATUS(st) != 0;
}
