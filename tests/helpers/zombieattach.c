/* SPDX-License-Identifier: BSD-3-Clause */
/* zombieattach: attach to a zombie thread-group leader, then to a plain
 * process, and say how each attach ended.
 *
 * Forks a child whose leader calls pthread_exit while its other thread
 * waits (for ever: this program kills it at the end), waits until the
 * leader is a zombie, and PTRACE_ATTACHes to it; then forks a child that
 * pauses and attaches to it. Prints "zombie leader: ERROR-OR-ok" and
 * "plain child: ok" (strerror for an error). Exits 0. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
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

static char state_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	return p && p[1] ? p[2] : 0;
}

static void attach(const char *what, pid_t pid)
{
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) < 0) {
		printf("%s: %s\n", what, strerror(errno));
		return;
	}
	waitpid(pid, NULL, __WALL);
	ptrace(PTRACE_DETACH, pid, 0, 0);
	printf("%s: ok\n", what);
}

int main(void)
{
	pid_t zombie, plain;

	setvbuf(stdout, NULL, _IONBF, 0);
	if ((zombie = fork()) == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, idle, NULL) == 0)
			pthread_exit(NULL);
		_exit(1);
	}
	while (state_of(zombie) != 'Z')
		usleep(1000);
	attach("zombie leader", zombie);
	if ((plain = fork()) == 0) {
		for (;;)
			pause();
	}
	attach("plain child", plain);
	kill(zombie, SIGKILL);
	kill(plain, SIGKILL);
	waitpid(zombie, NULL, 0);
	waitpid(plain, NULL, 0);
	return 0;
}
