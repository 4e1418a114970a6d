/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * list.c: --list, the machine as one map: packages, NUMA nodes with their
 * memory and distances, L3 caches with their sizes (the other caches' on a
 * line of their own, per core), cores with their CPU numbers and SMT
 * siblings (runs of alike cores folded into one line, so that 384 PUs fit
 * in 80 columns), core kinds, the I/O devices under the object each is
 * local to, and the CPUs that cannot be used. A planned placement is
 * marked [like this] (and in colour on a terminal, unless NO_COLOR). It
 * plans nothing: the plan and the allowed set are context.c's.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices.h"
#include "host.h"
#include "json.h"
#include "list.h"
#include "location.h"
#include "message.h"

#define WIDTH 80
/* Around marked text in a line, until it is printed. */
#define MARK_ON	 '\001'
#define MARK_OFF '\002'

struct line {
	unsigned indent;
	char *text;
	int l3; /* an L3's or group's own line (objs index), which its one
		 * run of cores may join; else -1 */
};

struct map {
	const struct context *ctx;
	const struct topology *t;
	const struct options *o;
	const struct cpuset *marked; /* the placement, or NULL */
	struct line *lines;
	unsigned nlines, cap;
	char legend[512]; /* how a run with SMT siblings in columns reads,
			   * told on its first one; "" when there is none */
	char *caches;	  /* the sizes of the caches without lines of their
			   * own ("caches: L1d 32 KiB per core, ..."), or
			   * NULL when none is known */
	bool *shown;	  /* by objs index: has a line of its own */
	int *alias;	  /* by objs index: the object with the same CPUs whose
			   * line this one's is ("die:0 l3:0"), or -1 */
	bool *merged;	  /* by objs index: named on another's line (and still
			   * an object of its own in --json) */
	unsigned *level;
	int *run; /* the cores waiting to be written, objs indexes */
	unsigned nrun;
	int run_box; /* the shown object they are in, or -1 (the machine) */
};

static void *need(void *p)
{
	if (!p)
		msg_die("out of memory");
	return p;
}

/* What fmt says, in a new string. */
static char *__attribute__((format(printf, 1, 2)))
new_text(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&s, fmt, ap);
	va_end(ap);
	return need(r < 0 ? NULL : s);
}

static void add(struct map *m, unsigned indent, char *s, int l3)
{
	if (m->nlines == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 64;
		m->lines = need(realloc(m->lines, m->cap * sizeof(*m->lines)));
	}
	m->lines[m->nlines++] = (struct line){ indent, s, l3 };
}

/* The columns a line takes: a mark prints as one bracket. */
static size_t width(unsigned indent, const char *s)
{
	return indent + strlen(s);
}

/* --- what a core is ------------------------------------------------------ */

/* A unit of the map: a core, or a PU where the machine has no cores. */
static bool is_unit(const struct topology *t, int o)
{
	const struct topo_obj *obj = &t->objs[o];

	return obj->pu_count > 0 &&
	       (obj->type == TOPO_CORE ||
		(obj->type == TOPO_PU && t->pu_core[obj->pu_first] == o));
}

static unsigned cpu_of(const struct topology *t, int unit, unsigned j)
{
	return tree_pu_os(t, t->objs[unit].pu_first + j);
}

static bool marked(const struct map *m, unsigned cpu)
{
	return m->marked && cpulist_has(m->marked, cpu);
}

/* Whether unit b continues the run of a, a stride of d CPUs on. */
static bool continues(const struct map *m, int a, int b, int *d)
{
	const struct topology *t = m->t;
	const struct topo_obj *oa = &t->objs[a], *ob = &t->objs[b];

	if (ob->pu_count != oa->pu_count || ob->logical != oa->logical + 1 ||
	    t->objs[t->pus[ob->pu_first]].kind !=
		t->objs[t->pus[oa->pu_first]].kind)
		return false;
	if (*d == 0)
		*d = (int)cpu_of(t, b, 0) - (int)cpu_of(t, a, 0);
	if (*d < 1)
		return false;
	for (unsigned j = 0; j < oa->pu_count; j++)
		if ((int)cpu_of(t, b, j) - (int)cpu_of(t, a, j) != *d ||
		    marked(m, cpu_of(t, a, j)) != marked(m, cpu_of(t, b, j)))
			return false;
	return true;
}

/* Append to *s (a malloc'd string) what fmt says. */
static void __attribute__((format(printf, 2, 3)))
append_text(char **s, const char *fmt, ...)
{
	va_list ap;
	char *more = NULL, *both;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&more, fmt, ap);
	va_end(ap);
	need(r < 0 ? NULL : more);
	both = new_text("%s%s", *s, more);
	free(*s);
	free(more);
	*s = both;
}

/* On a machine of two kinds, --kind's name for the cores of rank k (1 is
 * the fast kind, 0 the slow), from policy.c's table: "fast", "slow". */
static const char *two_kinds_name(int k)
{
	return policy_core_kind(k ? POLICY_CORE_FAST : POLICY_CORE_SLOW)->name;
}

/* The kind of unit's cores after two blanks: on a machine of two kinds,
 * --kind's name for it ("  fast"), else its rank ("  kind 2"); "" on a
 * machine of one kind. */
static const char *kind_word(const struct topology *t, int unit)
{
	static char buf[32];
	int k = t->objs[t->pus[t->objs[unit].pu_first]].kind;

	if (t->nkinds <= 1 || k < 0)
		return "";
	if (t->nkinds == 2)
		snprintf(buf, sizeof(buf), "  %s", two_kinds_name(k));
	else
		snprintf(buf, sizeof(buf), "  kind %d", k);
	return buf;
}

/* "0 and 192", "0, 40, 80 and 120": the CPUs of unit. */
static char *unit_cpus(const struct topology *t, int unit)
{
	unsigned c = t->objs[unit].pu_count;
	char *s = new_text("%u", cpu_of(t, unit, 0));

	for (unsigned j = 1; j < c; j++)
		append_text(&s, "%s%u", j + 1 < c ? ", " : " and ",
			    cpu_of(t, unit, j));
	return s;
}

/* The legend of the columns, in plain words, on the first run that has
 * them: "'core:0-7  0-7 + 192-199' means core:0 has CPUs 0 and 192,
 * core:1 CPUs 1 and 193, and so on". */
static void tell_legend(struct map *m, const char *run, const int *units)
{
	char a[64], b[64], plain[96], *ca = unit_cpus(m->t, units[0]),
				      *cb = unit_cpus(m->t, units[1]);
	size_t n = 0;

	for (const char *p = run; *p && n + 1 < sizeof(plain); p++)
		if (*p != MARK_ON && *p != MARK_OFF)
			plain[n++] = *p;
	plain[n] = '\0';
	location_name(m->t, units[0], a, sizeof(a));
	location_name(m->t, units[1], b, sizeof(b));
	snprintf(m->legend, sizeof(m->legend),
		 "cores: '%s' means %s has CPUs %s, %s CPUs %s, and so on",
		 plain, a, ca, b, cb);
	/* Too wide: the example on a line, the words below; shorter
	 * still, the first core's alone. */
	if (strlen(m->legend) > WIDTH)
		snprintf(
		    m->legend, sizeof(m->legend),
		    "cores: '%s' means\n  that %s has CPUs %s, %s CPUs %s, "
		    "and so on",
		    plain, a, ca, b, cb);
	if (strlen(strchr(m->legend, '\n') ? strchr(m->legend, '\n')
					   : m->legend) > WIDTH + 1)
		snprintf(
		    m->legend, sizeof(m->legend),
		    "cores: '%s' means\n  that %s has CPUs %s, %s the next "
		    "of each, and so on",
		    plain, a, ca, b);
	free(ca);
	free(cb);
}

/* One run of n alike units, d CPUs apart: "core:0-17  0-17 + 36-53"
 * (the i-th core has the i-th CPU of each column), "core:0-9  0-79 (8
 * per core)" when each core's CPUs follow on, "core:5  5,9". */
static char *run_text(struct map *m, const int *units, unsigned n, int d)
{
	const struct topology *t = m->t;
	int first = units[0], last = units[n - 1];
	unsigned c = t->objs[first].pu_count;
	bool follow = true, all = true, none = true;
	char loc[64], end[64], *s;

	location_name(t, first, loc, sizeof(loc));
	location_name(t, last, end, sizeof(end));
	s = n > 1 ? new_text("%s-%s", loc, strchr(end, ':') + 1)
		  : new_text("%s", loc);
	for (unsigned j = 0; j < c; j++) {
		follow &= cpu_of(t, first, j) == cpu_of(t, first, 0) + j;
		all &= marked(m, cpu_of(t, first, j));
		none &= !marked(m, cpu_of(t, first, j));
	}
	if (c > 1 && follow && (n == 1 || d == (int)c) && (all || none)) {
		append_text(&s, "  %s%u-%u%s", all ? "\001" : "",
			    cpu_of(t, first, 0), cpu_of(t, last, c - 1),
			    all ? "\002" : "");
		if (n > 1)
			append_text(&s, " (%u per core)", c);
		append_text(&s, "%s", kind_word(t, first));
		return s;
	}
	for (unsigned j = 0; j < c; j++) {
		unsigned a = cpu_of(t, first, j), b = cpu_of(t, last, j);
		bool on = marked(m, a);

		append_text(&s, "%s%s", j ? (n > 1 ? " + " : ",") : "  ",
			    on ? "\001" : "");
		if (n == 1)
			append_text(&s, "%u", a);
		else if (n == 2)
			append_text(&s, "%u,%u", a, b);
		else if (d == 1)
			append_text(&s, "%u-%u", a, b);
		else
			append_text(&s, "%u-%u:%d", a, b, d);
		append_text(&s, "%s", on ? "\002" : "");
	}
	if (c > 1 && n > 1 && !m->legend[0])
		tell_legend(m, s, units);
	append_text(&s, "%s", kind_word(t, first));
	return s;
}

/* Lines for units[0..n), d apart; halves that fit when it is too wide. */
static void add_run(struct map *m, unsigned indent, const int *units,
		    unsigned n, int d)
{
	char *s = run_text(m, units, n, d);

	if (n > 1 && width(indent, s) > WIDTH) {
		free(s);
		add_run(m, indent, units, n / 2, d);
		add_run(m, indent, units + n / 2, n - n / 2, d);
		return;
	}
	add(m, indent, s, -1);
}

static unsigned indent_in(const struct map *m, int box)
{
	return box < 0 ? 2 : 2 * (m->level[box] + 2);
}

/* Write the cores gathered so far, as runs of alike ones. */
static void flush(struct map *m)
{
	unsigned indent = indent_in(m, m->run_box);

	for (unsigned i = 0; i < m->nrun;) {
		unsigned k = i + 1;
		int d = 0;

		while (k < m->nrun &&
		       continues(m, m->run[k - 1], m->run[k], &d))
			k++;
		add_run(m, indent, m->run + i, k - i, d);
		i = k;
	}
	m->nrun = 0;
}

/* --- caches -------------------------------------------------------------- */

/* A cache's size as lstopo prints it, in its units' true names: KiB below
 * 10 MiB, MiB below 10 GiB, rounded to the nearest ("5118 KiB",
 * "32 MiB"). */
static void cache_size(char *buf, size_t size, unsigned long long bytes)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB" };
	unsigned u = 0;

	while (u + 1 < sizeof(units) / sizeof(units[0]) &&
	       bytes >= 10ULL << (10 * (u + 2)))
		u++;
	snprintf(buf, size, "%llu %s", ((bytes >> (10 * (u + 1) - 1)) + 1) >> 1,
		 units[u]);
}

/* What a cache serves: "core", "4 cores", "fast core", "2 PUs". */
struct share {
	unsigned long long bytes;
	unsigned n;
	bool pus;
	int kind;
};

static struct share share_of(const struct topology *t, int o)
{
	const struct topo_obj *obj = &t->objs[o];
	struct share sh = { .bytes = obj->cache_bytes, .kind = -2 };
	int core = t->pu_core[obj->pu_first];

	/* Inside a core (or on a machine without cores), it serves PUs. */
	sh.pus = t->objs[core].type != TOPO_CORE;
	for (int a = obj->parent; a != TOPO_NONE; a = t->objs[a].parent)
		sh.pus |= a == core;
	for (unsigned i = 0; i < obj->pu_count; i++) {
		unsigned p = obj->pu_first + i;
		int k = t->objs[t->pus[p]].kind;

		if (sh.pus || !i || t->pu_core[p] != t->pu_core[p - 1])
			sh.n++;
		sh.kind = sh.kind == -2 || sh.kind == k ? k : -1;
	}
	if (t->nkinds <= 1)
		sh.kind = -1;
	return sh;
}

/* "1280 KiB per fast core", "2048 KiB per 4 slow cores". */
static char *share_text(const struct topology *t, const struct share *sh)
{
	const char *unit = sh->pus ? "PU" : "core";
	const char *plural = sh->n > 1 ? "s" : "";
	char size[32], n[16] = "", kind[24] = "", of[24] = "";

	cache_size(size, sizeof(size), sh->bytes);
	if (sh->n > 1)
		snprintf(n, sizeof(n), "%u ", sh->n);
	if (sh->kind >= 0 && t->nkinds == 2)
		snprintf(kind, sizeof(kind), "%s ", two_kinds_name(sh->kind));
	else if (sh->kind >= 0)
		snprintf(of, sizeof(of), " of kind %d", sh->kind);
	return new_text("%s per %s%s%s%s%s", size, n, kind, unit, plural, of);
}

static bool same_share(const struct share *a, const struct share *b)
{
	return a->bytes == b->bytes && a->n == b->n && a->pus == b->pus &&
	       a->kind == b->kind;
}

/* Append sep (ending in a blank) and item to *s, whose last line starts
 * at *from; when that line would pass WIDTH, sep less its blank ends it
 * and item starts the next line, indented. */
static void cat_wrapped(char **s, size_t *from, const char *sep,
			const char *item)
{
	if (strlen(*s + *from) + strlen(sep) + strlen(item) > WIDTH) {
		append_text(s, "%.*s\n  ", (int)strlen(sep) - 1, sep);
		*from = strlen(*s) - 2;
		sep = "";
	}
	append_text(s, "%s%s", sep, item);
}

/* The caches without lines of their own (all but L3), one item a level:
 * each size with what it serves, alike caches told once, a cache of
 * unknown size left out ("caches: L1d 32 KiB per core, L2 1024 KiB per 2
 * cores"). */
static void caches_line(struct map *m)
{
	static const struct {
		enum topo_type type;
		const char *name;
	} levels[] = {
		{ TOPO_L1, "L1d" },
		{ TOPO_L2, "L2" },
		{ TOPO_L4, "L4" },
		{ TOPO_L5, "L5" },
	};
	const struct topology *t = m->t;
	struct share *seen = need(malloc((t->nobjs + 1) * sizeof(*seen)));
	char *line = new_text("%s", "caches:");
	size_t from = 0;
	bool any = false;

	for (size_t l = 0; l < sizeof(levels) / sizeof(levels[0]); l++) {
		unsigned nseen = 0;

		for (unsigned o = 0; o < t->nobjs; o++) {
			struct share sh;
			unsigned k = 0;
			char *item, *named;

			if (t->objs[o].type != levels[l].type ||
			    !t->objs[o].cache_bytes || !t->objs[o].pu_count)
				continue;
			sh = share_of(t, (int)o);
			while (k < nseen && !same_share(&seen[k], &sh))
				k++;
			if (k < nseen)
				continue;
			seen[nseen++] = sh;
			item = share_text(t, &sh);
			if (nseen > 1) {
				cat_wrapped(&line, &from, " or ", item);
			} else {
				named = new_text("%s %s", levels[l].name, item);
				cat_wrapped(&line, &from, any ? ", " : " ",
					    named);
				free(named);
			}
			free(item);
			any = true;
		}
	}
	free(seen);
	if (any)
		m->caches = line;
	else
		free(line);
}

/* --- what hangs from an object ------------------------------------------- */

static char *size_text(unsigned long long bytes)
{
	if (!bytes)
		return new_text("%s", "");
	if (bytes >= 1ULL << 30)
		return new_text(", %.1f GiB",
				(double)bytes / (double)(1ULL << 30));
	return new_text(", %.0f MiB", (double)bytes / (double)(1ULL << 20));
}

/* " (98.2 GiB free)" after a size, as numactl --hardware has it. */
static void free_text(char **s, unsigned long long bytes)
{
	if (bytes >= 1ULL << 30)
		append_text(s, " (%.1f GiB free)",
			    (double)bytes / (double)(1ULL << 30));
	else
		append_text(s, " (%.0f MiB free)",
			    (double)bytes / (double)(1ULL << 20));
}

/* "nvme0n1 (block Disk)" */
static char *os_text(const struct map *m, int dev)
{
	const struct topo_dev *d = &m->t->devs[dev];

	return new_text("%s (%s%s%s)%s", msg_input(d->name),
			devices_type_name(d->type), d->subtype[0] ? " " : "",
			msg_input(d->subtype),
			m->ctx->near == dev ? " <- --near" : "");
}

/* The NUMA nodes and devices attached to o, as lines at indent; where o
 * has no line of its own, each says where it is. */
static void attachments(struct map *m, int o, unsigned indent)
{
	const struct topology *t = m->t;
	char where[80] = "", loc[64];

	if (o > 0 && !m->shown[o]) {
		location_name(t, o, loc, sizeof(loc));
		snprintf(where, sizeof(where), " (local to %s)", loc);
	}
	for (unsigned n = 0; n < t->nnuma; n++) {
		const struct topo_numa *node = &t->numa[n];
		bool mem = m->o->mem_given &&
			   cpulist_has(&m->ctx->mem_nodes, node->os);
		unsigned long long free_bytes;
		struct cpuset cpus;
		const char *list;
		char *size, *s;

		if (node->attach != o)
			continue;
		size = size_text(node->bytes);
		s = new_text("numa:%u  node %u%s", n, node->os, size);
		if (t->this_system &&
		    host_node_free(node->os, &free_bytes) == 0)
			free_text(&s, free_bytes);
		append_text(&s, "%s%s", node->kind[0] ? " " : "",
			    msg_input(node->kind));
		cpulist_zero(&cpus);
		tree_obj_cpus(t, node->attach, &cpus);
		list = msg_cpus(&cpus);
		if (width(indent, s) + strlen(list) + 7 <= WIDTH)
			append_text(&s, ", CPUs %s", list);
		else
			append_text(&s, ", %u CPUs", cpulist_count(&cpus));
		append_text(&s, "%s%s", where, mem ? " <- --mem" : "");
		add(m, indent, s, -1);
		free(size);
	}
	for (unsigned i = 0; i < t->ndevs; i++) {
		const struct topo_dev *d = &t->devs[i];
		char *s;

		if (d->attach != o || d->pci != TOPO_NONE)
			continue;
		if (d->type != TOPO_DEV_PCI) {
			s = os_text(m, (int)i);
			append_text(&s, "%s", where);
			add(m, indent, s, -1);
			continue;
		}
		s = new_text("pci=%s %s%s", d->busid,
			     devices_class_name(d->pci_class),
			     m->ctx->near == (int)i ? " <- --near" : "");
		for (unsigned k = i + 1, on_line = 0;
		     k < t->ndevs && t->devs[k].pci == (int)i; k++) {
			char *os = os_text(m, (int)k);

			/* A long list goes on below, indented. */
			if (on_line &&
			    width(indent, s) + strlen(os) + 2 > WIDTH) {
				add(m, indent, s, -1);
				s = new_text("  %s", os);
			} else {
				append_text(&s, "%s %s", on_line ? "," : ":",
					    os);
			}
			on_line++;
			free(os);
		}
		append_text(&s, "%s", where);
		add(m, indent, s, -1);
	}
}

static bool has_attachments(const struct topology *t, int o)
{
	for (unsigned n = 0; n < t->nnuma; n++)
		if (t->numa[n].attach == o)
			return true;
	for (unsigned i = 0; i < t->ndevs; i++)
		if (t->devs[i].attach == o)
			return true;
	return false;
}

/* --- the map ---------------------------------------------------------------
 */

/* Packages, dies and L3 caches have lines of their own, and any other
 * object that memory or a device hangs from; cores go in runs. */
static void plan_lines(struct map *m)
{
	const struct topology *t = m->t;

	m->shown = need(calloc(t->nobjs, sizeof(*m->shown)));
	m->alias = need(calloc(t->nobjs, sizeof(*m->alias)));
	m->merged = need(calloc(t->nobjs, sizeof(*m->merged)));
	m->level = need(calloc(t->nobjs, sizeof(*m->level)));
	m->run = need(malloc((t->nobjs + 1) * sizeof(*m->run)));
	for (unsigned o = 1; o < t->nobjs; o++) {
		enum topo_type type = t->objs[o].type;
		int p = t->objs[o].parent, box = p;

		while (box > 0 && !m->shown[box])
			box = t->objs[box].parent;
		m->alias[o] = -1;
		m->level[o] = box > 0 ? m->level[box] + 1 : 0;
		if (is_unit(t, (int)o) || type == TOPO_PU)
			continue;
		m->shown[o] = type == TOPO_PACKAGE || type == TOPO_DIE ||
			      type == TOPO_GROUP || type == TOPO_L3 ||
			      has_attachments(t, (int)o);
		/* One line for two objects with the same CPUs (EPYC's die
		 * and L3), unless something hangs from the outer one. */
		if (m->shown[o] && box > 0 &&
		    t->objs[box].pu_first == t->objs[o].pu_first &&
		    t->objs[box].pu_count == t->objs[o].pu_count &&
		    !has_attachments(t, box)) {
			m->shown[box] = false;
			m->merged[box] = true;
			m->alias[o] = box;
			m->level[o] = m->level[box];
		}
	}
}

static int box_of(const struct map *m, int o)
{
	int box = m->t->objs[o].parent;

	while (box > 0 && !m->shown[box])
		box = m->t->objs[box].parent;
	return box > 0 ? box : -1;
}

/* The names on o's line: its own, after those of the objects it stands
 * for ("die:0 l3:0"), a cache's with its size ("l3:0 (32 MiB)"). */
static void line_name(const struct map *m, int o, char *buf, size_t size)
{
	size_t n = 0;
	char one[64];

	buf[0] = '\0';
	if (m->alias[o] >= 0) {
		line_name(m, m->alias[o], buf, size);
		n = strlen(buf);
		if (n + 1 < size)
			buf[n++] = ' ';
	}
	location_name(m->t, o, one, sizeof(one));
	snprintf(buf + n, size - n, "%s", one);
	n = strlen(buf);
	if (m->t->objs[o].cache_bytes) {
		cache_size(one, sizeof(one), m->t->objs[o].cache_bytes);
		snprintf(buf + n, size - n, " (%s)", one);
	}
}

static void walk(struct map *m)
{
	const struct topology *t = m->t;

	attachments(m, 0, 2);
	m->run_box = -1;
	for (unsigned o = 1; o < t->nobjs; o++) {
		int box = box_of(m, (int)o);
		unsigned indent;
		char loc[160];

		if (is_unit(t, (int)o)) {
			if (m->nrun && box != m->run_box)
				flush(m);
			m->run_box = box;
			m->run[m->nrun++] = (int)o;
			if (has_attachments(t, (int)o)) {
				flush(m);
				attachments(m, (int)o, indent_in(m, box));
			}
			continue;
		}
		if (!m->shown[o])
			continue;
		flush(m);
		line_name(m, (int)o, loc, sizeof(loc));
		indent = 2 * (m->level[o] + 1);
		if (t->objs[o].type == TOPO_L3 ||
		    t->objs[o].type == TOPO_GROUP) {
			add(m, indent, new_text("%s", loc), (int)o);
		} else {
			struct cpuset cpus;
			const char *list;

			cpulist_zero(&cpus);
			tree_obj_cpus(t, (int)o, &cpus);
			list = msg_cpus(&cpus);
			add(m, indent,
			    cpulist_empty(&cpus)
				? new_text("%s  no usable CPU", loc)
			    : width(indent, loc) + strlen(list) + 7 <= WIDTH
				? new_text("%s  CPUs %s", loc, list)
				: new_text("%s  %u CPUs", loc,
					   cpulist_count(&cpus)),
			    -1);
		}
		attachments(m, (int)o, indent + 2);
	}
	flush(m);
}

/* numactl --hardware's matrix, by node number, in blocks of columns that
 * fit. */
static void distances(struct map *m)
{
	const struct topology *t = m->t;
	unsigned n = t->nnuma, w = 2, per, *by_os;

	if (!t->distances || n < 2)
		return;
	by_os = need(malloc(n * sizeof(*by_os)));
	for (unsigned i = 0; i < n; i++) {
		unsigned k = i;

		/* Insertion by node number: a handful of nodes. */
		while (k > 0 && t->numa[by_os[k - 1]].os > t->numa[i].os) {
			by_os[k] = by_os[k - 1];
			k--;
		}
		by_os[k] = i;
	}
	for (unsigned i = 0; i < n * n; i++)
		if (snprintf(NULL, 0, "%u", t->distances[i]) > (int)w)
			w = (unsigned)snprintf(NULL, 0, "%u", t->distances[i]);
	for (unsigned i = 0; i < n; i++)
		if (snprintf(NULL, 0, "%u", t->numa[i].os) > (int)w)
			w = (unsigned)snprintf(NULL, 0, "%u", t->numa[i].os);
	/* Two blanks between columns, one where that keeps to one block. */
	w += 4 + n * (w + 2) <= WIDTH ? 2 : 1;
	per = (WIDTH - 4 - 4) / w;
	add(m, 2, new_text("%s", "NUMA distances (node numbers):"), -1);
	for (unsigned from = 0; from < n; from += per) {
		char *s = new_text("%s", "node");

		for (unsigned j = from; j < n && j < from + per; j++)
			append_text(&s, "%*u", (int)w, t->numa[by_os[j]].os);
		add(m, 4, s, -1);
		for (unsigned i = 0; i < n; i++) {
			s = new_text("%3u:", t->numa[by_os[i]].os);
			for (unsigned j = from; j < n && j < from + per; j++)
				append_text(
				    &s, "%*u", (int)w,
				    t->distances[by_os[i] * n + by_os[j]]);
			add(m, 4, s, -1);
		}
	}
	free(by_os);
}

/* "words: CPUs list", the list broken after commas to fit. */
static void add_list(struct map *m, const char *words, const char *list)
{
	char *s = new_text("%s: ", words);

	while (width(2, s) + strlen(list) > WIDTH) {
		size_t room = WIDTH - width(2, s), cut = 0;

		for (size_t i = 0; i < room && list[i]; i++)
			if (list[i] == ',')
				cut = i + 1;
		if (!cut) /* one item longer than a line */
			cut = strcspn(list, ",") +
			      (list[strcspn(list, ",")] != 0);
		append_text(&s, "%.*s", (int)cut, list);
		add(m, 2, s, -1);
		list += cut;
		s = new_text("%s", "  ");
	}
	append_text(&s, "%s", list);
	add(m, 2, s, -1);
}

static void footer(struct map *m, const struct policy_plan *plan)
{
	const struct context *ctx = m->ctx;

	for (int i = 0; i < CONTEXT_EXCL_NREASONS; i++)
		if (context_exclusion(i)->list &&
		    !cpulist_empty(&ctx->excluded[i]))
			add_list(m, context_exclusion(i)->list,
				 msg_list(&ctx->excluded[i]));
	distances(m);
	if (plan)
		add_list(m, "the placement, marked [ ] above",
			 msg_list(&plan->cpus));
	if (plan && m->o->mem_given)
		add(m, 2,
		    new_text("memory: %s%s%s", context_mem_arg(m->o),
			     cpulist_empty(&ctx->mem_nodes) ? "" : " on nodes ",
			     msg_list(&ctx->mem_nodes)),
		    -1);
}

static bool colour(void)
{
	const char *no = getenv("NO_COLOR"), *term = getenv("TERM");

	return isatty(1) && !(no && *no) && !(term && !strcmp(term, "dumb"));
}

static void print_line(const struct line *l, bool in_colour)
{
	printf("%*s", (int)l->indent, "");
	for (const char *p = l->text; *p; p++) {
		if (*p == MARK_ON)
			fputs(in_colour ? "[\033[1;32m" : "[", stdout);
		else if (*p == MARK_OFF)
			fputs(in_colour ? "\033[0m]" : "]", stdout);
		else
			putchar(*p);
	}
	putchar('\n');
}

static void print_map(struct map *m)
{
	const struct topology *t = m->t;
	bool in_colour = colour();
	char counts[256];

	tree_counts_text(t, true, counts, sizeof(counts));
	printf("%s: %s\n", t->source, counts);
	if (m->caches)
		printf("%s\n", m->caches);
	if (m->legend[0])
		printf("%s\n", m->legend);
	for (unsigned i = 0; i < m->nlines; i++) {
		struct line *l = &m->lines[i];

		/* An L3 or group whose cores make one run shares its
		 * line. */
		if (l->l3 >= 0 && i + 1 < m->nlines && m->lines[i + 1].l3 < 0 &&
		    m->lines[i + 1].indent == l->indent + 2 &&
		    (i + 2 >= m->nlines ||
		     m->lines[i + 2].indent <= l->indent) &&
		    width(l->indent, l->text) + 2 +
			    width(0, m->lines[i + 1].text) <=
			WIDTH &&
		    !strncmp(m->lines[i + 1].text, "core:", 5)) {
			char *both =
			    new_text("%s  %s", l->text, m->lines[i + 1].text);

			free(m->lines[i + 1].text);
			m->lines[i + 1].text = both;
			m->lines[i + 1].indent = l->indent;
			continue;
		}
		print_line(l, in_colour);
	}
}

/* --- --list --json -------------------------------------------------- */

/* Open the JSON object of object o: its "location" and "cpus", and a
 * cache's "cache_bytes" (0 unknown). */
static void json_object(struct json *j, const struct topology *t, int o)
{
	struct cpuset cpus;
	char loc[64];

	json_open(j, '{');
	location_name(t, o, loc, sizeof(loc));
	json_key(j, "location");
	json_string(j, loc);
	cpulist_zero(&cpus);
	tree_obj_cpus(t, o, &cpus);
	json_cpuset(j, "cpus", &cpus);
	if (tree_type_is_cache(t->objs[o].type)) {
		json_key(j, "cache_bytes");
		json_int(j, (long long)t->objs[o].cache_bytes);
	}
}

static void json_map(const struct map *m, const struct policy_plan *plan)
{
	const struct topology *t = m->t;
	const struct context *ctx = m->ctx;
	struct json j = { 0 };
	unsigned long long free_bytes;
	struct cpuset cpus;
	char loc[64];

	json_open(&j, '{');
	json_version(&j);
	json_key(&j, "topology");
	json_open(&j, '{');
	json_counts(&j, t);
	json_key(&j, "kinds");
	json_int(&j, t->nkinds > 1 ? t->nkinds : 1);
	json_close(&j, '}');
	json_key(&j, "objects");
	json_open(&j, '[');
	for (unsigned o = 1; o < t->nobjs; o++) {
		int in = t->objs[o].parent;

		if (!m->shown[o] && !m->merged[o])
			continue;
		while (in > 0 && !m->shown[in] && !m->merged[in])
			in = t->objs[in].parent;
		json_object(&j, t, (int)o);
		location_name(t, in > 0 ? in : 0, loc, sizeof(loc));
		json_key(&j, "in");
		json_string(&j, loc);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_key(&j, "cores");
	json_open(&j, '[');
	for (unsigned o = 1; o < t->nobjs; o++) {
		if (!is_unit(t, (int)o))
			continue;
		json_object(&j, t, (int)o);
		/* a string, as a NUMA node's kind is; the rank apart */
		json_key(&j, "kind");
		json_string(&j, kind_word(t, (int)o) +
				    strspn(kind_word(t, (int)o), " "));
		json_key(&j, "kind_rank");
		json_int(&j, t->objs[t->pus[t->objs[o].pu_first]].kind);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	/* Every cache, L1d first, each level in logical (depth-first)
	 * order. */
	json_key(&j, "caches");
	json_open(&j, '[');
	for (int type = TOPO_L1; type >= TOPO_L5; type--)
		for (unsigned o = 1; o < t->nobjs; o++)
			if (t->objs[o].type == (enum topo_type)type) {
				json_object(&j, t, (int)o);
				json_close(&j, '}');
			}
	json_close(&j, ']');
	json_key(&j, "numa");
	json_open(&j, '[');
	for (unsigned n = 0; n < t->nnuma; n++) {
		json_open(&j, '{');
		json_key(&j, "location");
		snprintf(loc, sizeof(loc), "numa:%u", n);
		json_string(&j, loc);
		json_key(&j, "node");
		json_int(&j, t->numa[n].os);
		json_key(&j, "bytes");
		json_int(&j, (long long)t->numa[n].bytes);
		json_key(&j, "kind");
		json_string(&j, t->numa[n].kind);
		json_key(&j, "free_bytes");
		if (t->this_system &&
		    host_node_free(t->numa[n].os, &free_bytes) == 0)
			json_int(&j, (long long)free_bytes);
		else
			json_null(&j);
		location_name(t, t->numa[n].attach, loc, sizeof(loc));
		json_key(&j, "local_to");
		json_string(&j, loc);
		cpulist_zero(&cpus);
		tree_obj_cpus(t, t->numa[n].attach, &cpus);
		json_cpuset(&j, "cpus", &cpus);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_key(&j, "distances");
	if (t->distances) {
		json_open(&j, '[');
		for (unsigned a = 0; a < t->nnuma; a++) {
			json_open(&j, '[');
			for (unsigned b = 0; b < t->nnuma; b++)
				json_int(&j, t->distances[a * t->nnuma + b]);
			json_close(&j, ']');
		}
		json_close(&j, ']');
	} else {
		json_null(&j);
	}
	json_key(&j, "devices");
	json_open(&j, '[');
	for (unsigned i = 0; i < t->ndevs; i++) {
		json_open(&j, '{');
		json_device(&j, t, (int)i);
		json_close(&j, '}');
	}
	json_close(&j, ']');
	json_key(&j, "excluded");
	json_open(&j, '{');
	for (int i = 0; i < CONTEXT_EXCL_NREASONS; i++)
		if (context_exclusion(i)->list)
			json_cpuset(&j, context_exclusion(i)->key,
				    &ctx->excluded[i]);
	json_close(&j, '}');
	json_key(&j, "placement");
	if (plan)
		json_cpuset(&j, NULL, &plan->cpus);
	else
		json_null(&j);
	json_close(&j, '}');
	msg_print_json(&j);
}

void list_print(const struct context *ctx, const struct options *o,
		const struct policy_plan *plan)
{
	struct map m = {
		.ctx = ctx,
		.t = ctx->t,
		.o = o,
		.marked = plan ? &plan->cpus : NULL,
	};

	plan_lines(&m);
	if (o->json) {
		json_map(&m, plan);
	} else {
		caches_line(&m);
		walk(&m);
		footer(&m, plan);
		print_map(&m);
	}
	for (unsigned i = 0; i < m.nlines; i++)
		free(m.lines[i].text);
	free(m.lines);
	free(m.caches);
	free(m.shown);
	free(m.alias);
	free(m.merged);
	free(m.level);
	free(m.run);
}
