/* SPDX-License-Identifier: BSD-3-Clause */
/* waiter: how a command ended, as its parent's waitpid sees it.
 *
 *   waiter COMMAND [ARG...]
 *
 * Runs COMMAND as a child and prints "exited N", "signaled N" or
 * "signaled N core". Like system(), it ignores SIGINT and SIGQUIT while it
 * waits (so that a Ctrl-C on the terminal ends only the command); the
 * command gets the dispositions waiter was started with. Exits 0 (a
 * COMMAND that cannot be run is "exited 127"). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nolsan.h"

int main(int argc, char **argv)
{
	struct sigaction ign, old_int, old_quit;
	pid_t pid;
	int st;

	if (argc < 2) {
		fprintf(stderr, "usage: waiter COMMAND [ARG...]\n");
		return 2;
	}
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigemptyset(&ign.sa_mask);
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid = fork();
	if (pid < 0) {
		perror("waiter: fork");
		return 2;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execvp(argv[1], argv + 1);
		fprintf(stderr, "waiter: %s: %s\n", argv[1], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			perror("waiter: waitpid");
			return 2;
		}
	if (WIFEXITED(st))
		printf("exited %d\n", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		printf("signaled %d%s\n", WTERMSIG(st),
		       WCOREDUMP(st) ? " core" : "");
	return 0;
}
