/* SPDX-License-Identifier: BSD-3-Clause */
/* The topology read by hwloc in a child process, handed back through a
 * pipe as topofile bytes: a source that crashes hwloc cannot crash pinrun,
 * and one that keeps it busy cannot hang it. */
#ifndef PINRUN_LOADER_H
#define PINRUN_LOADER_H

#include "topology.h"

/* topo_load, isolated. Returns 0 with *out (freed with tree_free), or -1
 * with err: topo_load's errors, TOPO_E_CRASHED when the child died before
 * its answer, TOPO_E_TIMEOUT when it ran past TOPO_LOAD_LIMIT_S. */
int loader_load(enum topo_source_kind kind, const char *arg, bool devices,
		struct topology **out, struct topo_error *err);

#endif
