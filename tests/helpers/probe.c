/* SPDX-License-Identifier: BSD-3-Clause */
/* probe: where a process and its children run from their first instruction.
 *
 *   probe [-s | -p] [-x STATUS] N
 *
 * Prints "main cpu=C cpus=LIST" (sched_getcpu and the affinity list, read as
 * the very first action of main), then makes N children with fork; each one
 * reads the same as the first thing it does after fork returns and prints
 * "child I cpu=C cpus=LIST" (I from 1).
 *
 * By default the children run at the same time: each one stays alive until
 * every child has made its observation. -s: one after another, each child
 * waited for before the next is made. -p: like -s, but each child is this
 * program started with posix_spawn (a vfork-style clone, then exec), so its
 * observation is the first action of the new image's main.
 * Exits STATUS (default 0) when every child exited 0, else 1. */
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "where.h"
#include "nolsan.h"

extern char **environ;

static int wait_ok(pid_t pid)
{
	int st;

	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int spawn_child(const char *self, int index)
{
	char num[16];
	char *argv[] = { (char *)"probe", (char *)"-c", num, NULL };
	pid_t pid;
	int err;

	snprintf(num, sizeof(num), "%d", index);
	err = posix_spawn(&pid, self, NULL, NULL, argv, environ);
	if (err != 0) {
		fprintf(stderr, "probe: posix_spawn: %s\n", strerror(err));
		return 0;
	}
	return wait_ok(pid);
}

int main(int argc, char **argv)
{
	struct where w;
	int ready[2], hold[2];
	int mode = 'c', status = 0, spawned = -1, ok = 1, opt, n;
	pid_t *pids;

	where_now(&w);

	while ((opt = getopt(argc, argv, "spx:c:")) != -1) {
		switch (opt) {
		case 's':
		case 'p':
			mode = opt;
			break;
		case 'x':
			status = atoi(optarg);
			break;
		case 'c':
			spawned = atoi(optarg);
			break;
		default:
			return 2;
		}
	}
	if (spawned >= 0)
		return where_say("child", spawned, &w) == 0 ? 0 : 1;
	if (optind != argc - 1) {
		fprintf(stderr, "usage: probe [-s | -p] [-x STATUS] N\n");
		return 2;
	}
	n = atoi(argv[optind]);
	if (where_say("main", -1, &w) != 0)
		return 1;
	pids = calloc((size_t)n + 1, sizeof(*pids));
	if (pids == NULL || pipe2(ready, O_CLOEXEC) != 0 ||
	    pipe2(hold, O_CLOEXEC) != 0)
		return 1;

	for (int i = 1; i <= n; i++) {
		if (mode == 'p') {
			ok &= spawn_child("/proc/self/exe", i);
			continue;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("probe: fork");
			return 1;
		}
		if (pids[i] == 0) {
			char c = 0;
			struct where cw;

			where_now(&cw);
			close(ready[0]);
			close(hold[1]);
			if (where_say("child", i, &cw) != 0)
				_exit(1);
			if (mode == 'c') {
				/* Tell the parent, then stay until every
				 * sibling has looked too. */
				if (write(ready[1], &c, 1) != 1)
					_exit(1);
				while (read(hold[0], &c, 1) < 0 &&
				       errno == EINTR)
					;
			}
			_exit(0);
		}
		if (mode == 's')
			ok &= wait_ok(pids[i]);
	}
	close(ready[1]);
	close(hold[0]);
	if (mode == 'c') {
		char c;

		for (int i = 1; i <= n; i++)
			if (read(ready[0], &c, 1) != 1) {
				ok = 0;
				break;
			}
		close(hold[1]);
		for (int i = 1; i <= n; i++)
			ok &= wait_ok(pids[i]);
	}
	return ok ? status : 1;
}
