/* SPDX-License-Identifier: BSD-3-Clause */
/* sigcount: counts the job-control signals it gets, for --follow's
 * "invisible" tests.
 *
 *   sigcount [-n] [-f FILE]
 *
 * Catches INT, TERM, CONT, TSTP and HUP; each handler writes "got SIG" at
 * the moment it runs (to stdout, and with -f these lines only are appended
 * to FILE too). TSTP then stops the process for real (default action,
 * unblocked, raised) and re-arms its handler when continued. HUP then dies
 * of SIGHUP.
 * Once the handlers are in place it prints "ready pid=P pgid=G".
 *
 * It reads stdin line by line: "counts" prints the counts line
 * "INT=i TERM=t CONT=c TSTP=s"; any other line is echoed as "line: TEXT".
 * -n: stdin is not read. At end of input, or 200 ms after a TERM (time for
 * a second one to arrive), it prints the counts line and exits 0. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nolsan.h"

static volatile sig_atomic_t n_int, n_term, n_cont, n_tstp;
static int logfd = -1;

static void say(const char *s)
{
	if (write(1, s, strlen(s)) < 0) {
		/* the terminal may be gone (HUP) */
	}
}

/* What a handler says goes to the log too. */
static void note(const char *s)
{
	say(s);
	if (logfd >= 0 && write(logfd, s, strlen(s)) < 0) {
		/* nothing better to do in a handler */
	}
}

static void on_signal(int sig);

static void arm(int sig)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* No SA_RESTART: a TERM interrupts poll. */
	sigaction(sig, &sa, NULL);
}

static void die_of(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

static void on_signal(int sig)
{
	int saved = errno;

	switch (sig) {
	case SIGINT:
		n_int++;
		note("got INT\n");
		break;
	case SIGTERM:
		n_term++;
		note("got TERM\n");
		break;
	case SIGCONT:
		n_cont++;
		note("got CONT\n");
		break;
	case SIGTSTP:
		n_tstp++;
		note("got TSTP\n");
		die_of(SIGTSTP); /* stops here until SIGCONT */
		arm(SIGTSTP);
		break;
	case SIGHUP:
		note("got HUP\n");
		die_of(SIGHUP);
		break;
	}
	errno = saved;
}

static void counts(void)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "INT=%d TERM=%d CONT=%d TSTP=%d\n",
		 (int)n_int, (int)n_term, (int)n_cont, (int)n_tstp);
	say(buf);
}

static void line(const char *text)
{
	char buf[4200];

	if (strcmp(text, "counts") == 0) {
		counts();
		return;
	}
	snprintf(buf, sizeof(buf), "line: %s\n", text);
	say(buf);
}

/* Sleep ms milliseconds whatever signals arrive meanwhile. */
static void settle(int ms)
{
	struct timespec left = { .tv_sec = ms / 1000,
				 .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

int main(int argc, char **argv)
{
	char buf[4096];
	size_t have = 0;
	int read_stdin = 1, opt;
	const int sigs[] = { SIGINT, SIGTERM, SIGCONT, SIGTSTP, SIGHUP };

	while ((opt = getopt(argc, argv, "nf:")) != -1) {
		switch (opt) {
		case 'n':
			read_stdin = 0;
			break;
		case 'f':
			logfd = open(optarg,
				     O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC,
				     0644);
			if (logfd < 0) {
				perror(optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: sigcount [-n] [-f FILE]\n");
			return 2;
		}
	}
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		arm(sigs[i]);
	snprintf(buf, sizeof(buf), "ready pid=%ld pgid=%ld\n", (long)getpid(),
		 (long)getpgrp());
	say(buf);

	while (n_term == 0) {
		struct pollfd p = { .fd = 0, .events = POLLIN };
		ssize_t n;
		char *nl;

		if (!read_stdin) {
			settle(50);
			continue;
		}
		if (poll(&p, 1, 100) <= 0)
			continue;
		n = read(0, buf + have, sizeof(buf) - 1 - have);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = '\0';
		while ((nl = strchr(buf, '\n')) != NULL) {
			*nl = '\0';
			line(buf);
			have -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, have + 1);
		}
		if (have == sizeof(buf) - 1) {
			line(buf);
			have = 0;
		}
	}
	if (n_term != 0)
		settle(200);
	counts();
	return 0;
}
