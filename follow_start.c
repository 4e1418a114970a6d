/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * follow_start.c: starting the tracer. By default a detached helper traces
 * pinrun, which then exec's the command and keeps its pid (strace -D
 * style): the helper is a grandchild in a session of its own, holding
 * nothing of the caller's but stderr and the report. As PID 1, where no
 * helper can trace its parent, pinrun forks the command as its traced
 * child instead, started through a gate once seized, and passes signals
 * on. The tracer itself is follow.c; the filter follow_notify.c. The
 * forked helper processes end here with _exit.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exitcode.h"
#include "follow.h"
#include "follow_notify.h"
#include "follow_trace.h"
#include "host.h"

/* --- the detached helper (the default) --------------------------------- */

static void helper_hygiene(int keep_fd, int sock, int word)
{
	static const int ignored[] = { SIGINT,	SIGQUIT, SIGHUP, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGPIPE };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int keep[] = { 0, 1, 2, keep_fd, sock, word };

	for (size_t i = 0; i < sizeof(ignored) / sizeof(ignored[0]); i++)
		signal(ignored[i], SIG_IGN);
	signal(SIGCHLD, SIG_DFL);
	if (chdir("/") < 0) {
		/* stay where we are: nothing depends on it */
	}
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
	}
	/* Keep stderr (warnings), keep_fd (the report), the socket the
	 * filter comes from and the waiting pinrun's pipe (--wait-all); hold
	 * nothing else the user's shell gave the command: a pipe held open here
	 * would keep its reader waiting. */
	host_close_all_but(keep, sizeof(keep) / sizeof(keep[0]));
}

static int read_all(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* A pipe (to the child) and a socket pair (from it: it can carry a
 * descriptor), then a fork; on failure, why is in st and nothing is left
 * open. */
static pid_t fork_piped(int a[2], int b[2], struct follow_start *st)
{
	pid_t pid = -1;
	int e;

	if (pipe2(a, O_CLOEXEC) < 0) {
		e = errno;
		goto fail;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, b) < 0) {
		e = errno;
		close(a[0]);
		close(a[1]);
		goto fail;
	}
	fflush(NULL);
	if ((pid = fork()) >= 0)
		return pid;
	e = errno;
	close(a[0]);
	close(a[1]);
	close(b[0]);
	close(b[1]);
fail:
	st->why = FOLLOW_NO_HELPER;
	st->err = e;
	return -1;
}

int follow_start(struct follow_start *st, int hot_cpu, bool wait_all,
		 bool tell_affinity)
{
	int down[2], up[2], err = 0;
	pid_t me = getpid(), mid, helper = 0;
	long long tracer;
	char go = 1;

	memset(st, 0, sizeof(*st));
	st->command = me;
	st->sock = -1;
	st->word = -1;
	st->tell_affinity = tell_affinity;
	if ((tracer = host_status_number(me, "TracerPid")) > 0) {
		st->tracer = (pid_t)tracer;
		st->why = FOLLOW_TRACED;
		return -1;
	}
	/* --wait-all: pinrun stays the parent and waits; the command is its
	 * child, traced, and really exits (its descriptors closed, its
	 * memory freed) while others run. The helper holds the pipe's
	 * writing end until it ends: end of file is its word. */
	if (wait_all) {
		int word[2];
		pid_t child;
		struct sigaction had;

		if (pipe2(word, O_CLOEXEC) < 0) {
			st->why = FOLLOW_NO_HELPER;
			st->err = errno;
			return -1;
		}
		fflush(NULL);
		host_sigchld_default(&had);
		if ((child = fork()) < 0) {
			st->why = FOLLOW_NO_HELPER;
			st->err = errno;
			host_sigchld_restore(&had);
			close(word[0]);
			close(word[1]);
			return -1;
		}
		if (child > 0) {
			close(word[1]);
			st->command = child;
			st->word = word[0];
			st->waiter = true;
			return 0;
		}
		host_sigchld_restore(&had);
		/* SIGKILL of pinrun (Popen.kill, Go's Process.Kill) is
		 * meant for the command: it dies of it as it would without
		 * pinrun, and its children run on as they would. */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != me)
			_exit(PINRUN_EXIT_FAILURE);
		close(word[0]);
		st->word = word[1];
		st->command = me = getpid();
	}
	/* down: the caller's go, up: the helper's pid and verdict (a socket:
	 * the caller sends the filter's listener there). */
	if ((mid = fork_piped(down, up, st)) < 0)
		return -1;
	if (mid == 0) {
		/* The intermediate: a new session, the helper, and gone, so
		 * the helper is nobody's child the command knows of. */
		setsid();
		if ((helper = fork()) != 0) {
			/* (a fork refused: its errno, negated, for a pid) */
			pid_t e = -errno;

			if (helper < 0 && write(up[1], &e, sizeof(e)) < 0)
				_exit(1);
			_exit(helper < 0);
		}
		close(down[1]);
		close(up[0]);
		if (hot_cpu >= 0) {
			cpu_set_t one;

			CPU_ZERO(&one);
			CPU_SET(hot_cpu, &one);
			sched_setaffinity(0, sizeof(one), &one);
		}
		helper = getpid();
		if (write(up[1], &helper, sizeof(helper)) < 0 ||
		    read_all(down[0], &go, 1) < 0)
			_exit(0);
		/* The command's exit event tells the tracer to hold its
		 * zombie until the report is written (follow.c). */
		if (ptrace(PTRACE_SEIZE, me, 0,
			   FOLLOW_OPTIONS |
			       (wait_all ? 0 : PTRACE_O_TRACEEXIT)) < 0)
			err = errno;
		if (write(up[1], &err, sizeof(err)) < 0 || err)
			_exit(0);
		close(down[0]);
		st->sock = up[1];
		st->in_tracer = true;
		return 0;
	}
	close(down[0]);
	close(up[1]);
	while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
		;
	if (read_all(up[0], &helper, sizeof(helper)) < 0 || helper <= 0) {
		st->why = FOLLOW_NO_HELPER;
		st->err = helper < 0 ? -helper : ECHILD;
		goto fail;
	}
	/* Under Yama's scope 1 only a named tracer may attach to a process
	 * that is not its descendant; name the helper for that moment. */
	prctl(PR_SET_PTRACER, helper, 0, 0, 0);
	if (write(down[1], &go, 1) < 0 ||
	    read_all(up[0], &err, sizeof(err)) < 0) {
		err = err ? err : ECHILD;
	}
	prctl(PR_SET_PTRACER, 0, 0, 0, 0);
	if (err) {
		st->err = err;
		st->why = err == EINVAL || err == EIO ? FOLLOW_NO_SEIZE
						      : FOLLOW_DENIED;
		goto fail;
	}
	notify_offer(up[0], st);
	close(up[0]);
	close(down[1]);
	return 0;
fail:
	close(up[0]);
	close(down[1]);
	return -1;
}

unsigned follow_run(const struct follow_ops *ops, const struct follow_start *st)
{
	int status;

	helper_hygiene(ops->keep_fd, st->sock, st->word);
	return follow_trace(ops, st->command, &status, true, st->sock);
}

/* --- pinrun as the parent (PID 1) ------------------------------------- */

static pid_t forward_to;

/* As PID 1 pinrun receives only the signals it handles: pass them on,
 * from the handler itself (a flag would wait for the next tracee event).
 * Those the terminal sent went to the command's group already, but for a
 * hangup: the kernel sends it to the session's leader alone, which
 * without pinrun would be the command. */
static void forward(int sig, siginfo_t *info, void *unused)
{
	(void)unused;
	if (forward_to > 0 && (info->si_code != SI_KERNEL ||
			       (sig == SIGHUP && getsid(0) == getpid())))
		kill(forward_to, sig);
}

/* The signals pinrun passes on to the command it waits for. */
static const int passed[] = { SIGTERM, SIGINT,	SIGHUP, SIGQUIT,
			      SIGUSR1, SIGUSR2, SIGALRM };

void follow_tell(const struct follow_start *st, char word)
{
	while (st->word >= 0 && write(st->word, &word, 1) < 0 && errno == EINTR)
		;
}

int follow_wait(const struct follow_start *st, char *word)
{
	struct sigaction sa = { .sa_sigaction = forward,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	int keep[] = { 0, 1, 2, st->word }, status = 0;
	ssize_t n;
	char c;

	/* Hold nothing of the command's but stdio: a descriptor held here
	 * could keep a reader in the tree waiting for end of file. */
	host_close_all_but(keep, sizeof(keep) / sizeof(keep[0]));
	forward_to = st->command;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++)
		sigaction(passed[i], &sa, NULL);
	while (waitpid(st->command, &status, 0) < 0 && errno == EINTR)
		;
	*word = 0;
	while ((n = read(st->word, &c, 1)) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			*word = c;
	return status;
}

int follow_parent(const struct follow_ops *ops, char **command,
		  const void *mask, const void *whole_mask, bool strict,
		  struct follow_start *st, int *status, int *exec_error)
{
	struct sigaction sa = { .sa_sigaction = forward,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	int gate[2], err[2], e = 0;
	/* No exit event: that is how the helper holds the command's zombie
	 * for its parent; here pinrun is the parent and reaps it itself
	 * (with --wait-all, then goes on with the tree). */
	long options = FOLLOW_OPTIONS | PTRACE_O_EXITKILL;
	pid_t child;
	char traced = 1;
	struct sigaction had;

	memset(st, 0, sizeof(*st));
	st->sock = -1;
	st->word = -1;
	st->tell_affinity = ops->affinity != NULL;
	*exec_error = 0;
	*status = 0;
	host_sigchld_default(&had);
	if ((child = fork_piped(gate, err, st)) < 0) {
		host_sigchld_restore(&had);
		return -1;
	}
	if (child == 0) {
		char go = 0;

		host_sigchld_restore(&had);
		close(gate[1]);
		close(err[0]);
		sched_setaffinity(0, ops->mask_bytes, mask);
		/* Wait until seized: one byte then, or none (end of file)
		 * when the command runs unfollowed, without the filter. */
		while (read(gate[0], &go, 1) < 0 && errno == EINTR)
			;
		if (go)
			notify_offer(err[1], st);
		execvp(command[0], command);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0) {
			/* the parent sees a plain exit then */
		}
		_exit(pinrun_exec_status(e));
	}
	close(gate[0]);
	close(err[1]);
	forward_to = child;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++)
		sigaction(passed[i], &sa, NULL);
	if (ptrace(PTRACE_SEIZE, child, 0, options) < 0 &&
	    (errno != EINVAL || ptrace(PTRACE_SEIZE, child, 0,
				       options & ~PTRACE_O_EXITKILL) < 0)) {
		st->err = errno;
		st->why = errno == EINVAL || errno == EIO ? FOLLOW_NO_SEIZE
							  : FOLLOW_DENIED;
		if (strict) {
			/* Nothing may run: the child still waits at the gate.
			 */
			kill(child, SIGKILL);
			while (waitpid(child, NULL, 0) < 0 && errno == EINTR)
				;
			close(gate[1]);
			close(err[0]);
			return -1;
		}
		sched_setaffinity(child, ops->mask_bytes, whole_mask);
	} else if (write(gate[1], &traced, 1) < 0) {
		/* the child then runs unfollowed, without the filter */
	}
	close(gate[1]);
	if (st->why == FOLLOW_OK) {
		follow_trace(ops, child, status, false, err[0]);
	} else {
		while (waitpid(child, status, 0) < 0 && errno == EINTR)
			;
	}
	/* The exec's verdict: its errno, or end of file once it ran. */
	if (read_all(err[0], &e, sizeof(e)) == 0)
		*exec_error = e;
	close(err[0]);
	/* Orphans of the namespace come to PID 1: reap what is left. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return st->why == FOLLOW_OK ? 0 : -1;
}
