/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * follow.c: the tracer core. It follows the command's tree with
 * PTRACE_CONT only (no syscall stops): forks, vforks, clones and execs,
 * has each new task placed at its own first stop through a callback,
 * re-injects every signal, answers group-stops with PTRACE_LISTEN, and
 * decides what to let go: a program whose privileges tracing takes, both
 * sides of a ptrace attach (follow_notify.c brings them), and at the end
 * whatever still runs. Every task is in one state of enum task_state,
 * changed only by enter(); the counts the loop needs are read from the
 * states. It knows nothing of policies, messages or pinrun: the callbacks
 * place, report and word. follow_start.c starts it; docs/design.md has
 * the table of states and docs/follow.md the design.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <signal.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "follow.h"
#include "follow_notify.h"
#include "follow_trace.h"
#include "host.h"
#include "tidmap.h"

/* A task's state. The tracer owes a traced task its next stop; the loop
 * ends only when none is left in a state that waits for it (the helper
 * lets go of the rest by exiting). */
enum task_state {
	TS_NONE,	 /* a record just made, not in any state yet */
	TS_ANNOUNCED,	 /* named by its creator's event, first stop to come */
	TS_PARKED,	 /* first stop seen, held until its creator's event */
	TS_RUNNING,	 /* placed and followed */
	TS_LETGO_FIRST,	 /* announced, to be let go at its first stop */
	TS_LETGO,	 /* to be let go at its next stop (interrupted) */
	TS_ENDED_UNSEEN, /* not traced: ended or let go before its creator's
			    event came; dropped when it comes */
	TS_STATES
};

/* The states of a task we trace (the others: a record only). */
static bool traced(enum task_state s)
{
	return s != TS_NONE && s != TS_ENDED_UNSEEN;
}

/* The states whose next stop the tracer must wait for before it may end:
 * a first stop to come, or a task it holds stopped. */
static bool owed(enum task_state s)
{
	return s == TS_ANNOUNCED || s == TS_LETGO_FIRST || s == TS_PARKED;
}

/* The states of a task given a place (the callback knows it). */
static bool placed(enum task_state s)
{
	return s == TS_RUNNING || s == TS_LETGO;
}

struct task {
	enum task_state state;
	enum follow_why why; /* in TS_LETGO_FIRST and TS_LETGO */
	pid_t parent;	     /* from its creator's event, 0 until then */
	bool announced;	     /* that event came (the command: always) */
	bool forked;	     /* made by fork or vfork: a process */
	bool thread;	     /* not a thread group leader */
	const void *mask;    /* the CPUs we gave it (children inherit them) */
};

/* What an exec'd program is, remembered by file: most execs run the same
 * few programs, and a stat is cheaper than resolving /proc/TID/exe. The
 * change time is in the key: chmod u+s or setcap changes it, and a new
 * content too. The last SEEN_PROGRAMS are remembered. */
#define SEEN_PROGRAMS 64
struct program {
	dev_t dev;
	ino_t ino;
	struct timespec ctime;
	enum follow_why verdict; /* FOLLOW_SURVIVOR: nothing to do */
};

/* An attach the listener brought, waiting until the tasks it needs let
 * go are. */
struct waiting {
	unsigned long long id;
	pid_t *tids;
	unsigned n;
};

struct tracer {
	const struct follow_ops *ops;
	struct tidmap tasks;
	unsigned in[TS_STATES]; /* how many tasks are in each state */
	pid_t command;
	int command_status;
	bool command_done, command_gone;
	/* The helper traces the command's exit event (but with --wait-all):
	 * from that event on, it peeks at each report before taking it, and
	 * holds the command's zombie (its parent cannot see it meanwhile)
	 * until every report line is written. */
	bool exit_event, command_exiting, command_zombie;
	bool detaching; /* the end: let go of each task at its next stop */
	bool helper;
	unsigned processes;
	bool already_nnp, may_trace_privileged;
	struct listener l;
	struct waiting *waiting;
	unsigned nwaiting, cap;
	struct program seen[SEEN_PROGRAMS];
	unsigned nseen;
};

/* --- States ----------------------------------------------------------- */

/* The one place a task changes state. */
static void enter(struct tracer *tr, struct task *t, enum task_state to)
{
	tr->in[t->state]--;
	tr->in[to]++;
	t->state = to;
}

static unsigned count(const struct tracer *tr, bool (*which)(enum task_state))
{
	unsigned n = 0;

	for (int s = 0; s < TS_STATES; s++)
		if (which((enum task_state)s))
			n += tr->in[s];
	return n;
}

static struct task *make(struct tracer *tr, pid_t tid)
{
	struct task *t = tidmap_insert(&tr->tasks, tid);

	if (t && !t->state)
		tr->in[TS_NONE]++;
	return t;
}

static void drop(struct tracer *tr, pid_t tid, struct task *t)
{
	enter(tr, t, TS_NONE);
	tr->in[TS_NONE]--;
	tidmap_remove(&tr->tasks, tid);
}

static void answer_ready_attaches(struct tracer *tr);

/* A task is no longer traced (it ended or was let go). One whose
 * creator's event has not come keeps a record, so that the event does
 * not announce a task that will never stop. */
static void untraced(struct tracer *tr, pid_t tid, struct task *t)
{
	tr->ops->gone(tr->ops->ctx, tid);
	if (t->announced)
		drop(tr, tid, t);
	else
		enter(tr, t, TS_ENDED_UNSEEN);
	answer_ready_attaches(tr);
}

/* Let go of a task in a ptrace-stop, passing on the signal it stopped
 * for, so that none is lost. */
static void detach(struct tracer *tr, pid_t tid, struct task *t, int sig,
		   const char *program)
{
	bool why = t->state == TS_LETGO || t->state == TS_LETGO_FIRST;

	ptrace(PTRACE_DETACH, tid, 0, sig);
	if (!t->thread)
		tr->ops->released(tr->ops->ctx, tid,
				  why ? t->why : FOLLOW_SURVIVOR, program);
	if (tid == tr->command)
		tr->command_gone = true;
	untraced(tr, tid, t);
}

static bool letting_go(const struct tracer *tr, const struct task *t)
{
	return tr->detaching || t->state == TS_LETGO ||
	       t->state == TS_LETGO_FIRST;
}

/* Resume a task we keep following; when it is to be let go, let it go
 * instead. */
static void resume(struct tracer *tr, pid_t tid, struct task *t, int sig)
{
	if (letting_go(tr, t)) {
		detach(tr, tid, t, sig, NULL);
		return;
	}
	if (t->state != TS_RUNNING)
		enter(tr, t, TS_RUNNING);
	ptrace(PTRACE_CONT, tid, 0, sig);
}

/* Set a new task's CPUs and let it run. */
static void place(struct tracer *tr, pid_t tid, struct task *t)
{
	const void *mask =
	    tr->ops->place(tr->ops->ctx, tid, t->parent, t->thread);
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
	t->mask = mask;
	if (!t->thread)
		tr->processes++;
	resume(tr, tid, t, 0);
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
	     tr->in[TS_PARKED] &&
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
		struct task *t = tidmap_find(&tr->tasks, tid);

		if (t->state == TS_PARKED) {
			t->parent = proc_parent(tid);
			place(tr, tid, t);
			i = 0; /* place may have removed entries: rescan */
		}
	}
}

/* Let go of a task as soon as it stops: at once if we hold it stopped,
 * at its first stop if that is still to come, else after an interrupt.
 * Returns whether it is still traced (an attach waits for it); a zombie
 * leader, which cannot stop until its group ends, is not waited for (an
 * attach to it fails as without pinrun). */
static bool let_go(struct tracer *tr, pid_t tid, enum follow_why why)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (!t || !traced(t->state))
		return false;
	switch (t->state) {
	case TS_ANNOUNCED:
		t->why = why;
		enter(tr, t, TS_LETGO_FIRST);
		return true;
	case TS_PARKED:
		t->why = why;
		t->parent = proc_parent(tid);
		enter(tr, t, TS_LETGO_FIRST);
		place(tr, tid, t);
		return false;
	case TS_RUNNING:
		t->why = why;
		enter(tr, t, TS_LETGO);
		if (host_task_state(tid) == 'Z')
			return false;
		ptrace(PTRACE_INTERRUPT, tid, 0, 0);
		return true;
	default:
		return true; /* being let go already */
	}
}

/* --- Events ------------------------------------------------------------ */

/* First stop of a task (t: its record, if it was announced). */
static void first_stop(struct tracer *tr, pid_t tid, struct task *t)
{
	if (t && t->state == TS_ENDED_UNSEEN) {
		drop(tr, tid, t); /* an old record of a tid now reused */
		t = NULL;
	}
	if (!t && !(t = make(tr, tid))) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		return;
	}
	/* Only a thread group leader may be signalled as its own group. */
	if (!t->forked && syscall(SYS_tgkill, tid, tid, 0) < 0)
		t->thread = true;
	if (tr->exit_event) /* inherited from the command: off */
		ptrace(PTRACE_SETOPTIONS, tid, 0, FOLLOW_OPTIONS);
	/* A process whose creator has not reported creating it yet waits for
	 * that event: the slot rule needs the parent. It comes within
	 * microseconds (the parent is on its way out of fork). */
	if (!t->thread && !t->announced && !letting_go(tr, t)) {
		enter(tr, t, TS_PARKED);
		return;
	}
	place(tr, tid, t);
}

/* A task created another: announce it, or place it if it waits parked. A
 * thread made by a task being let go goes with it. */
static void created(struct tracer *tr, pid_t parent, struct task *pt, int event)
{
	unsigned long msg = 0;
	pid_t child;
	struct task *c;
	bool with_parent =
	    event == PTRACE_EVENT_CLONE &&
	    (pt->state == TS_LETGO || pt->state == TS_LETGO_FIRST);
	enum follow_why why = pt->why;

	if (ptrace(PTRACE_GETEVENTMSG, parent, 0, &msg) < 0 || !msg)
		goto done;
	child = (pid_t)msg;
	if (!(c = tidmap_find(&tr->tasks, child))) {
		if ((c = make(tr, child))) {
			c->parent = parent;
			c->announced = true;
			c->forked = event != PTRACE_EVENT_CLONE;
			c->why = why;
			enter(tr, c,
			      with_parent ? TS_LETGO_FIRST : TS_ANNOUNCED);
		}
	} else if (c->state == TS_ENDED_UNSEEN) {
		drop(tr, child, c);
	} else {
		c->parent = parent;
		c->announced = true;
		c->forked = c->forked || event != PTRACE_EVENT_CLONE;
		if (with_parent)
			let_go(tr, child, why);
		else if (c->state == TS_PARKED)
			place(tr, child, c);
	}
done:
	if ((pt = tidmap_find(&tr->tasks, parent)))
		resume(tr, parent, pt, 0);
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
	_Static_assert(sizeof(why) / sizeof(why[0]) == HOST_GAIN_NKINDS,
		       "a reason for every gain");

	return why[gain];
}

/* Whether a set-user-ID or set-group-ID verdict holds for the task tid:
 * in a user namespace where the file's owner is not mapped (unshare -r),
 * the kernel gives nothing at exec, and there is nothing to lose. (The
 * verdict is remembered by file; this part is judged by task.) */
static bool gains_in_its_namespace(pid_t tid, enum follow_why verdict,
				   const struct stat *st)
{
	if (verdict == FOLLOW_SETUID)
		return host_id_mapped(tid, true, (unsigned)st->st_uid);
	if (verdict == FOLLOW_SETGID)
		return host_id_mapped(tid, false, (unsigned)st->st_gid);
	return true;
}

/* What to do with an exec'd program: let go of one whose privileges
 * tracing takes (it runs without them, so we may as well not follow it),
 * and of the program ops names (pinrun itself: the inner one follows its
 * own tree). */
static enum follow_why judge(struct tracer *tr, pid_t tid, const char *exe,
			     const struct stat *st, char *program, size_t size)
{
	struct program *p = NULL;
	ssize_t n;

	for (unsigned i = 0; i < tr->nseen && i < SEEN_PROGRAMS && !p; i++)
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
		return gains_in_its_namespace(tid, p->verdict, st)
			   ? p->verdict
			   : FOLLOW_SURVIVOR;
	p = &tr->seen[tr->nseen++ % SEEN_PROGRAMS];
	p->dev = st->st_dev;
	p->ino = st->st_ino;
	p->ctime = st->st_ctim;
	p->verdict = FOLLOW_SURVIVOR;
	if (!tr->may_trace_privileged && !tr->already_nnp)
		p->verdict = follow_why_of_gain(host_exec_gain(exe));
	if (!gains_in_its_namespace(tid, p->verdict, st))
		return FOLLOW_SURVIVOR;
	if (p->verdict == FOLLOW_SURVIVOR &&
	    (listener_is_self_file(&tr->l, st) ||
	     (tr->l.fd < 0 && is_tracer(program))))
		p->verdict = FOLLOW_TRACER;
	return p->verdict;
}

/* A process exec'd: the new image may need to be let go. */
static void execed(struct tracer *tr, pid_t tid)
{
	unsigned long former = 0;
	char exe[HOST_EXE_PATH_SIZE], program[PATH_MAX] = "";
	struct stat st;
	struct task *t;
	enum follow_why why = FOLLOW_SURVIVOR;

	if (ptrace(PTRACE_GETEVENTMSG, tid, 0, &former) == 0 && former &&
	    (pid_t)former != tid) {
		/* A thread exec'd: it took over the leader's tid. */
		struct task *f = tidmap_find(&tr->tasks, (pid_t)former);

		if (f)
			drop(tr, (pid_t)former, f);
		tr->ops->moved(tr->ops->ctx, (pid_t)former, tid);
		answer_ready_attaches(tr);
	}
	host_exe_path(tid, exe, sizeof(exe));
	if (stat(exe, &st) == 0)
		why = judge(tr, tid, exe, &st, program, sizeof(program));
	if (tr->ops->want_detail) {
		if (!program[0]) {
			ssize_t n = readlink(exe, program, sizeof(program) - 1);

			if (n > 0)
				program[n] = '\0';
		}
		if (program[0])
			tr->ops->exec(tr->ops->ctx, tid, program);
	}
	if (!(t = tidmap_find(&tr->tasks, tid)))
		return;
	if (why != FOLLOW_SURVIVOR) {
		if (t->state != TS_LETGO) {
			t->why = why;
			enter(tr, t, TS_LETGO);
		}
		detach(tr, tid, t, 0, program);
		return;
	}
	resume(tr, tid, t, 0);
}

static void ended(struct tracer *tr, pid_t tid, int status,
		  const struct rusage *ru)
{
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (tid == tr->command) {
		tr->command_done = true;
		tr->command_status = status;
	}
	if (!t) {
		/* Ended before its first stop and before its creator's
		 * event: remember it for that event. */
		if (tid != tr->command && (t = make(tr, tid)))
			enter(tr, t, TS_ENDED_UNSEEN);
	} else if (traced(t->state)) {
		if (!t->thread && placed(t->state))
			tr->ops->ended(tr->ops->ctx, tid, status, ru);
		untraced(tr, tid, t);
	}
	if (tr->in[TS_PARKED])
		unpark_all(tr);
}

static void stopped(struct tracer *tr, pid_t tid, int status)
{
	int sig = WSTOPSIG(status), event = status >> 16;
	struct task *t = tidmap_find(&tr->tasks, tid);

	if (event == PTRACE_EVENT_STOP && sig == SIGTRAP &&
	    (!t || t->state == TS_ANNOUNCED || t->state == TS_LETGO_FIRST ||
	     t->state == TS_ENDED_UNSEEN)) {
		first_stop(tr, tid, t);
		return;
	}
	if (!t || !traced(t->state)) {
		/* Not ours (any more): let it go as it was. */
		ptrace(PTRACE_DETACH, tid, 0, event ? 0 : sig);
		return;
	}
	switch (event) {
	case 0: /* signal-delivery-stop: deliver it */
		resume(tr, tid, t, sig);
		break;
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE:
		created(tr, tid, t, event);
		break;
	case PTRACE_EVENT_EXEC:
		execed(tr, tid);
		break;
	case PTRACE_EVENT_EXIT:
		/* Only the command asks for this: its zombie is to be held. */
		if (tid == tr->command)
			tr->command_exiting = true;
		resume(tr, tid, t, 0);
		break;
	case PTRACE_EVENT_STOP:
		/* A group-stop stays stopped, as the shell believes; LISTEN
		 * lets us hear of the SIGCONT (DETACH keeps it stopped). */
		if ((sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		     sig == SIGTTOU) &&
		    !letting_go(tr, t))
			ptrace(PTRACE_LISTEN, tid, 0, 0);
		else
			resume(tr, tid, t, 0);
		break;
	default:
		resume(tr, tid, t, 0);
	}
}

/* --- Attaches (follow_notify.c brings them) ---------------------------- */

/* Answer each waiting attach whose tasks are all let go; the others go on
 * waiting (each on its own). */
static void answer_ready_attaches(struct tracer *tr)
{
	for (unsigned i = 0; i < tr->nwaiting;) {
		struct waiting *w = &tr->waiting[i];
		bool done = true;

		for (unsigned k = 0; k < w->n && done; k++) {
			const struct task *t =
			    tidmap_find(&tr->tasks, w->tids[k]);

			/* A thread-group leader that exited while its other
			 * threads run (a zombie) never stops: the attach
			 * fails at once, with EPERM, as without pinrun. */
			done = !t || !traced(t->state) ||
			       host_task_state(w->tids[k]) == 'Z';
		}
		if (!done) {
			i++;
			continue;
		}
		listener_answer(&tr->l, w->id);
		free(w->tids);
		*w = tr->waiting[--tr->nwaiting];
	}
}

/* The task the caller means by vtid, a pid in its own PID namespace; 0
 * when we follow no such task. */
static pid_t our_tid(const struct tracer *tr, pid_t caller, pid_t vtid)
{
	pid_t ids[HOST_NSPID_MAX], tid;
	int depth = host_nspid(caller, ids, HOST_NSPID_MAX);

	if (depth <= 1)
		return vtid;
	/* A caller in a nested namespace (bwrap, unshare, a container): the
	 * task whose id at the caller's depth is vtid, found by reading
	 * each task's ids (a rare case, off the hot path). */
	for (size_t i = 0;
	     depth <= HOST_NSPID_MAX &&
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;)
		if (host_nspid(tid, ids, HOST_NSPID_MAX) >= depth &&
		    ids[depth - 1] == vtid)
			return tid;
	/* Not followed here: a nested pinrun's task, perhaps (asked to let
	 * go of it by nested_forward). */
	return host_task_in_ns(caller, vtid);
}

/* Let go of the thread group of tid, when we follow it; with w, note in
 * it the tasks to wait for. */
static void let_go_group(struct tracer *tr, pid_t tid, enum follow_why why,
			 struct waiting *w)
{
	long long tgid;
	pid_t *tids;
	unsigned n;

	if (tid <= 0 || !tidmap_find(&tr->tasks, tid))
		return;
	tgid = host_status_number(tid, "Tgid");
	if (tgid <= 0 || host_threads((pid_t)tgid, &tids, &n) < 0) {
		tids = NULL;
		n = 0;
	}
	if (let_go(tr, tid, why) && w && (w->tids = malloc(sizeof(pid_t))))
		w->tids[w->n++] = tid;
	for (unsigned i = 0; i < n; i++) {
		pid_t *more;

		if (tids[i] == tid || !let_go(tr, tids[i], why) || !w)
			continue;
		if ((more = realloc(w->tids, (w->n + 1) * sizeof(pid_t)))) {
			w->tids = more;
			w->tids[w->n++] = tids[i];
		}
	}
	free(tids);
}

/* The outer pinrun asks to let go of a task (nested_forward). */
static void asked_by_outer(struct tracer *tr)
{
	pid_t from;
	int value;

	/* (from is 0 for a sender in an outer PID namespace, whose program
	 * cannot be seen from here) */
	while (nested_next(&value, &from)) {
		if (!from || listener_is_self(&tr->l, from))
			let_go_group(tr, (pid_t)(value & ~NOTIFY_NESTED_TRACER),
				     value & NOTIFY_NESTED_TRACER
					 ? FOLLOW_TRACER
					 : FOLLOW_TRACEE,
				     NULL);
	}
}

/* A task of the tree asks to attach: let go of both sides, then let the
 * call go on. */
static void attach_asked(struct tracer *tr, const struct seccomp_notif *req)
{
	struct waiting w = { .id = req->id };
	pid_t tracee, tracer;

	if (req->data.nr == __NR_sched_getaffinity) {
		const void *mask =
		    tr->ops->affinity
			? tr->ops->affinity(tr->ops->ctx, (pid_t)req->pid)
			: NULL;

		if (mask)
			listener_tell(&tr->l, mask, tr->ops->mask_bytes);
		else
			listener_answer(&tr->l, req->id);
		return;
	}
	if (req->data.nr == __NR_seccomp) {
		char exe[HOST_EXE_PATH_SIZE], program[PATH_MAX];
		ssize_t n;

		n = readlink(host_exe_path(req->pid, exe, sizeof(exe)), program,
			     sizeof(program) - 1);
		program[n > 0 ? n : 0] = '\0';
		/* A nested pinrun is told that its tree's attaches come
		 * here: it goes on without a filter, and lets go when asked
		 * (nested_forward). */
		if (listener_is_self(&tr->l, (pid_t)req->pid)) {
			listener_refuse(&tr->l, req->id, NOTIFY_NESTED_ERRNO);
			return;
		}
		if (tr->ops->own_listener)
			tr->ops->own_listener(tr->ops->ctx, (pid_t)req->pid,
					      n > 0 ? program : NULL);
		listener_answer(&tr->l, req->id);
		return;
	}
	listener_sides(req, &tracee, &tracer);
	if (req->data.args[0] != PTRACE_TRACEME)
		tracee = our_tid(tr, tracer, tracee);
	let_go_group(tr, tracee, FOLLOW_TRACEE, &w);
	let_go_group(tr, tracer, FOLLOW_TRACER, NULL);
	nested_forward(&tr->l, tracee, false);
	nested_forward(&tr->l, tracer, true);
	if (tr->nwaiting == tr->cap) {
		unsigned cap = tr->cap ? 2 * tr->cap : 8;
		struct waiting *more = realloc(tr->waiting, cap * sizeof(w));

		if (!more) {
			free(w.tids);
			listener_answer(&tr->l, req->id); /* early, not never */
			return;
		}
		tr->waiting = more;
		tr->cap = cap;
	}
	tr->waiting[tr->nwaiting++] = w;
	answer_ready_attaches(tr);
}

/* The bell rang: take every waiting attach, then ring again. */
static void take_attaches(struct tracer *tr)
{
	while (listener_next(&tr->l))
		attach_asked(tr, tr->l.req);
	/* A task let go may turn into a zombie (its main thread exits) and
	 * never stop, with no event to say so: while attaches wait, the bell
	 * rings every 20 ms too, and they are looked at again. */
	answer_ready_attaches(tr);
	bell_ring(&tr->l, tr->nwaiting ? 20 : -1);
}

/* --- The loop ---------------------------------------------------------- */

/* The command ended or was let go: let go of every task at its next stop.
 * The helper does not interrupt them (a system call interrupted may fail
 * with EINTR): its exit lets go of them. As the parent it must wait for
 * the command, and interrupts them. */
static void start_detaching(struct tracer *tr)
{
	unsigned pending = 0;
	pid_t tid;

	/* Processes made just before the command ended, whose first stop
	 * is still to come, are followed and still running too. */
	for (size_t i = 0;
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
		const struct task *t = tidmap_find(&tr->tasks, tid);

		pending += (t->state == TS_ANNOUNCED && t->forked) ||
			   t->state == TS_PARKED;
	}
	tr->ops->finished(tr->ops->ctx, tr->processes + pending, pending);
	if (tr->helper && tr->l.nnp && tr->ops->nnp_kept) {
		unsigned survivors = 0;

		for (size_t i = 0;
		     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
			const struct task *t = tidmap_find(&tr->tasks, tid);

			survivors += traced(t->state) && !t->thread &&
				     tid != tr->command;
		}
		if (survivors)
			tr->ops->nnp_kept(tr->ops->ctx, survivors);
	}
	/* The helper keeps stderr for warnings only while the command runs:
	 * $(pinrun ... 2>&1) must not wait. */
	if (tr->helper) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0 && dup2(null, 2) >= 0)
			close(null);
	}
	tr->detaching = true;
	unpark_all(tr);
	for (size_t i = 0;
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
		struct task *t = tidmap_find(&tr->tasks, tid);

		if (!tr->helper && traced(t->state))
			ptrace(PTRACE_INTERRUPT, tid, 0, 0);
	}
}

/* The helper's end: every task still traced is let go as it exits. */
static void release_by_exit(struct tracer *tr)
{
	unsigned long long *ids = calloc(tr->nwaiting + 1, sizeof(*ids));
	pid_t tid;

	for (size_t i = 0;
	     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;) {
		const struct task *t = tidmap_find(&tr->tasks, tid);

		if (traced(t->state) && !t->thread)
			tr->ops->released(
			    tr->ops->ctx, tid,
			    t->state == TS_LETGO ? t->why : FOLLOW_SURVIVOR,
			    NULL);
	}
	for (unsigned i = 0; i < tr->nwaiting; i++) {
		if (ids)
			ids[i] = tr->waiting[i].id;
		free(tr->waiting[i].tids);
	}
	listener_hand_on(&tr->l, ids, ids ? tr->nwaiting : 0);
	free(ids);
}

/* The wait status a siginfo of waitid describes. */
static int status_of(const siginfo_t *si)
{
	switch (si->si_code) {
	case CLD_EXITED:
		return (si->si_status & 0xff) << 8;
	case CLD_KILLED:
		return si->si_status & 0x7f;
	case CLD_DUMPED:
		return (si->si_status & 0x7f) | 0x80;
	default:
		return 0x7f; /* a stop */
	}
}

/* The next report, taken: wait4 of any task, but once the command is on
 * its way out, each report is first peeked at (WNOWAIT), so that the
 * command's zombie stays unreaped, its parent unaware, until the end;
 * then only the tasks owed a stop are waited for, one by one. */
static pid_t next_event(struct tracer *tr, int *status, struct rusage *ru)
{
	siginfo_t si;
	pid_t tid;

	if (tr->command_zombie) {
		for (size_t i = 0;
		     (i = tidmap_next(&tr->tasks, i, &tid)) != (size_t)-1;)
			if (owed(((struct task *)tidmap_find(&tr->tasks, tid))
				     ->state))
				return wait4(tid, status, __WALL, ru);
		errno = ECHILD;
		return -1;
	}
	if (!tr->command_exiting || tr->command_done)
		return wait4(-1, status, __WALL, ru);
	memset(&si, 0, sizeof(si));
	/* (the system call itself: glibc's waitid has no rusage) */
	if (syscall(SYS_waitid, P_ALL, 0, &si,
		    WEXITED | WSTOPPED | __WALL | WNOWAIT, ru) < 0)
		return -1;
	if (si.si_pid == tr->command &&
	    (si.si_code == CLD_EXITED || si.si_code == CLD_KILLED ||
	     si.si_code == CLD_DUMPED)) {
		tr->command_zombie = true;
		*status = status_of(&si);
		return si.si_pid;
	}
	return wait4(si.si_pid, status, __WALL, ru);
}

unsigned follow_trace(const struct follow_ops *ops, pid_t command,
		      int *command_status, bool helper, int sock)
{
	struct tracer tr = { .ops = ops,
			     .command = command,
			     .helper = helper,
			     .l = { .fd = -1, .sock = sock } };
	struct task *t;

	tidmap_init(&tr.tasks, sizeof(struct task));
	tr.already_nnp = prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1;
	tr.may_trace_privileged = host_capable(CAP_SYS_PTRACE);
	if ((t = make(&tr, command))) {
		t->announced = true;
		enter(&tr, t, TS_RUNNING);
		t->mask = ops->place(ops->ctx, command, 0, false);
	}
	tr.processes = 1;
	tr.exit_event = helper && !ops->wait_all;
	tr.l.self_dev = ops->nested_dev;
	tr.l.self_ino = ops->nested_ino;
	/* (before any request can come: the command has not exec'd) */
	nested_listen();
	if (sock >= 0)
		notify_await(&tr.l, command);
	if (tr.l.fd >= 0 && tr.l.nnp)
		tr.may_trace_privileged = false;
	if (helper && tr.l.sock < 0 && sock >= 0)
		close(sock); /* the helper's own: done with */
	for (;;) {
		struct rusage ru;
		int status, err;
		pid_t tid;

		if (tr.command_gone ||
		    (tr.command_done && !(ops->wait_all && count(&tr, traced))))
			if (!tr.detaching)
				start_detaching(&tr);
		/* The helper ends once it owes no task a stop; as the parent,
		 * the command's status is ours to wait for, even once it is
		 * let go, and every task is let go first. */
		if (tr.detaching &&
		    (helper ? !count(&tr, owed)
			    : tr.command_done && !count(&tr, traced)))
			break;
		tid = next_event(&tr, &status, ops->want_detail ? &ru : NULL);
		err = errno; /* (what asked_by_outer does may change it) */
		if (tr.l.outer)
			asked_by_outer(&tr);
		if (tid < 0) {
			if (err == EINTR)
				continue;
			break; /* ECHILD: nothing left to trace */
		}
		if (tr.l.sock >= 0 && notify_take(&tr.l)) {
			if (tr.l.nnp)
				tr.may_trace_privileged = false;
		}
		if (helper && tr.l.sock < 0 && sock >= 0) {
			close(sock);
			sock = -1;
		}
		if (tid == tr.l.bell && tid > 0) {
			take_attaches(&tr);
			continue;
		}
		/* The bell could not be forked: try again. */
		if (tr.l.fd >= 0 && !tr.l.bell && !tr.l.hup)
			take_attaches(&tr);
		if (WIFEXITED(status) || WIFSIGNALED(status))
			ended(&tr, tid, status, ops->want_detail ? &ru : NULL);
		else if (WIFSTOPPED(status))
			stopped(&tr, tid, status);
	}
	if (helper) {
		release_by_exit(&tr);
		/* Now the command's parent may see its end. */
		if (tr.command_zombie)
			while (waitpid(command, NULL, __WALL) < 0 &&
			       errno == EINTR)
				;
	} else {
		bell_stop(&tr.l);
		for (unsigned i = 0; i < tr.nwaiting; i++) {
			listener_answer(&tr.l, tr.waiting[i].id);
			free(tr.waiting[i].tids);
		}
		listener_close(&tr.l);
	}
	free(tr.waiting);
	tidmap_free(&tr.tasks);
	*command_status = tr.command_status;
	return tr.processes;
}
