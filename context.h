/* SPDX-License-Identifier: BSD-3-Clause */
/* What pinrun works out before it plans: from the options, the topology
 * and the kernel, once. The options stay as the user gave them; this is
 * the place for everything derived from them. */
#ifndef PINRUN_CONTEXT_H
#define PINRUN_CONTEXT_H

#include <stdbool.h>

#include "cpulist.h"
#include "launcher.h"
#include "options.h"
#include "policy.h"
#include "tell.h"
#include "topotree.h"

/* How long 'idle' watches the CPUs' load. */
#define CONTEXT_IDLE_SAMPLE_MS 100

/* Why CPUs of the machine are not in the allowed set, in the order they
 * are taken out. */
enum context_excl {
	CONTEXT_EXCL_OFFLINE,  /* offline (this machine) */
	CONTEXT_EXCL_CGROUP,   /* not in the cgroup's cpuset (this machine) */
	CONTEXT_EXCL_UNUSABLE, /* offline or disallowed (another machine's) */
	CONTEXT_EXCL_AFFINITY, /* outside pinrun's inherited affinity */
	CONTEXT_EXCL_KIND,     /* not of the --kind asked for */
	CONTEXT_EXCL_NEAR,     /* not near the --near device */
	CONTEXT_EXCL_SHARE,    /* in the other parts of --share */
	CONTEXT_EXCL_NREASONS
};

/* How each reason is worded, in context.c's one table: every fixed word.
 * (--explain's kind and near lines name the option's value, so output.c
 * words them: "not of the fastest kind (--kind=fast)", "not near eth0".
 * The CPUs a plan's --no-smt drops are policy.c's, not a reason here.) */
struct context_exclusion {
	const char *key;     /* its key in --json's "excluded" */
	const char *explain; /* --explain's "excluded CPUS: ..." words, or
			      * NULL: output.c words it with the option's
			      * value */
	const char *list;    /* --list's footer line (and its --json key),
			      * or NULL: not in --list */
	const char *outside; /* "pinrun runs outside its ...", for the
			      * reasons that make 'current' outside */
	bool explain_apart;  /* --explain adds its words to its option's
			      * line (--share's), not a line of their own */
};

const struct context_exclusion *context_exclusion(enum context_excl why);

/* Where --mem's nodes come from. */
enum context_mem_from {
	CONTEXT_MEM_FROM_PLACEMENT, /* the placement's own nodes (the
				     * default) */
	CONTEXT_MEM_FROM_DEVICE,    /* the --near device's nodes */
	CONTEXT_MEM_FROM_GIVEN,	    /* the list in --mem=MODE:NODES */
	CONTEXT_MEM_FROM_NONE,	    /* --mem=local names none */
	CONTEXT_MEM_FROM_COUNT	    /* how many there are */
};

/* How each is worded, in context.c's one table. */
struct context_mem_from_desc {
	const char *key;     /* --json's "mem": "from" */
	const char *explain; /* --explain's "mem: MODE on NUMA nodes N
			      * (...)" words, or NULL: output.c words
			      * --mem=local's line whole */
};

const struct context_mem_from_desc *
context_mem_from_desc(enum context_mem_from from);

struct context {
	const struct topology *t;
	struct policy_request req; /* what policy.c is asked */
	struct cpuset excluded[CONTEXT_EXCL_NREASONS];
	struct cpuset spec_dropped;	/* a mask's CPUs beyond the machine's,
					 * dropped as taskset drops them */
	struct launcher_decision share; /* share.count 0: no --share */
	bool outside; /* pinrun ran outside its share or kind: 'current'
		       * means the first candidate inside it */
	enum context_excl outside_why; /* which of them, when outside */
	int near;		       /* --near's device (index in t->devs), or
					* -1 */
	struct cpuset near_cpus;       /* the CPUs local to it */
	/* --near=gpu (the class): each local rank its own GPU, in topology
	 * order, round-robin when the ranks outnumber them; the ranks whose
	 * GPUs are local to the same CPUs split those. */
	bool gpu_class;
	unsigned gpus;			   /* how many the machine has */
	unsigned long gpu_rank, gpu_ranks; /* this rank, of how many */
	unsigned long gpu_pos, gpu_same;   /* its place among the ranks
					    * near the same CPUs, of how
					    * many */
	struct cpuset gpu_base;	 /* the allowed set the GPUs' parts are cut
				  * from */
	struct cpuset mem_nodes; /* --mem's nodes, once planned */
	enum context_mem_from mem_from;
	/* --tell: the variables, and the CPU quota that capped them
	 * (period 0: none; where: the file that sets it). */
	struct tell_result tell;
	unsigned long long quota, period;
	char quota_where[4200];
	const char *cache; /* what the cache did, for --explain */
	double t_start, t_loaded, t_planned; /* ms, for --explain */
};

/* Fill ctx for planning on t: the allowed set and why, --share, the
 * current CPU, a load sample for 'idle', the CPUs of --cpus. Exits with a
 * message on a bad value. */
void context_fill(struct context *ctx, const struct options *o,
		  const struct topology *t);

/* Plan, or exit with the policy's error in words; with --mem, work out its
 * nodes too (exit when they cannot be used); with --tell, the variables
 * (the quota read on this machine). The plan is freed with
 * policy_plan_free. */
void context_plan(struct context *ctx, const struct options *o,
		  struct policy_plan *plan);

/* The placement of each local rank of the node, rank order, into parts
 * (count of them, a new array the caller frees): with --share, each
 * part's plan as this one's is made ('current' and 'idle' mean the first
 * candidate for the other ranks); without, this plan alone. Exits with a
 * message when a rank's part has no such placement. */
void context_parts(const struct context *ctx, const struct options *o,
		   const struct policy_plan *plan, struct cpuset **parts,
		   unsigned *count);

/* A plain --cpus list or mask that needs no topology: inside pinrun's own
 * affinity, which the kernel already keeps to online, cgroup-allowed CPUs,
 * and with nothing else to plan (no --share, --kind, --follow...). Fills
 * cpus and returns true then. */
bool context_plain_cpus(const struct options *o, struct cpuset *cpus);

/* --mem's value as typed: "bind", "preferred:1", for messages. */
const char *context_mem_arg(const struct options *o);

/* Milliseconds on the monotonic clock, for the timing line. */
double context_now_ms(void);

#endif
