/* SPDX-License-Identifier: BSD-3-Clause */
/* The seccomp filter on ptrace's attaching requests, its listener and the
 * bell (follow_notify.c): what the tracer (follow.c) and the code that
 * starts it (follow_start.c) share. Not pinrun's interface: follow.h is. */
#ifndef PINRUN_FOLLOW_NOTIFY_H
#define PINRUN_FOLLOW_NOTIFY_H

#include <errno.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "follow.h"

/* The listening end of the filter. */
struct listener {
	int fd;	    /* -1: no filter */
	int sock;   /* where the caller sends it, until it has come; or -1 */
	pid_t bell; /* a child that ends when an attach waits; 0: none */
	bool nnp;   /* no_new_privs was set for the filter */
	bool hup;   /* no task is left under the filter: no attach comes */
	bool outer; /* no filter: an outer pinrun's has the attaches */
	dev_t self_dev; /* the tracer's own program (a nested pinrun's) */
	ino_t self_ino; /* 0: none */
	struct seccomp_notif *req;
	struct seccomp_notif_resp *resp;
	size_t req_size, resp_size;
};

/* In the traced caller, before it exec's the command: install the filter
 * and send its listener over sock; st->notify and st->notify_err say how
 * it went. */
void notify_offer(int sock, struct follow_start *st);

/* In the tracer: the listener from l->sock, if it has come (l->sock is
 * then -1 and the bell rings). Returns whether a listener is now held. */
bool notify_take(struct listener *l);
/* At the start: wait for the listener while command runs on towards its
 * exec; give up once it stops or ends (notify_take at a later stop). */
void notify_await(struct listener *l, pid_t command);

/* The next waiting attach, in l->req: false when none waits (l->hup
 * once no task is left under the filter). */
bool listener_next(struct listener *l);
/* Let the attach id go on. */
void listener_answer(struct listener *l, unsigned long long id);
/* Fail the call id with errno err, without making it. */
void listener_refuse(struct listener *l, unsigned long long id, int err);
/* Answer a sched_getaffinity (l->req) as the kernel would, but with mask
 * (mask_bytes long) for the affinity; another task's is not changed. */
void listener_tell(struct listener *l, const void *mask, size_t mask_bytes);
void listener_close(struct listener *l);

/* The bell: a child of the tracer that exits when an attach waits, or
 * after timeout_ms (-1: never), which the tracer's wait4 reports. Ring
 * again after each; stop at the end. */
void bell_ring(struct listener *l, int timeout_ms);
void bell_stop(struct listener *l);

/* When the tracer is about to exit (the kernel then lets go of every task
 * it traces): a child that waits for that exit, answers the attaches ids
 * (n of them) that waited, then every attach at once until no task is
 * left under the filter, holding nothing else. The tracer's copy of the
 * listener is closed. */
void listener_hand_on(struct listener *l, const unsigned long long *ids,
		      unsigned n);

/* A nested pinrun --follow cannot have a filter of its own (the kernel
 * allows one listener in a chain of filters): the outer pinrun refuses its
 * request with NOTIFY_NESTED_ERRNO, which tells it that attaches in its tree
 * come to the outer one. When the outer one gets an attach whose task a nested
 * pinrun traces, it asks that tracer to let go of it with a queued signal,
 * NOTIFY_NESTED_SIGNAL, whose value is the task's id in the nested tracer's PID
 * namespace (NOTIFY_NESTED_TRACER set when it is the attaching side), and waits
 * (bounded) until the task is let go before the call goes on. */
#define NOTIFY_NESTED_ERRNO  EALREADY
#define NOTIFY_NESTED_SIGNAL (SIGRTMIN + 3)
#define NOTIFY_NESTED_TRACER (1 << 30)

/* Whether pid runs the tracer's own program: a nested pinrun. */
bool listener_is_self(const struct listener *l, pid_t pid);
/* Whether the file st describes (a stat of it) is that program. */
bool listener_is_self_file(const struct listener *l, const struct stat *st);
/* The two sides of an attach: the task to be traced (for PTRACE_ATTACH
 * and PTRACE_SEIZE an id in the caller's PID namespace) and the tracer. */
void listener_sides(const struct seccomp_notif *req, pid_t *tracee,
		    pid_t *tracer);
/* When a nested pinrun traces tid: ask it to let go of tid (as the
 * attaching side or the attached one), and wait until it has, briefly. */
void nested_forward(const struct listener *l, pid_t tid, bool attaching);

/* In a tracer: take the outer pinrun's requests from now on. */
void nested_listen(void);
/* The next request taken (its value, NOTIFY_NESTED_TRACER or'ed for the
 * attaching side; from: who sent it): false when none is left. */
bool nested_next(int *value, pid_t *from);

#endif
