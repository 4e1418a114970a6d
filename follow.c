/*
 * follow.c: the ptrace follower. It seizes the command (from a detached
 * helper, or as its parent when pinrun is PID 1), follows forks, vforks,
 * clones and execs with PTRACE_CONT only (no syscall stops), has each new
 * task placed at its own first stop through a callback, re-injects every
 * signal, answers group-stops with PTRACE_LISTEN, and at the end detaches
 * what still runs without losing a pending signal. It knows nothing of
 * policies or messages: the callbacks place, report and word. The forked
 * helper processes end here with _exit, the only exits outside pinrun.c.
 * The design and its measurements: ../shared/notes/ptrace-follow.md.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "follow.h"
#include "tidmap.h"

#define OPTIONS                                                                \
	(PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |      \
	 PTRACE_O_TRACEEXEC)

enum {
	T_KNOWN = 1,	 /* its first stop was seen */
	T_THREAD = 2,	 /* not a thread group leader */
	T_PARKED = 4,	 /* stopped, waiting for its parent's event */
	T_LISTENING = 8, /* in a group-stop we left it in */
	T_HELD = 16,	 /* the command, held at its exit (wait_all) */
	T_FORKED = 32,	 /* made by fork or vfork: a process, not a thread */
};

struct task {
	unsigned flags;
	pid_t parent;	  /* from the parent's creation event, 0 if not yet */
	const void *mask; /* the CPUs we gave it (children inherit them) */
};

/* What an exec'd program is, remembered by file: most execs run the same
 * few programs, and a stat is cheaper than resolving /proc/TID/exe. */
struct program {
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
	enum follow_why verdict; /* FOLLOW_SURVIVOR: nothing to do */
};

struct tracer {
	const struct follow_ops *ops;
	struct tidmap tasks;
	pid_t command;
	int command_status;
	bool command_done, detaching, helper;
	unsigned live; /* known tasks (first stop seen), the command too */
	unsigned parked, processes;
	dev_t self_dev; /* pinrun's own binary, to spot a nested pinrun */
	ino_t self_ino;
	uid_t euid;
	gid_t egid;
	struct program seen[64];
	unsigned nseen;
};

static void forget(struct tracer *tr, pid_t tid)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (!t)
		return;
	if (t->flags & T_PARKED)
		tr->parked--;
	if (t->flags & T_KNOWN)
		tr->live--;
	tidmap_remove(&tr->tasks, tid);
	tr->ops->gone(tr->ops->ctx, tid);
}

/* Resume a task we keep following; when detaching, let it go instead
 * (passing on the signal it stopped for, so none is lost). */
static void resume(struct tracer *tr, pid_t tid, int sig)
{
	struct task *t;

	if (!tr->detaching) {
		ptrace(PTRACE_CONT, tid, 0, sig);
		return;
	}
	ptrace(PTRACE_DETACH, tid, 0, sig);
	t = tidmap_find(&tr->tasks, tid);
	if (t && !(t->flags & T_THREAD))
		tr->ops->released(tr->ops->ctx, tid, FOLLOW_SURVIVOR, NULL);
	forget(tr, tid);
}

/* Set a new task's CPUs and let it go. */
static void place(struct tracer *tr, pid_t tid, struct task *t)
{
	const void *mask =
	    tr->ops->place(tr->ops->ctx, tid, t->parent, t->flags & T_THREAD);
	const struct task *p =
	    t->parent ? tidmap_find(&tr->tasks, t->parent) : NULL;

	/* A child has its creator's CPUs already: only a different slot
	 * costs a system call. */
	if (mask && !(p && p->mask == mask))
		sched_setaffinity(tid, tr->ops->mask_bytes, mask);
	t = tidmap_find(&tr->tasks, tid);
	t->mask = mask;
	if (!(t->flags & T_THREAD))
		tr->processes++;
	if (t->flags & T_PARKED) {
		t->flags &= ~T_PARKED;
		tr->parked--;
	}
	resume(tr, tid, 0);
}

/* The parent of a parked task, when its creation event will not come (its
 * parent died first): from /proc, off the hot path. */
static pid_t proc_parent(pid_t tid)
{
	char path[64], buf[512], *p;
	int fd, n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')))
		return 0;
	return (pid_t)atoi(p + 4); /* ") S PPID" */
}

static void unpark_all(struct tracer *tr)
{
	pid_t tid;

	for (size_t i = 0;
	     tr->parked &&
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
		struct task *t = tidmap_find(&tr->tasks, tid);

		if (t->flags & T_PARKED) {
			t->parent = proc_parent(tid);
			place(tr, tid, t);
			i = 0; /* place may have removed entries: rescan */
		}
	}
}

/* First stop of a task we have not seen. */
static void first_stop(struct tracer *tr, pid_t tid)
{
	struct task *t = tidmap_insert(&tr->tasks, tid);

	if (!t) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return;
	}
	t->flags |= T_KNOWN;
	tr->live++;
	/* Only a thread group leader may be signalled as its own group. */
	if (!(t->flags & T_FORKED) && syscall(SYS_tgkill, tid, tid, 0) < 0)
		t->flags |= T_THREAD;
	if (tr->ops->wait_all)
		ptrace(PTRACE_SETOPTIONS, tid, 0, OPTIONS);
	if (t->flags & T_THREAD && !tr->ops->threads) {
		resume(tr, tid, 0);
		return;
	}
	/* A process whose parent has not reported creating it yet waits for
	 * that event: the slot rule needs the parent. It comes within
	 * microseconds (the parent is on its way out of fork). */
	if (!(t->flags & T_THREAD) && !t->parent && !tr->detaching) {
		t->flags |= T_PARKED;
		tr->parked++;
		return;
	}
	place(tr, tid, t);
}

/* A task created another: note the parent, or release the parked child. */
static void created(struct tracer *tr, pid_t parent, int event)
{
	unsigned long msg = 0;
	struct task *t;

	if (ptrace(PTRACE_GETEVENTMSG, parent, 0, &msg) == 0 && msg &&
	    (t = tidmap_insert(&tr->tasks, (pid_t)msg))) {
		t->parent = parent;
		if (event != PTRACE_EVENT_CLONE)
			t->flags |= T_FORKED;
		if (t->flags & T_PARKED)
			place(tr, (pid_t)msg, t);
	}
	resume(tr, parent, 0);
}

static bool is_tracer(const char *path)
{
	static const char *const tracers[] = {
		"strace",      "ltrace", "gdb",	 "gdbserver", "lldb",
		"lldb-server", "rr",	 "vgdb", "proot",     "criu",
	};
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	for (size_t i = 0; i < sizeof(tracers) / sizeof(tracers[0]); i++)
		if (!strcmp(base, tracers[i]))
			return true;
	return false;
}

/* What to do with an exec'd program: let go of a set-user-ID one (an
 * unprivileged tracer makes the kernel drop its privileges) and of one
 * that traces (it could not while traced). */
static enum follow_why judge(struct tracer *tr, const char *exe,
			     const struct stat *st, char *program, size_t size)
{
	struct program *p = NULL;
	ssize_t n;

	for (unsigned i = 0; i < tr->nseen && i < 64 && !p; i++)
		if (tr->seen[i].dev == st->st_dev &&
		    tr->seen[i].ino == st->st_ino &&
		    tr->seen[i].mtime.tv_sec == st->st_mtim.tv_sec &&
		    tr->seen[i].mtime.tv_nsec == st->st_mtim.tv_nsec)
			p = &tr->seen[i];
	if (p && p->verdict == FOLLOW_SURVIVOR)
		return FOLLOW_SURVIVOR;
	if ((n = readlink(exe, program, size - 1)) > 0)
		program[n] = '\0';
	if (p)
		return p->verdict;
	p = &tr->seen[tr->nseen++ % 64];
	p->dev = st->st_dev;
	p->ino = st->st_ino;
	p->mtime = st->st_mtim;
	p->verdict = FOLLOW_SURVIVOR;
	if (tr->euid != 0 &&
	    ((st->st_mode & S_ISUID && st->st_uid != tr->euid) ||
	     (st->st_mode & S_ISGID && st->st_gid != tr->egid) ||
	     getxattr(exe, "security.capability", NULL, 0) > 0))
		p->verdict = FOLLOW_SETUID;
	else if ((st->st_dev == tr->self_dev && st->st_ino == tr->self_ino) ||
		 is_tracer(program))
		p->verdict = FOLLOW_TRACER;
	return p->verdict;
}

/* A process exec'd: the new image may need to be let go. */
static void execed(struct tracer *tr, pid_t tid)
{
	unsigned long former = 0;
	char exe[64], program[PATH_MAX] = "";
	struct stat st;
	enum follow_why why = FOLLOW_SURVIVOR;

	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 && former &&
	    (pid_t)former != tid) {
		/* A thread exec'd: it took over the leader's tid. */
		struct task *f = tidmap_find(&tr->tasks, (pid_t)former);

		if (f && (f->flags & T_PARKED))
			tr->parked--;
		if (f && (f->flags & T_KNOWN))
			tr->live--;
		tidmap_remove(&tr->tasks, (pid_t)former);
		tr->ops->moved(tr->ops->ctx, (pid_t)former, tid);
	}
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)tid);
	if (stat(exe, &st) == 0)
		why = judge(tr, exe, &st, program, sizeof(program));
	if (tr->ops->want_exec) {
		if (!program[0]) {
			ssize_t n = readlink(exe, program, sizeof(program) - 1);

			if (n > 0)
				program[n] = '\0';
		}
		if (program[0])
			tr->ops->exec(tr->ops->ctx, tid, program);
	}
	if (why != FOLLOW_SURVIVOR && !tr->detaching) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		tr->ops->released(tr->ops->ctx, tid, why, program);
		forget(tr, tid);
		return;
	}
	resume(tr, tid, 0);
}

/* Let go of every task: interrupt each, then detach it at its next stop
 * (in whatever order they come: a vfork parent cannot stop before its
 * child has exec'd). */
static void start_detaching(struct tracer *tr)
{
	pid_t tid;

	tr->detaching = true;
	unpark_all(tr);
	for (size_t i = 0;
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;)
		ptrace(PTRACE_INTERRUPT, tid, 0, 0);
}

static void ended(struct tracer *tr, pid_t tid, int status,
		  const struct rusage *ru)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (t && !(t->flags & T_THREAD))
		tr->ops->ended(tr->ops->ctx, tid, status, ru);
	forget(tr, tid);
	if (tid == tr->command) {
		tr->command_done = true;
		tr->command_status = status;
	}
	if (tr->parked)
		unpark_all(tr);
}

/* The command held at its exit (wait_all) goes once it is alone. */
static void maybe_release_command(struct tracer *tr)
{
	struct task *t = tidmap_find(&tr->tasks, tr->command);

	if (t && (t->flags & T_HELD) && tr->live == 1) {
		t->flags &= ~T_HELD;
		ptrace(PTRACE_CONT, tr->command, 0, 0);
	}
}

static void stopped(struct tracer *tr, pid_t tid, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (event == PTRACE_EVENT_STOP && !(t && (t->flags & T_KNOWN)) &&
	    sig == SIGTRAP) {
		first_stop(tr, tid);
		return;
	}
	if (!t) {
		/* Not ours (any more): let it go as it was. */
		ptrace(PTRACE_DETACH, tid, 0, event ? 0 : sig);
		return;
	}
	switch (event) {
	case 0: /* signal-delivery-stop: deliver it */
		resume(tr, tid, sig);
		break;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		created(tr, tid, event);
		break;
	case PTRACE_EVENT_EXEC:
		execed(tr, tid);
		break;
	case PTRACE_EVENT_EXIT:
		/* Only the command asks for this (wait_all): hold it while
		 * others run, so its parent learns of its end after theirs. */
		if (tid == tr->command && tr->live > 1 && !tr->detaching)
			t->flags |= T_HELD;
		else
			resume(tr, tid, 0);
		break;
	case PTRACE_EVENT_STOP:
		/* A group-stop stays stopped, as the shell believes; LISTEN
		 * lets us hear of the SIGCONT (DETACH keeps it stopped). */
		if ((sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		     sig == SIGTTOU) &&
		    !tr->detaching)
			ptrace(PTRACE_LISTEN, tid, 0, 0);
		else
			resume(tr, tid, 0);
		break;
	default:
		resume(tr, tid, 0);
	}
}

static unsigned trace(const struct follow_ops *ops, pid_t command,
		      int *command_status, bool helper)
{
	struct tracer tr = { .ops = ops, .command = command };
	struct task *t;
	struct stat self;

	tidmap_init(&tr.tasks, sizeof(struct task));
	if (stat("/proc/self/exe", &self) == 0) {
		tr.self_dev = self.st_dev;
		tr.self_ino = self.st_ino;
	}
	tr.euid = geteuid();
	tr.egid = getegid();
	if ((t = tidmap_insert(&tr.tasks, command))) {
		t->flags = T_KNOWN;
		tr.live = 1;
	}
	if (t)
		t->mask = ops->place(ops->ctx, command, 0, false);
	tr.processes = 1;
	tr.helper = helper;
	for (;;) {
		struct rusage ru;
		int status;
		pid_t tid;

		if (tr.command_done && !tr.detaching) {
			ops->finished(ops->ctx, tr.processes, tr.live);
			/* The helper keeps stderr for warnings only while the
			 * command runs: $(pinrun ... 2>&1) must not wait. */
			if (helper) {
				int null = open("/dev/null", O_WRONLY);

				if (null >= 0 && dup2(null, 2) >= 0)
					close(null);
			}
			start_detaching(&tr);
		}
		if (tr.command_done && !tr.live)
			break;
		tid = wait4(-1, &status, __WALL, ops->want_exec ? &ru : NULL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing left to trace */
		}
		if (WIFEXITED(status) || WIFSIGNALED(status))
			ended(&tr, tid, status, &ru);
		else if (WIFSTOPPED(status))
			stopped(&tr, tid, status);
		if (ops->wait_all)
			maybe_release_command(&tr);
	}
	tidmap_free(&tr.tasks);
	*command_status = tr.command_status;
	return tr.processes;
}

/* --- the detached helper (the default) --------------------------------- */

static void helper_hygiene(int keep_fd)
{
	static const int ignored[] = { SIGINT,	SIGQUIT, SIGHUP, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGPIPE };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

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
	/* Keep stderr (warnings) and keep_fd (the report); hold nothing
	 * else the user's shell gave the command: a pipe held open here
	 * would keep its reader waiting. */
	for (int fd = 3; fd < 1024; fd++)
		if (fd != keep_fd && fd != null)
			close(fd);
}

static int read_all(int fd, void *buf, size_t len)
{
	ssize_t n;

	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n == (ssize_t)len ? 0 : -1;
}

/* Two pipes, then a fork; on failure, why is in st and nothing is left
 * open. */
static pid_t fork_piped(int a[2], int b[2], struct follow_start *st)
{
	pid_t pid = -1;
	int e;

	if (pipe2(a, O_CLOEXEC) < 0) {
		e = errno;
		goto fail;
	}
	if (pipe2(b, O_CLOEXEC) < 0) {
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

static pid_t tracer_of_self(void)
{
	char buf[4096], *p;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC), n;

	if (fd < 0)
		return 0;
	n = (int)read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	p = strstr(buf, "\nTracerPid:");
	return p ? (pid_t)atoi(p + strlen("\nTracerPid:")) : 0;
}

int follow_start(struct follow_start *st, int hot_cpu, bool wait_all)
{
	int up[2], down[2], err = 0;
	pid_t me = getpid(), mid, helper = 0;
	char go = 1;

	memset(st, 0, sizeof(*st));
	st->command = me;
	if ((st->tracer = tracer_of_self()) != 0) {
		st->why = FOLLOW_TRACED;
		return -1;
	}
	if ((mid = fork_piped(up, down, st)) < 0)
		return -1;
	if (mid == 0) {
		/* The intermediate: a new session, the helper, and gone, so
		 * the helper is nobody's child the command knows of. */
		setsid();
		if ((helper = fork()) != 0)
			_exit(helper < 0);
		close(up[0]);
		close(down[1]);
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
		if (ptrace(PTRACE_SEIZE, me, 0,
			   OPTIONS | (wait_all ? PTRACE_O_TRACEEXIT : 0)) < 0)
			err = errno;
		if (write(up[1], &err, sizeof(err)) < 0 || err)
			_exit(0);
		close(up[1]);
		close(down[0]);
		st->in_tracer = true;
		return 0;
	}
	close(up[1]);
	close(down[0]);
	while (waitpid(mid, NULL, 0) < 0 && errno == EINTR)
		;
	if (read_all(up[0], &helper, sizeof(helper)) < 0) {
		st->why = FOLLOW_NO_HELPER;
		st->err = ECHILD;
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
	close(up[0]);
	close(down[1]);
	return 0;
fail:
	close(up[0]);
	close(down[1]);
	return -1;
}

unsigned follow_run(const struct follow_ops *ops, pid_t command)
{
	int status;

	helper_hygiene(ops->keep_fd);
	return trace(ops, command, &status, true);
}

/* --- pinrun as the parent (PID 1) ------------------------------------- */

static pid_t forward_to;

/* As PID 1 pinrun receives only the signals it handles: pass them on,
 * from the handler itself (a flag would wait for the next tracee event).
 * Those the terminal sent went to the command's group already. */
static void forward(int sig, siginfo_t *info, void *unused)
{
	(void)unused;
	if (info->si_code != SI_KERNEL && forward_to > 0)
		kill(forward_to, sig);
}

int follow_parent(const struct follow_ops *ops, char **command,
		  const void *mask, const void *whole_mask,
		  struct follow_start *st, int *status, int *exec_error)
{
	static const int passed[] = { SIGTERM, SIGINT,	SIGHUP, SIGQUIT,
				      SIGUSR1, SIGUSR2, SIGALRM };
	struct sigaction sa = { .sa_sigaction = forward,
				.sa_flags = SA_SIGINFO | SA_RESTART };
	int gate[2], err[2], e = 0;
	long options = OPTIONS | PTRACE_O_EXITKILL |
		       (ops->wait_all ? PTRACE_O_TRACEEXIT : 0);
	pid_t child;

	memset(st, 0, sizeof(*st));
	*exec_error = 0;
	if ((child = fork_piped(gate, err, st)) < 0)
		return -1;
	if (child == 0) {
		char go;

		close(gate[1]);
		close(err[0]);
		sched_setaffinity(0, ops->mask_bytes, mask);
		/* Wait until seized: the gate closes, read returns 0. */
		while (read(gate[0], &go, 1) < 0 && errno == EINTR)
			;
		execvp(command[0], command);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0) {
			/* the parent sees a plain exit then */
		}
		_exit(e == ENOENT ? 127 : 126);
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
		sched_setaffinity(child, ops->mask_bytes, whole_mask);
	}
	close(gate[1]);
	if (read_all(err[0], &e, sizeof(e)) == 0)
		*exec_error = e;
	close(err[0]);
	if (st->why == FOLLOW_OK) {
		trace(ops, child, status, false);
	} else {
		while (waitpid(child, status, 0) < 0 && errno == EINTR)
			;
	}
	/* Orphans of the namespace come to PID 1: reap what is left. */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	return st->why == FOLLOW_OK ? 0 : -1;
}
