/* SPDX-License-Identifier: BSD-3-Clause */
/* The messages of the modules' codes. A module gives the reason phrase of
 * each code (cpulist_strerror and the like); these compose what the user
 * reads from the code, its values and the facts the caller gives (which
 * option, the allowed set): printf formats that -Wformat checks. Each
 * returns the whole message (what failed, the value, why; without
 * "pinrun: ") in a static buffer, valid until the next call. What the
 * user typed is echoed through msg_input: escaped and cut. */
#ifndef PINRUN_ERRORS_H
#define PINRUN_ERRORS_H

#include <stdbool.h>

#include "cpulist.h"
#include "devices.h"
#include "follow.h"
#include "launcher.h"
#include "location.h"
#include "memory.h"
#include "policy.h"
#include "topology.h"

/* A location or CPU list (input) that location_eval refused on t, given
 * as the value of option ("--hot=", "--cpus"; NULL: none), so that a
 * near miss is suggested as the whole option: "did you mean --hot=0?". */
const char *errors_spec(const char *option, const struct topology *t,
			const char *input, const struct location_error *e);

/* What a policy error's message needs to know. */
struct policy_facts {
	const char *what; /* the policy as typed: "--same-chip=1" */
	enum policy_kind kind;
	enum policy_smt smt;
	const char *spec;	      /* --hot=SPEC as typed, or NULL */
	const struct cpuset *allowed; /* the allowed set planned in */
	const struct cpuset *usable;  /* the topology's online, allowed PUs */
	const struct cpuset *complete;
	const struct cpuset *domain; /* DOMAIN_EMPTY: the domain's PUs */
	bool all;		     /* --all was given */
	bool this_system;
	bool offline; /* OFFLINE on this machine: the kernel says offline */
	/* NO_SUCH: the domain whose OS index is the value, logically. */
	bool has_os_match;
	unsigned long os_match;
};
const char *errors_policy(const struct policy_error *e,
			  const struct policy_facts *f);

/* --same-*=N --physical, where no object has OS index N. */
struct index_facts {
	const char *what; /* the policy as typed */
	enum policy_kind kind;
	unsigned long value;
	bool no_os;	/* the level's objects have no OS index */
	bool has_other; /* logical index value has OS index other */
	unsigned long other;
	char os_list[64]; /* the OS indexes there are */
};
const char *errors_physical(const struct index_facts *f);

/* A --share value (spec) that launcher_parse or launcher_decide refused,
 * or a part launcher_part could not cut (pus: --smt, for its units). */
const char *errors_launcher(const char *spec, const struct launcher_error *e,
			    bool pus);

/* A topology that could not be had from source: kind and arg as given to
 * topo_load, or for the live machine, the hwloc variable (env_var, NULL
 * when none) that named it. */
const char *errors_topo(const struct topo_error *e, enum topo_source_kind kind,
			const char *arg, const char *env_var);

/* A --near value (spec) that devices_syntax (t NULL) or devices_find on
 * t refused. */
const char *errors_devices(const char *spec, const struct topology *t,
			   const struct devices_error *e);

/* A --mem value (arg: "bind:0,7", as typed) whose node list memory_parse
 * refused, for its form (t NULL) or on t. */
const char *errors_memory(const char *arg, const struct topology *t,
			  const struct memory_error *e);

/* Why --follow cannot trace here. */
struct follow_facts {
	int seccomp_mode; /* host_seccomp_mode() */
	int yama_scope;	  /* host_yama_scope() */
	const char *comm; /* the tracer's name, for FOLLOW_TRACED */
	/* For FOLLOW_NO_HELPER with EAGAIN: RLIMIT_NPROC (-1: none binds),
	 * the user's tasks now, and the processes the tracer needs. */
	long long nproc_limit, nproc_running;
	unsigned nproc_needs;
};
const char *errors_follow(const struct follow_start *st,
			  const struct follow_facts *f);

#endif
