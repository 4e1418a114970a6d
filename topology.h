/* SPDX-License-Identifier: BSD-3-Clause */
/* Reading a topology with hwloc: the live machine or a saved one. */
#ifndef PINRUN_TOPOLOGY_H
#define PINRUN_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

#include "topotree.h"

/* hwloc may take this long to read a source before pinrun gives up (the
 * largest topology pinrun takes loads in well under a second). */
#define TOPO_LOAD_LIMIT_S 20
/* The most children pinrun lets one object of a synthetic description
 * have: hwloc's time is cubic in the siblings of a level. */
#define TOPO_MAX_ARITY 2048

/* How to read the topology. */
enum topo_source_kind {
	TOPO_SRC_LIVE, /* the running machine (hwloc environment honoured) */
	TOPO_SRC_XML,  /* an hwloc XML export */
	TOPO_SRC_SYNTHETIC, /* an hwloc synthetic description */
	TOPO_SRC_FSROOT,    /* a saved Linux /sys and /proc tree */
	TOPO_SRC_NKINDS	    /* how many: not a source */
};

/* Guess the kind of a --topology argument: a directory is a sysfs tree, an
 * existing file is XML, anything else is a synthetic description. */
enum topo_source_kind topo_source_kind(const char *arg);

/* Load and flatten, in this process: see loader.h for the isolated load
 * that pinrun uses. With devices, the I/O devices too (t->devices says
 * they were looked for); finding them on this machine costs more than
 * the rest of the load. Returns 0 with *out (freed with tree_free), or -1
 * with err. */
int topo_load(enum topo_source_kind kind, const char *arg, bool devices,
	      struct topology **out, struct topo_error *err);

/* An upper bound on the PUs hwloc would make from a synthetic
 * description, ULLONG_MAX for one with a level over TOPO_MAX_ARITY
 * objects. topo_load refuses those beyond CPULIST_MAX (TOPO_E_TOO_LARGE)
 * before hwloc sees them. */
unsigned long long topo_synthetic_pus(const char *desc);

/* The hwloc variable that replaces this machine's topology
 * (HWLOC_FSROOT, HWLOC_SYNTHETIC or HWLOC_XMLFILE, in hwloc's order of
 * precedence), or NULL. topo_load fails with TOPO_E_ENV when hwloc cannot
 * use the source it names (hwloc itself would silently load this
 * machine). */
const char *topo_env_source(void);

/* Which hwloc library a load would use, for the cache key, without
 * opening it: the version built against, the library's name and what
 * changes where the dynamic loader looks. Returns 0 or -ENOSPC. */
int topo_library_id(char *buf, size_t size);

/* Whether the library a topology was loaded with (its hwloc_library) is
 * still the same file: an upgraded library may see the machine
 * differently. */
bool topo_library_same(const char *recorded);

#endif
