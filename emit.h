/* SPDX-License-Identifier: BSD-3-Clause */
/* --emit=FORMAT: a plan in another tool's words, one line: taskset's -c
 * list, numactl's options, a location hwloc-bind takes, systemd's and
 * Docker's cpuset properties, srun's --cpu-bind for the parts of a node,
 * OpenMP's places, likwid-pin's -c list. Pure: strings from sets. */
#ifndef PINRUN_EMIT_H
#define PINRUN_EMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "cpulist.h"
#include "mempolicy.h"
#include "topotree.h"

struct emit_plan {
	const struct topology *t;
	const struct cpuset *cpus; /* the placement */
	/* --mem: whether it was given, its mode and its nodes (mems NULL
	 * or empty: none). */
	bool mem_given;
	enum host_mempolicy mem;
	const struct cpuset *mems;
	/* The CPUs of each local task of the node, in rank order (srun):
	 * the --share parts, or the placement alone. */
	const struct cpuset *parts;
	unsigned nparts;
};

struct emit_format {
	const char *name, *help;
	/* Write the line (no newline) into buf like snprintf: returns the
	 * length the whole line needs. */
	size_t (*write)(const struct emit_plan *p, char *buf, size_t size);
};

/* The formats, in --help's order, and how many. */
extern const struct emit_format emit_formats[];
extern const unsigned emit_nformats;

/* The format of that name, or NULL. */
const struct emit_format *emit_find(const char *name);

/* "taskset, numactl, ... or likwid", for messages; like snprintf. */
size_t emit_names(char *buf, size_t size);

/* The places of OpenMP for set: one per core, its PUs in set, as
 * "{0,36},{1,37}" (OS numbers); like snprintf. tell.c's OMP_PLACES. */
size_t emit_places(const struct topology *t, const struct cpuset *set,
		   char *buf, size_t size);

#endif
