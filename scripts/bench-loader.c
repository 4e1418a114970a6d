/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench-loader: the helper program of the hwloc design that
 * scripts/bench-launch -d measures and pinrun did not keep (docs/launch.md):
 * a program of its own that links hwloc, loads the topology named by its
 * arguments (a topo_source_kind number and the source, "" for none) and
 * writes loader.c's answer, a struct topo_error then the topofile bytes,
 * on descriptor 3. Built against the revision that bench names.
 */
#include <stdlib.h>
#include <unistd.h>

#include "topofile.h"
#include "topology.h"

int main(int argc, char **argv)
{
	struct topo_error e = { TOPO_OK, 0 };
	struct topology *t;
	void *buf = NULL;
	size_t len = 0, n = 0;

	if (argc != 3)
		return 2;
	if (topo_load((enum topo_source_kind)atoi(argv[1]),
		      argv[2][0] ? argv[2] : NULL, &t, &e) == 0 &&
	    topofile_encode("", t, &buf, &len) != TOPOFILE_OK)
		e.code = TOPO_E_NOMEM;
	if (write(3, &e, sizeof(e)) != sizeof(e))
		return 1;
	while (e.code == TOPO_OK && n < len) {
		ssize_t w = write(3, (char *)buf + n, len - n);

		if (w <= 0)
			return 1;
		n += (size_t)w;
	}
	return 0;
}
