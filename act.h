/* SPDX-License-Identifier: BSD-3-Clause */
/* Acting on the plan: binding (verified), re-placing --pid's threads,
 * the memory policy, and exec'ing the command. Each exits with a message
 * when the kernel refuses. */
#ifndef PINRUN_ACT_H
#define PINRUN_ACT_H

#include <stdbool.h>
#include <sys/types.h>

#include "context.h"
#include "cpulist.h"
#include "options.h"
#include "policy.h"
#include "topotree.h"

/* Bind task tid (0: pinrun) to cpus and check that the kernel applied
 * exactly that. A thread of --pid that ended meanwhile is no error. */
void act_bind(pid_t tid, const struct cpuset *cpus);

/* Bind every thread of --pid, including those that start meanwhile. */
void act_replace(const struct options *o, const struct policy_plan *plan);

/* Set pinrun's memory policy (which the command inherits) to the nodes
 * context_plan worked out for --mem. */
void act_memory(const struct context *ctx, const struct options *o);

/* Export --tell's variables (those it sets) for the command. */
void act_tell(const struct tell_result *r);

/* exec the command; 126 or 127 with a message when it cannot be. */
void act_exec(char **command) __attribute__((noreturn));

/* The one message for a command that could not be exec'd (err is
 * execvp's errno), then its status: 126 or 127 (pinrun_exec_status). */
void act_cannot_run(const char *command, int err) __attribute__((noreturn));

#endif
