/* SPDX-License-Identifier: BSD-3-Clause */
/* rawclone: new processes made the ways that libc's fork never uses.
 *
 * 1. clone(CLONE_VM) with exit signal 0: a process that shares memory with
 *    its parent and sends it no SIGCHLD (waited for with __WALL);
 * 2. the raw clone3 system call, fork-like (exit signal SIGCHLD).
 * Each child prints "clone cpu=C cpus=LIST" or "clone3 cpu=C cpus=LIST" as
 * its first action and exits 0. If the kernel has no clone3 it prints
 * "clone3 unsupported" instead. Exits 0 when both children exited 0. */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "where.h"
#include "nolsan.h"

#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* The kernel's struct clone_args, first version (64 bytes). */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack,
	    stack_size, tls;
};

static int child(void *arg)
{
	struct where w;

	where_now(&w);
	(void)arg;
	return where_say("clone", -1, &w) == 0 ? 0 : 1;
}

static int reap(pid_t pid, int flags)
{
	int st;

	while (waitpid(pid, &st, flags) < 0)
		if (errno != EINTR) {
			perror("rawclone: waitpid");
			return 0;
		}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

int main(void)
{
	const size_t size = 256 * 1024;
	char *stack = malloc(size);
	struct clone3_args args = { .exit_signal = SIGCHLD };
	int ok = 1;
	long pid;

	if (stack == NULL)
		return 1;
	/* Exit signal 0: the low byte of the flags. */
	pid = clone(child, stack + size, CLONE_VM, NULL);
	if (pid < 0) {
		perror("rawclone: clone");
		return 1;
	}
	ok &= reap((pid_t)pid, __WALL);

	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		struct where w;

		where_now(&w);
		_exit(where_say("clone3", -1, &w) == 0 ? 0 : 1);
	}
	if (pid < 0 && errno == ENOSYS) {
		printf("clone3 unsupported\n");
	} else if (pid < 0) {
		perror("rawclone: clone3");
		return 1;
	} else {
		ok &= reap((pid_t)pid, 0);
	}
	free(stack);
	return ok ? 0 : 1;
}
