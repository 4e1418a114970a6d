/* Unit tests for location.c: hwloc-style locations in and out. */
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

	return location_parse(t, spec, set, &e) < 0 ? e.code : LOCATION_OK;
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
	EXPECT(location_parse(t, "core:8", &s, &e) < 0);
	EXPECT(e.code == LOCATION_E_NO_SUCH && e.value == 8 && e.value2 == 8);
	EXPECT(e.parent == -1);
	EXPECT(location_parse(t, "package:1.core:4", &s, &e) < 0);
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
		for (word = strtok(buf, " "); word; word = strtok(NULL, " ")) {
			EXPECT(parse(t, word, &one) == LOCATION_OK);
			cpulist_or(&back, &back, &one);
		}
		EXPECT(cpulist_equal(&s, &back));
	}
	tree_free(t);
}

int main(void)
{
	RUN(locations);
	RUN(location_errors);
	RUN(memory_only_objects);
	RUN(groups_named_by_level);
	RUN(format_compresses_runs);
	RUN(format_parses_back);
	return DONE();
}
