/* SPDX-License-Identifier: BSD-3-Clause */
/* hwloc's location language ("package:0 ~core:0", "numa:1.core:0-3",
 * "0x3 ^0x6", "core:all.pu:0"), as hwloc-calc reads it, parsed into CPU
 * sets; and CPU sets written back as locations. */
#ifndef PINRUN_LOCATION_H
#define PINRUN_LOCATION_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"
#include "topotree.h"

enum location_err {
	LOCATION_OK = 0,
	LOCATION_E_TYPE,	/* unknown object type: at, len */
	LOCATION_E_UNSUPPORTED, /* a type hwloc has and pinrun does not keep
				 * (I/O, instruction caches): at, len */
	LOCATION_E_NO_LEVEL,	/* the topology has no such level: type */
	LOCATION_E_GROUPS,	/* "group" with several group levels: value */
	LOCATION_E_NO_INDEX,	/* "core" without ":N" */
	LOCATION_E_BAD_INDEX,	/* not N, N-M, N-, N:K, all, odd, even: at */
	LOCATION_E_REVERSED,	/* "core:3-1" */
	LOCATION_E_NO_SUCH,	/* no type value inside parent (value2 there);
				 * physical: value is an OS index */
	LOCATION_E_NONE,	/* all, odd, even or N- name no object of the
				 * value2 inside parent */
	LOCATION_E_NO_OS_INDEX, /* physical, and the type's objects have none */
	LOCATION_E_EMPTY_STEP,	/* "package:0." */
	LOCATION_E_NO_CPUS,	/* the whole names no CPU */
	LOCATION_E_CPULIST,	/* a list or mask: list says why */
	LOCATION_E_OPERATOR,	/* "~" alone, or numactl's "!": at, len */
	LOCATION_E_NOMEM,
	LOCATION_E_NCODES /* how many: not a code */
};

/* Another tool's way of writing CPUs, recognized where it fails here:
 * suggest then holds pinrun's way. */
enum location_foreign {
	LOCATION_NATIVE = 0,
	LOCATION_LIKWID,  /* likwid-pin's S0:0-1, N:0-3, E:N:2, M1 */
	LOCATION_NUMACTL, /* numactl's +0-1: positions in the allowed set */
	LOCATION_SPACED,  /* hwloc's operator apart from its location */
};

struct location_error {
	enum location_err code;
	enum location_foreign foreign;
	const char *at; /* the offending part of the input */
	size_t len;
	const char *elem; /* the location (element) it is in */
	size_t elem_len;
	unsigned nelems; /* how many the input has */
	bool chain;	 /* that location is a type:index chain */
	bool io;	 /* UNSUPPORTED: the type is one of I/O devices */
	enum topo_type type;
	unsigned long value, value2;
	int parent;	      /* objs index the index was relative to, or -1 */
	bool in_numa;	      /* it was relative to NUMA node parent_numa */
	unsigned parent_numa; /* (logical index) instead */
	bool physical;	      /* indexes were OS indexes */
	/* NO_SUCH: the index names an object in the other index space, at
	 * this logical position (physical) or with this OS index. */
	bool has_other;
	unsigned long other;
	char os_indexes[64]; /* physical NO_SUCH: the OS indexes there are */
	struct cpulist_error list; /* CPULIST */
	/* TYPE, NO_INDEX, OPERATOR: what was probably meant for the whole
	 * input ("0" for "cpu0", "core:0" for "core0"), or "". */
	char suggest[64];
};

/* The reason phrase of a code, without the values: "empty step". What a user
 * reads is composed by the command line (errors.c), with the values. */
const char *location_strerror(enum location_err code);

struct location_opts {
	bool physical; /* indexes are OS indexes, as hwloc-calc -p reads them */
	const struct cpuset *all; /* what "all" and "root" name (NULL: every
				   * PU of the topology) */
	/* Where to note the CPUs a mask names beyond the machine's last one,
	 * which are dropped as taskset (the kernel) drops them ("ffffffff"
	 * on 2 CPUs is CPUs 0-1); NULL: not noted. */
	struct cpuset *dropped;
};

/* Evaluate spec: locations separated by blanks, each one a type:index
 * chain, "all", "root", a taskset list or a hex mask, and each but the
 * first optionally after an operator: "~" takes its CPUs away, "x" keeps
 * only those, "^" toggles them (the first adds). A chain's first step
 * counts over the whole machine, later ones inside each object chosen
 * before: among the objects whose CPUs and NUMA nodes meet its own, as
 * hwloc-calc (2.10 and later) counts them. opts may be NULL (logical
 * indexes, "all" every PU). Returns 0 with a non-empty set, or -1 with
 * err. */
int location_eval(const struct topology *t, const char *spec,
		  const struct location_opts *opts, struct cpuset *set,
		  struct location_error *err);

/* Whether word reads as one location without a topology: a type:index
 * chain of a CPU object type ("core:0", "numa:1.core:0-3"), or with an
 * operator before it ("~core:0", "xcore:0"), or an operator and "all" or
 * "root". For the command line, to tell a location the shell split off
 * from a command. */
bool location_looks_like(const char *word);

/* The logical index of the object of type (TOPO_NUMA for NUMA nodes) whose
 * OS index is os, the first in topology order. Returns 0, -1 when there is
 * none, or -2 when no object of the type has an OS index. */
int location_logical_of(const struct topology *t, enum topo_type type,
			unsigned os, unsigned *logical);
/* The OS index of logical object index of type. Returns 0, or -1 when
 * there is no such object or it has no OS index. */
int location_os_of(const struct topology *t, enum topo_type type,
		   unsigned index, unsigned *os);

/* The OS indexes of type's objects as a list ("0,8"), cut with "..." to
 * size; returns the length written. */
size_t location_os_list(const struct topology *t, enum topo_type type,
			char *buf, size_t size);

/* Write objects (objs indexes, as policy_cover gives them) as a
 * space-separated list of locations, runs compressed: "core:0-3 pu:9".
 * Returns the length the full text needs, like snprintf. */
size_t location_format(const struct topology *t, const int *objs, unsigned n,
		       char *buf, size_t size);

/* The name of object o as a location: "package:1". */
size_t location_name(const struct topology *t, int o, char *buf, size_t size);

#endif
