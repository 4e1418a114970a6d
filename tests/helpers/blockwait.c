/* SPDX-License-Identifier: BSD-3-Clause */
/* blockwait: block in one system call that a ptrace interrupt makes fail
 * with EINTR, and say how it returned.
 *
 *   blockwait epoll|sigtimedwait|semtimedop
 *
 * Prints "waiting NR" (the system call's number, as /proc/PID/syscall
 * shows it while blocked) and blocks until a line can be read from stdin:
 * epoll_wait on stdin itself; sigtimedwait for SIGUSR1, and semtimedop
 * on a semaphore, which a child sends or raises once it has read the
 * line. Then prints "NAME: ok", or "NAME: EINTR" (exit 1) when the call
 * was interrupted. No timeout ends the wait before the line (60 s, only
 * so that nothing waits for ever). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nolsan.h"

/* In a child: read the line, then wake the parent with what. */
static pid_t waker(int semid)
{
	pid_t parent = getpid(), pid = fork();
	char c;

	if (pid != 0)
		return pid;
	while (read(0, &c, 1) < 0 && errno == EINTR)
		;
	if (semid >= 0) {
		struct sembuf up = { 0, 1, 0 };

		semop(semid, &up, 1);
	} else {
		kill(parent, SIGUSR1);
	}
	_exit(0);
}

static int said(const char *name, int r)
{
	int e = errno;

	printf("%s: %s\n", name,
	       r >= 0	    ? "ok"
	       : e == EINTR ? "EINTR"
			    : strerror(e));
	return r >= 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct timespec limit = { 60, 0 };
	const char *mode = argc == 2 ? argv[1] : "";
	int r;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (!strcmp(mode, "epoll")) {
		struct epoll_event ev = { .events = EPOLLIN }, got;
		int ep = epoll_create1(0);

		if (ep < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, 0, &ev) < 0)
			return said("epoll_ctl", -1) + 1;
		printf("waiting %d\n", SYS_epoll_wait);
		r = epoll_wait(ep, &got, 1, 60000);
		return said("epoll_wait", r > 0 ? 0 : -1);
	}
	if (!strcmp(mode, "sigtimedwait")) {
		sigset_t usr1;
		pid_t child;

		sigemptyset(&usr1);
		sigaddset(&usr1, SIGUSR1);
		sigprocmask(SIG_BLOCK, &usr1, NULL);
		child = waker(-1);
		printf("waiting %d\n", SYS_rt_sigtimedwait);
		r = sigtimedwait(&usr1, NULL, &limit);
		r = said("sigtimedwait", r);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return r;
	}
	if (!strcmp(mode, "semtimedop")) {
		int semid = semget(IPC_PRIVATE, 1, 0600);
		struct sembuf down = { 0, -1, 0 };
		pid_t child;

		if (semid < 0)
			return said("semget", -1) + 1;
		child = waker(semid);
		printf("waiting %d\n", SYS_semtimedop);
		r = said("semtimedop", semtimedop(semid, &down, 1, &limit));
		semctl(semid, 0, IPC_RMID);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
		return r;
	}
	fprintf(stderr, "usage: blockwait epoll|sigtimedwait|semtimedop\n");
	return 2;
}
