/* SPDX-License-Identifier: BSD-3-Clause */
/* Follow mode: trace the command's process tree with ptrace and let the
 * caller place every new task before its first instruction. The tracer
 * (follow.c, follow_notify.c, follow_start.c) knows nothing of policies
 * nor of pinrun; it asks its callbacks. */
#ifndef PINRUN_FOLLOW_H
#define PINRUN_FOLLOW_H

#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "gain.h"

/* Why a task was let go before it ended. */
enum follow_why {
	FOLLOW_SURVIVOR, /* still running when the command ended or was let go
			  */
	FOLLOW_SETUID,	 /* exec'd a set-user-ID program, */
	FOLLOW_SETGID,	 /* a set-group-ID one, or one with file */
	FOLLOW_FILECAPS, /* capabilities, whose privileges tracing takes */
	FOLLOW_TRACER,	 /* traces: it attached with ptrace, or exec'd pinrun
			    (or a known tracer, without the seccomp filter) */
	FOLLOW_TRACEE,	 /* a process attaches to it with ptrace */
};

struct follow_ops {
	/* A new task stopped before its first instruction: return the CPU
	 * mask (mask_bytes long) to give it, or NULL to leave its own. parent
	 * is the task that created it (0 when unknown). Called first for the
	 * command itself (parent 0), which has placed itself already. */
	const void *(*place)(void *ctx, pid_t tid, pid_t parent, bool thread);
	/* The kernel refused the mask place gave (err: its errno): the task
	 * keeps the CPUs it inherited. */
	void (*unplaced)(void *ctx, pid_t tid, const void *mask, int err);
	/* A task is gone (exited, killed, or let go). */
	void (*gone)(void *ctx, pid_t tid);
	/* A thread exec'd and took over its leader's tid. */
	void (*moved)(void *ctx, pid_t from, pid_t to);
	/* A process exec'd program (only asked for when want_detail). */
	void (*exec)(void *ctx, pid_t tid, const char *program);
	/* A process ended (WIFEXITED/WIFSIGNALED status; its resource use
	 * when want_detail, else NULL). */
	void (*ended)(void *ctx, pid_t tid, int status,
		      const struct rusage *ru);
	/* A task is let go while it runs, and why (program: what it exec'd,
	 * or NULL). */
	void (*released)(void *ctx, pid_t tid, enum follow_why why,
			 const char *program);
	/* The command ended or was let go; the tasks still followed are let
	 * go next. processes: how many were followed in all; pending: how
	 * many of them its parent made but whose first stop has not come
	 * (never placed: place gives them the whole placement then). */
	void (*finished)(void *ctx, unsigned processes, unsigned pending);
	/* A process of the tree asks for a seccomp listener of its own,
	 * which the kernel refuses (EBUSY) under pinrun's filter; program:
	 * what it runs, or NULL. May be NULL (nothing is said). */
	void (*own_listener)(void *ctx, pid_t tid, const char *program);
	/* A task of the tree asks for its own affinity (sched_getaffinity,
	 * pid 0 or its own id; asked only when follow_start's
	 * tell_affinity set the filter on): return the mask (mask_bytes long)
	 * to tell it, or NULL for the kernel's answer. May be NULL. */
	const void *(*affinity)(void *ctx, pid_t tid);
	/* At the end: processes processes still running are let go, and keep
	 * the no_new_privs the filter needed. May be NULL. */
	void (*nnp_kept)(void *ctx, unsigned processes);
	void *ctx;
	int keep_fd; /* a descriptor > 2 the callbacks write to, or -1 */
	size_t mask_bytes;
	/* A program to let go at its exec, by file (pinrun's own binary: a
	 * nested pinrun follows its own tree); nested_ino 0: none. */
	dev_t nested_dev;
	ino_t nested_ino;
	bool wait_all;	  /* trace until every task has ended */
	bool want_detail; /* exec'd programs' paths, ended ones' rusage */
};

/* Whether ptrace can be used here, and if not why: */
enum follow_unavailable {
	FOLLOW_OK,
	FOLLOW_TRACED,	  /* pinrun is being traced already */
	FOLLOW_DENIED,	  /* EPERM: seccomp, Yama, an LSM */
	FOLLOW_NO_SEIZE,  /* the kernel lacks PTRACE_SEIZE */
	FOLLOW_NO_HELPER, /* the helper could not be started */
	FOLLOW_NCODES	  /* how many: not a code */
};

/* The reason phrase of a code: "ptrace is denied". (Here, not in
 * follow_start.c, so that the unit tests of the words need no tracer.) */
static inline const char *follow_strerror(enum follow_unavailable why)
{
	switch (why) {
	case FOLLOW_OK:
		return "no error";
	case FOLLOW_TRACED:
		return "traced already";
	case FOLLOW_DENIED:
		return "ptrace is denied";
	case FOLLOW_NO_SEIZE:
		return "the kernel has no PTRACE_SEIZE";
	case FOLLOW_NO_HELPER:
		return "cannot start the tracer";
	case FOLLOW_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}

/* The processes the tracer keeps of the user's RLIMIT_NPROC beside the
 * command: the helper, and the bell of its seccomp listener (a third, the
 * helper's parent, lives a moment). Where pinrun stays the command's
 * parent (--wait-all, PID 1) pinrun itself is one more. */
#define FOLLOW_PROCESSES 2

/* Whether programs that trace work under --follow: a seccomp filter hands
 * each ptrace attach (PTRACE_TRACEME, PTRACE_ATTACH, PTRACE_SEIZE) in the
 * tree to the tracer first, which lets go of both sides. */
enum follow_notify {
	FOLLOW_NOTIFY_OFF,   /* no filter: such an attach fails (EPERM) */
	FOLLOW_NOTIFY_ON,    /* the filter, installed with CAP_SYS_ADMIN */
	FOLLOW_NOTIFY_NNP,   /* the filter, for which no_new_privs was set */
	FOLLOW_NOTIFY_OUTER, /* none: an outer pinrun's filter has the
				attaches, and asks this one to let go */
};

struct follow_start {
	enum follow_unavailable why;
	int err;	/* the errno behind why */
	pid_t tracer;	/* who traces pinrun already (FOLLOW_TRACED) */
	pid_t command;	/* the traced process: pinrun, soon the command */
	bool in_tracer; /* true in the helper process, false in the command */
	enum follow_notify notify; /* in the command */
	int notify_err;		   /* with FOLLOW_NOTIFY_OFF: why, an errno */
	int sock;		   /* in the helper: the filter comes there */
	bool waiter; /* --wait-all, in pinrun: the command is its child */
	int word;    /* the waiter's pipe from the helper, or -1 */
	/* The filter also hands each sched_getaffinity of the tree to the
	 * tracer (follow_ops.affinity answers it). */
	bool tell_affinity;
};

/* Whether a program that gains privileges at exec (host_exec_gain) keeps
 * them under --follow: the tracer has CAP_SYS_PTRACE, and the filter needs
 * no no_new_privs (CAP_SYS_ADMIN, or no filter); or no_new_privs is set
 * already, and nothing is gained even without pinrun. */
bool follow_keeps_privileges(void);

/* Why a program that gains privileges at exec is let go (FOLLOW_SETUID,
 * FOLLOW_SETGID or FOLLOW_FILECAPS); FOLLOW_SURVIVOR for HOST_GAIN_NONE. */
enum follow_why follow_why_of_gain(enum host_gain gain);

/* Start a helper that traces the calling process (which then exec's the
 * command and keeps its pid), strace -D style: the helper is a grandchild
 * in its own session. Returns 0 twice: in the caller with in_tracer false
 * (now traced, the filter installed when it can be, ready to exec), and in
 * the helper with in_tracer true (it must call follow_run then exit).
 * Returns -1 in the caller when ptrace cannot be used (why says so); the
 * caller is then not traced. hot_cpu >= 0 pins the helper there (a stop
 * costs several times less on the same core). tell_affinity: the filter
 * also hands the tree's sched_getaffinity calls to the tracer. */
int follow_start(struct follow_start *st, int hot_cpu, bool wait_all,
		 bool tell_affinity);

/* With wait_all, follow_start returns 0 a third time: in pinrun (waiter
 * true), which stays the command's parent (the command, st->command, is a
 * child of its own, started as above) and must call follow_wait: it holds
 * nothing but stdio, passes the usual signals on to the command, and
 * returns the command's wait status once the command has ended and the
 * helper has said that the whole tree has (or has died). The command
 * exits for real meanwhile: it holds no descriptor nor memory. *word is
 * the last byte the helper sent with follow_tell (0: none). */
int follow_wait(const struct follow_start *st, char *word);

/* In the helper, with wait_all: send the waiting pinrun one byte (its
 * meaning is the caller's), before the helper ends. */
void follow_tell(const struct follow_start *st, char word);

/* In the helper: trace until the command ends (with wait_all, until every
 * task has), or until it is let go, and return the number of processes
 * followed. The caller must then exit at once: the kernel lets go of
 * whatever still runs as the helper exits (no task is interrupted). Where
 * the helper holds the seccomp listener, a child of its own, holding
 * nothing else, answers the ptrace attaches of the processes let go until
 * the last of them has ended. */
unsigned follow_run(const struct follow_ops *ops,
		    const struct follow_start *st);

/* For PID 1, where a helper cannot work: fork the command as a traced
 * child instead, placed on mask and started through a gate once seized,
 * then trace it until the end. Returns 0, or -1 with st->why set when
 * ptrace could not be used: with strict the command was not run (and
 * *status is 0), otherwise it ran unfollowed on whole_mask. *status is the
 * command's wait status, and *exec_error its exec errno when it could not
 * be run (0 otherwise). */
int follow_parent(const struct follow_ops *ops, char **command,
		  const void *mask, const void *whole_mask, bool strict,
		  struct follow_start *st, int *status, int *exec_error);

#endif
