/* SPDX-License-Identifier: BSD-3-Clause */
/* attach: a parent that traces its own child, the way a debugger attaches.
 *
 *   attach attach|seize [THREADS]
 *
 * Forks a child (with THREADS more threads, default 0) that waits, then
 * attaches to every thread of it with PTRACE_ATTACH or PTRACE_SEIZE, stops
 * each (SIGSTOP, or PTRACE_INTERRUPT), detaches, kills the child and
 * prints one line, "PTRACE_ATTACH: ok" or "PTRACE_SEIZE: ERROR"
 * (strerror). Exits 0 when every step worked, 1 otherwise, 2 on a usage
 * error. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nolsan.h"

static void *idle(void *unused)
{
	(void)unused;
	for (;;)
		pause();
	return NULL;
}

/* The child's threads, once it has all of them; *n of them in tids. */
static int threads_of(pid_t pid, unsigned want, pid_t *tids, unsigned *n)
{
	char path[64];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	for (int tries = 0; tries < 500; tries++) {
		*n = 0;
		if (!(d = opendir(path)))
			return -1;
		while ((e = readdir(d)) && *n < 64)
			if (e->d_name[0] != '.')
				tids[(*n)++] = (pid_t)atoi(e->d_name);
		closedir(d);
		if (*n == want)
			return 0;
		usleep(10000);
	}
	return -1;
}

int main(int argc, char **argv)
{
	int seize = argc > 1 && !strcmp(argv[1], "seize"), st, failed = 0;
	unsigned threads = argc > 2 ? (unsigned)atoi(argv[2]) : 0, n = 0;
	const char *name = seize ? "PTRACE_SEIZE" : "PTRACE_ATTACH";
	pid_t child, tids[64];

	if (argc < 2 || (!seize && strcmp(argv[1], "attach")) || threads > 8) {
		fprintf(stderr, "usage: attach attach|seize [THREADS]\n");
		return 2;
	}
	if ((child = fork()) < 0) {
		perror("fork");
		return 2;
	}
	if (child == 0) {
		pthread_t t;

		for (unsigned i = 0; i < threads; i++)
			pthread_create(&t, NULL, idle, NULL);
		idle(NULL);
	}
	if (threads_of(child, threads + 1, tids, &n) < 0) {
		printf("%s: the child's threads did not start\n", name);
		kill(child, SIGKILL);
		return 1;
	}
	for (unsigned i = 0; i < n && !failed; i++) {
		long r = seize ? ptrace(PTRACE_SEIZE, tids[i], 0, 0)
			       : ptrace(PTRACE_ATTACH, tids[i], 0, 0);

		if (r != 0) {
			printf("%s: %s\n", name, strerror(errno));
			failed = 1;
		} else if ((seize &&
			    ptrace(PTRACE_INTERRUPT, tids[i], 0, 0) != 0) ||
			   waitpid(tids[i], &st, __WALL) != tids[i] ||
			   !WIFSTOPPED(st) ||
			   ptrace(PTRACE_DETACH, tids[i], 0, 0) != 0) {
			printf("%s: could not stop and detach thread %u: %s\n",
			       name, i, strerror(errno));
			failed = 1;
		}
	}
	if (!failed)
		printf("%s: ok\n", name);
	kill(child, SIGKILL);
	while (waitpid(child, &st, 0) < 0 && errno == EINTR)
		;
	return failed;
}
