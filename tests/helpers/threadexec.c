/* SPDX-License-Identifier: BSD-3-Clause */
/* threadexec: execve from a thread that is not the leader.
 *
 *   threadexec PROGRAM [ARG...]
 *
 * The leader prints "leader cpu=C cpus=LIST" first, makes one thread and
 * waits. The thread prints "thread cpu=C cpus=LIST" as its first action,
 * then exec's PROGRAM: the kernel ends the leader, the thread takes over
 * the process id, and PROGRAM's status is the process's. 127 if the exec
 * fails. */
#include <pthread.h>
#include <stdio.h>

#include "where.h"
#include "nolsan.h"

static void *run(void *arg)
{
	char **argv = arg;
	struct where w;

	where_now(&w);
	where_say("thread", -1, &w);
	execv(argv[0], argv);
	perror(argv[0]);
	_exit(127);
}

int main(int argc, char **argv)
{
	struct where w;
	pthread_t t;

	where_now(&w);
	if (argc < 2) {
		fprintf(stderr, "usage: threadexec PROGRAM [ARG...]\n");
		return 2;
	}
	where_say("leader", -1, &w);
	if (pthread_create(&t, NULL, run, argv + 1) != 0)
		return 1;
	for (;;)
		pause();
}
