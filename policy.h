/* SPDX-License-Identifier: BSD-3-Clause */
/* The placement rules: a request and a flattened topology in, a CPU set and
 * its follow-mode slots out. */
#ifndef PINRUN_POLICY_H
#define PINRUN_POLICY_H

#include <stdbool.h>

#include "cpulist.h"
#include "topotree.h"

enum policy_kind {
	POLICY_NONE,
	POLICY_HOT,
	POLICY_SAME_CHIP,
	POLICY_SAME_NUMA,
	POLICY_SAME_CACHE,
	POLICY_SPREAD,
	POLICY_CPUS,
	POLICY_NKINDS /* how many there are, POLICY_NONE included */
};

/* Which domain (or PU for --hot) the policy takes. */
enum policy_which {
	POLICY_WHICH_CURRENT, /* where pinrun (or --pid's target) runs */
	POLICY_WHICH_IDLE,    /* the least busy, from a load sample */
	POLICY_WHICH_INDEX, /* given: a CPU set for --hot, a logical index else
			     */
};

enum policy_smt {
	POLICY_SMT_DEFAULT, /* the policy's own choice */
	POLICY_SMT_ALL,	    /* --smt: every PU of each chosen core */
	POLICY_SMT_ONE,	    /* --no-smt: one PU per core */
};

struct policy_request {
	enum policy_kind kind;
	enum policy_which which;
	unsigned index; /* POLICY_WHICH_INDEX for the domain policies */
	unsigned n;	/* --spread=N; 0 means every unit */
	enum policy_smt smt;
	struct cpuset cpus;    /* --cpus, and --hot=CPU */
	struct cpuset allowed; /* where pinrun may place anything */
	int current_cpu;       /* -1 when planning for another machine */
	const double *busy;    /* by CPU number, 0..1; NULL: no sample */
	unsigned busy_len;
};

/* How the choice was made, for --explain and --json. */
enum policy_reason {
	POLICY_REASON_GIVEN,   /* the user named it */
	POLICY_REASON_CURRENT, /* it holds the CPU pinrun runs on */
	POLICY_REASON_IDLE,    /* it was the least busy */
	POLICY_REASON_FIRST,   /* first candidate: not this machine, or no
				* sample */
	POLICY_NREASONS	       /* how many: not a reason */
};

struct policy_plan {
	struct cpuset cpus;
	int domain;	      /* objs index of the chosen object, or -1 */
	unsigned domain_numa; /* for --same-numa: the NUMA node (logical) */
	enum policy_reason reason;
	unsigned nslots;
	unsigned *slot_start; /* slot i is slot_cpus[slot_start[i] ..
			       * slot_start[i + 1]), CPU numbers */
	unsigned *slot_cpus;
	struct cpuset smt_dropped; /* siblings left out by one-PU-per-core */
};

enum policy_err {
	POLICY_OK = 0,
	POLICY_E_NOMEM,
	POLICY_E_NO_LEVEL,     /* the topology has no such level (no L3) */
	POLICY_E_NO_SUCH,      /* index >= count: value, value2 = count */
	POLICY_E_DOMAIN_EMPTY, /* that domain has no allowed CPU: value */
	POLICY_E_TOO_MANY,     /* --spread=N over the units: value2 = units */
	POLICY_E_NOT_EXIST,    /* CPU value is not in the machine */
	POLICY_E_OFFLINE,      /* CPU value is offline or disallowed */
	POLICY_E_NOT_ALLOWED,  /* CPU value is outside the allowed set */
	POLICY_E_HOT_NOT_ONE,  /* --hot=SPEC names value CPUs */
	POLICY_E_CURRENT,      /* the current CPU is not allowed: value */
	POLICY_E_NOTHING,      /* the allowed set is empty */
	POLICY_E_NOT_UNDER,    /* the current CPU (value) is in no domain */
	POLICY_E_NONE_ALLOWED, /* no domain of the level has an allowed CPU */
	POLICY_E_NCODES	       /* how many: not a code */
};

struct policy_error {
	enum policy_err code;
	unsigned long value, value2;
};

/* The reason phrase of a code, without the values: "no CPU is allowed". What a
 * user reads is composed by the command line (errors.c), with the values. */
const char *policy_strerror(enum policy_err code);

/* What a policy's option takes as its value. */
enum policy_value {
	POLICY_VALUE_NONE,   /* POLICY_NONE: no option */
	POLICY_VALUE_PU,     /* [=current|idle|<spec>]: --hot */
	POLICY_VALUE_DOMAIN, /* [=current|idle|<index>] of its level */
	POLICY_VALUE_COUNT,  /* [=<n>]: how many units (--spread) */
	POLICY_VALUE_SPEC,   /* <spec>, required: --cpus */
};

/* How follow mode cuts a policy's plan into slots (slotorder.c). */
enum policy_slots {
	POLICY_SLOTS_ONE,  /* the whole set, one slot */
	POLICY_SLOTS_CORE, /* one slot per core */
	POLICY_SLOTS_PU,   /* one slot per PU */
};

/* One policy: all that the other modules look up about it, in one entry
 * of policy.c's table (index: its enum policy_kind). */
struct policy_desc {
	const char *name; /* the option, without "--": "same-chip" */
	int short_opt;	  /* its short option ('c'), or 0 */
	const char *arg;  /* --help's value: "[=<which>]" */
	const char *help; /* --help's line */
	const char *rule; /* --explain's "rule:" line */
	enum policy_value value;
	enum topo_type level;	   /* POLICY_VALUE_DOMAIN: the domain's level */
	const char *noun;	   /* what its error messages call one of its
				    * units or domains: "NUMA node" */
	const char *index_words;   /* the index a usage error expects:
				    * "a NUMA node number" */
	const char *aliases;	   /* what users call its level, space
				    * separated and around: " numa node " */
	const char *location_type; /* the level in --cpus's locations */
	const char *spec_option;   /* POLICY_VALUE_PU and _SPEC: how a
				    * message names its spec: "--hot=" */
	enum policy_slots slots;
	/* The rule: plan->cpus, ->domain and ->reason from req. */
	int (*plan)(const struct topology *t, const struct policy_request *req,
		    struct policy_plan *plan, struct policy_error *err);
};

/* The entry of kind, POLICY_NONE included (its name "none", no rule). */
const struct policy_desc *policy_desc(enum policy_kind kind);

/* Plan a placement. Returns 0, or -1 with err. The plan's arrays are freed
 * by policy_plan_free. */
int policy_plan(const struct topology *t, const struct policy_request *req,
		struct policy_plan *plan, struct policy_error *err);
void policy_plan_free(struct policy_plan *plan);
/* The CPUs of a plan's slot i. */
void policy_slot_cpus(const struct policy_plan *plan, unsigned i,
		      struct cpuset *set);

/* Part index (from 0) of count parts of the allowed set: the allowed units
 * (cores, or PUs when pus) in topology order, cut into count runs whose
 * sizes differ by at most one, so that parts follow packages and NUMA
 * nodes as far as the sizes allow and a core is never split. Returns 0,
 * or -1 with POLICY_E_TOO_MANY (value count, value2 units). */
int policy_share(const struct topology *t, const struct cpuset *allowed,
		 bool pus, unsigned index, unsigned count, struct cpuset *part,
		 struct policy_error *err);

/* --kind: which cores of a hybrid CPU. */
enum policy_core {
	POLICY_CORE_ANY,  /* every core (the default) */
	POLICY_CORE_FAST, /* the fastest kind */
	POLICY_CORE_SLOW, /* the slowest kind */
	POLICY_CORE_COUNT /* how many there are */
};

/* How a core kind is named, in policy.c's one table. */
struct core_kind_desc {
	const char *name;  /* --kind=NAME */
	const char *words; /* --explain's "not of the fastest kind", or NULL
			    * (any) */
};

const struct core_kind_desc *policy_core_kind(enum policy_core kind);

/* The PUs of a core kind; every PU for POLICY_CORE_ANY or when the machine
 * has one kind. */
void policy_kind_cpus(const struct topology *t, enum policy_core kind,
		      struct cpuset *set);

/* "hot", "same-chip", ...: policy_desc(kind)->name. */
const char *policy_name(enum policy_kind kind);

/* The largest objects that set covers whole (as hwloc-calc --largest does,
 * except that a cache with the same CPUs as its only child gives way to
 * it: "core:3" rather than "l2:3"), in topology order, as indexes in objs
 * written to out (up to max); returns how many there are. */
unsigned policy_cover(const struct topology *t, const struct cpuset *set,
		      int *out, unsigned max);

#endif
