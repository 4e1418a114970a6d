/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * emit.c: the plan in the words of the tools people already use, so that
 * a unit file, a container or a job script gets the placement pinrun
 * works out without translating it by hand. One table: each format's
 * name, its --help line and its writer. Every writer appends to a
 * buffer the way snprintf does. Pure: no system call.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "emit.h"

/* Appending, snprintf-style: len counts what the whole text needs. */
struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
		      o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* A set as a list, "0-3,8": the kernel's form, which every tool here
 * reads (numactl has no strides). */
static void put_list(struct out *o, const struct cpuset *set)
{
	size_t n =
	    cpulist_format(set, o->len < o->size ? o->buf + o->len : NULL,
			   o->len < o->size ? o->size - o->len : 0);

	o->len += n;
}

/* A set as one hex number, "0x3", "0x10000000000000003": Slurm's masks
 * (no word separators). */
static void put_hex(struct out *o, const struct cpuset *set)
{
	int last = cpulist_last(set);
	bool started = false;

	put(o, "0x");
	for (int nib = last < 0 ? 0 : last / 4; nib >= 0; nib--) {
		unsigned d = 0;

		for (unsigned b = 0; b < 4; b++)
			d |= (unsigned)cpulist_has(set, (unsigned)nib * 4 + b)
			     << b;
		if (d || started || nib == 0) {
			put(o, "%x", d);
			started = true;
		}
	}
}

/* A set as hwloc writes a bitmask: 32-bit words, "0x00000003" or
 * "0x00000001,0x00000000" (hwloc-bind would read "1,3" as two words). */
static void put_hwloc(struct out *o, const struct cpuset *set)
{
	int last = cpulist_last(set);

	for (int w = last < 0 ? 0 : last / 32; w >= 0; w--) {
		unsigned long v = 0;

		for (unsigned b = 0; b < 32; b++)
			v |= (unsigned long)cpulist_has(set,
							(unsigned)w * 32 + b)
			     << b;
		put(o, "%s0x%08lx", w == (last < 0 ? 0 : last / 32) ? "" : ",",
		    v);
	}
}

static bool has_mems(const struct emit_plan *p)
{
	return p->mem_given && p->mems && !cpulist_empty(p->mems);
}

static size_t done(const struct out *o)
{
	return o->len;
}

static size_t w_taskset(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	put(&o, "-c ");
	put_list(&o, p->cpus);
	return done(&o);
}

/* The mode of --mem in numactl's and hwloc-bind's options. */
struct mem_options {
	const char *numactl; /* --membind=NODES and the like */
	const char *hwloc;   /* --mempolicy's */
	bool strict;	     /* --membind --strict */
};

static struct mem_options mem_options(const struct emit_plan *p)
{
	struct mem_options m = { "membind", "bind", true };

	switch (p->mem) {
	case HOST_MEM_BIND:
	case HOST_MEM_LOCAL: /* numactl's --localalloc; no nodes */
	case HOST_MEM_MODES:
		break;
	case HOST_MEM_INTERLEAVE:
		m.numactl = m.hwloc = "interleave";
		break;
	case HOST_MEM_PREFERRED:
		/* numactl's --preferred takes one node; several are
		 * --preferred-many's (numactl 2.0.16 and later). hwloc's
		 * bind without --strict is the kernel's preferred-many
		 * (hwloc 2.8 and later): --strict is bind. */
		m.numactl = cpulist_count(p->mems) == 1 ? "preferred"
							: "preferred-many";
		m.strict = false;
		break;
	}
	return m;
}

static size_t w_numactl(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	put(&o, "--physcpubind=");
	put_list(&o, p->cpus);
	if (p->mem_given && p->mem == HOST_MEM_LOCAL) {
		put(&o, " --localalloc");
	} else if (has_mems(p)) {
		put(&o, " --%s=", mem_options(p).numactl);
		put_list(&o, p->mems);
	}
	return done(&o);
}

static size_t w_hwloc(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (!p->mem_given) {
		put_hwloc(&o, p->cpus);
		return done(&o);
	}
	put(&o, "--cpubind ");
	put_hwloc(&o, p->cpus);
	if (has_mems(p)) {
		struct mem_options m = mem_options(p);

		put(&o, " --membind%s --mempolicy %s nodeset=",
		    m.strict ? " --strict" : "", m.hwloc);
		put_hwloc(&o, p->mems);
	}
	return done(&o);
}

/* systemd.resource-control(5): lists with ranges; several assignments
 * on one line, as systemctl set-property and systemd-run -p take them. */
static size_t w_systemd(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	put(&o, "AllowedCPUs=");
	put_list(&o, p->cpus);
	if (has_mems(p)) {
		put(&o, " AllowedMemoryNodes=");
		put_list(&o, p->mems);
	}
	return done(&o);
}

static size_t w_docker(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	put(&o, "--cpuset-cpus=");
	put_list(&o, p->cpus);
	if (has_mems(p)) {
		put(&o, " --cpuset-mems=");
		put_list(&o, p->mems);
	}
	return done(&o);
}

/* srun --cpu-bind: one CPU number per task when every task has one
 * (map_cpu), else one mask per task (mask_cpu), task 0 first. */
static size_t w_srun(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	bool single = true;

	for (unsigned i = 0; i < p->nparts; i++)
		single &= cpulist_count(&p->parts[i]) == 1;
	put(&o, "--cpu-bind=%s:", single ? "map_cpu" : "mask_cpu");
	for (unsigned i = 0; i < p->nparts; i++) {
		if (i)
			put(&o, ",");
		if (single)
			put(&o, "%d", cpulist_next(&p->parts[i], -1));
		else
			put_hex(&o, &p->parts[i]);
	}
	return done(&o);
}

size_t emit_places(const struct topology *t, const struct cpuset *set,
		   char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct cpuset left = *set;
	int cpu;

	/* Each core's PUs of set, in CPU order of their first. */
	while ((cpu = cpulist_next(&left, -1)) >= 0) {
		int core = tree_core_of(t, (unsigned)cpu);
		struct cpuset place;
		int c;

		cpulist_zero(&place);
		if (core == TOPO_NONE)
			cpulist_add(&place, (unsigned)cpu);
		else
			tree_obj_cpus(t, core, &place);
		cpulist_and(&place, &place, &left);
		put(&o, "%s{", o.len ? "," : "");
		for (c = cpulist_next(&place, -1); c >= 0;
		     c = cpulist_next(&place, c))
			put(&o, "%s%d",
			    c == cpulist_next(&place, -1) ? "" : ",", c);
		put(&o, "}");
		cpulist_andnot(&left, &left, &place);
	}
	return done(&o);
}

static size_t w_openmp(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	put(&o, "OMP_PLACES=");
	o.len +=
	    emit_places(p->t, p->cpus, o.len < o.size ? o.buf + o.len : NULL,
			o.len < o.size ? o.size - o.len : 0);
	return done(&o);
}

/* likwid-pin -c: bare numbers are OS CPU numbers (domain N). */
static size_t w_likwid(const struct emit_plan *p, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	put(&o, "-c ");
	put_list(&o, p->cpus);
	return done(&o);
}

const struct emit_format emit_formats[] = {
	{ "taskset", "-c <list>", w_taskset },
	{ "numactl", "--physcpubind=<list> [--membind=<nodes>]", w_numactl },
	{ "hwloc", "a location for hwloc-bind: 0x000000ff", w_hwloc },
	{ "systemd", "AllowedCPUs=<list> [AllowedMemoryNodes=<nodes>]",
	  w_systemd },
	{ "docker", "--cpuset-cpus=<list> [--cpuset-mems=<nodes>]", w_docker },
	{ "srun",
	  "--cpu-bind=map_cpu:<cpus> or mask_cpu:<masks>, a task "
	  "each",
	  w_srun },
	{ "openmp", "OMP_PLACES={0,1},{2,3}: the placement's cores", w_openmp },
	{ "likwid", "-c <list> for likwid-pin", w_likwid },
};
const unsigned emit_nformats = sizeof(emit_formats) / sizeof(emit_formats[0]);

const struct emit_format *emit_find(const char *name)
{
	for (unsigned i = 0; i < emit_nformats; i++)
		if (!strcmp(emit_formats[i].name, name))
			return &emit_formats[i];
	return NULL;
}

size_t emit_names(char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	for (unsigned i = 0; i < emit_nformats; i++)
		put(&o, "%s%s",
		    i == 0		    ? ""
		    : i + 1 < emit_nformats ? ", "
					    : " or ",
		    emit_formats[i].name);
	return done(&o);
}
