/* SPDX-License-Identifier: BSD-3-Clause */
/* traceme: a program that uses ptrace itself, the way debuggers start.
 *
 * A child calls PTRACE_TRACEME (its parent, this program, would become its
 * tracer) and prints "PTRACE_TRACEME: ok" or "PTRACE_TRACEME: ERROR"
 * (strerror); it exits 0 or 1, and so does this program. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nolsan.h"

int main(void)
{
	int st;
	pid_t pid = fork();

	if (pid < 0) {
		perror("fork");
		return 2;
	}
	if (pid == 0) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) != 0) {
			printf("PTRACE_TRACEME: %s\n", strerror(errno));
			fflush(stdout);
			_exit(1);
		}
		printf("PTRACE_TRACEME: ok\n");
		fflush(stdout);
		_exit(0);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 2;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 2;
}
