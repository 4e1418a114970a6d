/* SPDX-License-Identifier: BSD-3-Clause */
/* A tiny TAP harness for the C unit tests: TEST() functions hold EXPECT()s;
 * RUN() prints "ok N - name" or "not ok N - name" with the failed lines. */
#ifndef PINRUN_CHECK_H
#define PINRUN_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "topotree.h"

static int check_count, check_failed, check_current_failed;

#define TEST(name) static void name(void)

#define EXPECT(cond)                                                           \
	do {                                                                   \
		if (!(cond)) {                                                 \
			check_current_failed = 1;                              \
			printf("# %s:%d: failed: %s\n", __FILE__, __LINE__,    \
			       #cond);                                         \
		}                                                              \
	} while (0)

/* A set compared as list text, so a failure shows both. */
#define EXPECT_SET(set, text)                                                  \
	do {                                                                   \
		char got_[4096];                                               \
		cpulist_format((set), got_, sizeof(got_));                     \
		if (strcmp(got_, (text))) {                                    \
			check_current_failed = 1;                              \
			printf("# %s:%d: got '%s', want '%s'\n", __FILE__,     \
			       __LINE__, got_, (text));                        \
		}                                                              \
	} while (0)

#define RUN(fn)                                                                \
	do {                                                                   \
		check_current_failed = 0;                                      \
		fn();                                                          \
		check_count++;                                                 \
		check_failed += check_current_failed;                          \
		printf("%sok %d - %s\n", check_current_failed ? "not " : "",   \
		       check_count, #fn);                                      \
	} while (0)

#define DONE() (printf("1..%d\n", check_count), check_failed ? 1 : 0)

/* A regular machine: packages x l3s x cores x pus, one NUMA node per
 * package. With interleave, SMT sibling k of core c is CPU c + k*ncores
 * (as on most x86 servers); else siblings are consecutive. */
static inline struct topology *build_machine(unsigned packages, unsigned l3s,
					     unsigned cores, unsigned pus,
					     bool interleave)
{
	struct topology *t = tree_new("test");
	unsigned total = packages * l3s * cores, c = 0;
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);

	for (unsigned p = 0; p < packages; p++) {
		int pk = tree_add(t, TOPO_PACKAGE, m, -1, p);

		tree_add_numa(t, pk, p);
		for (unsigned l = 0; l < l3s; l++) {
			int l3 = tree_add(t, TOPO_L3, pk, -1, 0);

			for (unsigned k = 0; k < cores; k++, c++) {
				int co = tree_add(t, TOPO_CORE, l3, -1, c);

				for (unsigned u = 0; u < pus; u++)
					tree_add(t, TOPO_PU, co, -1,
						 interleave ? c + u * total
							    : c * pus + u);
			}
		}
	}
	/* A machine the builder refuses is a broken test, not a result. */
	if (tree_finish(t) != TOPO_OK) {
		printf("Bail out! build_machine: tree_finish refused it\n");
		exit(1);
	}
	return t;
}

static inline struct cpuset set_of(const char *list)
{
	struct cpuset s;
	struct cpulist_error e;

	cpulist_parse_list(list, &s, &e);
	return s;
}

#endif
