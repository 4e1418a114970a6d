/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * follow.c: the ptrace follower. It seizes the command (from a detached
 * helper, or as its parent when pinrun is PID 1), follows forks, vforks,
 * clones and execs with PTRACE_CONT only (no syscall stops), has each new
 * task placed at its own first stop through a callback, re-injects every
 * signal, answers group-stops with PTRACE_LISTEN, and at the end detaches
 * what still runs without losing a pending signal. A seccomp filter sends
 * it every ptrace attach made in the tree first, so that it lets go of
 * both sides before debuggers and sanitizers attach. It knows nothing of
 * policies or messages: the callbacks place, report and word. The forked
 * helper processes end here with _exit. docs/follow.md has the design.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "follow.h"
#include "host.h"
#include "pinrun.h"
#include "tidmap.h"

/* valgrind (3.19) does not implement seccomp(2), and warns at each call:
 * under it, pinrun runs without the filter. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define UNDER_VALGRIND() RUNNING_ON_VALGRIND
#endif
#endif
#ifndef UNDER_VALGRIND
#define UNDER_VALGRIND() 0
#endif

#define OPTIONS                                                                \
	(PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |      \
	 PTRACE_O_TRACEEXEC)

enum {
	T_KNOWN = 1,	 /* its first stop was seen */
	T_THREAD = 2,	 /* not a thread group leader */
	T_PARKED = 4,	 /* stopped, waiting for its parent's event */
	T_HELD = 8,	 /* the command, held at its exit (wait_all) */
	T_FORKED = 16,	 /* made by fork or vfork: a process, not a thread */
	T_LETGO = 32,	 /* to be let go at its next stop */
	T_BLOCKING = 64, /* a ptrace attach waits until it is let go */
};

struct task {
	unsigned flags;
	pid_t parent;	  /* from the parent's creation event, 0 if not yet */
	const void *mask; /* the CPUs we gave it (children inherit them) */
	enum follow_why why; /* with T_LETGO */
};

/* What an exec'd program is, remembered by file: most execs run the same
 * few programs, and a stat is cheaper than resolving /proc/TID/exe. The
 * change time is in the key: chmod u+s or setcap changes it, and a new
 * content too. */
struct program {
	dev_t dev;
	ino_t ino;
	struct timespec ctime;
	enum follow_why verdict; /* FOLLOW_SURVIVOR: nothing to do */
};

/* The listening end of the seccomp filter (see "Attaches" below). */
struct listener {
	int fd;	    /* -1: no filter */
	int sock;   /* where the caller sends it, until it has come; or -1 */
	pid_t bell; /* a child that ends when an attach waits; 0: none */
	bool nnp;   /* no_new_privs was set for the filter */
	bool hup;   /* no task is left under the filter: no attach comes */
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
	unsigned long long *waiting; /* attaches answered once none blocks */
	unsigned nwaiting, cap;
};

struct tracer {
	const struct follow_ops *ops;
	struct tidmap tasks;
	pid_t command;
	int command_status;
	bool command_done, command_gone, detaching;
	unsigned live; /* known tasks (first stop seen), the command too */
	unsigned parked, processes;
	unsigned blocking; /* tasks with T_BLOCKING */
	dev_t self_dev;	   /* pinrun's own binary, to spot a nested pinrun */
	ino_t self_ino;
	bool already_nnp, may_trace_privileged;
	struct listener l;
	struct program seen[64];
	unsigned nseen;
};

static void settle(struct tracer *tr);

static void forget(struct tracer *tr, pid_t tid)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (!t)
		return;
	if (t->flags & T_PARKED)
		tr->parked--;
	if (t->flags & T_KNOWN)
		tr->live--;
	if (t->flags & T_BLOCKING)
		tr->blocking--;
	tidmap_remove(&tr->tasks, tid);
	tr->ops->gone(tr->ops->ctx, tid);
	if (!tr->blocking)
		settle(tr);
}

/* Let go of a task in a ptrace-stop, passing on the signal it stopped
 * for, so that none is lost. */
static void detach(struct tracer *tr, pid_t tid, int sig, const char *program)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	ptrace(PTRACE_DETACH, tid, 0, sig);
	if (t && !(t->flags & T_THREAD))
		tr->ops->released(tr->ops->ctx, tid,
				  t->flags & T_LETGO ? t->why : FOLLOW_SURVIVOR,
				  program);
	if (tid == tr->command)
		tr->command_gone = true;
	forget(tr, tid);
}

/* Resume a task we keep following; when it is to be let go, let it go
 * instead. */
static void resume(struct tracer *tr, pid_t tid, int sig)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (!tr->detaching && !(t && t->flags & T_LETGO))
		ptrace(PTRACE_CONT, tid, 0, sig);
	else
		detach(tr, tid, sig, NULL);
}

/* Set a new task's CPUs and let it go. */
static void place(struct tracer *tr, pid_t tid, struct task *t)
{
	const void *mask =
	    tr->ops->place(tr->ops->ctx, tid, t->parent, t->flags & T_THREAD);
	const struct task *p =
	    t->parent ? tidmap_find(&tr->tasks, t->parent) : NULL;

	/* A child has its creator's CPUs already: only a different slot
	 * costs a system call. Refused (a cpuset without those CPUs, another
	 * user's task), it keeps the CPUs it inherited, and says so. */
	if (mask && !(p && p->mask == mask) &&
	    sched_setaffinity(tid, tr->ops->mask_bytes, mask) < 0 &&
	    errno != ESRCH) {
		tr->ops->unplaced(tr->ops->ctx, tid, mask, errno);
		mask = NULL;
	}
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
	long long ppid = host_status_number(tid, "PPid");

	return ppid > 0 ? (pid_t)ppid : 0;
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

/* Mark a task to be let go for why; with block, an attach waits for it. */
static void mark(struct tracer *tr, struct task *t, enum follow_why why,
		 bool block)
{
	if (block && !(t->flags & T_BLOCKING)) {
		t->flags |= T_BLOCKING;
		tr->blocking++;
	}
	if (!(t->flags & T_LETGO)) {
		t->flags |= T_LETGO;
		t->why = why;
	}
}

/* Let go of a task as soon as it stops: at once if we hold it stopped,
 * at its first stop if that is still to come, else after an interrupt. */
static void let_go(struct tracer *tr, pid_t tid, enum follow_why why,
		   bool block)
{
	struct task *t = tidmap_find(&tr->tasks, tid);
	bool interrupt;

	if (!t)
		return;
	/* A task whose first stop is still to come (an entry made from its
	 * parent's event) may also be one that ended unseen: an attach waits
	 * for it only while we trace that tid. */
	if (!(t->flags & T_KNOWN) &&
	    host_status_number(tid, "TracerPid") != getpid())
		block = false;
	interrupt = (t->flags & (T_KNOWN | T_LETGO)) == T_KNOWN;
	mark(tr, t, why, block);
	if (t->flags & T_PARKED) {
		t->parent = proc_parent(tid);
		place(tr, tid, t);
	} else if (t->flags & T_HELD) {
		t->flags &= ~T_HELD;
		resume(tr, tid, 0);
	} else if (interrupt) {
		ptrace(PTRACE_INTERRUPT, tid, 0, 0);
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
	if (!(t->flags & (T_THREAD | T_LETGO)) && !t->parent &&
	    !tr->detaching) {
		t->flags |= T_PARKED;
		tr->parked++;
		return;
	}
	place(tr, tid, t);
}

/* A task created another: note the parent, or release the parked child.
 * A thread made by a task being let go goes with it. */
static void created(struct tracer *tr, pid_t parent, int event)
{
	unsigned long msg = 0;
	struct task *t, *p;

	if (ptrace(PTRACE_GETEVENTMSG, parent, 0, &msg) == 0 && msg &&
	    (t = tidmap_insert(&tr->tasks, (pid_t)msg))) {
		t->parent = parent;
		if (event != PTRACE_EVENT_CLONE)
			t->flags |= T_FORKED;
		p = tidmap_find(&tr->tasks, parent);
		if (event == PTRACE_EVENT_CLONE && p && p->flags & T_LETGO)
			let_go(tr, (pid_t)msg, p->why, false);
		else if (t->flags & T_PARKED)
			place(tr, (pid_t)msg, t);
	}
	resume(tr, parent, 0);
}

/* Without the filter, programs that trace cannot attach to a task we
 * follow: the known ones are let go at their exec. */
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

enum follow_why follow_why_of_gain(enum host_gain gain)
{
	static const enum follow_why why[] = {
		[HOST_GAIN_NONE] = FOLLOW_SURVIVOR,
		[HOST_GAIN_SETUID] = FOLLOW_SETUID,
		[HOST_GAIN_SETGID] = FOLLOW_SETGID,
		[HOST_GAIN_CAPS] = FOLLOW_FILECAPS,
	};

	return why[gain];
}

/* What to do with an exec'd program: let go of one whose privileges
 * tracing takes (it runs without them, so we may as well not follow it),
 * and of pinrun itself (the inner one follows its own tree). */
static enum follow_why judge(struct tracer *tr, const char *exe,
			     const struct stat *st, char *program, size_t size)
{
	struct program *p = NULL;
	ssize_t n;

	for (unsigned i = 0; i < tr->nseen && i < 64 && !p; i++)
		if (tr->seen[i].dev == st->st_dev &&
		    tr->seen[i].ino == st->st_ino &&
		    tr->seen[i].ctime.tv_sec == st->st_ctim.tv_sec &&
		    tr->seen[i].ctime.tv_nsec == st->st_ctim.tv_nsec)
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
	p->ctime = st->st_ctim;
	p->verdict = FOLLOW_SURVIVOR;
	if (!tr->may_trace_privileged && !tr->already_nnp)
		p->verdict = follow_why_of_gain(host_exec_gain(exe));
	if (p->verdict == FOLLOW_SURVIVOR &&
	    ((st->st_dev == tr->self_dev && st->st_ino == tr->self_ino) ||
	     (tr->l.fd < 0 && is_tracer(program))))
		p->verdict = FOLLOW_TRACER;
	return p->verdict;
}

/* A process exec'd: the new image may need to be let go. */
static void execed(struct tracer *tr, pid_t tid)
{
	unsigned long former = 0;
	char exe[64], program[PATH_MAX] = "";
	struct stat st;
	struct task *t;
	enum follow_why why = FOLLOW_SURVIVOR;

	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 && former &&
	    (pid_t)former != tid) {
		/* A thread exec'd: it took over the leader's tid. */
		struct task *f = tidmap_find(&tr->tasks, (pid_t)former);

		if (f && (f->flags & T_PARKED))
			tr->parked--;
		if (f && (f->flags & T_KNOWN))
			tr->live--;
		if (f && (f->flags & T_BLOCKING))
			tr->blocking--;
		tidmap_remove(&tr->tasks, (pid_t)former);
		tr->ops->moved(tr->ops->ctx, (pid_t)former, tid);
	}
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)tid);
	if (stat(exe, &st) == 0)
		why = judge(tr, exe, &st, program, sizeof(program));
	if (tr->ops->want_detail) {
		if (!program[0]) {
			ssize_t n = readlink(exe, program, sizeof(program) - 1);

			if (n > 0)
				program[n] = '\0';
		}
		if (program[0])
			tr->ops->exec(tr->ops->ctx, tid, program);
	}
	if (why != FOLLOW_SURVIVOR && (t = tidmap_find(&tr->tasks, tid))) {
		mark(tr, t, why, false);
		detach(tr, tid, 0, program);
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
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
		struct task *t = tidmap_find(&tr->tasks, tid);

		if (t->flags & T_HELD) {
			t->flags &= ~T_HELD;
			resume(tr, tid, 0);
			i = 0; /* resume removed it: rescan */
		} else {
			ptrace(PTRACE_INTERRUPT, tid, 0, 0);
		}
	}
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
		if (tid == tr->command && tr->live > 1 && !tr->detaching &&
		    !(t->flags & T_LETGO))
			t->flags |= T_HELD;
		else
			resume(tr, tid, 0);
		break;
	case PTRACE_EVENT_STOP:
		/* A group-stop stays stopped, as the shell believes; LISTEN
		 * lets us hear of the SIGCONT (DETACH keeps it stopped). */
		if ((sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		     sig == SIGTTOU) &&
		    !tr->detaching && !(t->flags & T_LETGO))
			ptrace(PTRACE_LISTEN, tid, 0, 0);
		else
			resume(tr, tid, 0);
		break;
	default:
		resume(tr, tid, 0);
	}
}

/* Close every descriptor from lo to hi (close_range, Linux 5.9; before
 * it, those /proc lists). */
static void close_range_all(unsigned lo, unsigned hi)
{
	DIR *d;
	struct dirent *e;

#ifdef SYS_close_range
	if (syscall(SYS_close_range, lo, hi, 0) == 0)
		return;
#endif
	if (!(d = opendir("/proc/self/fd"))) {
		struct rlimit rl;
		unsigned max = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
				       rl.rlim_cur < (1u << 20)
				   ? (unsigned)rl.rlim_cur
				   : 1u << 20;

		for (unsigned fd = lo; fd <= hi && fd < max; fd++)
			close((int)fd);
		return;
	}
	while ((e = readdir(d))) {
		char *end;
		unsigned long fd = strtoul(e->d_name, &end, 10);

		if (!*end && end != e->d_name && fd >= lo && fd <= hi &&
		    (int)fd != dirfd(d))
			close((int)fd);
	}
	closedir(d);
}

/* Close every descriptor but those of keep (n of them, -1s ignored). */
static void close_all_but(int *keep, unsigned n)
{
	unsigned lo = 0;

	for (unsigned i = 1; i < n; i++) /* n is tiny: insertion sort */
		for (unsigned j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int k = keep[j];

			keep[j] = keep[j - 1];
			keep[j - 1] = k;
		}
	for (unsigned i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned)keep[i] < lo)
			continue;
		if ((unsigned)keep[i] > lo)
			close_range_all(lo, (unsigned)keep[i] - 1);
		lo = (unsigned)keep[i] + 1;
	}
	close_range_all(lo, ~0U);
}

/* --- Attaches -----------------------------------------------------------
 *
 * A task can have one tracer, and every task of the tree has ours: alone,
 * a debugger's PTRACE_ATTACH or PTRACE_SEIZE, a child's PTRACE_TRACEME
 * (gdb, strace, rr start their program so) and LeakSanitizer, which
 * attaches to every thread of its process from an untraced clone at exit,
 * would all fail with EPERM. The command runs under a seccomp filter that
 * stops those three requests (and no other system call) until the tracer
 * answers through the listener: the tracer lets go of the task to be
 * traced, its whole thread group, before the call goes on, and of the
 * tracer-to-be's, which would otherwise stop us once for each stop of its
 * own tracees. A task blocked in the call itself (TRACEME) is interrupted:
 * the kernel drops that notification, and the call, restarted once the
 * task is let go, comes again and goes on at once.
 *
 * The tracer blocks in wait4 and cannot poll the listener: a child of its
 * own, the bell, waits in poll(2) instead and exits when an attach waits,
 * which wait4 reports. When the tracer is done, it goes on answering
 * (now at once: it follows nothing) until the kernel says, with POLLHUP
 * (Linux 5.8), that no task is left under the filter: a filter whose
 * listener is closed fails the call with ENOSYS. */

#if defined(__x86_64__)
#define NATIVE_ARCH   AUDIT_ARCH_X86_64
#define COMPAT_ARCH   AUDIT_ARCH_I386
#define COMPAT_PTRACE 26
#define X32_PTRACE    (0x40000000 | 521)
#elif defined(__aarch64__)
#define NATIVE_ARCH   AUDIT_ARCH_AARCH64
#define COMPAT_ARCH   AUDIT_ARCH_ARM
#define COMPAT_PTRACE 26
#elif defined(__i386__)
#define NATIVE_ARCH AUDIT_ARCH_I386
#elif defined(__riscv) && __riscv_xlen == 64
#define NATIVE_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && defined(__LITTLE_ENDIAN__)
#define NATIVE_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define NATIVE_ARCH AUDIT_ARCH_S390X
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG0_LOW  offsetof(struct seccomp_data, args[0])
#define ARG0_HIGH (offsetof(struct seccomp_data, args[0]) + 4)
#else
#define ARG0_LOW  (offsetof(struct seccomp_data, args[0]) + 4)
#define ARG0_HIGH offsetof(struct seccomp_data, args[0])
#endif

#ifdef NATIVE_ARCH
/* A tiny assembler for the filter: jumps go to labels, resolved at the
 * end. */
enum label { L_NEXT, L_ALLOW, L_NOTIFY, L_NATIVE, L_COMPAT, L_ARGS, L_REQ };

struct bpf {
	struct sock_filter code[32];
	unsigned char jt[32], jf[32]; /* enum label */
	unsigned n, at[L_REQ + 1];
};

static void op(struct bpf *b, unsigned short code, unsigned k, enum label jt,
	       enum label jf)
{
	b->code[b->n] = (struct sock_filter){ code, 0, 0, k };
	b->jt[b->n] = (unsigned char)jt;
	b->jf[b->n] = (unsigned char)jf;
	b->n++;
}

static void here(struct bpf *b, enum label l)
{
	b->at[l] = b->n;
}

#define LOAD(b, off)	  op(b, BPF_LD | BPF_W | BPF_ABS, (unsigned)(off), 0, 0)
#define JEQ(b, k, jt, jf) op(b, BPF_JMP | BPF_JEQ | BPF_K, (k), (jt), (jf))
#define RET(b, k)	  op(b, BPF_RET | BPF_K, (k), 0, 0)

/* ptrace(PTRACE_TRACEME / PTRACE_ATTACH / PTRACE_SEIZE, ...) notifies the
 * listener; every other call, ptrace's other requests included, goes on
 * after a few comparisons. */
static void build_filter(struct bpf *b)
{
	b->n = 0;
	LOAD(b, offsetof(struct seccomp_data, arch));
#ifdef COMPAT_ARCH
	JEQ(b, NATIVE_ARCH, L_NATIVE, L_NEXT);
	JEQ(b, COMPAT_ARCH, L_COMPAT, L_ALLOW);
#else
	JEQ(b, NATIVE_ARCH, L_NATIVE, L_ALLOW);
#endif
	here(b, L_NATIVE);
	LOAD(b, offsetof(struct seccomp_data, nr));
#ifdef X32_PTRACE
	JEQ(b, __NR_ptrace, L_ARGS, L_NEXT);
	JEQ(b, X32_PTRACE, L_ARGS, L_ALLOW);
#else
	JEQ(b, __NR_ptrace, L_ARGS, L_ALLOW);
#endif
#ifdef COMPAT_ARCH
	here(b, L_COMPAT);
	LOAD(b, offsetof(struct seccomp_data, nr));
	JEQ(b, COMPAT_PTRACE, L_REQ, L_ALLOW);
#endif
	here(b, L_ARGS); /* the request is a long: all of it */
	LOAD(b, ARG0_HIGH);
	JEQ(b, 0, L_REQ, L_ALLOW);
	here(b, L_REQ);
	LOAD(b, ARG0_LOW);
	JEQ(b, PTRACE_TRACEME, L_NOTIFY, L_NEXT);
	JEQ(b, PTRACE_ATTACH, L_NOTIFY, L_NEXT);
	JEQ(b, PTRACE_SEIZE, L_NOTIFY, L_ALLOW);
	here(b, L_ALLOW);
	RET(b, SECCOMP_RET_ALLOW);
	here(b, L_NOTIFY);
	RET(b, SECCOMP_RET_USER_NOTIF);
	for (unsigned i = 0; i < b->n; i++) {
		unsigned t = b->jt[i] == L_NEXT ? i + 1 : b->at[b->jt[i]];
		unsigned f = b->jf[i] == L_NEXT ? i + 1 : b->at[b->jf[i]];

		if (BPF_CLASS(b->code[i].code) == BPF_JMP) {
			b->code[i].jt = (unsigned char)(t - i - 1);
			b->code[i].jf = (unsigned char)(f - i - 1);
		}
	}
}
#endif

/* Put the filter on the caller (and so on all it will run). Returns the
 * listener, or a negative errno; *nnp when no_new_privs had to be set: a
 * filter needs it without CAP_SYS_ADMIN. SPEC_ALLOW leaves the program's
 * speculation mitigations as they were (a filter would force some on). */
static int install_filter(bool *nnp)
{
#ifdef NATIVE_ARCH
	struct bpf b;
	struct sock_fprog prog;
	unsigned flags =
	    SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_SPEC_ALLOW;
	int fd;

	*nnp = false;
	/* Without POLLHUP on the listener (Linux 5.8), the helper would not
	 * know when to stop answering. */
	if (!host_kernel_at_least(5, 8) || UNDER_VALGRIND())
		return -ENOSYS;
	build_filter(&b);
	prog.len = (unsigned short)b.n;
	prog.filter = b.code;
	fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (fd < 0 && errno == EACCES) {
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			return -errno;
		*nnp = true;
		fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags,
				  &prog);
	}
	return fd < 0 ? -errno : fd;
#else
	*nnp = false;
	return -ENOSYS;
#endif
}

bool follow_keeps_privileges(void)
{
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return true;
	return host_capable(CAP_SYS_PTRACE) &&
	       (host_capable(CAP_SYS_ADMIN) || !host_kernel_at_least(5, 8));
}

/* What the sender says on the socket, in one byte. */
enum { OFFER_NONE, OFFER_FILTER, OFFER_FILTER_NNP };

/* In the traced caller, before it exec's the command: install the filter
 * and send its listener to the tracer, with every signal blocked (a
 * signal-delivery-stop now would wait for a tracer that waits for us). */
static void offer_filter(int sock, struct follow_start *st)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char what = OFFER_NONE;
	struct iovec iov = { &what, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	sigset_t all, old;
	bool nnp;
	int fd;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	fd = install_filter(&nnp);
	st->notify = fd < 0 ? FOLLOW_NOTIFY_OFF
		     : nnp  ? FOLLOW_NOTIFY_NNP
			    : FOLLOW_NOTIFY_ON;
	st->notify_err = fd < 0 ? -fd : 0;
	if (fd >= 0) {
		struct cmsghdr *c;

		memset(cbuf, 0, sizeof(cbuf));
		what = nnp ? OFFER_FILTER_NNP : OFFER_FILTER;
		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	while (sendmsg(sock, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
	if (fd >= 0)
		close(fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* Take fd as the listener, with buffers for one notification and its
 * answer as large as the kernel's structures (which may be larger than
 * ours). Returns 0, or -1 with fd closed. */
static int listener_open(struct listener *l, int fd)
{
	struct seccomp_notif_sizes sizes = { 0 };

	syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes);
	l->req_size = sizes.seccomp_notif > sizeof(*l->req)
			  ? sizes.seccomp_notif
			  : sizeof(*l->req);
	l->resp_size = sizes.seccomp_notif_resp > sizeof(*l->resp)
			   ? sizes.seccomp_notif_resp
			   : sizeof(*l->resp);
	l->req = calloc(1, l->req_size);
	l->resp = calloc(1, l->resp_size);
	if (!l->req || !l->resp || (fd = host_fd_above_stdio(fd)) < 0) {
		free(l->req);
		free(l->resp);
		l->req = NULL;
		l->resp = NULL;
		if (fd >= 0)
			close(fd);
		return -1;
	}
	l->fd = fd;
	return 0;
}

/* The next waiting attach, in l->req, if there is one: false when none
 * waits. (After poll says readable, RECV cannot block: an attach
 * interrupted meanwhile leaves ENOENT.) */
static bool listener_next(struct listener *l)
{
	struct pollfd p = { l->fd, POLLIN, 0 };

	while (poll(&p, 1, 0) > 0 && p.revents & POLLIN) {
		memset(l->req, 0, l->req_size);
		if (ioctl(l->fd, SECCOMP_IOCTL_NOTIF_RECV, l->req) == 0)
			return true;
		if (errno != ENOENT && errno != EINTR)
			break;
	}
	if (p.revents & POLLHUP)
		l->hup = true;
	return false;
}

/* Let the attach id go on. */
static void listener_answer(struct listener *l, unsigned long long id)
{
	memset(l->resp, 0, l->resp_size);
	l->resp->id = id;
	l->resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	/* ENOENT: the caller was interrupted; its call comes again. */
	ioctl(l->fd, SECCOMP_IOCTL_NOTIF_SEND, l->resp);
}

static void listener_close(struct listener *l)
{
	free(l->waiting);
	free(l->req);
	free(l->resp);
	if (l->fd >= 0)
		close(l->fd);
	memset(l, 0, sizeof(*l));
	l->fd = l->sock = -1;
}

/* The bell: a child that exits when an attach waits on the listener. */
static void ring_later(struct tracer *tr)
{
	pid_t me = getpid(), pid;

	tr->l.bell = 0;
	if (tr->l.fd < 0 || tr->l.hup)
		return;
	if ((pid = fork()) == 0) {
		struct pollfd p = { tr->l.fd, POLLIN, 0 };

		/* It dies with the tracer, but not of signals sent to the
		 * tracer's group, nor does it pass them on (PID 1's
		 * handlers); nothing of the caller's stays open in it (the
		 * tracer lets go of stderr early). */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != me)
			_exit(0);
		setpgid(0, 0);
		for (int sig = 1; sig < NSIG; sig++) {
			struct sigaction sa;

			if (sigaction(sig, NULL, &sa) == 0 &&
			    sa.sa_handler != SIG_DFL &&
			    sa.sa_handler != SIG_IGN)
				signal(sig, SIG_DFL);
		}
		if (tr->l.fd > 0)
			close_range_all(0, (unsigned)tr->l.fd - 1);
		close_range_all((unsigned)tr->l.fd + 1, ~0U);
		while (poll(&p, 1, -1) < 0 && errno == EINTR)
			;
		_exit(0);
	}
	tr->l.bell = pid > 0 ? pid : 0;
}

/* The listener from the caller, if it has come. */
static void take_filter(struct tracer *tr)
{
	char cbuf[CMSG_SPACE(sizeof(int))], what = OFFER_NONE;
	struct iovec iov = { &what, 1 };
	struct msghdr m = { .msg_iov = &iov,
			    .msg_iovlen = 1,
			    .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n = recvmsg(tr->l.sock, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	int fd = -1;

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	tr->l.sock = -1; /* the owner closes it */
	c = n == 1 ? CMSG_FIRSTHDR(&m) : NULL;
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	if (fd < 0 || what == OFFER_NONE)
		return;
	tr->l.nnp = what == OFFER_FILTER_NNP;
	tr->may_trace_privileged = host_capable(CAP_SYS_PTRACE) && !tr->l.nnp;
	if (listener_open(&tr->l, fd) == 0)
		ring_later(tr);
}

/* At the start: wait for the listener while the caller runs on towards
 * its exec (which it sends before); if it stops first, take the listener
 * at a later stop instead. */
static void await_filter(struct tracer *tr)
{
	while (tr->l.sock >= 0) {
		struct pollfd p = { tr->l.sock, POLLIN, 0 };
		siginfo_t si;

		if (poll(&p, 1, 10) > 0) {
			take_filter(tr);
			continue;
		}
		memset(&si, 0, sizeof(si));
		if (waitid(P_PID, (id_t)tr->command, &si,
			   WEXITED | WSTOPPED | WNOHANG | WNOWAIT | __WALL) <
			0 ||
		    si.si_pid)
			return;
	}
}

/* Let the waiting attaches go on once none waits for a task we follow. */
static void settle(struct tracer *tr)
{
	if (tr->blocking)
		return;
	for (unsigned i = 0; i < tr->l.nwaiting; i++)
		listener_answer(&tr->l, tr->l.waiting[i]);
	tr->l.nwaiting = 0;
}

/* The task the caller means by vtid, a pid in its own PID namespace; 0
 * when we follow no such task. */
static pid_t our_tid(const struct tracer *tr, pid_t caller, pid_t vtid)
{
	pid_t ids[32], tid;
	int depth = host_nspid(caller, ids, 32);

	if (depth <= 1)
		return vtid;
	/* A caller in a nested namespace (bwrap, unshare, a container): the
	 * task whose id at the caller's depth is vtid, found by reading
	 * each task's ids (a rare case, off the hot path). */
	for (size_t i = 0;
	     depth <= 32 &&
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;)
		if (host_nspid(tid, ids, 32) >= depth && ids[depth - 1] == vtid)
			return tid;
	return 0;
}

/* Let go of the thread group of tid, when we follow it. */
static void let_go_group(struct tracer *tr, pid_t tid, enum follow_why why,
			 bool block)
{
	long long tgid;
	pid_t *tids;
	unsigned n;

	if (tid <= 0 || !tidmap_find(&tr->tasks, tid))
		return;
	let_go(tr, tid, why, block);
	tgid = host_status_number(tid, "Tgid");
	if (tgid <= 0 || host_threads((pid_t)tgid, &tids, &n) < 0)
		return;
	for (unsigned i = 0; i < n; i++)
		let_go(tr, tids[i], why, block);
	free(tids);
}

/* A task of the tree asks to attach: let go of both sides, then let the
 * call go on. */
static void attach_asked(struct tracer *tr, const struct seccomp_notif *req)
{
	pid_t tracee, tracer;
	unsigned long long *w;

	if (req->data.args[0] == PTRACE_TRACEME) {
		long long ppid = host_status_number(req->pid, "PPid");

		tracee = (pid_t)req->pid;
		tracer = ppid > 0 ? (pid_t)ppid : 0;
	} else {
		tracer = (pid_t)req->pid;
		tracee = our_tid(tr, tracer, (pid_t)req->data.args[1]);
	}
	let_go_group(tr, tracee, FOLLOW_TRACEE, true);
	let_go_group(tr, tracer, FOLLOW_TRACER, false);
	if (!tr->blocking) {
		listener_answer(&tr->l, req->id);
		return;
	}
	if (tr->l.nwaiting == tr->l.cap) {
		unsigned cap = tr->l.cap ? 2 * tr->l.cap : 8;

		if (!(w = realloc(tr->l.waiting, cap * sizeof(*w)))) {
			listener_answer(&tr->l, req->id); /* early, not never */
			return;
		}
		tr->l.waiting = w;
		tr->l.cap = cap;
	}
	tr->l.waiting[tr->l.nwaiting++] = req->id;
}

/* The bell rang: take every waiting attach, then ring again. */
static void rang(struct tracer *tr)
{
	while (listener_next(&tr->l))
		attach_asked(tr, tr->l.req);
	ring_later(tr);
}

/* When the tracer is done: stop the bell and let every attach go on. */
static void quiet(struct tracer *tr)
{
	if (tr->l.bell > 0) {
		kill(tr->l.bell, SIGKILL);
		while (waitpid(tr->l.bell, NULL, __WALL) < 0 && errno == EINTR)
			;
		tr->l.bell = 0;
	}
	tr->blocking = 0;
	if (tr->l.fd >= 0)
		settle(tr);
}

/* Trace command until it ends (or, in the helper, is let go). sock: where
 * the filter's listener comes from, or -1; the listener is handed on in
 * *l (l->fd -1 when there is none) for the caller to close. */
static unsigned trace(const struct follow_ops *ops, pid_t command,
		      int *command_status, bool helper, int sock,
		      struct listener *l)
{
	struct tracer tr = { .ops = ops,
			     .command = command,
			     .l = { .fd = -1, .sock = sock } };
	struct task *t;
	struct stat self;

	tidmap_init(&tr.tasks, sizeof(struct task));
	if (stat("/proc/self/exe", &self) == 0) {
		tr.self_dev = self.st_dev;
		tr.self_ino = self.st_ino;
	}
	tr.already_nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
	tr.may_trace_privileged = host_capable(CAP_SYS_PTRACE);
	if ((t = tidmap_insert(&tr.tasks, command))) {
		t->flags = T_KNOWN;
		tr.live = 1;
	}
	if (t)
		t->mask = ops->place(ops->ctx, command, 0, false);
	tr.processes = 1;
	if (sock >= 0)
		await_filter(&tr);
	if (helper && tr.l.sock < 0 && sock >= 0)
		close(sock); /* the helper's own: done with */
	for (;;) {
		struct rusage ru;
		int status;
		pid_t tid;

		if ((tr.command_done || tr.command_gone) && !tr.detaching) {
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
		/* As the parent, the command's status is ours to wait for,
		 * even once it is let go. */
		if ((tr.command_done || (helper && tr.command_gone)) &&
		    !tr.live)
			break;
		tid = wait4(-1, &status, __WALL, ops->want_detail ? &ru : NULL);
		if (tid < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nothing left to trace */
		}
		if (tr.l.sock >= 0) {
			take_filter(&tr);
			if (helper && tr.l.sock < 0)
				close(sock);
		}
		if (tid == tr.l.bell && tid > 0) {
			rang(&tr);
			continue;
		}
		if (tr.l.fd >= 0 && !tr.l.bell && !tr.l.hup)
			rang(&tr); /* the bell could not be forked: try again */
		if (WIFEXITED(status) || WIFSIGNALED(status))
			ended(&tr, tid, status, ops->want_detail ? &ru : NULL);
		else if (WIFSTOPPED(status))
			stopped(&tr, tid, status);
		if (ops->wait_all)
			maybe_release_command(&tr);
	}
	quiet(&tr);
	tidmap_free(&tr.tasks);
	*command_status = tr.command_status;
	*l = tr.l;
	return tr.processes;
}

/* --- the detached helper (the default) --------------------------------- */

static void helper_hygiene(int keep_fd, int sock)
{
	static const int ignored[] = { SIGINT,	SIGQUIT, SIGHUP, SIGTSTP,
				       SIGTTIN, SIGTTOU, SIGPIPE };
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int keep[] = { 0, 1, 2, keep_fd, sock };

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
	/* Keep stderr (warnings), keep_fd (the report) and the socket the
	 * filter comes from; hold nothing else the user's shell gave the
	 * command: a pipe held open here would keep its reader waiting. */
	close_all_but(keep, sizeof(keep) / sizeof(keep[0]));
}

/* Answer the attaches of the processes let go, at once, until none is
 * left under the filter; hold nothing else meanwhile. */
static void keep_answering(struct listener *l)
{
	int keep[] = { l->fd }, null;

	close_all_but(keep, 1);
	if ((null = open("/dev/null", O_RDWR)) >= 0) {
		dup2(null, 1);
		dup2(null, 2);
	}
	for (;;) {
		struct pollfd p = { l->fd, POLLIN, 0 };

		if (poll(&p, 1, -1) < 0 && errno == EINTR)
			continue;
		if (!(p.revents & POLLIN))
			break; /* POLLHUP: nobody is left */
		while (listener_next(l))
			listener_answer(l, l->req->id);
	}
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

int follow_start(struct follow_start *st, int hot_cpu, bool wait_all)
{
	int down[2], up[2], err = 0;
	pid_t me = getpid(), mid, helper = 0;
	long long tracer;
	char go = 1;

	memset(st, 0, sizeof(*st));
	st->command = me;
	st->sock = -1;
	if ((tracer = host_status_number(me, "TracerPid")) > 0) {
		st->tracer = (pid_t)tracer;
		st->why = FOLLOW_TRACED;
		return -1;
	}
	/* down: the caller's go, up: the helper's pid and verdict (a socket:
	 * the caller sends the filter's listener there). */
	if ((mid = fork_piped(down, up, st)) < 0)
		return -1;
	if (mid == 0) {
		/* The intermediate: a new session, the helper, and gone, so
		 * the helper is nobody's child the command knows of. */
		setsid();
		if ((helper = fork()) != 0)
			_exit(helper < 0);
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
		if (ptrace(PTRACE_SEIZE, me, 0,
			   OPTIONS | (wait_all ? PTRACE_O_TRACEEXIT : 0)) < 0)
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
	offer_filter(up[0], st);
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
	struct listener l;
	unsigned processes;
	int status;

	helper_hygiene(ops->keep_fd, st->sock);
	processes = trace(ops, st->command, &status, true, st->sock, &l);
	if (l.fd >= 0)
		keep_answering(&l);
	listener_close(&l);
	return processes;
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
		  const void *mask, const void *whole_mask, bool strict,
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
	char traced = 1;

	memset(st, 0, sizeof(*st));
	st->sock = -1;
	*exec_error = 0;
	*status = 0;
	if ((child = fork_piped(gate, err, st)) < 0)
		return -1;
	if (child == 0) {
		char go = 0;

		close(gate[1]);
		close(err[0]);
		sched_setaffinity(0, ops->mask_bytes, mask);
		/* Wait until seized: one byte then, or none (end of file)
		 * when the command runs unfollowed, without the filter. */
		while (read(gate[0], &go, 1) < 0 && errno == EINTR)
			;
		if (go)
			offer_filter(err[1], st);
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
		struct listener l;

		trace(ops, child, status, false, err[0], &l);
		listener_close(&l);
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
