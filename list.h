/* SPDX-License-Identifier: BSD-3-Clause */
/* --list: the machine at a glance, as numactl --hardware and lstopo tell
 * it, with a placement marked when one was planned; --list --json for
 * scripts. */
#ifndef PINRUN_LIST_H
#define PINRUN_LIST_H

#include "context.h"
#include "options.h"
#include "policy.h"

/* Print the map of ctx's topology on stdout; plan (or NULL) is marked.
 * Exits with a message when memory runs out. */
void list_print(const struct context *ctx, const struct options *o,
		const struct policy_plan *plan);

#endif
