/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * loader.c: topo_load in a child process. The child loads, encodes the
 * flattened topology with topofile.c and writes its result, then the
 * bytes; the parent reads them under a time limit and decodes. A child
 * that dies before its result (a signal, or a sanitizer's report and exit
 * status) crashed, whatever its status says.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "host.h"
#include "loader.h"
#include "topofile.h"

static void __attribute__((noreturn))
child(int fd, enum topo_source_kind kind, const char *arg, bool devices)
{
	struct topo_error e = { TOPO_OK, 0 };
	struct topology *t;
	void *buf = NULL;
	size_t len = 0, n = 0;

	if (topo_load(kind, arg, devices, &t, &e) == 0 &&
	    topofile_encode("", t, &buf, &len) != TOPOFILE_OK)
		e.code = TOPO_E_NOMEM;
	if (write(fd, &e, sizeof(e)) != sizeof(e))
		_exit(1);
	while (e.code == TOPO_OK && n < len) {
		ssize_t w = write(fd, (char *)buf + n, len - n);

		if (w <= 0)
			_exit(1);
		n += (size_t)w;
	}
	_exit(0);
}

static long ms_since(const struct timespec *start)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start->tv_sec) * 1000L +
	       (now.tv_nsec - start->tv_nsec) / 1000000L;
}

/* Read the child's answer into b until it closes the pipe, the time is
 * up or memory runs out. */
static enum topo_err read_answer(int fd, pid_t pid, struct buf *b)
{
	struct timespec start;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long left = TOPO_LOAD_LIMIT_S * 1000L - ms_since(&start);
		int ready = left > 0 ? poll(&pfd, 1, (int)left) : 0;
		ssize_t n;

		if (ready < 0 && errno == EINTR)
			continue;
		if (ready == 0) {
			kill(pid, SIGKILL);
			return TOPO_E_TIMEOUT;
		}
		if (!buf_reserve(b, 65536)) {
			kill(pid, SIGKILL);
			return TOPO_E_NOMEM;
		}
		n = read(fd, b->data + b->len, b->cap - b->len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return TOPO_OK;
		b->len += (size_t)n;
	}
}

int loader_load(enum topo_source_kind kind, const char *arg, bool devices,
		struct topology **out, struct topo_error *err)
{
	struct topo_error answer;
	struct buf buf = { 0 };
	enum topo_err e;
	int fd[2], status;
	pid_t pid;
	struct sigaction had;

	*out = NULL;
	if (pipe2(fd, O_CLOEXEC) < 0)
		return topo_fail(err, TOPO_E_SYSTEM, errno);
	/* Above stderr: the child sends its stderr to /dev/null while hwloc
	 * loads, which must not be where the answer goes (pinrun 2>&-). */
	for (int i = 0; i < 2; i++)
		fd[i] = host_fd_above_stdio(fd[i]);
	if (fd[0] < 0 || fd[1] < 0) {
		int sys = errno;

		if (fd[0] >= 0)
			close(fd[0]);
		if (fd[1] >= 0)
			close(fd[1]);
		return topo_fail(err, TOPO_E_SYSTEM, sys);
	}
	fflush(NULL);
	host_sigchld_default(&had);
	if ((pid = fork()) < 0) {
		int sys = errno;

		host_sigchld_restore(&had);
		close(fd[0]);
		close(fd[1]);
		/* At the user's process limit (RLIMIT_NPROC), where a plain
		 * taskset would run: hwloc reads here, unguarded. */
		if (sys == EAGAIN)
			return topo_load(kind, arg, devices, out, err);
		return topo_fail(err, TOPO_E_SYSTEM, sys);
	}
	if (pid == 0) {
		close(fd[0]);
		child(fd[1], kind, arg, devices);
	}
	close(fd[1]);
	e = read_answer(fd[0], pid, &buf);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	host_sigchld_restore(&had);
	if (e == TOPO_OK && (!WIFEXITED(status) || WEXITSTATUS(status) ||
			     buf.len < sizeof(answer)))
		e = TOPO_E_CRASHED;
	if (e == TOPO_OK) {
		memcpy(&answer, buf.data, sizeof(answer));
		if (answer.code != TOPO_OK) {
			buf_free(&buf);
			*err = answer;
			return -1;
		}
		switch (topofile_decode(buf.data + sizeof(answer),
					buf.len - sizeof(answer), "", out)) {
		case TOPOFILE_OK:
			break;
		case TOPOFILE_NOMEM:
			e = TOPO_E_NOMEM;
			break;
		default:
			e = TOPO_E_CRASHED;
		}
	}
	buf_free(&buf);
	return e == TOPO_OK ? 0 : topo_fail(err, e, 0);
}
