/* SPDX-License-Identifier: BSD-3-Clause */
/* tree PROG: run one random process tree of tests/follow-torture. PROG is
 * a small language, one letter per action, run left to right by the
 * process (or thread) that reads it; (...) is a sub-program for a child:
 *
 *   F(p)  fork: the child runs p, then exits 0
 *   V(p)  vfork, the child exec's tree p
 *   C(p)  raw clone(SIGCHLD) child (no glibc fork handlers) runs p
 *   T(p)  a thread runs p (joined before the process exits)
 *   Z     the rest runs in a new thread; the main thread pthread_exit's
 *         (a zombie thread-group leader)
 *   E(p)  exec tree p (from a thread: a non-leader exec)
 *   D(p)  daemon: fork, setsid, fork again, stdio on /dev/null, run p
 *   Q(p)  background child with stdio on /dev/null runs p, not waited for
 *   H(p)  background child that keeps stdout open runs p
 *   P(p)  pipe held open: a grandchild reads a pipe to its end, then runs
 *         p; this process keeps the writing end until it ends
 *   A     ptrace: a child forks a grandchild and PTRACE_ATTACHes it,
 *         detaches, kills and reaps it
 *   N(p)  nested: a child runs "$PINRUN --spread --follow --report R -- tree
 *         p" (tree p itself with TORTURE_PLAIN set), with a log of its own
 *   W     wait for every child
 *   U     20 SIGUSR1 to itself, handled
 *   O     write "hi" to stdout
 *   S<n>  sleep n ms
 *   X<n>  exit n (the whole process)
 *   K<n>  raise signal n with its default action
 *
 * Every process, at its start and after each exec, and every thread, at
 * its start, appends one line to $TORTURE_LOG (one write, O_APPEND):
 * "P|T PID TID PPID TRACERPID CPUS", CPUS its own Cpus_allowed_list as
 * /proc/self/task/TID/status has it. Nothing is written as a process ends:
 * the command's end comes as soon as a shell's would (its races). A nested
 * run's log is $TORTURE_LOG.PID and its report $TORTURE_REPORT.PID (PID the
 * nested pinrun's). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *self;

/* A field of /proc/self/task/TID/status, NUL-terminated, in buf. */
static void status_field(pid_t tid, const char *key, char *buf, size_t len)
{
	char path[64], text[8192];
	ssize_t n;
	int fd;
	size_t klen = strlen(key);

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	snprintf(buf, len, "?");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	for (char *l = text; l && *l;
	     l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (strncmp(l, key, klen) == 0 && l[klen] == ':') {
			char *v = l + klen + 1, *e;

			while (*v == '\t' || *v == ' ')
				v++;
			e = strchr(v, '\n');
			snprintf(buf, len, "%.*s",
				 e ? (int)(e - v) : (int)strlen(v), v);
			return;
		}
	}
}

static void report_self(char kind)
{
	char cpus[4096], tracer[32], line[4200];
	pid_t tid = (pid_t)syscall(SYS_gettid);
	const char *log = getenv("TORTURE_LOG");
	int fd, n;

	if (!log)
		return;
	status_field(tid, "Cpus_allowed_list", cpus, sizeof(cpus));
	status_field(tid, "TracerPid", tracer, sizeof(tracer));
	n = snprintf(line, sizeof(line), "%c %d %d %d %s %s\n", kind,
		     (int)getpid(), (int)tid, (int)getppid(), tracer, cpus);
	if ((fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)) <
	    0)
		return;
	if (write(fd, line, (size_t)n) < 0) {
		/* the checker finds the line missing */
	}
	close(fd);
}

/* The end of the sub-program that starts at p[0] == '(' : the index just
 * after its ')'. */
static size_t group_end(const char *p)
{
	int depth = 0;
	size_t i = 0;

	do {
		if (p[i] == '(')
			depth++;
		else if (p[i] == ')')
			depth--;
		i++;
	} while (p[i - 1] && depth > 0);
	return i;
}

/* The sub-program at p ('(' ... ')'), copied without its parentheses. */
static char *group(const char *p, size_t *len)
{
	*len = group_end(p);
	return strndup(p + 1, *len >= 2 ? *len - 2 : 0);
}

static long number(const char *p, size_t *len)
{
	char *end;
	long v = strtol(p, &end, 10);

	*len = (size_t)(end - p);
	return v;
}

static void run(const char *prog, bool root_of_process);

static void exec_tree(const char *prog)
{
	execl(self, self, prog, (char *)NULL);
	_exit(120);
}

/* vfork in a function of its own: its caller's variables stay safe. */
static void __attribute__((noinline)) vfork_exec(const char *prog)
{
	if (vfork() == 0)
		exec_tree(prog);
}

struct job {
	char *prog;
};

static void *thread_main(void *arg)
{
	struct job *j = arg;

	report_self('T');
	run(j->prog, false);
	free(j->prog);
	free(j);
	return NULL;
}

static void *rest_main(void *arg)
{
	struct job *j = arg;

	report_self('T');
	run(j->prog, true);
	free(j->prog);
	free(j);
	exit(0);
}

static pthread_t threads[64];
static unsigned nthreads;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static void to_null(int keep_stdout)
{
	int null = open("/dev/null", O_RDWR);

	if (null < 0)
		return;
	dup2(null, 0);
	if (!keep_stdout)
		dup2(null, 1);
	dup2(null, 2);
	if (null > 2)
		close(null);
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* In a process of its own (no other thread of it may wait meanwhile and
 * take the stop): fork a child, attach it, detach, kill and reap it. */
static void attach(void)
{
	pid_t tracer = fork(), child;
	int st;

	if (tracer != 0) {
		if (tracer > 0)
			waitpid(tracer, &st, 0);
		return;
	}
	report_self('P');
	if ((child = fork()) == 0) {
		for (;;)
			pause();
	}
	if (child > 0 && ptrace(PTRACE_ATTACH, child, 0, 0) == 0) {
		waitpid(child, &st, __WALL);
		ptrace(PTRACE_DETACH, child, 0, 0);
	}
	if (child > 0) {
		kill(child, SIGKILL);
		waitpid(child, &st, 0);
	}
	_exit(0);
}

static void nested(const char *prog)
{
	const char *log = getenv("TORTURE_LOG"),
		   *report = getenv("TORTURE_REPORT"),
		   *pinrun = getenv("PINRUN");
	char path[4096], rpath[4096];
	pid_t child = fork();

	if (child != 0) {
		int st;

		if (child > 0)
			waitpid(child, &st, 0);
		return;
	}
	if (getenv("TORTURE_PLAIN") || !log || !report || !pinrun) {
		run(prog, true);
		_exit(0);
	}
	snprintf(path, sizeof(path), "%s.%d", log, (int)getpid());
	snprintf(rpath, sizeof(rpath), "%s.%d", report, (int)getpid());
	setenv("TORTURE_LOG", path, 1);
	setenv("TORTURE_REPORT", rpath, 1);
	execl(pinrun, pinrun, "--spread", "--follow", "--report", rpath, "--",
	      self, prog, (char *)NULL);
	_exit(121);
}

/* Before the process ends or exec's: its threads first (what they do is
 * then the same in every run). */
static void join_all(bool root_of_process)
{
	if (!root_of_process)
		return;
	for (unsigned k = 0; k < nthreads; k++)
		pthread_join(threads[k], NULL);
	nthreads = 0;
}

static void held_pipe(const char *prog)
{
	int fds[2];
	pid_t pid;
	char c;

	if (pipe(fds) < 0)
		return;
	if ((pid = fork()) == 0) {
		if (fork() != 0)
			_exit(0);
		nthreads = 0;
		close(fds[1]);
		report_self('P');
		for (ssize_t n = 1; n != 0;)
			if ((n = read(fds[0], &c, 1)) < 0 && errno != EINTR)
				break;
		run(prog, true);
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	close(fds[0]); /* fds[1] stays open, across exec too */
}

/* Run prog; root_of_process: this thread ends the process when done. */
static void run(const char *prog, bool root_of_process)
{
	size_t i = 0, len;

	while (prog[i]) {
		char c = prog[i++];
		char *sub = NULL;
		pid_t pid;
		long n;

		if (prog[i] == '(') {
			sub = group(prog + i, &len);
			i += len;
		}
		switch (c) {
		case 'F':
			if ((pid = fork()) == 0) {
				nthreads = 0;
				report_self('P');
				run(sub ? sub : "", true);
				_exit(0);
			}
			break;
		case 'C':
			if ((pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0,
						  0)) == 0) {
				nthreads = 0;
				report_self('P');
				run(sub ? sub : "", true);
				_exit(0);
			}
			break;
		case 'V':
			vfork_exec(sub ? sub : "");
			break;
		case 'T':
			if (nthreads < 64) {
				struct job *j = malloc(sizeof(*j));

				j->prog = strdup(sub ? sub : "");
				if (pthread_create(&threads[nthreads], NULL,
						   thread_main, j) == 0)
					nthreads++;
			}
			break;
		case 'Z': {
			struct job *j = malloc(sizeof(*j));
			pthread_t t;

			j->prog = strdup(prog + i);
			if (pthread_create(&t, NULL, rest_main, j) == 0)
				pthread_exit(NULL);
			break;
		}
		case 'E':
			join_all(root_of_process);
			exec_tree(sub ? sub : "");
			break;
		case 'D':
			if ((pid = fork()) == 0) {
				setsid();
				if (fork() == 0) {
					nthreads = 0;
					to_null(0);
					report_self('P');
					run(sub ? sub : "", true);
					_exit(0);
				}
				_exit(0);
			}
			if (pid > 0)
				waitpid(pid, NULL, 0);
			break;
		case 'Q':
		case 'H':
			if (fork() == 0) {
				nthreads = 0;
				to_null(c == 'H');
				report_self('P');
				run(sub ? sub : "", true);
				_exit(0);
			}
			break;
		case 'P':
			held_pipe(sub ? sub : "");
			break;
		case 'A':
			attach();
			break;
		case 'N':
			nested(sub ? sub : "");
			break;
		case 'W':
			while (wait(NULL) > 0 || errno == EINTR)
				;
			break;
		case 'U':
			signal(SIGUSR1, on_usr1);
			for (int k = 0; k < 20; k++)
				raise(SIGUSR1);
			break;
		case 'O':
			if (write(1, "hi\n", 3) < 0) {
				/* stdout closed: nothing to say */
			}
			break;
		case 'S':
			n = number(prog + i, &len);
			i += len;
			sleep_ms(n);
			break;
		case 'X':
			n = number(prog + i, &len);
			i += len;
			join_all(root_of_process);
			exit((int)n);
		case 'K':
			n = number(prog + i, &len);
			i += len;
			join_all(root_of_process);
			signal((int)n, SIG_DFL);
			raise((int)n);
			break;
		default:
			break;
		}
		free(sub);
	}
	join_all(root_of_process);
}

int main(int argc, char **argv)
{
	static char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (argc < 2 || n <= 0) {
		fprintf(stderr, "usage: tree PROG\n");
		return 2;
	}
	exe[n] = '\0';
	self = exe;
	report_self('P');
	run(argv[1], true);
	return 0;
}
