/* SPDX-License-Identifier: BSD-3-Clause */
/* --mem's node lists, as numactl takes them: "all", or node numbers and
 * ranges ("0,2-3"), or the kind a topology gives its memory-only nodes
 * ("mcdram", "gpumemory"), comma-separated. Node numbers are the OS's
 * (numactl's, /sys/devices/system/node's). Pure: no I/O. */
#ifndef PINRUN_MEMORY_H
#define PINRUN_MEMORY_H

#include <stddef.h>

#include "cpulist.h"
#include "topotree.h"

/* Node numbers go up to this, less one (the kernel's MAX_NUMNODES is at
 * most 1024). */
#define MEMORY_MAX_NODES 1024

enum memory_err {
	MEMORY_OK = 0,
	MEMORY_E_EMPTY,	    /* no node list after ':' */
	MEMORY_E_ITEM,	    /* an item that is no number, range or kind: at */
	MEMORY_E_REVERSED,  /* "3-1": value, value2 */
	MEMORY_E_TOO_LARGE, /* a number >= MEMORY_MAX_NODES: at */
	MEMORY_E_NO_NODE,   /* the topology has no node value */
	MEMORY_E_NO_KIND,   /* no node of the kind at names */
	MEMORY_E_NCODES	    /* how many: not a code */
};

struct memory_error {
	enum memory_err code;
	const char *at; /* the offending item in the input */
	size_t len;
	unsigned long value, value2;
};

/* The reason phrase of a code, without the values: "no node list after ':'".
 * What a user reads is composed by the command line (errors.c), with the
 * values. */
const char *memory_strerror(enum memory_err code);

/* Read spec into a set of node numbers. With t NULL, only the form is
 * checked (for the option parser) and kinds are taken on trust. Returns
 * 0 or -1 with err. */
int memory_parse(const struct topology *t, const char *spec,
		 struct cpuset *nodes, struct memory_error *err);

/* The node numbers of the topology. */
void memory_all(const struct topology *t, struct cpuset *nodes);

/* The distinct kinds of the topology's nodes, comma-separated ("" when
 * none has one). Returns the length the full text needs. */
size_t memory_kinds(const struct topology *t, char *buf, size_t size);

#endif
