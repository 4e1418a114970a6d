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
/* For list.c's JSON: the topology's source and counts (source, packages,
 * numa_nodes, l3, cores, pus) in an open object; a set as a list string
 * under key; j's text on stdout (exit when it ran out of memory); a
 * device's members (name, type, subtype, pci, class, local_to, cpus,
 * numa) in an open object. */
void output_json_counts(struct json *j, const struct topology *t);
void output_json_set(struct json *j, const char *key, const struct cpuset *set);
void output_json_print(struct json *j);
void output_json_device(struct json *j, const struct topology *t, int dev);

/* --show [PID]: where a process may run, in topology terms, and each of its
 * threads when they differ. */
void output_show(const struct options *o, const struct topology *t);

#endif
