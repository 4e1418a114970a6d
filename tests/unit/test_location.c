/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for location.c: hwloc-style locations in and out. */
#include <limits.h>

#include "check.h"
#include "location.h"
#include "policy.h"

static struct topology *machine(void)
{
	return build_machine(2, 2, 2, 2, true);
}

static enum location_err parse(const struct topology *t, const char *spec,
			       struct cpuset *set)
{
	struct location_error e;

	return location_eval(t, spec, NULL, set, &e) < 0 ? e.code : LOCATION_OK;
}

/* The same with OS indexes. */
static enum location_err physical(const struct topology *t, const char *spec,
				  struct cpuset *set, struct location_error *e)
{
	struct location_opts o = { .physical = true };

	return location_eval(t, spec, &o, set, e) < 0 ? e->code : LOCATION_OK;
}

/* The suggestion for a spec that fails, or "". */
static const char *meant(const struct topology *t, const char *spec)
{
	static struct location_error e;
	struct cpuset s;

	if (location_eval(t, spec, NULL, &s, &e) == 0)
		return "(parsed)";
	return e.suggest;
}

TEST(locations)
{
	struct topology *t = machine();
	struct cpuset s;

	EXPECT(parse(t, "package:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "4-7,12-15");
	EXPECT(parse(t, "Package:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-3,8-11");
	EXPECT(parse(t, "socket:1.core:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "4,12");
	EXPECT(parse(t, "numa:0.core:0-1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-1,8-9");
	EXPECT(parse(t, "node:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "4-7,12-15");
	EXPECT(parse(t, "l3:2", &s) == LOCATION_OK);
	EXPECT_SET(&s, "4-5,12-13");
	EXPECT(parse(t, "l3cache:3", &s) == LOCATION_OK);
	EXPECT_SET(&s, "6-7,14-15");
	EXPECT(parse(t, "core:all.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-7");
	EXPECT(parse(t, "core:all.pu:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "8-15");
	/* pu indexes are logical: PU L#1 is CPU 8 here. */
	EXPECT(parse(t, "pu:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "8");
	EXPECT(parse(t, "core:odd", &s) == LOCATION_OK);
	EXPECT_SET(&s, "1,3,5,7,9,11,13,15");
	EXPECT(parse(t, "core:even.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0,2,4,6");
	EXPECT(parse(t, "core:6-", &s) == LOCATION_OK);
	EXPECT_SET(&s, "6-7,14-15");
	EXPECT(parse(t, "core:7:2.pu:0", &s) == LOCATION_OK); /* wraps */
	EXPECT_SET(&s, "0,7");
	EXPECT(parse(t, "all", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-15");
	EXPECT(parse(t, "machine:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-15");
	tree_free(t);
}

TEST(location_errors)
{
	struct topology *t = machine();
	struct cpuset s;
	struct location_error e;

	EXPECT(parse(t, "foo:1", &s) == LOCATION_E_TYPE);
	EXPECT(parse(t, "die:0", &s) == LOCATION_E_NO_LEVEL);
	EXPECT(parse(t, "core", &s) == LOCATION_E_NO_INDEX);
	EXPECT(parse(t, "core:x", &s) == LOCATION_E_BAD_INDEX);
	EXPECT(parse(t, "core:1-x", &s) == LOCATION_E_BAD_INDEX);
	EXPECT(parse(t, "core:0:0", &s) == LOCATION_E_BAD_INDEX);
	EXPECT(parse(t, "core:3-1", &s) == LOCATION_E_REVERSED);
	/* A step may go up, to the objects that hold the ones before. */
	EXPECT(parse(t, "core:0.package:1", &s) == LOCATION_E_NO_SUCH);
	EXPECT(parse(t, "package:0.", &s) == LOCATION_E_EMPTY_STEP);
	EXPECT(location_eval(t, "core:8", NULL, &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_NO_SUCH && e.value == 8 && e.value2 == 8);
	EXPECT(e.parent == -1);
	EXPECT(location_eval(t, "package:1.core:4", NULL, &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_NO_SUCH && e.value == 4 && e.value2 == 4);
	EXPECT(e.parent >= 0 && t->objs[e.parent].type == TOPO_PACKAGE);
	tree_free(t);
}

TEST(memory_only_objects)
{
	/* A package with an L3 and a NUMA node but no CPU (a cgroup took
	 * them): it exists, and has nothing to run on. */
	struct topology *t = tree_new("cpuless");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);
	int p0 = tree_add(t, TOPO_PACKAGE, m, -1, 0);
	int c = tree_add(t, TOPO_CORE, p0, -1, 0);
	int p1;
	struct cpuset s;

	tree_add(t, TOPO_PU, c, -1, 0);
	p1 = tree_add(t, TOPO_PACKAGE, m, -1, 1);
	tree_add_numa(t, p0, 0);
	tree_add_numa(t, p1, 1);
	EXPECT(tree_finish(t) == TOPO_OK);
	EXPECT(parse(t, "package:1", &s) == LOCATION_E_NO_CPUS);
	EXPECT(parse(t, "numa:1", &s) == LOCATION_E_NO_CPUS);
	EXPECT(parse(t, "package:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0");
	tree_free(t);
}

TEST(groups_named_by_level)
{
	struct topology *t = tree_new("groups");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);
	struct cpuset s;
	char buf[64];
	unsigned cpu = 0;

	for (int d = 0; d < 2; d++) {
		int g0 = tree_add(t, TOPO_GROUP, m, -1, 0);

		for (int b = 0; b < 2; b++) {
			int g1 = tree_add(t, TOPO_GROUP, g0, -1, 0);
			int co = tree_add(t, TOPO_CORE, g1, -1, cpu);

			tree_add(t, TOPO_PU, co, -1, cpu++);
		}
	}
	EXPECT(tree_finish(t) == TOPO_OK);
	EXPECT(parse(t, "group:0", &s) == LOCATION_E_GROUPS);
	EXPECT(parse(t, "group0:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "2-3");
	EXPECT(parse(t, "group1:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "1");
	location_name(t, t->levels[2].objs[3], buf, sizeof(buf));
	EXPECT(!strcmp(buf, "group1:3"));
	tree_free(t);
}

/* --list's first line counts the groups, --explain's topology line does
 * not: one function words both. */
TEST(counts_text)
{
	struct topology *t = tree_new("groups");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);
	int g = tree_add(t, TOPO_GROUP, m, -1, 0);
	int co = tree_add(t, TOPO_CORE, g, -1, 0);
	char buf[128], small[8];

	tree_add(t, TOPO_PU, co, -1, 0);
	EXPECT(tree_finish(t) == TOPO_OK);
	EXPECT(tree_counts_text(t, true, buf, sizeof(buf)) == strlen(buf));
	EXPECT(!strcmp(buf, "0 packages, 0 NUMA nodes, 0 L3, 1 group, 1 core, "
			    "1 PU"));
	EXPECT(tree_counts_text(t, false, buf, sizeof(buf)) == strlen(buf));
	EXPECT(!strcmp(buf, "0 packages, 0 NUMA nodes, 0 L3, 1 core, 1 PU"));
	EXPECT(tree_counts_text(t, false, small, sizeof(small)) == strlen(buf));
	EXPECT(!strcmp(small, "0 packa"));
	tree_free(t);
	t = build_machine(2, 2, 3, 2, true);
	tree_counts_text(t, true, buf, sizeof(buf));
	EXPECT(
	    !strcmp(buf, "2 packages, 2 NUMA nodes, 4 L3, 12 cores, 24 PUs"));
	tree_free(t);
}

TEST(format_compresses_runs)
{
	struct topology *t = machine();
	struct cpuset s = set_of("0-3,8-11,4,12,6");
	int objs[32];
	unsigned n = policy_cover(t, &s, objs, 32);
	char buf[256], small[10];

	location_format(t, objs, n, buf, sizeof(buf));
	/* CPU 6 is PU L#12: core 6's first PU, logical order. */
	EXPECT(!strcmp(buf, "package:0 core:4 pu:12"));
	EXPECT(location_format(t, objs, n, small, sizeof(small)) ==
	       strlen("package:0 core:4 pu:12"));
	EXPECT(!strcmp(small, "package:0"));
	s = set_of("0-3,8-11");
	cpulist_add(&s, 5);
	cpulist_add(&s, 13);
	cpulist_add(&s, 4);
	cpulist_add(&s, 12);
	n = policy_cover(t, &s, objs, 32);
	location_format(t, objs, n, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "package:0 l3:2"));
	s = set_of("0-2,8-10");
	n = policy_cover(t, &s, objs, 32);
	location_format(t, objs, n, buf, sizeof(buf));
	EXPECT(!strcmp(buf, "l3:0 core:2"));
	tree_free(t);
}

TEST(format_parses_back)
{
	/* Whatever location_format writes names the same CPUs again. */
	struct topology *t = build_machine(2, 3, 4, 2, false);
	unsigned seed = 7;

	for (int round = 0; round < 100; round++) {
		struct cpuset s, back, one;
		int objs[64];
		unsigned n;
		char buf[1024], *word;

		cpulist_zero(&s);
		for (int i = 0; i < 10; i++) {
			seed = seed * 1103515245 + 12345;
			cpulist_add(&s, (seed >> 8) % 48);
		}
		n = policy_cover(t, &s, objs, 64);
		location_format(t, objs, n, buf, sizeof(buf));
		cpulist_zero(&back);
		/* As one expression too: a union of locations. */
		EXPECT(parse(t, buf, &one) == LOCATION_OK);
		EXPECT(cpulist_equal(&s, &one));
		for (word = strtok(buf, " "); word; word = strtok(NULL, " ")) {
			EXPECT(parse(t, word, &one) == LOCATION_OK);
			cpulist_or(&back, &back, &one);
		}
		EXPECT(cpulist_equal(&s, &back));
	}
	tree_free(t);
}

TEST(expressions)
{
	struct topology *t = machine();
	struct cpuset s, allowed = set_of("0-5");
	struct location_opts o = { .all = &allowed };
	struct location_error e;

	/* Several locations: the first adds, then ~ x ^ as hwloc-calc. */
	EXPECT(parse(t, "package:0 ~core:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "1-3,9-11");
	EXPECT(parse(t, "core:0-3.pu:0 ^core:2-5.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-1,4-5");
	EXPECT(parse(t, "core:0-3.pu:0 xcore:2-5.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "2-3");
	EXPECT(parse(t, "node:0 node:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-15");
	/* Lists and masks are locations too, blanks of any kind between. */
	EXPECT(parse(t, "0-3\t~1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0,2-3");
	EXPECT(parse(t, " ff  ^0x3c ", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-1,6-7");
	/* all and root are what the caller says pinrun may use. */
	EXPECT(location_eval(t, "all ~pu:0", &o, &s, &e) == 0);
	EXPECT_SET(&s, "1-5");
	EXPECT(location_eval(t, "ROOT", &o, &s, &e) == 0);
	EXPECT_SET(&s, "0-5");
	/* An empty result, a lone operator, numactl's '!'. */
	EXPECT(parse(t, "0-3 x4-7", &s) == LOCATION_E_NO_CPUS);
	EXPECT(parse(t, "~core:0", &s) == LOCATION_E_NO_CPUS);
	EXPECT(parse(t, "core:0 ~", &s) == LOCATION_E_OPERATOR);
	EXPECT(parse(t, "!0-3", &s) == LOCATION_E_OPERATOR);
	EXPECT(location_eval(t, "0-3 ~1-", NULL, &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_CPULIST && e.list.code == CPULIST_E_NO_END);
	EXPECT(e.nelems == 2 && e.len == 2 && !strncmp(e.at, "1-", 2));
	tree_free(t);
}

TEST(hwloc_names)
{
	struct topology *t = machine();
	struct cpuset s;

	/* hwloc_type_sscanf's names and their shortest beginnings. */
	EXPECT(parse(t, "pa:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "4-7,12-15");
	EXPECT(parse(t, "so:1", &s) == LOCATION_OK);
	EXPECT(parse(t, "nu:1", &s) == LOCATION_OK);
	EXPECT(parse(t, "no:1", &s) == LOCATION_OK);
	EXPECT(parse(t, "NUMANode:1", &s) == LOCATION_OK);
	EXPECT(parse(t, "co:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "1,9");
	EXPECT(parse(t, "L3Cache:1", &s) == LOCATION_OK);
	EXPECT(parse(t, "l3c:1", &s) == LOCATION_OK);
	EXPECT(parse(t, "l3u:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "2-3,10-11");
	/* hwloc stops a name at a digit: core1 is core. */
	EXPECT(parse(t, "core1:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "1,9");
	EXPECT(parse(t, "p:1", &s) == LOCATION_E_TYPE);
	EXPECT(parse(t, "cores:1", &s) == LOCATION_E_TYPE);
	EXPECT(parse(t, "l6:0", &s) == LOCATION_E_TYPE);
	EXPECT(parse(t, "l3x:0", &s) == LOCATION_E_TYPE);
	/* What pinrun keeps no level of. */
	EXPECT(parse(t, "l1i:0", &s) == LOCATION_E_UNSUPPORTED);
	EXPECT(parse(t, "gpu:0", &s) == LOCATION_E_UNSUPPORTED);
	EXPECT(parse(t, "os=eth0", &s) == LOCATION_E_UNSUPPORTED);
	EXPECT(parse(t, "numa[hbm]:0", &s) == LOCATION_E_UNSUPPORTED);
	/* hbm: the NUMA nodes of kind MCDRAM; this machine has none. */
	EXPECT(parse(t, "mcdram:0", &s) == LOCATION_E_NO_SUCH);
	EXPECT(parse(t, "l2:0", &s) == LOCATION_E_NO_LEVEL);
	tree_free(t);
}

TEST(indexes_as_hwloc_calc)
{
	struct topology *t = machine();
	struct cpuset s;
	struct location_error e;

	/* N:K goes on from the first after the last; a start past the
	 * last starts from the first. */
	EXPECT(parse(t, "core:6:4.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-1,6-7");
	EXPECT(parse(t, "core:9:2.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-1");
	EXPECT(parse(t, "core:0:100.pu:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-7");
	EXPECT(parse(t, "core:0:0", &s) == LOCATION_E_BAD_INDEX);
	/* A range past the end names the first index missing. */
	EXPECT(location_eval(t, "core:6-9", NULL, &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_NO_SUCH && e.value == 8 && e.value2 == 8);
	/* odd in one core of one PU: none. */
	EXPECT(location_eval(t, "pu:0.pu:odd", NULL, &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_NONE && e.value2 == 1);
	tree_free(t);
}

/* A package whose two NUMA nodes (DDR and MCDRAM, as on KNL) are attached
 * to each of its groups, and a one-node machine with two packages. */
static struct topology *knl_like(void)
{
	struct topology *t = tree_new("knl");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);
	int p = tree_add(t, TOPO_PACKAGE, m, -1, 0), groups[2];
	unsigned cpu = 0;

	for (int g = 0; g < 2; g++) {
		int gr = groups[g] = tree_add(t, TOPO_GROUP, p, -1, 0);

		for (int c = 0; c < 2; c++) {
			int co = tree_add(t, TOPO_CORE, gr, -1, cpu);

			tree_add(t, TOPO_PU, co, -1, cpu++);
		}
	}
	/* Logical order: DDR 0, DDR 1, MCDRAM 2, MCDRAM 3. */
	tree_add_numa(t, groups[0], 0);
	tree_add_numa(t, groups[1], 1);
	tree_add_numa(t, groups[0], 2);
	tree_add_numa(t, groups[1], 3);
	if (tree_finish(t) != TOPO_OK)
		return NULL;
	return t;
}

TEST(hwloc_2_10_containment)
{
	struct topology *t = knl_like(),
			*one = build_machine(2, 1, 2, 1, false);
	struct cpuset s;

	EXPECT(t && one);
	if (!t || !one)
		return;
	/* hbm counts the MCDRAM nodes only, and keeps to them after. */
	strcpy(t->numa[2].kind, "MCDRAM");
	strcpy(t->numa[3].kind, "MCDRAM");
	EXPECT(parse(t, "hbm:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "2-3");
	EXPECT(parse(t, "hbm:0.core:1.numa:1", &s) == LOCATION_E_NO_SUCH);
	EXPECT(parse(t, "core:1.numa:1", &s) == LOCATION_OK);
	/* Cores served by two nodes are inside each (2.9 found none). */
	EXPECT(parse(t, "numa:3.core:1", &s) == LOCATION_OK);
	EXPECT_SET(&s, "3");
	EXPECT(parse(t, "numa:all.pu:all", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-3");
	/* A node above the step before it is that step's node. */
	tree_free(one);
	one = tree_new("one node");
	{
		int m = tree_add(one, TOPO_MACHINE, TOPO_NONE, -1, 0);

		for (unsigned p = 0; p < 2; p++) {
			int pk = tree_add(one, TOPO_PACKAGE, m, -1, p);
			int co = tree_add(one, TOPO_CORE, pk, -1, 0);

			tree_add(one, TOPO_PU, co, -1, p);
		}
		tree_add_numa(one, m, 0);
		EXPECT(tree_finish(one) == TOPO_OK);
	}
	EXPECT(parse(one, "package:1.numa:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "0-1");
	/* A step up: the object that holds the one before. */
	EXPECT(parse(one, "core:1.package:0", &s) == LOCATION_OK);
	EXPECT_SET(&s, "1");
	EXPECT(parse(one, "core:1.package:1", &s) == LOCATION_E_NO_SUCH);
	tree_free(t);
	tree_free(one);
}

TEST(physical_indexes)
{
	struct topology *t = machine();
	struct cpuset s;
	struct location_error e;
	unsigned n;

	/* PU P#8 is CPU 8 (logical pu:1, interleaved siblings). */
	EXPECT(physical(t, "pu:8", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "8");
	EXPECT(physical(t, "package:1.pu:4-5", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "4-5");
	EXPECT(physical(t, "pu:14-", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "14-15");
	EXPECT(physical(t, "package:0.pu:odd", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "1,3,9,11");
	EXPECT(physical(t, "pu:14:4", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "0-1,14-15");
	EXPECT(physical(t, "pu:all", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "0-15");
	/* No such OS index: the object of that logical index, and the OS
	 * indexes there are. */
	EXPECT(physical(t, "package:0.pu:4", &s, &e) == LOCATION_E_NO_SUCH);
	EXPECT(e.physical && e.value == 4 && e.has_other && e.other == 2);
	EXPECT(!strcmp(e.os_indexes, "0-3,8-11"));
	/* Caches have no OS index (hwloc's is all ones). */
	for (unsigned i = 0; i < t->nobjs; i++)
		if (t->objs[i].type == TOPO_L3)
			t->objs[i].os = UINT_MAX;
	EXPECT(physical(t, "l3:0", &s, &e) == LOCATION_E_NO_OS_INDEX);
	EXPECT(physical(t, "l3:all", &s, &e) == LOCATION_OK);
	EXPECT_SET(&s, "0-15");
	/* Logical, an index that exists as an OS index only. */
	EXPECT(location_eval(t, "numa:1.pu:12", NULL, &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_NO_SUCH && e.in_numa &&
	       e.parent_numa == 1 && e.has_other && e.other == 1);
	EXPECT(location_logical_of(t, TOPO_NUMA, 1, &n) == 0 && n == 1);
	EXPECT(location_logical_of(t, TOPO_PU, 8, &n) == 0 && n == 1);
	EXPECT(location_logical_of(t, TOPO_PU, 99, &n) == -1);
	EXPECT(location_logical_of(t, TOPO_L3, 0, &n) == -2);
	EXPECT(location_os_of(t, TOPO_PU, 1, &n) == 0 && n == 8);
	EXPECT(location_os_of(t, TOPO_L3, 1, &n) == -1);
	{
		char buf[8], small[4];

		EXPECT(location_os_list(t, TOPO_PU, buf, sizeof(buf)) == 4);
		EXPECT(!strcmp(buf, "0-15"));
		EXPECT(location_os_list(t, TOPO_NUMA, buf, sizeof(buf)) == 3);
		EXPECT(!strcmp(buf, "0-1"));
		location_os_list(t, TOPO_PU, small, sizeof(small));
		EXPECT(!strcmp(small, "..."));
	}
	tree_free(t);
}

TEST(near_misses)
{
	struct topology *t = machine();

	EXPECT(!strcmp(meant(t, "cpu0"), "0"));
	EXPECT(!strcmp(meant(t, "CPU:3-5"), "3-5"));
	EXPECT(!strcmp(meant(t, "core0"), "core:0"));
	EXPECT(!strcmp(meant(t, "socket1"), "socket:1"));
	EXPECT(!strcmp(meant(t, "pakage:1"), "package:1"));
	EXPECT(!strcmp(meant(t, "thread:3"), "pu:3"));
	EXPECT(!strcmp(meant(t, "!0-3"), "all ~0-3"));
	EXPECT(!strcmp(meant(t, "core:0 ~numa1"), "core:0 ~numa:1"));
	EXPECT(!strcmp(meant(t, "zzz:1"), ""));
	EXPECT(!strcmp(meant(t, "core"), ""));
	tree_free(t);
}

int main(void)
{
	RUN(locations);
	RUN(location_errors);
	RUN(expressions);
	RUN(hwloc_names);
	RUN(indexes_as_hwloc_calc);
	RUN(hwloc_2_10_containment);
	RUN(physical_indexes);
	RUN(near_misses);
	RUN(memory_only_objects);
	RUN(groups_named_by_level);
	RUN(counts_text);
	RUN(format_compresses_runs);
	RUN(format_parses_back);
	return DONE();
}
