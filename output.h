/* SPDX-License-Identifier: BSD-3-Clause */
/* What pinrun prints about a plan or a process: --dry-run's line,
 * --explain's lines on stderr, --json's object, --show. */
#ifndef PINRUN_OUTPUT_H
#define PINRUN_OUTPUT_H

#include "context.h"
#include "json.h"
#include "options.h"
#include "policy.h"

void output_dry_run(const struct policy_plan *plan);
/* --dry-run --tell: the variables as VAR=value lines (for eval, or env). */
void output_tell(const struct context *ctx);
/* --emit's line. */
void output_emit(const struct context *ctx, const struct options *o,
		 const struct policy_plan *plan);
void output_explain(const struct context *ctx, const struct options *o,
		    const struct policy_plan *plan);
void output_json(const struct context *ctx, const struct options *o,
		 const struct policy_plan *plan);
/* --show [PID]: where a process may run, in topology terms, and each of its
 * threads when they differ. */
void output_show(const struct options *o, const struct topology *t);

#endif
