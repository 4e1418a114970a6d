/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * slotorder.c: the order in which follow mode hands out a plan's CPUs, one
 * slot per new child: round-robin over packages first, then NUMA nodes,
 * then L3 caches, then the tree below them, so that every prefix of the
 * order is as evenly spread as the topology allows. Pure, like policy.c,
 * whose plans it completes.
 */
#include <stdlib.h>
#include <string.h>

#include "slotorder.h"

/* Deal out the units under o: the parts' own orders round-robin, the
 * first unit of each part, then the second of each, and so on, so every
 * prefix is as evenly spread as the tree allows. */
static int deal_tree(const struct topology *t, const unsigned *count,
		     const char *mark, int o, int *out)
{
	int *parts = NULL, *buf = NULL, r = -1;
	unsigned nparts = 0, *start = NULL, done = 0, at = 0;

	if (mark[o]) {
		out[0] = o;
		return 0;
	}
	parts = malloc((count[o] + 1) * sizeof(*parts));
	buf = malloc((count[o] + 1) * sizeof(*buf));
	start = malloc((count[o] + 1) * sizeof(*start));
	if (!parts || !buf || !start)
		goto out;
	for (int c = t->objs[o].first_child; c != TOPO_NONE;
	     c = t->objs[c].next_sibling)
		if (count[c])
			parts[nparts++] = c;
	for (unsigned k = 0; k < nparts; k++) {
		start[k] = at;
		if (deal_tree(t, count, mark, parts[k], buf + at) < 0)
			goto out;
		at += count[parts[k]];
	}
	for (unsigned round = 0; done < count[o]; round++)
		for (unsigned k = 0; k < nparts; k++)
			if (round < count[parts[k]])
				out[done++] = buf[start[k] + round];
	r = 0;
out:
	free(parts);
	free(buf);
	free(start);
	return r;
}

/* Count the marked objects under each object; returns how many. */
static unsigned count_marks(const struct topology *t, const char *mark,
			    unsigned *count)
{
	unsigned n = 0;

	memset(count, 0, t->nobjs * sizeof(*count));
	for (unsigned i = 0; i < t->nobjs; i++) {
		if (!mark[i])
			continue;
		n++;
		for (int o = (int)i; o != TOPO_NONE; o = t->objs[o].parent)
			count[o]++;
	}
	return n;
}

/* The tree's round-robin order of the marked objects, as a rank each. */
static int tree_ranks(const struct topology *t, const char *mark,
		      unsigned *rank)
{
	unsigned *count = malloc(t->nobjs * sizeof(*count)), n;
	int *order = NULL, r = -1;

	if (!count)
		return -1;
	n = count_marks(t, mark, count);
	order = malloc((n + 1) * sizeof(*order));
	if (order && (!n || deal_tree(t, count, mark, 0, order) == 0)) {
		for (unsigned i = 0; i < n; i++)
			rank[order[i]] = i;
		r = 0;
	}
	free(count);
	free(order);
	return r;
}

/* A slot unit's place in the order: its package (ranked as the levels
 * above packages deal them), NUMA node, L3, then its rank in the tree. */
struct unit_key {
	unsigned part, numa, l3, rank;
	int obj;
};

static int compare_keys(const void *a, const void *b)
{
	const struct unit_key *x = a, *y = b;

	if (x->part != y->part)
		return x->part < y->part ? -1 : 1;
	if (x->numa != y->numa)
		return x->numa < y->numa ? -1 : 1;
	if (x->l3 != y->l3)
		return x->l3 < y->l3 ? -1 : 1;
	return x->rank < y->rank ? -1 : x->rank > y->rank;
}

static unsigned key_at(const struct unit_key *k, int level)
{
	return level == 0 ? k->part : level == 1 ? k->numa : k->l3;
}

/* Round-robin over the groups of one level (keys sorted), recursively:
 * packages first, then NUMA nodes, then L3 caches, whatever other levels
 * (dies, groups) lie between them. */
static int deal_levels(const struct unit_key *k, unsigned n, int level,
		       int *out)
{
	unsigned ngroups = 0, *start, done = 0;
	int *buf, r = -1;

	if (level == 3) {
		for (unsigned i = 0; i < n; i++)
			out[i] = k[i].obj;
		return 0;
	}
	start = malloc((n + 1) * sizeof(*start));
	buf = malloc((n + 1) * sizeof(*buf));
	if (!start || !buf)
		goto out;
	for (unsigned i = 0; i < n; i++)
		if (!i || key_at(&k[i], level) != key_at(&k[i - 1], level))
			start[ngroups++] = i;
	start[ngroups] = n;
	for (unsigned g = 0; g < ngroups; g++)
		if (deal_levels(k + start[g], start[g + 1] - start[g],
				level + 1, buf + start[g]) < 0)
			goto out;
	for (unsigned round = 0; done < n; round++)
		for (unsigned g = 0; g < ngroups; g++)
			if (start[g] + round < start[g + 1])
				out[done++] = buf[start[g] + round];
	r = 0;
out:
	free(start);
	free(buf);
	return r;
}

/* The nearest object of a type above o (o included), or TOPO_NONE. */
static int above(const struct topology *t, int o, enum topo_type type)
{
	while (o != TOPO_NONE && t->objs[o].type != type)
		o = t->objs[o].parent;
	return o;
}

/* Order the marked units (n of them) into order. */
static int order_units(const struct topology *t, const char *mark, unsigned n,
		       int *order)
{
	unsigned *rank = calloc(t->nobjs, sizeof(*rank));
	unsigned *part_rank = calloc(t->nobjs, sizeof(*part_rank));
	int *numa_at = malloc(t->nobjs * sizeof(*numa_at));
	char *parts = calloc(t->nobjs, 1);
	struct unit_key *keys = malloc((n + 1) * sizeof(*keys));
	unsigned nk = 0;
	int r = -1;

	if (!rank || !part_rank || !numa_at || !parts || !keys ||
	    tree_ranks(t, mark, rank) < 0)
		goto out;
	/* The parts the machine deals from: packages, and units that sit
	 * under no package; ranked as the levels above them deal them. */
	for (unsigned i = 0; i < t->nobjs; i++) {
		int p = mark[i] ? above(t, (int)i, TOPO_PACKAGE) : TOPO_NONE;

		if (mark[i])
			parts[p == TOPO_NONE ? (int)i : p] = 1;
	}
	if (tree_ranks(t, parts, part_rank) < 0)
		goto out;
	for (unsigned i = 0; i < t->nobjs; i++)
		numa_at[i] = -1;
	for (unsigned i = t->nnuma; i-- > 0;)
		numa_at[t->numa[i].attach] = (int)i; /* the first one wins */
	for (unsigned i = 0; i < t->nobjs; i++) {
		int p, o, l3;

		if (!mark[i])
			continue;
		p = above(t, (int)i, TOPO_PACKAGE);
		for (o = (int)i; o != TOPO_NONE && numa_at[o] < 0;)
			o = t->objs[o].parent;
		l3 = above(t, (int)i, TOPO_L3);
		keys[nk].part = part_rank[p == TOPO_NONE ? (int)i : p];
		keys[nk].numa = o == TOPO_NONE ? ~0u : (unsigned)numa_at[o];
		keys[nk].l3 = l3 == TOPO_NONE ? ~0u : t->objs[l3].logical;
		keys[nk].rank = rank[i];
		keys[nk++].obj = (int)i;
	}
	qsort(keys, nk, sizeof(*keys), compare_keys);
	r = deal_levels(keys, nk, 0, order);
out:
	free(rank);
	free(part_rank);
	free(numa_at);
	free(parts);
	free(keys);
	return r;
}

int slotorder_make(const struct topology *t, enum policy_slots slots,
		   struct policy_plan *plan)
{
	char *mark = calloc(t->nobjs, 1);
	int *order = NULL;
	unsigned nslots = 0, at = 0;
	bool by_core = slots == POLICY_SLOTS_CORE;
	int ret = -1;

	plan->slot_cpus =
	    malloc((cpulist_count(&plan->cpus) + 1) * sizeof(*plan->slot_cpus));
	if (!mark || !plan->slot_cpus)
		goto out;
	if (slots == POLICY_SLOTS_ONE) {
		plan->slot_start = malloc(2 * sizeof(*plan->slot_start));
		if (!plan->slot_start)
			goto out;
		for (int c = cpulist_next(&plan->cpus, -1); c >= 0;
		     c = cpulist_next(&plan->cpus, c))
			plan->slot_cpus[at++] = (unsigned)c;
		plan->slot_start[0] = 0;
		plan->slot_start[1] = at;
		plan->nslots = 1;
		ret = 0;
		goto out;
	}
	for (unsigned i = 0; i < t->npus; i++)
		if (cpulist_has(&plan->cpus, tree_pu_os(t, i)) &&
		    !mark[by_core ? t->pu_core[i] : t->pus[i]]) {
			mark[by_core ? t->pu_core[i] : t->pus[i]] = 1;
			nslots++;
		}
	order = malloc((nslots + 1) * sizeof(*order));
	plan->slot_start = malloc((nslots + 1) * sizeof(*plan->slot_start));
	if (!order || !plan->slot_start ||
	    (nslots && order_units(t, mark, nslots, order) < 0))
		goto out;
	for (unsigned k = 0; k < nslots; k++) {
		const struct topo_obj *u = &t->objs[order[k]];

		plan->slot_start[k] = at;
		for (unsigned j = 0; j < u->pu_count; j++) {
			unsigned cpu = tree_pu_os(t, u->pu_first + j);

			if (cpulist_has(&plan->cpus, cpu))
				plan->slot_cpus[at++] = cpu;
		}
	}
	plan->slot_start[nslots] = at;
	plan->nslots = nslots;
	ret = 0;
out:
	free(mark);
	free(order);
	return ret;
}
