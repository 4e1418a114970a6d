/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * topotree.c: the flattened topology that the placement rules read. Objects
 * arrive in depth-first order from a builder (topology.c walking hwloc, or a
 * unit test); tree_finish indexes them into levels and PU ranges. Pure: no
 * hwloc and no system calls, so every rule can be tested on a hand-made
 * machine.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "topotree.h"

static const char *const type_names[TOPO_NTYPES] = {
	[TOPO_MACHINE] = "machine", [TOPO_PACKAGE] = "package",
	[TOPO_DIE] = "die",	    [TOPO_GROUP] = "group",
	[TOPO_L5] = "l5",	    [TOPO_L4] = "l4",
	[TOPO_L3] = "l3",	    [TOPO_L2] = "l2",
	[TOPO_L1] = "l1",	    [TOPO_CORE] = "core",
	[TOPO_PU] = "pu",	    [TOPO_NUMA] = "numa",
};

const char *tree_type_name(enum topo_type type)
{
	return type < TOPO_NTYPES ? type_names[type] : "?";
}

bool tree_type_is_cache(enum topo_type type)
{
	return type >= TOPO_L5 && type <= TOPO_L1;
}

struct topology *tree_new(const char *source)
{
	struct topology *t = calloc(1, sizeof(*t));

	if (t)
		snprintf(t->source, sizeof(t->source), "%s", source);
	return t;
}

void tree_free(struct topology *t)
{
	if (!t)
		return;
	free(t->objs);
	free(t->pus);
	free(t->pu_core);
	free(t->levels);
	free(t->level_objs);
	free(t->numa);
	free(t->distances);
	free(t->devs);
	free(t->pu_by_os);
	free(t);
}

static int grow(void **p, unsigned *cap, unsigned need, size_t size)
{
	void *n;
	unsigned c;

	if (need <= *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	n = realloc(*p, c * size);
	if (!n)
		return -ENOMEM;
	*p = n;
	*cap = c;
	return 0;
}

int tree_add(struct topology *t, enum topo_type type, int parent, int depth,
	     unsigned os)
{
	struct topo_obj *o;
	int i = (int)t->nobjs;

	if (grow((void **)&t->objs, &t->cap_objs, t->nobjs + 1,
		 sizeof(*t->objs)))
		return -ENOMEM;
	o = &t->objs[i];
	memset(o, 0, sizeof(*o));
	o->type = type;
	o->os = os;
	o->parent = parent;
	o->first_child = TOPO_NONE;
	o->last_child = TOPO_NONE;
	o->next_sibling = TOPO_NONE;
	o->kind = -1;
	if (depth >= 0)
		o->depth = (unsigned)depth;
	else
		o->depth = parent == TOPO_NONE ? 0 : t->objs[parent].depth + 1;
	if (parent != TOPO_NONE) {
		struct topo_obj *p = &t->objs[parent];

		if (p->last_child == TOPO_NONE)
			p->first_child = i;
		else
			t->objs[p->last_child].next_sibling = i;
		p->last_child = i;
	}
	t->nobjs++;
	return i;
}

int tree_add_numa(struct topology *t, int attach, unsigned os)
{
	if (grow((void **)&t->numa, &t->cap_numa, t->nnuma + 1,
		 sizeof(*t->numa)))
		return -ENOMEM;
	memset(&t->numa[t->nnuma], 0, sizeof(t->numa[0]));
	t->numa[t->nnuma].os = os;
	t->numa[t->nnuma].attach = attach;
	return (int)t->nnuma++;
}

int tree_add_dev(struct topology *t, const struct topo_dev *dev)
{
	bool os_dev = dev->type != TOPO_DEV_PCI;

	if (dev->attach < 0 || (unsigned)dev->attach >= t->nobjs ||
	    dev->type >= TOPO_DEV_NTYPES ||
	    (dev->pci != TOPO_NONE &&
	     (!os_dev || dev->pci < 0 || (unsigned)dev->pci >= t->ndevs ||
	      t->devs[dev->pci].type != TOPO_DEV_PCI)) ||
	    !memchr(dev->name, '\0', sizeof(dev->name)) ||
	    !memchr(dev->busid, '\0', sizeof(dev->busid)) ||
	    !memchr(dev->subtype, '\0', sizeof(dev->subtype)))
		return -EINVAL;
	if (grow((void **)&t->devs, &t->cap_devs, t->ndevs + 1,
		 sizeof(*t->devs)))
		return -ENOMEM;
	t->devs[t->ndevs] = *dev;
	return (int)t->ndevs++;
}

int tree_set_distances(struct topology *t, const unsigned *matrix)
{
	size_t n = (size_t)t->nnuma * t->nnuma;
	unsigned *m = n ? malloc(n * sizeof(*m)) : NULL;

	if (n && !m)
		return -ENOMEM;
	if (n)
		memcpy(m, matrix, n * sizeof(*m));
	free(t->distances);
	t->distances = m;
	return 0;
}

void tree_set_kind(struct topology *t, int pu, int rank)
{
	t->objs[pu].kind = rank;
	if (rank + 1 > t->nkinds)
		t->nkinds = rank + 1;
}

/* PU ranges: objects come in depth-first order, so a subtree's PUs follow
 * its root, and walking backwards finishes every child before its parent. */
static void index_pus(struct topology *t)
{
	unsigned next = 0;

	for (unsigned i = 0; i < t->nobjs; i++) {
		struct topo_obj *o = &t->objs[i];

		o->pu_first = next;
		o->pu_count = 0;
		if (o->type == TOPO_PU) {
			o->pu_count = 1;
			t->pus[next++] = (int)i;
		}
	}
	for (unsigned i = t->nobjs; i-- > 1;) {
		struct topo_obj *o = &t->objs[i];
		struct topo_obj *p = &t->objs[o->parent];

		p->pu_count += o->pu_count;
	}
}

static int index_levels(struct topology *t)
{
	unsigned *fill;

	t->nlevels = 0;
	for (unsigned i = 0; i < t->nobjs; i++)
		if (t->objs[i].depth + 1 > t->nlevels)
			t->nlevels = t->objs[i].depth + 1;
	t->levels = calloc(t->nlevels, sizeof(*t->levels));
	t->level_objs = malloc(t->nobjs * sizeof(*t->level_objs));
	fill = calloc(t->nlevels, sizeof(*fill));
	if (!t->levels || !t->level_objs || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < t->nobjs; i++) {
		t->levels[t->objs[i].depth].type = t->objs[i].type;
		t->levels[t->objs[i].depth].count++;
	}
	for (unsigned d = 0, at = 0; d < t->nlevels; d++) {
		t->levels[d].objs = t->level_objs + at;
		fill[d] = at;
		at += t->levels[d].count;
	}
	for (unsigned i = 0; i < t->nobjs; i++) {
		struct topo_obj *o = &t->objs[i];

		o->logical =
		    fill[o->depth] -
		    (unsigned)(t->levels[o->depth].objs - t->level_objs);
		t->level_objs[fill[o->depth]++] = (int)i;
	}
	free(fill);
	return 0;
}

enum topo_err tree_finish(struct topology *t)
{
	unsigned maxos = 0;

	/* A core inside a core (hwloc makes one from a synthetic description
	 * whose PU indexes repeat) has no meaning for a rule: only groups
	 * nest. */
	for (unsigned i = 0; i < t->nobjs; i++)
		for (int a = t->objs[i].parent;
		     t->objs[i].type != TOPO_GROUP && a != TOPO_NONE;
		     a = t->objs[a].parent)
			if (t->objs[a].type == t->objs[i].type)
				return TOPO_E_NESTED;
	t->npus = 0;
	for (unsigned i = 0; i < t->nobjs; i++)
		if (t->objs[i].type == TOPO_PU) {
			t->npus++;
			if (t->objs[i].os + 1 > maxos)
				maxos = t->objs[i].os + 1;
		}
	t->pus = malloc((t->npus + 1) * sizeof(*t->pus));
	t->pu_core = malloc((t->npus + 1) * sizeof(*t->pu_core));
	t->pu_by_os_len = maxos;
	t->pu_by_os = malloc((maxos + 1) * sizeof(*t->pu_by_os));
	if (!t->pus || !t->pu_core || !t->pu_by_os)
		return TOPO_E_NOMEM;
	index_pus(t);
	if (index_levels(t))
		return TOPO_E_NOMEM;
	for (unsigned i = 0; i < maxos; i++)
		t->pu_by_os[i] = TOPO_NONE;
	cpulist_zero(&t->usable);
	for (unsigned i = 0; i < t->npus; i++) {
		int o = t->pus[i], c = o;

		while (c != TOPO_NONE && t->objs[c].type != TOPO_CORE)
			c = t->objs[c].parent;
		t->pu_core[i] = c == TOPO_NONE ? o : c;
		/* Two PUs with one CPU number would make every set
		 * ambiguous. */
		if (t->pu_by_os[t->objs[o].os] != TOPO_NONE)
			return TOPO_E_DUP_PU;
		t->pu_by_os[t->objs[o].os] = (int)i;
		cpulist_add(&t->usable, t->objs[o].os);
	}
	cpulist_or(&t->complete, &t->complete, &t->usable);
	return TOPO_OK;
}

unsigned tree_pu_os(const struct topology *t, unsigned i)
{
	return t->objs[t->pus[i]].os;
}

void tree_obj_cpus(const struct topology *t, int o, struct cpuset *set)
{
	const struct topo_obj *obj = &t->objs[o];

	for (unsigned i = 0; i < obj->pu_count; i++)
		cpulist_add(set, tree_pu_os(t, obj->pu_first + i));
}

int tree_type_depth(const struct topology *t, enum topo_type type)
{
	for (unsigned d = 0; d < t->nlevels; d++)
		if (t->levels[d].type == type && t->levels[d].count)
			return (int)d;
	return -1;
}

unsigned tree_count(const struct topology *t, enum topo_type type)
{
	unsigned n = 0;

	if (type == TOPO_NUMA)
		return t->nnuma;
	for (unsigned d = 0; d < t->nlevels; d++)
		if (t->levels[d].type == type)
			n += t->levels[d].count;
	return n;
}

static const char *plural(unsigned n)
{
	return n == 1 ? "" : "s";
}

size_t tree_counts_text(const struct topology *t, bool groups, char *buf,
			size_t size)
{
	unsigned packages = tree_count(t, TOPO_PACKAGE),
		 ngroups = groups ? tree_count(t, TOPO_GROUP) : 0,
		 cores = tree_count(t, TOPO_CORE);
	char group_text[32] = "";
	int n;

	if (ngroups)
		snprintf(group_text, sizeof(group_text), "%u group%s, ",
			 ngroups, plural(ngroups));
	n = snprintf(
	    buf, size,
	    "%u package%s, %u NUMA node%s, %u L3, %s%u core%s, %u PU%s",
	    packages, plural(packages), t->nnuma, plural(t->nnuma),
	    tree_count(t, TOPO_L3), group_text, cores, plural(cores), t->npus,
	    plural(t->npus));
	return n < 0 ? 0 : (size_t)n;
}

int tree_core_of(const struct topology *t, unsigned cpu)
{
	if (cpu >= t->pu_by_os_len || t->pu_by_os[cpu] == TOPO_NONE)
		return TOPO_NONE;
	return t->pu_core[t->pu_by_os[cpu]];
}

/* Whether object d lies strictly below object a. */
static bool below(const struct topology *t, int d, int a)
{
	for (d = t->objs[d].parent; d != TOPO_NONE; d = t->objs[d].parent)
		if (d == a)
			return true;
	return false;
}

void tree_local_numa(const struct topology *t, const struct cpuset *set,
		     struct cpuset *nodes)
{
	struct cpuset mine, closer;

	cpulist_zero(nodes);
	for (unsigned n = 0; n < t->nnuma; n++) {
		int a = t->numa[n].attach;

		/* The CPUs of set under the node's object, less those that
		 * a node attached further down serves first. */
		cpulist_zero(&mine);
		tree_obj_cpus(t, a, &mine);
		cpulist_and(&mine, &mine, set);
		for (unsigned m = 0; m < t->nnuma && !cpulist_empty(&mine); m++)
			if (below(t, t->numa[m].attach, a)) {
				cpulist_zero(&closer);
				tree_obj_cpus(t, t->numa[m].attach, &closer);
				cpulist_andnot(&mine, &mine, &closer);
			}
		if (!cpulist_empty(&mine))
			cpulist_add(nodes, t->numa[n].os);
	}
}

const char *topo_strerror(enum topo_err code)
{
	switch (code) {
	case TOPO_OK:
		return "no error";
	case TOPO_E_NOMEM:
		return "out of memory";
	case TOPO_E_SYSTEM:
		return "a system call failed";
	case TOPO_E_INVALID:
		return "hwloc could not make sense of it";
	case TOPO_E_ENV:
		return "unset the variable, or fix it";
	case TOPO_E_LIBRARY:
		return "cannot load libhwloc";
	case TOPO_E_CRASHED:
		return "hwloc crashed reading it";
	case TOPO_E_TIMEOUT:
		return "hwloc was still reading it";
	case TOPO_E_DUP_PU:
		return "two of its PUs have the same CPU number";
	case TOPO_E_NESTED:
		return "it has an object inside another of its own type";
	case TOPO_E_TOO_LARGE:
		return "too large for pinrun";
	case TOPO_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}
