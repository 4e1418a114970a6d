/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for policy.c on hand-built machines. */
#include <stdlib.h>

#include "check.h"
#include "policy.h"

/* 2 packages x 2 L3 x 2 cores x 2 PUs; core c has CPUs c and c+8. */
static struct topology *machine(void)
{
	return build_machine(2, 2, 2, 2, true);
}

static struct policy_request request(const struct topology *t,
				     enum policy_kind kind)
{
	struct policy_request r;

	memset(&r, 0, sizeof(r));
	r.kind = kind;
	r.which = POLICY_WHICH_CURRENT;
	r.allowed = t->usable;
	r.current_cpu = -1;
	return r;
}

/* Plan and return the error code (POLICY_OK on success). */
static enum policy_err plan(const struct topology *t,
			    const struct policy_request *r,
			    struct policy_plan *p)
{
	struct policy_error e;

	if (policy_plan(t, r, p, &e) < 0)
		return e.code;
	return POLICY_OK;
}

/* The slots as "a|b|c" text. */
static void slots_text(const struct policy_plan *p, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < p->nslots; i++) {
		struct cpuset s;

		cpulist_zero(&s);
		for (unsigned j = p->slot_start[i]; j < p->slot_start[i + 1];
		     j++)
			cpulist_add(&s, p->slot_cpus[j]);
		if (i)
			len += (size_t)snprintf(buf + len, size - len, "|");
		len += cpulist_format(&s, buf + len, size - len);
	}
}

#define EXPECT_SLOTS(p, text)                                                  \
	do {                                                                   \
		char got_[1024];                                               \
		slots_text((p), got_, sizeof(got_));                           \
		if (strcmp(got_, (text))) {                                    \
			check_current_failed = 1;                              \
			printf("# %s:%d: slots '%s', want '%s'\n", __FILE__,   \
			       __LINE__, got_, (text));                        \
		}                                                              \
	} while (0)

static void spread_is(struct topology *t, unsigned n, enum policy_smt smt,
		      const char *want)
{
	struct policy_request r = request(t, POLICY_SPREAD);
	struct policy_plan p;

	r.n = n;
	r.smt = smt;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, want);
	policy_plan_free(&p);
}

TEST(spread_follows_hwloc_distrib)
{
	struct topology *t = machine();

	spread_is(t, 1, POLICY_SMT_DEFAULT, "0");
	spread_is(t, 2, POLICY_SMT_DEFAULT, "0,4");
	spread_is(t, 3, POLICY_SMT_DEFAULT, "0,2,4");
	spread_is(t, 4, POLICY_SMT_DEFAULT, "0,2,4,6");
	spread_is(t, 0, POLICY_SMT_DEFAULT, "0-7");
	/* With --smt the unit is the PU: 9 of 16 splits core 0. */
	spread_is(t, 9, POLICY_SMT_ALL, "0-8");
	spread_is(t, 0, POLICY_SMT_ALL, "0-15");
	tree_free(t);
}

TEST(spread_too_many)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_SPREAD);
	struct policy_plan p;
	struct policy_error e;

	r.n = 9;
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_TOO_MANY && e.value == 9 && e.value2 == 8);
	r.smt = POLICY_SMT_ALL;
	r.n = 17;
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_TOO_MANY && e.value2 == 16);
	tree_free(t);
}

TEST(spread_inside_allowed)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_SPREAD);
	struct policy_plan p;

	r.allowed = set_of("0-3");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "0-3");
	policy_plan_free(&p);
	/* Both PUs of core 1 count as one core. */
	r.allowed = set_of("1,9");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "1");
	policy_plan_free(&p);
	/* A core whose first PU is not allowed is still a core. */
	r.allowed = set_of("8,12");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "8,12");
	policy_plan_free(&p);
	tree_free(t);
}

/* Uneven: package 0 has a 2-PU core and a 1-PU core, package 1 one core. */
static struct topology *uneven(void)
{
	struct topology *t = tree_new("uneven");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);
	int p0 = tree_add(t, TOPO_PACKAGE, m, -1, 0);
	int c0 = tree_add(t, TOPO_CORE, p0, -1, 0);
	int c1, p1, c2;

	tree_add(t, TOPO_PU, c0, -1, 0);
	tree_add(t, TOPO_PU, c0, -1, 4);
	c1 = tree_add(t, TOPO_CORE, p0, -1, 1);
	tree_add(t, TOPO_PU, c1, -1, 1);
	p1 = tree_add(t, TOPO_PACKAGE, m, -1, 1);
	c2 = tree_add(t, TOPO_CORE, p1, -1, 2);
	tree_add(t, TOPO_PU, c2, -1, 2);
	tree_add_numa(t, m, 0);
	cpulist_add(&t->complete, 3); /* offline */
	EXPECT(tree_finish(t) == TOPO_OK);
	return t;
}

TEST(spread_uneven_counts_cores_not_pus)
{
	struct topology *t = uneven();

	/* One PU per core: every core, although package 0 has 3 PUs. */
	spread_is(t, 3, POLICY_SMT_DEFAULT, "0-2");
	/* Weighted as hwloc_distrib is: 2 cores of 3 are in package 0. */
	spread_is(t, 2, POLICY_SMT_DEFAULT, "0-1");
	/* By PUs, package 1 gets no chunk and merges into the one before,
	 * as hwloc_distrib does. */
	spread_is(t, 3, POLICY_SMT_ALL, "0-1,4");
	tree_free(t);
}

TEST(domains_by_index)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_SAME_CHIP);
	struct policy_plan p;

	r.which = POLICY_WHICH_INDEX;
	r.index = 1;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "4-7,12-15");
	EXPECT(p.reason == POLICY_REASON_GIVEN);
	EXPECT(t->objs[p.domain].type == TOPO_PACKAGE);
	EXPECT(t->objs[p.domain].logical == 1);
	policy_plan_free(&p);
	r.smt = POLICY_SMT_ONE;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "4-7");
	EXPECT_SET(&p.smt_dropped, "12-15");
	policy_plan_free(&p);
	r = request(t, POLICY_SAME_CACHE);
	r.which = POLICY_WHICH_INDEX;
	r.index = 3;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "6-7,14-15");
	policy_plan_free(&p);
	r = request(t, POLICY_SAME_NUMA);
	r.which = POLICY_WHICH_INDEX;
	r.index = 0;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "0-3,8-11");
	policy_plan_free(&p);
	tree_free(t);
}

TEST(domain_errors)
{
	struct topology *t = machine(), *u = uneven();
	struct policy_request r = request(t, POLICY_SAME_CHIP);
	struct policy_plan p;
	struct policy_error e;

	r.which = POLICY_WHICH_INDEX;
	r.index = 2;
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_NO_SUCH && e.value == 2 && e.value2 == 2);
	r.index = 1;
	r.allowed = set_of("0-3");
	EXPECT(plan(t, &r, &p) == POLICY_E_DOMAIN_EMPTY);
	r = request(u, POLICY_SAME_CACHE);
	EXPECT(policy_plan(u, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_NO_LEVEL && e.value == TOPO_L3);
	tree_free(t);
	tree_free(u);
}

TEST(domain_current_and_first)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_SAME_CHIP);
	struct policy_plan p;

	r.current_cpu = 13;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "4-7,12-15");
	EXPECT(p.reason == POLICY_REASON_CURRENT);
	policy_plan_free(&p);
	/* The current CPU outside the allowed set is an error, not a guess. */
	r.allowed = set_of("0-3");
	EXPECT(plan(t, &r, &p) == POLICY_E_CURRENT);
	/* Planning for another machine: the first candidate with an allowed
	 * CPU, in topology order. */
	r.current_cpu = -1;
	r.allowed = set_of("5");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "5");
	EXPECT(p.reason == POLICY_REASON_FIRST);
	policy_plan_free(&p);
	tree_free(t);
}

TEST(domain_idle)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_SAME_CACHE);
	struct policy_plan p;
	double busy[16];

	for (int i = 0; i < 16; i++)
		busy[i] = 0.9;
	busy[6] = busy[14] = busy[7] = busy[15] = 0.1; /* L3 #3 */
	r.which = POLICY_WHICH_IDLE;
	r.busy = busy;
	r.busy_len = 16;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "6-7,14-15");
	EXPECT(p.reason == POLICY_REASON_IDLE);
	policy_plan_free(&p);
	/* Only allowed CPUs count. */
	r.allowed = set_of("0-5,8-13");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "0-1,8-9");
	policy_plan_free(&p);
	tree_free(t);
}

TEST(hot)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_HOT);
	struct policy_plan p;
	struct policy_error e;

	r.current_cpu = 5;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "5");
	EXPECT_SLOTS(&p, "5");
	policy_plan_free(&p);
	r.smt = POLICY_SMT_ALL;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "5,13");
	EXPECT_SLOTS(&p, "5,13");
	policy_plan_free(&p);
	r.smt = POLICY_SMT_DEFAULT;
	r.which = POLICY_WHICH_INDEX;
	r.cpus = set_of("3");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "3");
	policy_plan_free(&p);
	r.cpus = set_of("3-4");
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_HOT_NOT_ONE && e.value == 2);
	r.cpus = set_of("99");
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_NOT_EXIST && e.value == 99);
	r.cpus = set_of("3");
	r.allowed = set_of("0-2");
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_NOT_ALLOWED && e.value == 3);
	tree_free(t);
}

TEST(hot_idle_prefers_idle_siblings_and_fast_kinds)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_HOT);
	struct policy_plan p;
	double busy[16];

	for (int i = 0; i < 16; i++)
		busy[i] = 0.5;
	busy[2] = 0.0; /* idle PU, but its sibling 10 is flat out */
	busy[10] = 1.0;
	busy[3] = 0.1; /* a little busy, on a quiet core */
	busy[11] = 0.1;
	r.which = POLICY_WHICH_IDLE;
	r.busy = busy;
	r.busy_len = 16;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "3");
	policy_plan_free(&p);
	/* Package 1 is the faster kind: it wins even when busier. */
	for (unsigned i = 0; i < t->npus; i++)
		if (tree_pu_os(t, i) % 8 >= 4)
			tree_set_kind(t, t->pus[i], 1);
		else
			tree_set_kind(t, t->pus[i], 0);
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "4");
	policy_plan_free(&p);
	tree_free(t);
}

TEST(cpus_checked)
{
	struct topology *t = uneven();
	struct policy_request r = request(t, POLICY_CPUS);
	struct policy_plan p;
	struct policy_error e;

	r.cpus = set_of("0-2");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SET(&p.cpus, "0-2");
	policy_plan_free(&p);
	r.cpus = set_of("3");
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_OFFLINE && e.value == 3);
	r.cpus = set_of("0,5");
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_NOT_EXIST && e.value == 5);
	r.cpus = set_of("1");
	r.allowed = set_of("0");
	EXPECT(policy_plan(t, &r, &p, &e) < 0);
	EXPECT(e.code == POLICY_E_NOT_ALLOWED && e.value == 1);
	r.allowed = set_of("99");
	EXPECT(plan(t, &r, &p) == POLICY_E_NOTHING);
	tree_free(t);
}

TEST(slots_round_robin)
{
	struct topology *t = machine();
	struct policy_request r = request(t, POLICY_SAME_CHIP);
	struct policy_plan p;

	/* One core per slot, alternating L3s. */
	r.which = POLICY_WHICH_INDEX;
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SLOTS(&p, "0,8|2,10|1,9|3,11");
	policy_plan_free(&p);
	/* One PU per slot, packages alternating, then L3s. */
	r = request(t, POLICY_SPREAD);
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SLOTS(&p, "0|4|2|6|1|5|3|7");
	policy_plan_free(&p);
	/* --cpus: PUs of the same core come after other cores. */
	r = request(t, POLICY_CPUS);
	r.cpus = set_of("0,4,8");
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SLOTS(&p, "0|4|8");
	policy_plan_free(&p);
	tree_free(t);
}

TEST(slots_every_prefix_balanced)
{
	/* 4 packages x 3 L3 x 4 cores: any prefix of the spread order has
	 * package counts within one of each other. */
	struct topology *t = build_machine(4, 3, 4, 1, false);
	struct policy_request r = request(t, POLICY_SPREAD);
	struct policy_plan p;
	unsigned count[4] = { 0 };

	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT(p.nslots == 48);
	for (unsigned i = 0; i < p.nslots; i++) {
		unsigned cpu = p.slot_cpus[p.slot_start[i]], lo = ~0u, hi = 0;

		count[cpu / 12]++;
		for (int k = 0; k < 4; k++) {
			lo = count[k] < lo ? count[k] : lo;
			hi = count[k] > hi ? count[k] : hi;
		}
		EXPECT(hi - lo <= 1);
		if (i)
			EXPECT(cpu / 12 !=
			       p.slot_cpus[p.slot_start[i - 1]] / 12);
	}
	policy_plan_free(&p);
	tree_free(t);
}

TEST(slots_deal_from_packages_under_groups)
{
	/* Group 0 holds packages 0-2, group 1 package 3; 2 cores each.
	 * Packages come first: one slot from each before any gets a second,
	 * in the order the groups deal them (0, 3, 1, 2). */
	struct topology *t = tree_new("books");
	int m = tree_add(t, TOPO_MACHINE, TOPO_NONE, -1, 0);
	int g[2] = { tree_add(t, TOPO_GROUP, m, -1, 0), 0 };
	unsigned cpu = 0;
	struct policy_request r;
	struct policy_plan p;

	for (int k = 0; k < 4; k++) {
		int pk, co;

		if (k == 3)
			g[1] = tree_add(t, TOPO_GROUP, m, -1, 1);
		pk = tree_add(t, TOPO_PACKAGE, g[k == 3], -1, (unsigned)k);
		for (int c = 0; c < 2; c++) {
			co = tree_add(t, TOPO_CORE, pk, -1, cpu);
			tree_add(t, TOPO_PU, co, -1, cpu++);
		}
	}
	tree_add_numa(t, m, 0);
	EXPECT(tree_finish(t) == TOPO_OK);
	r = request(t, POLICY_SPREAD);
	EXPECT(plan(t, &r, &p) == POLICY_OK);
	EXPECT_SLOTS(&p, "0|6|2|4|1|7|3|5");
	policy_plan_free(&p);
	tree_free(t);
}

TEST(cover)
{
	struct topology *t = machine();
	int objs[16];
	struct cpuset s = set_of("4-7,12-15");

	EXPECT(policy_cover(t, &s, objs, 16) == 1);
	EXPECT(t->objs[objs[0]].type == TOPO_PACKAGE);
	s = set_of("0,8");
	EXPECT(policy_cover(t, &s, objs, 16) == 1);
	EXPECT(t->objs[objs[0]].type == TOPO_CORE);
	s = set_of("0-15");
	EXPECT(policy_cover(t, &s, objs, 16) == 1);
	EXPECT(t->objs[objs[0]].type == TOPO_MACHINE);
	s = set_of("0,1");
	EXPECT(policy_cover(t, &s, objs, 16) == 2);
	EXPECT(t->objs[objs[0]].type == TOPO_PU);
	tree_free(t);
}

int main(void)
{
	RUN(spread_follows_hwloc_distrib);
	RUN(spread_too_many);
	RUN(spread_inside_allowed);
	RUN(spread_uneven_counts_cores_not_pus);
	RUN(domains_by_index);
	RUN(domain_errors);
	RUN(domain_current_and_first);
	RUN(domain_idle);
	RUN(hot);
	RUN(hot_idle_prefers_idle_siblings_and_fast_kinds);
	RUN(cpus_checked);
	RUN(slots_round_robin);
	RUN(slots_every_prefix_balanced);
	RUN(slots_deal_from_packages_under_groups);
	RUN(cover);
	return DONE();
}
