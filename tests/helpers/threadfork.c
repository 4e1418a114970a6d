/* SPDX-License-Identifier: BSD-3-Clause */
/* threadfork: 8 threads, each of which forks a child.
 *
 * Each thread prints "thread I cpu=C cpus=LIST" as its first action, then
 * forks; the child prints "child I cpu=C cpus=LIST" as its first action
 * after fork returns. All threads and children stay alive until every
 * child has looked (they all run at the same time), then the children exit
 * and their threads reap them. Exits 0 when all 8 children exited 0. */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>

#include "where.h"
#include "nolsan.h"

#define N 8

static int ready[2], hold[2];

static void *run(void *arg)
{
	long i = (long)arg;
	struct where w;
	pid_t pid;
	int st;

	where_now(&w);
	where_say("thread", i, &w);
	pid = fork();
	if (pid == 0) {
		char c = 0;

		where_now(&w);
		close(hold[1]);
		if (where_say("child", i, &w) != 0 ||
		    write(ready[1], &c, 1) != 1)
			_exit(1);
		while (read(hold[0], &c, 1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	if (pid < 0)
		return (void *)1;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return (void *)1;
	return (void *)(long)!(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int main(void)
{
	pthread_t t[N];
	int ok = 1;
	char c;

	if (pipe2(ready, O_CLOEXEC) != 0 || pipe2(hold, O_CLOEXEC) != 0)
		return 1;
	for (long i = 0; i < N; i++)
		if (pthread_create(&t[i], NULL, run, (void *)(i + 1)) != 0)
			return 1;
	/* The write end of ready stays open here: a child that dies early
	 * must not look like EOF. */
	for (int i = 0; i < N; i++)
		if (read(ready[0], &c, 1) != 1) {
			ok = 0;
			break;
		}
	close(hold[1]);
	for (int i = 0; i < N; i++) {
		void *r;

		pthread_join(t[i], &r);
		ok &= r == NULL;
	}
	return ok ? 0 : 1;
}
