/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * location.c: hwloc's location language over the flattened topology, in
 * both directions. Pure. It reads what hwloc-calc reads (type names and
 * their abbreviations, chains, index ranges, the ~ x ^ operators, masks)
 * and counts as hwloc-calc 2.10 counts; lists are taskset's. Unlike
 * hwloc-calc, a name that matches nothing is an error here, never a
 * warning followed by a smaller set, and with OS indexes the keywords
 * (all, odd, even, N-) and wrapping go by the OS indexes themselves.
 */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "location.h"
#include "num.h"
#include "suggest.h"

/* hwloc's index of an object that has none (caches, most groups). */
#define NO_OS UINT_MAX
/* The level of NUMA nodes, which are not in the tree. */
#define LEVEL_NUMA (-2)
/* A type hwloc has and pinrun keeps no level of; one of I/O devices. */
#define T_UNSUPPORTED TOPO_NTYPES
#define T_IO	      (TOPO_NTYPES + 1)
/* parse_type's group for "hbm" and "mcdram": NUMA nodes of that kind. */
#define GROUP_HBM (-2)

enum range_kind { R_ALL, R_ODD, R_EVEN, R_ONE, R_FROM, R_RANGE, R_WRAP };

/* One step of a chain, "core:0-3". */
struct step {
	const char *text; /* the step, up to '.' or the end */
	size_t len;
	enum topo_type type;
	int level; /* depth in the tree, or LEVEL_NUMA */
	bool hbm;  /* "hbm:": MCDRAM nodes only, from here on */
	enum range_kind kind;
	unsigned long first, last, count;
};

/* What an evaluation works with. Items are objs indexes, or nobjs + n for
 * NUMA node n. */
struct eval {
	const struct topology *t;
	bool physical;
	const struct cpuset *all;
	struct cpuset *dropped;
	unsigned *end;	       /* objs[o]'s subtree is [o, end[o]) */
	char *has_node;	       /* some NUMA node is local to objs[o] */
	char *cpus_everywhere; /* by depth: every object there has CPUs */
	int *cand, *cur, *next;
	char *taken;
	unsigned ncur, nnext;
	struct location_error *err;
};

static int fail(struct location_error *err, enum location_err code,
		const char *at, size_t len)
{
	err->code = code;
	err->at = at;
	err->len = len;
	return -1;
}

/* --- type names ----------------------------------------------------------
 */

/* hwloc_type_sscanf's names, in its order (the first match wins), with the
 * least of each a name must spell. */
static const struct {
	const char *name;
	unsigned min;
	enum topo_type type;
} type_names[] = {
	{ "osdev", 2, T_IO },
	{ "block", 4, T_IO },
	{ "network", 3, T_IO },
	{ "openfabrics", 7, T_IO },
	{ "dma", 3, T_IO },
	{ "gpu", 3, T_IO },
	{ "coproc", 5, T_IO },
	{ "machine", 2, TOPO_MACHINE },
	{ "numanode", 2, TOPO_NUMA },
	{ "node", 2, TOPO_NUMA },
	{ "memcache", 5, T_UNSUPPORTED },
	{ "package", 2, TOPO_PACKAGE },
	{ "socket", 2, TOPO_PACKAGE },
	{ "die", 2, TOPO_DIE },
	{ "core", 2, TOPO_CORE },
	{ "pu", 2, TOPO_PU },
	{ "misc", 4, T_UNSUPPORTED },
	{ "bridge", 4, T_IO },
	{ "hostbridge", 6, T_IO },
	{ "pcibridge", 5, T_IO },
	{ "pcidev", 3, T_IO },
};

/* hwloc__type_match: s[0..len) spells at least min letters of name, and
 * stops at its end or at a character that is no letter. Returns the
 * length matched, or 0. */
static size_t type_match(const char *s, size_t len, const char *name,
			 size_t min)
{
	for (size_t i = 0;; i++) {
		if (i == len || tolower((unsigned char)s[i]) != name[i]) {
			if (i < len &&
			    (isalpha((unsigned char)s[i]) || s[i] == '-'))
				return 0;
			return i >= min ? (i ? i : len) : 0;
		}
	}
}

/* The type s[0..len) names, or -1; for a group, *group is the group level
 * it names (from the top), or -1; for "hbm" (hwloc 2.9's name for the
 * NUMA nodes of high-bandwidth memory), TOPO_NUMA with GROUP_HBM. */
static int parse_type(const char *s, size_t len, int *group)
{
	size_t n;

	*group = -1;
	if ((len == 3 && !strncasecmp(s, "hbm", 3)) ||
	    (len == 6 && !strncasecmp(s, "mcdram", 6))) {
		*group = GROUP_HBM;
		return TOPO_NUMA;
	}
	for (size_t i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_match(s, len, type_names[i].name, type_names[i].min))
			return (int)type_names[i].type;
	if (len >= 2 && (s[0] == 'l' || s[0] == 'L') &&
	    isdigit((unsigned char)s[1])) {
		unsigned long level;
		size_t i;

		if (num_decimal(s + 1, len - 1, 1, 5, &level, &i) != NUM_OK)
			return -1;
		i++;
		if (i < len && (s[i] == 'i' || s[i] == 'I')) {
			if (level > 3)
				return -1;
			i++;
			return i == len ||
				       type_match(s + i, len - i, "cache", 0)
				   ? T_UNSUPPORTED
				   : -1;
		}
		if (i < len && strchr("dDuU", s[i]))
			i++;
		if (i < len && !type_match(s + i, len - i, "cache", 0))
			return -1;
		return (int)(TOPO_L1 - (level - 1));
	}
	if ((n = type_match(s, len, "group", 2))) {
		unsigned long g;
		size_t used;

		/* Digits after the name are a group level (what follows them
		 * is not read); one past 999 names no machine's. */
		if (num_decimal(s + n, len - n, 0, 999, &g, &used) !=
		    NUM_E_SYNTAX)
			*group = g < 1000 ? (int)g : 1000;
		return TOPO_GROUP;
	}
	return -1;
}

bool location_looks_like(const char *w)
{
	size_t tlen;
	int group, type;
	bool op = *w == '~' || *w == '^' || (*w == 'x' && w[1]);

	w += op;
	if (op && (!strcasecmp(w, "all") || !strcasecmp(w, "root")))
		return true;
	tlen = strspn(w, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
	if (!tlen || w[tlen] != ':' || !w[tlen + 1])
		return false;
	type = parse_type(w, tlen, &group);
	return type >= 0 && type < T_UNSUPPORTED;
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

/* The level a step's type names, or -1 with err. */
static int type_level(const struct topology *t, struct step *st, size_t tlen,
		      struct location_error *err)
{
	int group, type = parse_type(st->text, tlen, &group), depth;
	unsigned ngroups;

	if (type < 0)
		return fail(err, LOCATION_E_TYPE, st->text, tlen);
	if (type >= T_UNSUPPORTED) {
		err->io = type == T_IO;
		return fail(err, LOCATION_E_UNSUPPORTED, st->text, tlen);
	}
	st->hbm = group == GROUP_HBM;
	st->type = (enum topo_type)type;
	err->type = st->type;
	if (type == TOPO_NUMA)
		return t->nnuma
			   ? LEVEL_NUMA
			   : fail(err, LOCATION_E_NO_LEVEL, st->text, tlen);
	if (type != TOPO_GROUP) {
		depth = tree_type_depth(t, (enum topo_type)type);
		return depth >= 0
			   ? depth
			   : fail(err, LOCATION_E_NO_LEVEL, st->text, tlen);
	}
	group_rank(t, 0, &ngroups);
	if (group < 0 && ngroups > 1) {
		err->value = ngroups;
		return fail(err, LOCATION_E_GROUPS, st->text, tlen);
	}
	/* With one group level, hwloc takes any group number for it. */
	for (unsigned d = 0; d < t->nlevels; d++)
		if (t->levels[d].type == TOPO_GROUP &&
		    (ngroups == 1 || group_rank(t, d, NULL) == (unsigned)group))
			return (int)d;
	return fail(err, LOCATION_E_NO_LEVEL, st->text, tlen);
}

/* --- parsing ---------------------------------------------------------- */

/* A decimal index; an absurd one (more than any machine has objects)
 * reads as ULONG_MAX, which the parser refuses. */
static unsigned long index_number(const char **p, const char *end)
{
	unsigned long v = ULONG_MAX;
	size_t n;

	if (num_decimal(*p, (size_t)(end - *p), 0, UINT_MAX, &v, &n) != NUM_OK)
		v = ULONG_MAX;
	*p += n;
	return v;
}

/* The index part of a step, s[0..len): N, N-M, N-, N:K, all, odd, even. */
static int parse_index(struct step *st, const char *s, size_t len,
		       struct location_error *err)
{
	const char *p = s, *end = s + len;

	if (len == 3 && !strncasecmp(s, "all", 3)) {
		st->kind = R_ALL;
		return 0;
	}
	if ((len == 3 && !strncasecmp(s, "odd", 3)) ||
	    (len == 4 && !strncasecmp(s, "even", 4))) {
		st->kind = len == 3 ? R_ODD : R_EVEN;
		return 0;
	}
	if (!len || !isdigit((unsigned char)*p))
		return fail(err, LOCATION_E_BAD_INDEX, st->text, st->len);
	st->first = index_number(&p, end);
	st->kind = R_ONE;
	if (p < end && *p == '-') {
		p++;
		st->kind = R_FROM;
		if (p < end) {
			if (!isdigit((unsigned char)*p))
				return fail(err, LOCATION_E_BAD_INDEX, st->text,
					    st->len);
			st->last = index_number(&p, end);
			st->kind = R_RANGE;
		}
	} else if (p < end && *p == ':') {
		p++;
		if (p == end || !isdigit((unsigned char)*p))
			return fail(err, LOCATION_E_BAD_INDEX, st->text,
				    st->len);
		st->count = index_number(&p, end);
		st->kind = R_WRAP;
		if (!st->count)
			return fail(err, LOCATION_E_BAD_INDEX, st->text,
				    st->len);
	}
	if (p != end || st->first == ULONG_MAX ||
	    (st->kind == R_RANGE && st->last == ULONG_MAX) ||
	    (st->kind == R_WRAP && st->count == ULONG_MAX))
		return fail(err, LOCATION_E_BAD_INDEX, st->text, st->len);
	if (st->kind == R_RANGE && st->last < st->first)
		return fail(err, LOCATION_E_REVERSED, st->text, st->len);
	return 0;
}

/* Split a chain into steps and read each. Returns the number of steps, or
 * -1 with err. */
static int parse_chain(const struct topology *t, const char *s,
		       struct step *steps, struct location_error *err)
{
	int n = 0;

	for (;;) {
		struct step *st = &steps[n];
		const char *dot = strchr(s, '.');
		size_t tlen;

		st->text = s;
		st->len = dot ? (size_t)(dot - s) : strlen(s);
		if (!st->len)
			return fail(err, LOCATION_E_EMPTY_STEP, s, 0);
		tlen = strspn(s, "abcdefghijklmnopqrstuvwxyz"
				 "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
		if (tlen > st->len)
			tlen = st->len;
		if (!tlen || (tlen < st->len && s[tlen] != ':' &&
			      s[tlen] != '[' && s[tlen] != '=')) {
			size_t colon = strcspn(s, ":.");

			/* "cpu-1": not a type; "core-1": no index. */
			int group;
			int type = tlen ? parse_type(s, tlen, &group) : -1;

			if (type < 0 || type >= T_UNSUPPORTED)
				return fail(err, LOCATION_E_TYPE, s,
					    tlen	      ? tlen
					    : colon < st->len ? colon
							      : st->len);
			err->type = (enum topo_type)type;
			return fail(err, LOCATION_E_NO_INDEX, s, st->len);
		}
		if ((st->level = type_level(t, st, tlen, err)) == -1)
			return -1;
		if (tlen == st->len)
			return fail(err, LOCATION_E_NO_INDEX, s, tlen);
		if (s[tlen] != ':')
			/* hwloc's filters ("numa[hbm]") and I/O names
			 * ("os=eth0") are about objects pinrun does not keep */
			return fail(err, LOCATION_E_UNSUPPORTED, s + tlen,
				    st->len - tlen);
		if (parse_index(st, s + tlen + 1, st->len - tlen - 1, err) < 0)
			return -1;
		n++;
		if (!dot)
			return n;
		s = dot + 1;
	}
}

/* --- containment ------------------------------------------------------ */

static bool is_numa(const struct eval *ev, int item)
{
	return item >= (int)ev->t->nobjs;
}

/* The tree object that holds an item's CPUs. */
static int cpu_holder(const struct eval *ev, int item)
{
	return is_numa(ev, item) ? ev->t->numa[item - (int)ev->t->nobjs].attach
				 : item;
}

static unsigned item_os(const struct eval *ev, int item)
{
	return is_numa(ev, item) ? ev->t->numa[item - (int)ev->t->nobjs].os
				 : ev->t->objs[item].os;
}

/* a is b, or above it, or below it. */
static bool related(const struct eval *ev, int a, int b)
{
	return (a <= b && (unsigned)b < ev->end[a]) ||
	       (b <= a && (unsigned)a < ev->end[b]);
}

/* Is NUMA node n local to item: attached to it, above it, or below it (or
 * the node itself)? That is hwloc's nodeset of the item. */
static bool node_of(const struct eval *ev, unsigned n, int item)
{
	if (is_numa(ev, item))
		return (unsigned)item - ev->t->nobjs == n;
	return related(ev, ev->t->numa[n].attach, item);
}

static bool has_nodes(const struct eval *ev, int item)
{
	return is_numa(ev, item) || ev->has_node[item];
}

/* Is item one of the objects inside parent (-1: the machine), as
 * hwloc-calc 2.10 counts them: it has CPUs or NUMA nodes, its CPUs (if
 * any) meet the parent's, and its NUMA nodes (if any) meet the parent's. */
static bool inside(const struct eval *ev, int item, int parent)
{
	const struct topology *t = ev->t;
	const struct topo_obj *c = &t->objs[cpu_holder(ev, item)], *p;

	if (!c->pu_count && !has_nodes(ev, item))
		return false;
	if (parent < 0)
		return true;
	p = &t->objs[cpu_holder(ev, parent)];
	if (c->pu_count &&
	    (!p->pu_count || c->pu_first + c->pu_count <= p->pu_first ||
	     p->pu_first + p->pu_count <= c->pu_first))
		return false;
	if (!has_nodes(ev, item))
		return true;
	/* Tree objects whose CPUs meet are one above the other, and the
	 * lower one's nodes are all the upper one's. */
	if (c->pu_count && !is_numa(ev, item) && !is_numa(ev, parent))
		return item >= parent || ev->has_node[parent];
	if (is_numa(ev, item))
		return node_of(ev, (unsigned)item - t->nobjs, parent);
	if (is_numa(ev, parent))
		return node_of(ev, (unsigned)parent - t->nobjs, item);
	for (unsigned n = 0; n < t->nnuma; n++)
		if (node_of(ev, n, item) && node_of(ev, n, parent))
			return true;
	return false;
}

/* The candidates of a step inside parent, in logical order. */
static unsigned candidates(struct eval *ev, const struct step *st, int parent,
			   bool hbm)
{
	const struct topology *t = ev->t;
	const struct topo_level *l;
	unsigned n = 0, lo = 0, hi, end = 0;
	bool run = false;

	if (st->level == LEVEL_NUMA) {
		for (unsigned i = 0; i < t->nnuma; i++)
			if ((!hbm || !strcmp(t->numa[i].kind, "MCDRAM")) &&
			    inside(ev, (int)(t->nobjs + i), parent))
				ev->cand[n++] = (int)(t->nobjs + i);
		return n;
	}
	l = &t->levels[st->level];
	hi = l->count;
	/* Where every object of the level has CPUs, those that can meet
	 * the parent's are a run of the level (its PU ranges come in
	 * order): find it rather than try them all. */
	if (parent >= 0 && ev->cpus_everywhere[st->level]) {
		const struct topo_obj *p = &t->objs[cpu_holder(ev, parent)];
		unsigned a = 0, b = hi;

		while (a < b) {
			unsigned m = a + (b - a) / 2;
			const struct topo_obj *o = &t->objs[l->objs[m]];

			if (o->pu_first + o->pu_count <= p->pu_first)
				a = m + 1;
			else
				b = m;
		}
		lo = a;
		end = p->pu_first + p->pu_count;
		run = true;
	}
	for (unsigned i = lo; i < hi; i++) {
		int o = l->objs[i];

		if (run && t->objs[o].pu_first >= end)
			break;
		if (inside(ev, o, parent))
			ev->cand[n++] = o;
	}
	return n;
}

/* --- choosing ----------------------------------------------------------- */

static void pick(struct eval *ev, int item)
{
	if (!ev->taken[item]) {
		ev->taken[item] = 1;
		ev->next[ev->nnext++] = item;
	}
}

/* The first candidate with OS index os, or -1. */
static int find_os(const struct eval *ev, unsigned w, unsigned long os)
{
	for (unsigned i = 0; i < w; i++)
		if (item_os(ev, ev->cand[i]) == os && os != NO_OS)
			return (int)i;
	return -1;
}

/* The error for index value, which names no candidate of w: with the
 * object it would name in the other index space, and in physical mode the
 * OS indexes there are. */
static int no_such(struct eval *ev, const struct step *st, unsigned w,
		   unsigned long value, enum location_err code)
{
	struct location_error *err = ev->err;

	err->value = value;
	err->value2 = w;
	err->has_other = false;
	/* Only where OS indexes are the numbers other tools use: CPU
	 * numbers, numactl's nodes, /sys's package ids. */
	if (!ev->physical && st->type != TOPO_PU && st->type != TOPO_NUMA &&
	    st->type != TOPO_PACKAGE) {
		err->has_other = false;
	} else if (!ev->physical) {
		int i = value < NO_OS ? find_os(ev, w, value) : -1;

		err->has_other = i >= 0;
		err->other = (unsigned long)i;
	} else {
		struct cpuset os;
		size_t n;

		if (value < w && item_os(ev, ev->cand[value]) != NO_OS) {
			err->has_other = true;
			err->other = item_os(ev, ev->cand[value]);
		}
		cpulist_zero(&os);
		for (unsigned i = 0; i < w; i++)
			cpulist_add(&os, item_os(ev, ev->cand[i]));
		n = cpulist_format(&os, err->os_indexes,
				   sizeof(err->os_indexes));
		if (n >= sizeof(err->os_indexes))
			memcpy(err->os_indexes + sizeof(err->os_indexes) - 4,
			       "...", 4); /* as location_os_list cuts */
	}
	return fail(err, code, st->text, st->len);
}

static int pick_logical(struct eval *ev, const struct step *st, unsigned w)
{
	unsigned long i, last;

	switch (st->kind) {
	case R_ALL:
	case R_ODD:
	case R_EVEN:
		i = st->kind == R_ODD;
		if (i >= w)
			return no_such(ev, st, w, 0, LOCATION_E_NONE);
		for (; i < w; i += st->kind == R_ALL ? 1 : 2)
			pick(ev, ev->cand[i]);
		return 0;
	case R_ONE:
	case R_FROM:
	case R_RANGE:
		last = st->kind == R_ONE    ? st->first
		       : st->kind == R_FROM ? (w ? w - 1 : 0)
					    : st->last;
		if (st->first >= w)
			return no_such(ev, st, w, st->first,
				       LOCATION_E_NO_SUCH);
		if (last >= w)
			return no_such(ev, st, w, w, LOCATION_E_NO_SUCH);
		for (i = st->first; i <= last; i++)
			pick(ev, ev->cand[i]);
		return 0;
	case R_WRAP:
		/* As hwloc-calc: from N on, back to the first after the
		 * last (and from the first when N is past the last). A
		 * second round adds nothing. */
		if (!w)
			return no_such(ev, st, w, st->first,
				       LOCATION_E_NO_SUCH);
		i = st->first;
		for (unsigned long j = 0; j < st->count && j < 2UL * w; j++) {
			if (i >= w)
				i = 0;
			pick(ev, ev->cand[i++]);
		}
		return 0;
	}
	return 0;
}

static int pick_physical(struct eval *ev, const struct step *st, unsigned w)
{
	unsigned long lo = ULONG_MAX, hi = 0, i, found = 0;
	int k;

	for (unsigned c = 0; c < w; c++) {
		unsigned os = item_os(ev, ev->cand[c]);

		if (os == NO_OS)
			continue;
		lo = os < lo ? os : lo;
		hi = os > hi ? os : hi;
	}
	if (st->kind == R_ALL) {
		if (!w)
			return no_such(ev, st, w, 0, LOCATION_E_NONE);
		for (unsigned c = 0; c < w; c++)
			pick(ev, ev->cand[c]);
		return 0;
	}
	if (w && lo == ULONG_MAX)
		return fail(ev->err, LOCATION_E_NO_OS_INDEX, st->text, st->len);
	switch (st->kind) {
	case R_ODD:
	case R_EVEN:
	case R_FROM:
		for (unsigned c = 0; c < w; c++) {
			unsigned os = item_os(ev, ev->cand[c]);

			if (os != NO_OS &&
			    (st->kind == R_FROM
				 ? os >= st->first
				 : os % 2 == (st->kind == R_ODD))) {
				pick(ev, ev->cand[c]);
				found++;
			}
		}
		if (found)
			return 0;
		return st->kind == R_FROM
			   ? no_such(ev, st, w, st->first, LOCATION_E_NO_SUCH)
			   : no_such(ev, st, w, 0, LOCATION_E_NONE);
	case R_ONE:
	case R_RANGE:
		for (i = st->first; i <= (st->kind == R_ONE ? i : st->last);
		     i++) {
			if ((k = find_os(ev, w, i)) < 0)
				return no_such(ev, st, w, i,
					       LOCATION_E_NO_SUCH);
			pick(ev, ev->cand[k]);
			if (st->kind == R_ONE)
				break;
		}
		return 0;
	case R_WRAP:
		/* From OS index N on, back to the lowest after the highest:
		 * hwloc-calc's wrapping where indexes run from 0 without
		 * holes. */
		i = st->first;
		for (unsigned long j = 0; j < st->count && j <= hi - lo; j++) {
			if (i > hi && j)
				i = lo;
			if ((k = find_os(ev, w, i)) < 0)
				return no_such(ev, st, w, i,
					       LOCATION_E_NO_SUCH);
			pick(ev, ev->cand[k]);
			i++;
		}
		return 0;
	default:
		return 0;
	}
}

/* Evaluate a chain into set. */
static int eval_chain(struct eval *ev, const char *s, struct cpuset *set)
{
	const struct topology *t = ev->t;
	size_t nsteps = 1;
	struct step *steps;
	bool hbm = false;
	int n;

	for (const char *p = s; *p; p++)
		nsteps += *p == '.';
	if (!(steps = calloc(nsteps, sizeof(*steps))))
		return fail(ev->err, LOCATION_E_NOMEM, s, 0);
	if ((n = parse_chain(t, s, steps, ev->err)) < 0) {
		free(steps);
		return -1;
	}
	ev->cur[0] = -1; /* the machine */
	ev->ncur = 1;
	for (int k = 0; k < n; k++) {
		/* As hwloc-calc 2.9: after "hbm", NUMA nodes are MCDRAM's. */
		hbm |= steps[k].hbm;
		ev->nnext = 0;
		for (unsigned c = 0; c < ev->ncur; c++) {
			unsigned w = candidates(ev, &steps[k], ev->cur[c], hbm);
			int r;

			ev->err->parent =
			    ev->cur[c] < (int)t->nobjs ? ev->cur[c] : -1;
			ev->err->in_numa = ev->cur[c] >= (int)t->nobjs;
			ev->err->parent_numa =
			    (unsigned)(ev->cur[c] - (int)t->nobjs);
			ev->err->type = steps[k].type;
			r = ev->physical ? pick_physical(ev, &steps[k], w)
					 : pick_logical(ev, &steps[k], w);
			if (r < 0) {
				free(steps);
				return -1;
			}
		}
		for (unsigned i = 0; i < ev->nnext; i++)
			ev->taken[ev->next[i]] = 0;
		memcpy(ev->cur, ev->next, ev->nnext * sizeof(*ev->cur));
		ev->ncur = ev->nnext;
	}
	free(steps);
	cpulist_zero(set);
	for (unsigned c = 0; c < ev->ncur; c++)
		tree_obj_cpus(t, cpu_holder(ev, ev->cur[c]), set);
	return 0;
}

/* --- near misses ---------------------------------------------------------
 */

/* Other names people give CPU objects, and what hwloc calls them. */
static const struct {
	const char *word, *type;
} synonyms[] = {
	{ "thread", "pu" },    { "threads", "pu" },
	{ "hwthread", "pu" },  { "hwt", "pu" },
	{ "chip", "package" }, { "llc", "l3" },
	{ "ldom", "numa" },    { "sockets", "socket" },
	{ "cores", "core" },   { "packages", "package" },
	{ "pus", "pu" },
};

static const char *const canonical[] = {
	"machine",  "package", "socket",  "die",     "numa",
	"numanode", "node",    "group",	  "core",    "pu",
	"l1",	    "l2",      "l3",	  "l4",	     "l5",
	"l1cache",  "l2cache", "l3cache", "l4cache", "l5cache",
};

/* The type word meant by w[0..len), or NULL. */
static const char *meant_type(const char *w, size_t len)
{
	int group, k;

	for (size_t i = 0; i < sizeof(synonyms) / sizeof(synonyms[0]); i++)
		if (strlen(synonyms[i].word) == len &&
		    !strncasecmp(w, synonyms[i].word, len))
			return synonyms[i].type;
	k = parse_type(w, len, &group);
	if (k >= 0 && k < T_UNSUPPORTED)
		return NULL; /* already a type: nothing to suggest */
	k = len >= 3 ? suggest_closest(w, len, canonical,
				       sizeof(canonical) / sizeof(canonical[0]),
				       len >= 5 ? 2 : 1)
		     : -1;
	return k >= 0 ? canonical[k] : NULL;
}

static bool valid_list(const char *s)
{
	struct cpulist_error e;
	struct cpuset set;

	return *s && cpulist_parse_list(s, &set, &e) == 0;
}

/* What the element e[0..len) (no operator) was probably meant to be:
 * "cpu3" is CPU 3, "core0" is core:0, "pakage:1" is package:1. */
static void suggest_element(const char *e, size_t len, char *out, size_t size)
{
	size_t alpha = 0, colon;
	const char *type;
	char rest[64];

	out[0] = '\0';
	while (alpha < len && isalpha((unsigned char)e[alpha]))
		alpha++;
	colon = alpha;
	if (colon < len && strchr(":#=", e[colon]))
		colon++;
	if (len - colon >= sizeof(rest))
		return;
	memcpy(rest, e + colon, len - colon);
	rest[len - colon] = '\0';
	if ((alpha == 3 || alpha == 4) && !strncasecmp(e, "cpus", alpha) &&
	    valid_list(rest)) {
		snprintf(out, size, "%s", rest);
		return;
	}
	if (!alpha || !*rest)
		return;
	type = meant_type(e, alpha);
	if (!type && colon == alpha && isdigit((unsigned char)*rest)) {
		int group, k = parse_type(e, alpha, &group);

		if (k >= 0 && k < T_UNSUPPORTED)
			snprintf(out, size, "%.*s:%.40s", (int)alpha % 20, e,
				 rest);
		return;
	}
	if (type && (colon > alpha || isdigit((unsigned char)*rest)))
		snprintf(out, size, "%.10s:%.40s", type, rest);
}

/* --- other tools' words --------------------------------------------------- */

/* A mask's bits beyond the machine's last CPU ("ffffffff" for "all" on a
 * small machine): the kernel ignores them for taskset, so they go here
 * too, noted for --explain. A CPU inside the machine's range stays, to be
 * judged as any other; a mask with none inside is left whole. */
static void drop_beyond(struct eval *ev, struct cpuset *set)
{
	int last = cpulist_last(&ev->t->complete);

	/* Nothing inside: the kernel refuses that mask, and pinrun names
	 * the CPU the machine lacks. */
	if (cpulist_next(set, -1) > last)
		return;
	for (int c = cpulist_next(set, last); c >= 0;
	     c = cpulist_next(set, c)) {
		cpulist_del(set, (unsigned)c);
		if (ev->dropped)
			cpulist_add(ev->dropped, (unsigned)c);
	}
}

/* likwid-pin's domain s[0..len): N the node, S<k> package k, D<k> die k,
 * C<k> last-level cache k, M<k> NUMA node k, k counting from 0. Its object
 * (a NUMA node's, the one it is attached to) and its name as a location
 * ("" for the node); -1 when there is none. */
static int likwid_domain(const struct topology *t, const char *s, size_t len,
			 char *name, size_t size)
{
	enum topo_type type = s[0] == 'S'   ? TOPO_PACKAGE
			      : s[0] == 'D' ? TOPO_DIE
					    : TOPO_L3;
	unsigned long k = 0;
	int depth;

	name[0] = '\0';
	if (len == 1 && s[0] == 'N')
		return 0;
	if (len < 2 || !strchr("SDCM", s[0]))
		return -1;
	if (num_decimal(s + 1, len - 1, 0, UINT_MAX, &k, NULL) != NUM_OK)
		return -1;
	if (s[0] == 'M') {
		if (k >= t->nnuma)
			return -1;
		snprintf(name, size, "numa:%lu", k);
		return t->numa[k].attach;
	}
	depth = tree_type_depth(t, type);
	if (depth < 0 || k >= t->levels[depth].count)
		return -1;
	snprintf(name, size, "%s:%lu", tree_type_name(type), k);
	return t->levels[depth].objs[k];
}

/* The PUs (pus indexes) of object o as likwid-pin numbers a domain's
 * threads: the first PU of every core, then the second of every core, and
 * so on ("physical cores first"). Returns how many, or 0. The number of
 * cores is *ncores. */
static unsigned likwid_order(const struct topology *t, int o, unsigned *out,
			     unsigned *ncores)
{
	unsigned first = t->objs[o].pu_first, count = t->objs[o].pu_count, n;

	*ncores = 0;
	n = 0;
	for (unsigned rank = 0; n < count && rank < count; rank++)
		for (unsigned i = first; i < first + count; i++) {
			int core = t->pu_core[i];

			if (i - t->objs[core].pu_first == rank) {
				out[n++] = i;
				*ncores += rank == 0;
			}
		}
	return n;
}

/* One likwid-pin expression (no '@'), s[0..len), as pinrun writes it into
 * out: "S0:0-1" is package:0.core:0-1.pu:0 (one thread of each of the
 * first two cores), "E:N:4:1:2" a CPU list. false when it is none. */
static bool likwid_part(const struct topology *t, const char *s, size_t len,
			char *out, size_t size)
{
	char name[32], text[64], *colon, *end;
	unsigned *order = malloc((t->npus + 1) * sizeof(*order)), n, ncores;
	unsigned long v[3] = { 0, 1, 1 };
	struct cpulist_error e;
	struct cpuset pos, cpus;
	bool ok = false, expand = len > 2 && !strncmp(s, "E:", 2);
	int o;

	if (!order || len >= sizeof(text))
		goto out;
	memcpy(text, s + (expand ? 2 : 0), len - (expand ? 2 : 0));
	text[len - (expand ? 2 : 0)] = '\0';
	colon = strchr(text, ':');
	if ((o = likwid_domain(t, text,
			       colon ? (size_t)(colon - text) : strlen(text),
			       name, sizeof(name))) < 0 ||
	    !(n = likwid_order(t, o, order, &ncores)))
		goto out;
	cpulist_zero(&cpus);
	if (!colon) { /* the whole domain */
		ok = !expand;
		snprintf(out, size, "%s", name[0] ? name : "all");
		goto out;
	}
	if (expand) { /* E:DOM:COUNT[:CHUNK:STRIDE]: in topology order */
		char *p = colon + 1;

		for (int i = 0; i < 3 && *p; i++) {
			size_t used;

			/* Beyond ULONG_MAX reads as ULONG_MAX. */
			if (num_decimal(p, NUM_TO_NUL, 0, ULONG_MAX, &v[i],
					&used) == NUM_E_SYNTAX)
				goto out;
			end = p + used;
			p = *end == ':' && i < 2 ? end + 1 : end;
			if (*end && *end != ':')
				goto out;
		}
		if (*p || !v[0] || !v[1] || v[0] > CPULIST_MAX)
			goto out;
		if (v[1] == 1 && v[2] == 1 && v[0] <= n) {
			snprintf(out, size, "%s%spu:0-%lu", name,
				 name[0] ? "." : "", v[0] - 1);
			ok = true;
			goto out;
		}
		for (unsigned long k = 0, at = 0; k < v[0]; at += v[2])
			for (unsigned long c = 0; c < v[1] && k < v[0];
			     c++, k++)
				cpulist_add(
				    &cpus,
				    tree_pu_os(t,
					       t->objs[o].pu_first +
						   (unsigned)((at + c) % n)));
	} else { /* DOM:list: positions in likwid's order */
		if (cpulist_parse_list(colon + 1, &pos, &e) < 0 ||
		    cpulist_last(&pos) >= (int)n)
			goto out;
		if (!strpbrk(colon + 1, ",:") &&
		    cpulist_last(&pos) < (int)ncores) {
			snprintf(out, size, "%s%score:%s%s", name,
				 name[0] ? "." : "", colon + 1,
				 n > ncores ? ".pu:0" : "");
			ok = true;
			goto out;
		}
		for (int p = cpulist_next(&pos, -1); p >= 0;
		     p = cpulist_next(&pos, p))
			cpulist_add(&cpus, tree_pu_os(t, order[p]));
	}
	ok = cpulist_format(&cpus, out, size) < size;
out:
	free(order);
	return ok;
}

/* Element e[0..len), which failed as hwloc's, in another tool's words:
 * likwid-pin's domains and expressions ("S0:0-1@S1:0-1"), or numactl's
 * +list (positions in the allowed set). pinrun's spelling goes to out;
 * returns which tool's it was. */
static enum location_foreign foreign_element(const struct eval *ev,
					     const char *e, size_t len,
					     char *out, size_t size)
{
	struct cpulist_error le;
	struct cpuset pos, cpus;
	size_t n = 0;

	out[0] = '\0';
	if (e[0] == '+') {
		int c = -1, i = 0;

		if (cpulist_parse_list(e + 1, &pos, &le) < 0 ||
		    cpulist_last(&pos) >= (int)cpulist_count(ev->all))
			return LOCATION_NATIVE;
		cpulist_zero(&cpus);
		while ((c = cpulist_next(ev->all, c)) >= 0)
			if (cpulist_has(&pos, (unsigned)i++))
				cpulist_add(&cpus, (unsigned)c);
		return cpulist_format(&cpus, out, size) < size
			   ? LOCATION_NUMACTL
			   : LOCATION_NATIVE;
	}
	for (const char *p = e; p < e + len && n < size;) {
		size_t plen = strcspn(p, "@");

		if (plen > (size_t)(e + len - p))
			plen = (size_t)(e + len - p);
		if (n)
			out[n++] = ' ';
		if (n >= size ||
		    !likwid_part(ev->t, p, plen, out + n, size - n)) {
			out[0] = '\0';
			return LOCATION_NATIVE;
		}
		n += strlen(out + n);
		p += plen + (p[plen] == '@');
	}
	return n && n < size ? LOCATION_LIKWID : LOCATION_NATIVE;
}

/* --- elements ----------------------------------------------------------- */

enum op { OP_ADD, OP_CLEAR, OP_AND, OP_XOR };

/* One location, without its operator, into set. */
static int eval_element(struct eval *ev, const char *s, struct cpuset *set)
{
	struct location_error *err = ev->err;

	err->chain = false;
	if (!*s || strchr("~^!", *s))
		return fail(err, LOCATION_E_OPERATOR, s, 1);
	if (!strcasecmp(s, "all") || !strcasecmp(s, "root")) {
		*set = *ev->all;
		return 0;
	}
	switch (cpulist_syntax(s)) {
	case CPULIST_SYNTAX_MASK:
		if (cpulist_parse_mask(s, set, &err->list) < 0)
			return fail(err, LOCATION_E_CPULIST, s, strlen(s));
		drop_beyond(ev, set);
		return 0;
	case CPULIST_SYNTAX_LIST:
		if (cpulist_parse_list(s, set, &err->list) < 0)
			return fail(err, LOCATION_E_CPULIST, s, strlen(s));
		return 0;
	case CPULIST_SYNTAX_LOCATION:
		break;
	}
	err->chain = true;
	return eval_chain(ev, s, set);
}

static void combine(struct cpuset *result, const struct cpuset *set, enum op op)
{
	struct cpuset both;

	switch (op) {
	case OP_ADD:
		cpulist_or(result, result, set);
		break;
	case OP_CLEAR:
		cpulist_andnot(result, result, set);
		break;
	case OP_AND:
		cpulist_and(result, result, set);
		break;
	case OP_XOR:
		cpulist_and(&both, result, set);
		cpulist_or(result, result, set);
		cpulist_andnot(result, result, &both);
		break;
	}
}

/* What separates locations: blanks, as the shell's words would be. A
 * newline is not one: it is a character no location has. */
#define BLANKS " \t"

/* Evaluate the elements of buf (a copy of spec, split at blanks). */
static int eval_all(struct eval *ev, char *buf, const char *spec,
		    struct cpuset *set)
{
	struct location_error *err = ev->err;
	char *p = buf;
	struct cpuset one;

	cpulist_zero(set);
	while (*p) {
		enum op op = OP_ADD;
		const char *rest;
		size_t len;
		char *e;

		p += strspn(p, BLANKS);
		if (!*p)
			break;
		len = strcspn(p, BLANKS);
		e = p;
		p += len;
		rest = spec + (p - buf);
		if (*p)
			*p++ = '\0';
		err->elem = spec + (e - buf);
		err->elem_len = len;
		/* A lone "x" is no operator: a word hwloc does not know. */
		if (*e == '~' || (*e == 'x' && e[1]) || *e == '^') {
			op = *e == '~' ? OP_CLEAR : *e == 'x' ? OP_AND : OP_XOR;
			e++;
		}
		if (eval_element(ev, e, &one) < 0) {
			char meant[64] = "";

			if (err->code == LOCATION_E_OPERATOR && *e == '!' &&
			    e[1])
				snprintf(meant, sizeof(meant), "all ~%s",
					 e + 1);
			else if (p[strspn(p, BLANKS)] &&
				 ((err->code == LOCATION_E_TYPE &&
				   op == OP_ADD && !strcmp(e, "x")) ||
				  (err->code == LOCATION_E_OPERATOR && !*e))) {
				/* "x core:0": the operator, then a space */
				size_t next =
				    strcspn(p + strspn(p, BLANKS), BLANKS);

				err->foreign = LOCATION_SPACED;
				err->at = e - (*e != 'x');
				err->len = 1;
				snprintf(err->suggest, sizeof(err->suggest),
					 "%.*s%c%.*s%s", (int)(err->at - buf),
					 spec, *err->at, (int)next,
					 p + strspn(p, BLANKS),
					 p + strspn(p, BLANKS) + next);
				return -1;
			} else if (err->code == LOCATION_E_TYPE &&
				   (err->foreign =
					foreign_element(ev, e, strlen(e), meant,
							sizeof(meant)))) {
				err->at = e;
				err->len = strlen(e);
			} else if (err->code == LOCATION_E_TYPE ||
				   err->code == LOCATION_E_NO_INDEX)
				suggest_element(e, strlen(e), meant,
						sizeof(meant));
			/* The whole input, with that element mended. */
			if (*meant)
				snprintf(err->suggest, sizeof(err->suggest),
					 "%.*s%s%s", (int)(e - buf), spec,
					 meant, rest);
			if (strlen(err->suggest) == sizeof(err->suggest) - 1)
				err->suggest[0] = '\0';
			if (err->code == LOCATION_E_OPERATOR && !*e)
				err->at = e - 1;
			return -1;
		}
		combine(set, &one, op);
		/* Only a chain alone says "no online CPU": with an operator,
		 * the operator may have emptied it. */
		err->chain &= op == OP_ADD;
	}
	if (cpulist_empty(set)) {
		err->elem = spec;
		err->elem_len = strlen(spec);
		return fail(err, LOCATION_E_NO_CPUS, spec, strlen(spec));
	}
	return 0;
}

/* Whether an input pointer lies in buf, and then the same place in spec. */
static const char *in_spec(const char *p, const char *buf, size_t len,
			   const char *spec)
{
	return p && p >= buf && p <= buf + len ? spec + (p - buf) : p;
}

int location_eval(const struct topology *t, const char *spec,
		  const struct location_opts *opts, struct cpuset *set,
		  struct location_error *err)
{
	struct eval ev = { .t = t, .err = err };
	size_t len = strlen(spec), cap = t->nobjs + t->nnuma + 1;
	char *buf = NULL;
	int ret = -1;

	memset(err, 0, sizeof(*err));
	err->parent = -1;
	ev.physical = opts && opts->physical;
	err->physical = ev.physical;
	ev.all = opts && opts->all ? opts->all : &t->usable;
	ev.dropped = opts ? opts->dropped : NULL;
	if (ev.dropped)
		cpulist_zero(ev.dropped);
	for (const char *p = spec; *p; p++)
		err->nelems +=
		    !strchr(BLANKS, *p) && (p == spec || strchr(BLANKS, p[-1]));
	if (!err->nelems) {
		/* Nothing but blanks: the list parser words it. */
		cpulist_zero(set);
		cpulist_parse_list(spec, set, &err->list);
		if (err->list.code == CPULIST_OK)
			err->list.code = CPULIST_E_BAD_CHAR;
		if (!err->list.at || !*err->list.at)
			err->list.at = spec;
		err->elem = spec;
		err->elem_len = len;
		return fail(err, LOCATION_E_CPULIST, spec, len);
	}
	buf = malloc(len + 1);
	ev.end = malloc(t->nobjs * sizeof(*ev.end) + 1);
	ev.has_node = calloc(t->nobjs + 1, 1);
	ev.cand = malloc(cap * sizeof(*ev.cand));
	ev.cur = malloc(cap * sizeof(*ev.cur));
	ev.next = malloc(cap * sizeof(*ev.next));
	ev.taken = calloc(cap, 1);
	ev.cpus_everywhere = malloc(t->nlevels + 1);
	if (!buf || !ev.end || !ev.has_node || !ev.cand || !ev.cur ||
	    !ev.next || !ev.taken || !ev.cpus_everywhere) {
		fail(err, LOCATION_E_NOMEM, spec, len);
		goto out;
	}
	memcpy(buf, spec, len + 1);
	/* Subtree ends, and the objects some NUMA node is local to: those
	 * with one attached at or above them, or somewhere below. */
	for (unsigned i = 0; i < t->nobjs; i++)
		ev.end[i] = i + 1;
	for (unsigned i = t->nobjs; i-- > 1;) {
		int p = t->objs[i].parent;

		if (p != TOPO_NONE && ev.end[i] > ev.end[p])
			ev.end[p] = ev.end[i];
	}
	/* Bit 1: a node is attached at or above; bit 2: at or below. */
	for (unsigned n = 0; n < t->nnuma; n++)
		ev.has_node[t->numa[n].attach] = 3;
	for (unsigned i = t->nobjs; i-- > 1;)
		if (ev.has_node[i] & 2 && t->objs[i].parent != TOPO_NONE)
			ev.has_node[t->objs[i].parent] |= 2;
	for (unsigned i = 1; i < t->nobjs; i++)
		if (t->objs[i].parent != TOPO_NONE &&
		    ev.has_node[t->objs[i].parent] & 1)
			ev.has_node[i] |= 1;
	for (unsigned d = 0; d < t->nlevels; d++) {
		ev.cpus_everywhere[d] = 1;
		for (unsigned i = 0; i < t->levels[d].count; i++)
			if (!t->objs[t->levels[d].objs[i]].pu_count)
				ev.cpus_everywhere[d] = 0;
	}
	ret = eval_all(&ev, buf, spec, set);
out:
	err->physical = ev.physical;
	err->at = in_spec(err->at, buf, len, spec);
	err->list.at = in_spec(err->list.at, buf, len, spec);
	if (ret == 0)
		err->code = LOCATION_OK;
	free(buf);
	free(ev.end);
	free(ev.has_node);
	free(ev.cand);
	free(ev.cur);
	free(ev.next);
	free(ev.taken);
	free(ev.cpus_everywhere);
	return ret;
}

/* --- OS indexes ----------------------------------------------------------
 */

int location_logical_of(const struct topology *t, enum topo_type type,
			unsigned os, unsigned *logical)
{
	bool any = false;
	int depth;

	if (type == TOPO_NUMA) {
		for (unsigned i = 0; i < t->nnuma; i++)
			if (t->numa[i].os == os) {
				*logical = i;
				return 0;
			}
		return -1;
	}
	if ((depth = tree_type_depth(t, type)) < 0)
		return -1;
	for (unsigned i = 0; i < t->levels[depth].count; i++) {
		unsigned o = t->objs[t->levels[depth].objs[i]].os;

		any |= o != NO_OS;
		if (o == os && o != NO_OS) {
			*logical = i;
			return 0;
		}
	}
	return any ? -1 : -2;
}

int location_os_of(const struct topology *t, enum topo_type type,
		   unsigned index, unsigned *os)
{
	int depth;

	if (type == TOPO_NUMA) {
		if (index >= t->nnuma)
			return -1;
		*os = t->numa[index].os;
		return 0;
	}
	if ((depth = tree_type_depth(t, type)) < 0 ||
	    index >= t->levels[depth].count)
		return -1;
	*os = t->objs[t->levels[depth].objs[index]].os;
	return *os == NO_OS ? -1 : 0;
}

size_t location_os_list(const struct topology *t, enum topo_type type,
			char *buf, size_t size)
{
	int depth = type == TOPO_NUMA ? LEVEL_NUMA : tree_type_depth(t, type);
	unsigned n = depth == LEVEL_NUMA ? t->nnuma
		     : depth >= 0	 ? t->levels[depth].count
					 : 0;
	struct cpuset os;
	size_t len;

	cpulist_zero(&os);
	for (unsigned i = 0; i < n; i++)
		cpulist_add(&os, depth == LEVEL_NUMA
				     ? t->numa[i].os
				     : t->objs[t->levels[depth].objs[i]].os);
	len = cpulist_format(&os, buf, size);
	if (len >= size && size >= 4) {
		memcpy(buf + size - 4, "...", 4);
		len = size - 1;
	}
	return len;
}

/* --- writing ---------------------------------------------------------- */

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

const char *location_strerror(enum location_err code)
{
	switch (code) {
	case LOCATION_OK:
		return "no error";
	case LOCATION_E_TYPE:
		return "unknown object type";
	case LOCATION_E_UNSUPPORTED:
		return "an object type pinrun does not keep";
	case LOCATION_E_NO_LEVEL:
		return "no such level in the topology";
	case LOCATION_E_GROUPS:
		return "several group levels: name one";
	case LOCATION_E_NO_INDEX:
		return "an object type needs an index";
	case LOCATION_E_BAD_INDEX:
		return "invalid index";
	case LOCATION_E_REVERSED:
		return "reversed range";
	case LOCATION_E_NO_SUCH:
		return "no such object";
	case LOCATION_E_NONE:
		return "the range names no object";
	case LOCATION_E_NO_OS_INDEX:
		return "the objects have no OS index";
	case LOCATION_E_EMPTY_STEP:
		return "empty step";
	case LOCATION_E_NO_CPUS:
		return "no usable CPU";
	case LOCATION_E_CPULIST:
		return "invalid CPU list or mask";
	case LOCATION_E_OPERATOR:
		return "an operator needs a location after it";
	case LOCATION_E_NOMEM:
		return "out of memory";
	case LOCATION_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}
