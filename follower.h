/* SPDX-License-Identifier: BSD-3-Clause */
/* --follow's side of pinrun: the callbacks that follow.c calls in the
 * helper (slots, report, let-go warnings), the fallback when ptrace is
 * unavailable, and pinrun as the tracing parent when it is PID 1. */
#ifndef PINRUN_FOLLOWER_H
#define PINRUN_FOLLOWER_H

#include "options.h"
#include "policy.h"

/* Start following. Returns in the process that goes on to exec the
 * command: traced by the helper and bound to the whole plan (its children get
 * its slots), or,
 * where ptrace cannot be used, bound to the whole plan after a warning
 * (--follow=strict: an error instead). The helper itself never returns,
 * nor does pinrun as PID 1, which runs the command as its traced child
 * and ends with its status. */
void follower_start(const struct options *o, const struct policy_plan *plan);

#endif
