/* hwloc-style locations ("package:1", "numa:0.core:0-3", "core:all.pu:0"):
 * parsed into CPU sets, and CPU sets written back as locations. */
#ifndef PINRUN_LOCATION_H
#define PINRUN_LOCATION_H

#include <stddef.h>

#include "cpulist.h"
#include "topotree.h"

enum location_err {
	LOCATION_OK = 0,
	LOCATION_E_TYPE,       /* unknown type name: at, len */
	LOCATION_E_NO_LEVEL,   /* the topology has no such level: type */
	LOCATION_E_GROUPS,     /* "group" with several group levels: value */
	LOCATION_E_NO_INDEX,   /* "core" without ":N" */
	LOCATION_E_BAD_INDEX,  /* not N, N-M, N-, N:K, all, odd, even: at */
	LOCATION_E_REVERSED,   /* "core:3-1" */
	LOCATION_E_NO_SUCH,    /* index value of type over count value2 */
	LOCATION_E_NOT_DEEPER, /* a step not below the previous one */
	LOCATION_E_EMPTY_STEP, /* "package:0." */
	LOCATION_E_NO_CPUS,    /* it resolves to objects without CPUs */
	LOCATION_E_NOMEM,
};

struct location_error {
	enum location_err code;
	const char *at; /* the offending part of the input */
	size_t len;
	enum topo_type type;
	unsigned long value, value2;
	int parent; /* objs index the index was relative to, or -1 */
};

/* Resolve spec into the CPUs of the objects it names. Logical indexes, as
 * hwloc uses them: the first step counts over the whole machine, later ones
 * inside each object of the step before. Returns 0 or -1 with err. */
int location_parse(const struct topology *t, const char *spec,
		   struct cpuset *set, struct location_error *err);

/* Write objects (objs indexes, as policy_cover gives them) as a
 * space-separated list of locations, runs compressed: "core:0-3 pu:9".
 * Returns the length the full text needs, like snprintf. */
size_t location_format(const struct topology *t, const int *objs, unsigned n,
		       char *buf, size_t size);

/* The name of object o as a location: "package:1". */
size_t location_name(const struct topology *t, int o, char *buf, size_t size);

#endif
