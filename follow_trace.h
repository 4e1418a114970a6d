/* SPDX-License-Identifier: BSD-3-Clause */
/* The tracer core (follow.c), for the code that starts it
 * (follow_start.c). Not pinrun's interface: follow.h is. */
#ifndef PINRUN_FOLLOW_TRACE_H
#define PINRUN_FOLLOW_TRACE_H

#include <stdbool.h>
#include <sys/ptrace.h>
#include <sys/types.h>

#include "follow.h"

#define FOLLOW_OPTIONS                                                         \
	(PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK | PTRACE_O_TRACECLONE |      \
	 PTRACE_O_TRACEEXEC)

/* Trace command (seized already) until it ends (or, in the helper, is let
 * go). sock: where the filter's listener comes from, or -1. As the helper,
 * it then lets go of what still runs by exiting (the caller exits at
 * once), a child answering the attaches; as the parent, it waits for the
 * command and *status is its wait status. Returns the number of
 * processes followed. */
unsigned follow_trace(const struct follow_ops *ops, pid_t command, int *status,
		      bool helper, int sock);

#endif
