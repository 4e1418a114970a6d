/*
 * location.c: the hwloc location syntax over the flattened topology, in
 * both directions. Pure. Unlike hwloc-calc, a name that matches nothing is
 * an error here, never a warning followed by a smaller set.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "location.h"

static int fail(struct location_error *err, enum location_err code,
		const char *at, size_t len)
{
	err->code = code;
	err->at = at;
	err->len = len;
	return -1;
}

/* The number of group levels above depth (so groups are named group0,
 * group1, ... from the top when there are several). */
static unsigned group_rank(const struct topology *t, unsigned depth,
			   unsigned *total)
{
	unsigned rank = 0, n = 0;

	for (unsigned d = 0; d < t->nlevels; d++)
		if (t->levels[d].type == TOPO_GROUP) {
			if (d < depth)
				rank++;
			n++;
		}
	if (total)
		*total = n;
	return rank;
}

/* Match a type name; returns the level depth, or -1 with err (or -2 for
 * NUMA nodes, which have no depth in the tree). */
static int type_depth(const struct topology *t, const char *s, size_t len,
		      struct location_error *err)
{
	/* hwloc's names, and any unambiguous prefix of two letters or more
	 * ("pack", "sock", "mach"), as hwloc takes them. */
	static const struct {
		const char *name;
		enum topo_type type;
	} names[] = {
		{ "machine", TOPO_MACHINE }, { "package", TOPO_PACKAGE },
		{ "socket", TOPO_PACKAGE },  { "die", TOPO_DIE },
		{ "numanode", TOPO_NUMA },   { "node", TOPO_NUMA },
		{ "core", TOPO_CORE },	     { "pu", TOPO_PU },
		{ "group", TOPO_GROUP },
	};
	char name[16];
	enum topo_type type = TOPO_NTYPES;
	long group = -1;
	int depth, matches = 0;

	if (len == 0 || len >= sizeof(name))
		return fail(err, LOCATION_E_TYPE, s, len);
	for (size_t i = 0; i < len; i++)
		name[i] = (char)tolower((unsigned char)s[i]);
	name[len] = '\0';
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (len >= 2 && !strncmp(name, names[i].name, len) &&
		    (type == TOPO_NTYPES || type != names[i].type)) {
			type = names[i].type;
			matches++;
		}
	if (matches > 1)
		type = TOPO_NTYPES;
	if (name[0] == 'l' && name[1] >= '1' && name[1] <= '5' &&
	    (!name[2] || !strcmp(name + 2, "d") || !strcmp(name + 2, "cache") ||
	     !strcmp(name + 2, "dcache") || !strcmp(name + 2, "u") ||
	     !strcmp(name + 2, "ucache")))
		type = (enum topo_type)(TOPO_L1 - (name[1] - '1'));
	if (!strncmp(name, "group", 5) && isdigit((unsigned char)name[5]) &&
	    !name[6]) {
		type = TOPO_GROUP;
		group = name[5] - '0';
	}
	if (type == TOPO_NTYPES)
		return fail(err, LOCATION_E_TYPE, s, len);
	err->type = type;
	if (type == TOPO_NUMA)
		return t->nnuma ? -2 : fail(err, LOCATION_E_NO_LEVEL, s, len);
	if (type == TOPO_GROUP) {
		unsigned ngroups;

		group_rank(t, 0, &ngroups);
		if (group < 0 && ngroups > 1) {
			err->value = ngroups;
			return fail(err, LOCATION_E_GROUPS, s, len);
		}
		for (unsigned d = 0; d < t->nlevels; d++)
			if (t->levels[d].type == TOPO_GROUP &&
			    (group < 0 ||
			     group_rank(t, d, NULL) == (unsigned)group))
				return (int)d;
		return fail(err, LOCATION_E_NO_LEVEL, s, len);
	}
	depth = tree_type_depth(t, type);
	return depth >= 0 ? depth : fail(err, LOCATION_E_NO_LEVEL, s, len);
}

/* Is object o inside parent (the object itself included)? */
static int inside(const struct topology *t, int o, int parent)
{
	for (; o != TOPO_NONE; o = t->objs[o].parent)
		if (o == parent)
			return 1;
	return 0;
}

/* The candidates of one step inside parent, as objs indexes (for NUMA
 * nodes: node numbers with the high bit set apart in numa[]). */
static unsigned candidates(const struct topology *t, int depth, int parent,
			   int *out)
{
	unsigned n = 0;

	if (depth == -2) {
		for (unsigned i = 0; i < t->nnuma; i++)
			if (parent < 0 || inside(t, t->numa[i].attach, parent))
				out[n++] = (int)i;
		return n;
	}
	for (unsigned i = 0; i < t->levels[depth].count; i++) {
		int o = t->levels[depth].objs[i];

		if (parent < 0 || inside(t, o, parent))
			out[n++] = o;
	}
	return n;
}

/* A decimal index; an absurd one (more digits than any machine has
 * objects) reads as ULONG_MAX, which no range check lets through. */
static unsigned long index_number(const char **p)
{
	unsigned long v = 0;

	while (isdigit((unsigned char)**p)) {
		v = v < 1UL << 32 ? v * 10 + (unsigned long)(**p - '0')
				  : ULONG_MAX;
		(*p)++;
	}
	return v;
}

/* Parse the index part of a step (up to '.' or the end) and mark the
 * chosen candidates in pick[0..n). */
static int pick_indexes(const char *s, size_t len, unsigned n, char *pick,
			struct location_error *err)
{
	const char *p = s, *end = s + len;
	unsigned long first, last, count = 0;
	bool wrap = false;

	if (len == 3 && !strncasecmp(s, "all", 3)) {
		memset(pick, 1, n);
		return 0;
	}
	if ((len == 3 && !strncasecmp(s, "odd", 3)) ||
	    (len == 4 && !strncasecmp(s, "even", 4))) {
		for (unsigned i = len == 3; i < n; i += 2)
			pick[i] = 1;
		return 0;
	}
	if (!isdigit((unsigned char)*p))
		return fail(err, LOCATION_E_BAD_INDEX, s, len);
	first = last = index_number(&p);
	if (p < end && *p == '-') {
		p++;
		if (p == end)
			last = first < n ? n - 1 : first; /* "N-": to the end */
		else if (!isdigit((unsigned char)*p))
			return fail(err, LOCATION_E_BAD_INDEX, s, len);
		else
			last = index_number(&p);
		if (p == end && last < first)
			return fail(err, LOCATION_E_REVERSED, s, len);
	} else if (p < end && *p == ':') {
		p++;
		if (!isdigit((unsigned char)*p))
			return fail(err, LOCATION_E_BAD_INDEX, s, len);
		count = index_number(&p);
		if (!count)
			return fail(err, LOCATION_E_BAD_INDEX, s, len);
		wrap = true;
	}
	if (p != end)
		return fail(err, LOCATION_E_BAD_INDEX, s, len);
	if (first >= n || (!wrap && last >= n) || (wrap && count > n)) {
		if (first == ULONG_MAX || last == ULONG_MAX ||
		    count == ULONG_MAX)
			return fail(err, LOCATION_E_BAD_INDEX, s, len);
		err->value = first >= n ? first : wrap ? count : last;
		err->value2 = n;
		return fail(err, LOCATION_E_NO_SUCH, s, len);
	}
	if (wrap) {
		for (unsigned long i = 0; i < count; i++)
			pick[(first + i) % n] = 1;
		return 0;
	}
	for (unsigned long i = first; i <= last; i++)
		pick[i] = 1;
	return 0;
}

int location_parse(const struct topology *t, const char *spec,
		   struct cpuset *set, struct location_error *err)
{
	int *cur = NULL, *next = NULL, *cand = NULL, ret = -1, prev_depth = -1;
	char *pick = NULL, *taken = NULL;
	bool prev_numa = false;
	unsigned ncur = 1, cap = t->nobjs + t->nnuma + 1;
	const char *s = spec;

	memset(err, 0, sizeof(*err));
	err->parent = -1;
	cpulist_zero(set);
	if (!strcasecmp(spec, "all")) {
		*set = t->usable;
		return 0;
	}
	cur = malloc(cap * sizeof(*cur));
	next = malloc(cap * sizeof(*next));
	cand = malloc(cap * sizeof(*cand));
	pick = malloc(cap);
	taken = calloc(t->nobjs + 1, 1);
	if (!cur || !next || !cand || !pick || !taken) {
		err->code = LOCATION_E_NOMEM;
		goto out;
	}
	cur[0] = -1; /* the whole machine */
	for (;;) {
		const char *colon = strchr(s, ':'), *dot = strchr(s, '.');
		size_t tlen, ilen;
		unsigned nnext = 0;
		int depth;

		if (!*s || *s == '.') {
			fail(err, LOCATION_E_EMPTY_STEP, s, 0);
			goto out;
		}
		if (!dot)
			dot = s + strlen(s);
		if (!colon || colon > dot) {
			tlen = (size_t)(dot - s);
			if (type_depth(t, s, tlen, err) == -1)
				goto out;
			fail(err, LOCATION_E_NO_INDEX, s, tlen);
			goto out;
		}
		tlen = (size_t)(colon - s);
		ilen = (size_t)(dot - colon - 1);
		depth = type_depth(t, s, tlen, err);
		if (depth == -1)
			goto out;
		/* Each step goes deeper; a NUMA node stands for the object it
		 * is attached to, and may follow any step but another. */
		if (prev_depth != -1 &&
		    (depth == -2 ? prev_numa : depth <= prev_depth)) {
			fail(err, LOCATION_E_NOT_DEEPER, s, (size_t)(dot - s));
			goto out;
		}
		for (unsigned k = 0; k < ncur; k++) {
			unsigned n = candidates(t, depth, cur[k], cand);

			memset(pick, 0, n);
			err->parent = cur[k];
			if (pick_indexes(colon + 1, ilen, n, pick, err) < 0) {
				err->at = s;
				err->len = (size_t)(dot - s);
				goto out;
			}
			for (unsigned i = 0; i < n; i++) {
				int o = depth == -2 ? t->numa[cand[i]].attach
						    : cand[i];

				/* Two NUMA nodes on one object (DDR and
				 * MCDRAM) name its CPUs once. */
				if (pick[i] && !taken[o]) {
					taken[o] = 1;
					next[nnext++] = o;
				}
			}
		}
		for (unsigned k = 0; k < nnext; k++)
			taken[next[k]] = 0;
		memcpy(cur, next, nnext * sizeof(*cur));
		ncur = nnext;
		prev_numa = depth == -2;
		if (prev_numa) {
			prev_depth = 0;
			for (unsigned k = 0; k < ncur; k++)
				if ((int)t->objs[cur[k]].depth > prev_depth)
					prev_depth = (int)t->objs[cur[k]].depth;
		} else {
			prev_depth = depth;
		}
		if (!*dot)
			break;
		s = dot + 1;
	}
	for (unsigned k = 0; k < ncur; k++)
		tree_obj_cpus(t, cur[k], set);
	if (cpulist_empty(set)) {
		fail(err, LOCATION_E_NO_CPUS, spec, strlen(spec));
		goto out;
	}
	err->code = LOCATION_OK;
	ret = 0;
out:
	free(cur);
	free(next);
	free(cand);
	free(pick);
	free(taken);
	return ret;
}

size_t location_name(const struct topology *t, int o, char *buf, size_t size)
{
	const struct topo_obj *obj = &t->objs[o];
	unsigned ngroups;

	if (obj->type == TOPO_GROUP) {
		unsigned rank = group_rank(t, obj->depth, &ngroups);

		if (ngroups > 1)
			return (size_t)snprintf(buf, size, "group%u:%u", rank,
						obj->logical);
	}
	return (size_t)snprintf(buf, size, "%s:%u", tree_type_name(obj->type),
				obj->logical);
}

size_t location_format(const struct topology *t, const int *objs, unsigned n,
		       char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (unsigned i = 0; i < n;) {
		const struct topo_obj *a = &t->objs[objs[i]];
		unsigned j = i + 1;
		char item[64] = " ";
		size_t k = len ? 1 : 0;

		while (j < n && t->objs[objs[j]].depth == a->depth &&
		       t->objs[objs[j]].logical == a->logical + (j - i))
			j++;
		k += location_name(t, objs[i], item + k, sizeof(item) - k);
		if (j - i > 1)
			k += (size_t)snprintf(item + k, sizeof(item) - k, "-%u",
					      t->objs[objs[j - 1]].logical);
		/* Whole items only, so a short buffer holds a clean prefix. */
		if (len + k < size)
			memcpy(buf + len, item, k + 1);
		else
			size = 0;
		len += k;
		i = j;
	}
	return len;
}
