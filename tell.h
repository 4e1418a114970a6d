/* SPDX-License-Identifier: BSD-3-Clause */
/* --tell[=WHAT]: the variables that size and place a program's thread
 * pools (OpenMP, BLAS, Go, Java, rayon, make and CMake), worked out for a
 * placement, leaving alone those the user has set. Pure: the environment
 * and the CPU quota are given; act.c exports the result. */
#ifndef PINRUN_TELL_H
#define PINRUN_TELL_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"
#include "topotree.h"

enum tell_family {
	TELL_OMP = 1 << 0,
	TELL_BLAS = 1 << 1,
	TELL_GO = 1 << 2,
	TELL_JAVA = 1 << 3,
	TELL_RUST = 1 << 4,
	TELL_BUILD = 1 << 5,
	TELL_GPU = 1 << 6,
	TELL_PYTHON = 1 << 7,
	TELL_ERLANG = 1 << 8,
	TELL_TOOLS = 1 << 9,
	TELL_VIEW = 1 << 10,
	TELL_ALL = (1 << 11) - 1,
};

/* Read WHAT, comma-separated family names (tell_families'). Returns
 * 0, or -1 with *bad and *badlen the word that is none (empty for an
 * empty item). */
int tell_parse(const char *what, unsigned *families, const char **bad,
	       size_t *badlen);
/* The families' names, from the table, all last: "omp, blas, ... or
 * all" for messages (sep ", ", last " or "), "omp,blas,...,all" for
 * --help (sep and last ","). Like snprintf. */
size_t tell_families(const char *sep, const char *last, char *buf, size_t size);

#define TELL_MAX_VARS 32

struct tell_var {
	const char *name;
	char *value;	  /* what pinrun sets (a new string), or NULL when
			   * the user's stays */
	const char *user; /* the user's value (in envp), or NULL */
	const char *why;  /* for --explain: "the placement's cores" */
	bool appended;	  /* value is the user's with pinrun's words added */
	bool replaced;	  /* value replaces the user's (pinrun's own) */
};

struct tell_input {
	const struct topology *t;
	const struct cpuset *cpus; /* the placement */
	unsigned families;
	bool follow; /* --follow: each process is placed on its own */
	/* The tightest CPU quota of the cgroup and its ancestors: quota
	 * microseconds of CPU time per period; period 0: no quota. */
	unsigned long long quota, period;
	char *const *envp; /* the environment the command would get */
	int gpu;	   /* --near's GPU (devices_gpu_of), or -1 */
	int nic;	   /* --near's device when it is a NIC's, or -1 */
	/* The view library's path (view/view.c), for the view family;
	 * NULL when there is none to preload (another machine's topology,
	 * a build without it): the family then sets nothing. */
	const char *view_library;
};

struct tell_result {
	unsigned cpus; /* the placement's */
	unsigned n;    /* the parallelism told: cpus, capped by the quota */
	bool capped;
	struct tell_var vars[TELL_MAX_VARS];
	unsigned nvars;
};

/* Work the variables out. Returns 0, or -1 when out of memory (r is
 * freed then). */
int tell_compute(const struct tell_input *in, struct tell_result *r);
void tell_free(struct tell_result *r);
/* Whether r preloads the view (programs that count CPUs see the
 * placement). */
bool tell_viewing(const struct tell_result *r);

/* A variable as a line a shell can eval ("export NAME=value", the value
 * in single quotes when it needs them); like snprintf. */
size_t tell_shell_line(const struct tell_var *v, char *buf, size_t size);

#endif
