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
#include "topotree.h"

/* How long 'idle' watches the CPUs' load. */
#define CONTEXT_IDLE_SAMPLE_MS 100

/* Why CPUs of the machine are not in the allowed set, in the order they
 * are taken out. */
enum exclusion {
	EXCL_OFFLINE,  /* offline (this machine) */
	EXCL_CGROUP,   /* not in the cgroup's cpuset (this machine) */
	EXCL_UNUSABLE, /* offline or disallowed (another machine's) */
	EXCL_AFFINITY, /* outside pinrun's inherited affinity */
	EXCL_KIND,     /* not of the --kind asked for */
	EXCL_NEAR,     /* not near the --near device */
	EXCL_SHARE,    /* in the other parts of --share */
	EXCL_NREASONS
};

/* Where --mem's nodes come from. */
enum mem_from {
	MEM_FROM_PLACEMENT, /* the placement's own nodes (the default) */
	MEM_FROM_DEVICE,    /* the --near device's nodes */
	MEM_FROM_GIVEN,	    /* the list in --mem=MODE:NODES */
	MEM_FROM_NONE,	    /* --mem=local names none */
};

struct context {
	const struct topology *t;
	struct policy_request req; /* what policy.c is asked */
	struct cpuset excluded[EXCL_NREASONS];
	struct cpuset spec_dropped;	/* a mask's CPUs beyond the machine's,
					 * dropped as taskset drops them */
	struct launcher_decision share; /* share.count 0: no --share */
	bool outside; /* pinrun ran outside its share or kind: 'current'
		       * means the first candidate inside it */
	enum exclusion outside_why; /* which of them, when outside */
	int near;		    /* --near's device (index in t->devs), or
				     * -1 */
	struct cpuset near_cpus;    /* the CPUs local to it */
	struct cpuset mem_nodes;    /* --mem's nodes, once planned */
	enum mem_from mem_from;
	const char *cache; /* what the cache did, for --explain */
	double t_start, t_loaded, t_planned; /* ms, for --explain */
};

/* Fill ctx for planning on t: the allowed set and why, --share, the
 * current CPU, a load sample for 'idle', the CPUs of --cpus. Exits with a
 * message on a bad value. */
void context_fill(struct context *ctx, const struct options *o,
		  const struct topology *t);

/* Plan, or exit with the policy's error in words; with --mem, work out its
 * nodes too (exit when they cannot be used). The plan is freed with
 * policy_plan_free. */
void context_plan(struct context *ctx, const struct options *o,
		  struct policy_plan *plan);

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
