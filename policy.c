/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * policy.c: the placement rules of pinrun(1), over the flattened topology.
 * Pure: no system calls, no hwloc, no messages. The caller measures the
 * machine (current CPU, load, allowed set) and words the errors; this file
 * only decides which CPUs, and in which order follow mode hands them out.
 * Its table (below the rules) is all that pinrun knows of each policy:
 * the other modules look a policy up there (policy_desc) rather than
 * name it.
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "slotorder.h"

static int fail(struct policy_error *err, enum policy_err code,
		unsigned long value, unsigned long value2)
{
	err->code = code;
	err->value = value;
	err->value2 = value2;
	return -1;
}

/* Every CPU of set must exist, be online and allowed. */
static int check_cpus(const struct topology *t, const struct cpuset *set,
		      const struct cpuset *allowed, struct policy_error *err)
{
	for (int c = cpulist_next(set, -1); c >= 0; c = cpulist_next(set, c)) {
		if (!cpulist_has(&t->complete, (unsigned)c))
			return fail(err, POLICY_E_NOT_EXIST, (unsigned)c, 0);
		if (!cpulist_has(&t->usable, (unsigned)c))
			return fail(err, POLICY_E_OFFLINE, (unsigned)c, 0);
		if (!cpulist_has(allowed, (unsigned)c))
			return fail(err, POLICY_E_NOT_ALLOWED, (unsigned)c, 0);
	}
	return 0;
}

static double busy_of(const struct policy_request *req, unsigned cpu)
{
	return cpu < req->busy_len ? req->busy[cpu] : 0.0;
}

/* The allowed CPUs of object o. */
static void obj_allowed(const struct topology *t, int o,
			const struct cpuset *allowed, struct cpuset *out)
{
	cpulist_zero(out);
	tree_obj_cpus(t, o, out);
	cpulist_and(out, out, allowed);
}

/* Keep the lowest allowed PU of each core in set. */
static void one_per_core(const struct topology *t, struct cpuset *set,
			 struct cpuset *dropped)
{
	int last_core = TOPO_NONE;

	cpulist_zero(dropped);
	for (unsigned i = 0; i < t->npus; i++) {
		unsigned cpu = tree_pu_os(t, i);

		if (!cpulist_has(set, cpu))
			continue;
		if (t->pu_core[i] == last_core) {
			cpulist_del(set, cpu);
			cpulist_add(dropped, cpu);
		}
		last_core = t->pu_core[i];
	}
}

/* --- domains: one package, NUMA node or L3 ---------------------------- */

struct domains {
	unsigned count;
	const int *objs; /* level objects, or NULL for NUMA nodes */
	const struct topology *t;
};

static int domain_obj(const struct domains *d, unsigned i)
{
	return d->objs ? d->objs[i] : d->t->numa[i].attach;
}

static int pick_domain(const struct topology *t,
		       const struct policy_request *req,
		       const struct domains *d, struct policy_plan *plan,
		       struct policy_error *err)
{
	struct cpuset cpus;
	double best = 2.0;
	int pick = -1;

	if (req->which == POLICY_WHICH_INDEX) {
		if (req->index >= d->count)
			return fail(err, POLICY_E_NO_SUCH, req->index,
				    d->count);
		plan->reason = POLICY_REASON_GIVEN;
		return (int)req->index;
	}
	if (req->which == POLICY_WHICH_CURRENT && req->current_cpu >= 0 &&
	    !cpulist_has(&req->allowed, (unsigned)req->current_cpu))
		return fail(err, POLICY_E_CURRENT, (unsigned)req->current_cpu,
			    0);
	for (unsigned i = 0; i < d->count; i++) {
		double sum = 0;
		unsigned n;

		obj_allowed(t, domain_obj(d, i), &req->allowed, &cpus);
		n = cpulist_count(&cpus);
		if (!n)
			continue;
		if (req->which == POLICY_WHICH_CURRENT &&
		    req->current_cpu >= 0) {
			if (cpulist_has(&cpus, (unsigned)req->current_cpu)) {
				plan->reason = POLICY_REASON_CURRENT;
				return (int)i;
			}
			continue;
		}
		if (req->which == POLICY_WHICH_IDLE && req->busy) {
			for (int c = cpulist_next(&cpus, -1); c >= 0;
			     c = cpulist_next(&cpus, c))
				sum += busy_of(req, (unsigned)c);
			if (sum / n < best) {
				best = sum / n;
				pick = (int)i;
				plan->reason = POLICY_REASON_IDLE;
			}
			continue;
		}
		plan->reason = POLICY_REASON_FIRST;
		return (int)i;
	}
	if (pick < 0 && req->which == POLICY_WHICH_CURRENT &&
	    req->current_cpu >= 0)
		return fail(err, POLICY_E_NOT_UNDER, (unsigned)req->current_cpu,
			    0);
	if (pick < 0)
		return fail(err, POLICY_E_NONE_ALLOWED, 0, 0);
	return pick;
}

static int plan_domain(const struct topology *t,
		       const struct policy_request *req,
		       struct policy_plan *plan, struct policy_error *err)
{
	enum topo_type type = policy_desc(req->kind)->level;
	struct domains d = { .t = t };
	int i;

	if (type == TOPO_NUMA) {
		d.count = t->nnuma;
	} else {
		int depth = tree_type_depth(t, type);

		if (depth >= 0) {
			d.count = t->levels[depth].count;
			d.objs = t->levels[depth].objs;
		}
	}
	if (!d.count)
		return fail(err, POLICY_E_NO_LEVEL, type, 0);
	i = pick_domain(t, req, &d, plan, err);
	if (i < 0)
		return -1;
	plan->domain = domain_obj(&d, (unsigned)i);
	plan->domain_numa = (unsigned)i;
	obj_allowed(t, plan->domain, &req->allowed, &plan->cpus);
	if (cpulist_empty(&plan->cpus))
		return fail(err, POLICY_E_DOMAIN_EMPTY, (unsigned)i, 0);
	if (req->smt == POLICY_SMT_ONE)
		one_per_core(t, &plan->cpus, &plan->smt_dropped);
	return 0;
}

/* --- hot: one PU ------------------------------------------------------ */

static int fastest_allowed_kind(const struct topology *t,
				const struct cpuset *allowed)
{
	int best = -2;

	for (unsigned i = 0; i < t->npus; i++)
		if (cpulist_has(allowed, tree_pu_os(t, i)) &&
		    t->objs[t->pus[i]].kind > best)
			best = t->objs[t->pus[i]].kind;
	return best;
}

static int plan_hot(const struct topology *t, const struct policy_request *req,
		    struct policy_plan *plan, struct policy_error *err)
{
	int cpu = -1;

	if (cpulist_empty(&req->allowed))
		return fail(err, POLICY_E_NOTHING, 0, 0);
	if (req->which == POLICY_WHICH_INDEX) {
		unsigned n = cpulist_count(&req->cpus);

		if (n != 1)
			return fail(err, POLICY_E_HOT_NOT_ONE, n, 0);
		if (check_cpus(t, &req->cpus, &req->allowed, err) < 0)
			return -1;
		cpu = cpulist_next(&req->cpus, -1);
		plan->reason = POLICY_REASON_GIVEN;
	} else if (req->which == POLICY_WHICH_CURRENT &&
		   req->current_cpu >= 0) {
		cpu = req->current_cpu;
		if (!cpulist_has(&req->allowed, (unsigned)cpu))
			return fail(err, POLICY_E_CURRENT, (unsigned)cpu, 0);
		plan->reason = POLICY_REASON_CURRENT;
	} else if (req->which == POLICY_WHICH_IDLE && req->busy) {
		/* The fastest kind first, then the idlest core (siblings
		 * included: they share it), then the idlest PU of it. */
		double best_core = 1e9, best_pu = 1e9;
		int best_kind = fastest_allowed_kind(t, &req->allowed);

		for (unsigned i = 0; i < t->npus; i++) {
			const struct topo_obj *core = &t->objs[t->pu_core[i]];
			unsigned os = tree_pu_os(t, i);
			double core_busy = 0, pu_busy = busy_of(req, os);

			if (!cpulist_has(&req->allowed, os) ||
			    t->objs[t->pus[i]].kind != best_kind)
				continue;
			for (unsigned j = 0; j < core->pu_count; j++)
				core_busy += busy_of(
				    req, tree_pu_os(t, core->pu_first + j));
			if (core_busy < best_core ||
			    (core_busy == best_core && pu_busy < best_pu)) {
				best_core = core_busy;
				best_pu = pu_busy;
				cpu = (int)os;
			}
		}
		plan->reason = POLICY_REASON_IDLE;
	} else {
		/* No sample: the first candidate, of the fastest kind for
		 * idle (a hybrid machine's P-cores). */
		int kind = req->which == POLICY_WHICH_IDLE
			       ? fastest_allowed_kind(t, &req->allowed)
			       : -2;

		for (unsigned i = 0; i < t->npus && cpu < 0; i++)
			if (cpulist_has(&req->allowed, tree_pu_os(t, i)) &&
			    (kind == -2 || t->objs[t->pus[i]].kind == kind))
				cpu = (int)tree_pu_os(t, i);
		plan->reason = POLICY_REASON_FIRST;
	}
	if (cpu < 0)
		return fail(err, POLICY_E_NOTHING, 0, 0);
	cpulist_add(&plan->cpus, (unsigned)cpu);
	plan->domain = t->pus[t->pu_by_os[cpu]];
	if (req->smt == POLICY_SMT_ALL) {
		int core = tree_core_of(t, (unsigned)cpu);

		obj_allowed(t, core, &req->allowed, &plan->cpus);
		plan->domain = core;
	}
	return 0;
}

/* --- spread: hwloc_distrib over the allowed units ---------------------- */

struct distrib {
	const struct topology *t;
	const struct cpuset *allowed;
	unsigned *weight; /* allowed units under each object */
	unsigned *lowest; /* lowest allowed CPU under each object */
	int *chosen;	  /* one CPU per chunk */
	unsigned next;
};

/* hwloc_distrib(): split n chunks among sibling roots in proportion to
 * their weights, rounding so the total is exact, and recurse while a root
 * gets more than one chunk. A root that gets none merges into the chunk
 * before it. Singlified, each chunk is its lowest CPU. */
static void distrib(struct distrib *d, int root, unsigned n)
{
	unsigned total = 0, given_weight = 0;

	for (int r = root; r != TOPO_NONE; r = d->t->objs[r].next_sibling)
		total += d->weight[r];
	for (int r = root; r != TOPO_NONE; r = d->t->objs[r].next_sibling) {
		unsigned w = d->weight[r], chunk;

		if (!w)
			continue;
		chunk = ((given_weight + w) * n + total - 1) / total -
			(given_weight * n + total - 1) / total;
		if (d->t->objs[r].first_child == TOPO_NONE || chunk <= 1) {
			if (chunk) {
				for (unsigned j = 0; j < chunk; j++)
					d->chosen[d->next++] =
					    (int)d->lowest[r];
			} else if (d->lowest[r] <
				   (unsigned)d->chosen[d->next - 1]) {
				d->chosen[d->next - 1] = (int)d->lowest[r];
			}
		} else {
			distrib(d, d->t->objs[r].first_child, chunk);
		}
		given_weight += w;
	}
}

static int plan_spread(const struct topology *t,
		       const struct policy_request *req,
		       struct policy_plan *plan, struct policy_error *err)
{
	struct distrib d = { .t = t, .allowed = &req->allowed };
	unsigned units;
	int ret = -1;

	d.weight = calloc(t->nobjs, sizeof(*d.weight));
	d.lowest = malloc(t->nobjs * sizeof(*d.lowest));
	if (!d.weight || !d.lowest)
		goto nomem;
	for (unsigned i = 0; i < t->nobjs; i++)
		d.lowest[i] = CPULIST_MAX;
	/* A unit is a core with an allowed PU, or with --smt each allowed
	 * PU; it counts once for every object above it. */
	for (unsigned i = 0; i < t->npus; i++) {
		unsigned cpu = tree_pu_os(t, i);
		int unit =
		    req->smt == POLICY_SMT_ALL ? t->pus[i] : t->pu_core[i];

		/* A core's PUs come in CPU order: its first allowed one
		 * stands for it, as core:all.pu:0 does in hwloc. */
		if (!cpulist_has(&req->allowed, cpu) ||
		    d.lowest[unit] != CPULIST_MAX)
			continue;
		for (int o = unit; o != TOPO_NONE; o = t->objs[o].parent) {
			d.weight[o]++;
			if (cpu < d.lowest[o])
				d.lowest[o] = cpu;
		}
	}
	units = d.weight[0];
	if (!units) {
		fail(err, POLICY_E_NOTHING, 0, 0);
		goto out;
	}
	if (req->n > units) {
		fail(err, POLICY_E_TOO_MANY, req->n, units);
		goto out;
	}
	d.chosen = malloc((req->n ? req->n : units) * sizeof(*d.chosen));
	if (!d.chosen)
		goto nomem;
	distrib(&d, 0, req->n ? req->n : units);
	for (unsigned i = 0; i < d.next; i++)
		cpulist_add(&plan->cpus, (unsigned)d.chosen[i]);
	plan->reason = POLICY_REASON_GIVEN;
	ret = 0;
	goto out;
nomem:
	fail(err, POLICY_E_NOMEM, 0, 0);
out:
	free(d.weight);
	free(d.lowest);
	free(d.chosen);
	return ret;
}

/* --- cpus: exactly those given ---------------------------------------- */

static int plan_cpus(const struct topology *t, const struct policy_request *req,
		     struct policy_plan *plan, struct policy_error *err)
{
	plan->cpus = req->cpus;
	plan->reason = POLICY_REASON_GIVEN;
	return check_cpus(t, &req->cpus, &req->allowed, err);
}

/* --- the policies: one entry each, in enum policy_kind's order --------- */

static const struct policy_desc table[POLICY_NKINDS] = {
	[POLICY_NONE] = { .name = "none", .noun = "core" },
	[POLICY_HOT] = {
		.name = "hot",
		.arg = "[=<which>]",
		.help = "one PU: current (default), idle, or a CPU",
		.rule = "one PU (with --smt, its whole core)",
		.value = POLICY_VALUE_PU,
		.noun = "core",
		.spec_option = "--hot=",
		.slots = POLICY_SLOTS_ONE,
		.plan = plan_hot,
	},
	[POLICY_SAME_CHIP] = {
		.name = "same-chip",
		.arg = "[=<which>]",
		.help = "every allowed PU of one package",
		.rule = "every allowed PU of one package",
		.value = POLICY_VALUE_DOMAIN,
		.level = TOPO_PACKAGE,
		.noun = "package",
		.index_words = "a package number",
		.aliases = " package socket chip pkg ",
		.location_type = "package",
		.slots = POLICY_SLOTS_CORE,
		.plan = plan_domain,
	},
	[POLICY_SAME_NUMA] = {
		.name = "same-numa",
		.arg = "[=<which>]",
		.help = "every allowed PU of one NUMA node",
		.rule = "every allowed PU of one NUMA node",
		.value = POLICY_VALUE_DOMAIN,
		.level = TOPO_NUMA,
		.noun = "NUMA node",
		.index_words = "a NUMA node number",
		.aliases = " numa node numanode ",
		.location_type = "numa",
		.slots = POLICY_SLOTS_CORE,
		.plan = plan_domain,
	},
	[POLICY_SAME_CACHE] = {
		.name = "same-cache",
		.arg = "[=<which>]",
		.help = "every allowed PU under one L3 cache",
		.rule = "every allowed PU under one L3 cache",
		.value = POLICY_VALUE_DOMAIN,
		.level = TOPO_L3,
		.noun = "L3 cache",
		.index_words = "an L3 cache number",
		.aliases = " l3 l3cache cache ",
		.location_type = "l3",
		.slots = POLICY_SLOTS_CORE,
		.plan = plan_domain,
	},
	[POLICY_SPREAD] = {
		.name = "spread",
		.arg = "[=<n>]",
		.help = "one PU on each of n cores, as far apart as can be",
		.rule = "one PU on each of N cores, balanced over packages, "
			"NUMA nodes and L3 caches (hwloc_distrib)",
		.value = POLICY_VALUE_COUNT,
		.noun = "core",
		.slots = POLICY_SLOTS_PU,
		.plan = plan_spread,
	},
	[POLICY_CPUS] = {
		.name = "cpus",
		.short_opt = 'c',
		.arg = " <spec>",
		.help = "exactly these CPUs: 0-3,8  0xff  package:1",
		.rule = "exactly the CPUs given",
		.value = POLICY_VALUE_SPEC,
		.noun = "core",
		.spec_option = "--cpus",
		.slots = POLICY_SLOTS_PU,
		.plan = plan_cpus,
	},
};

const struct policy_desc *policy_desc(enum policy_kind kind)
{
	return &table[kind];
}

const char *policy_name(enum policy_kind kind)
{
	return table[kind].name;
}

int policy_plan(const struct topology *t, const struct policy_request *req,
		struct policy_plan *plan, struct policy_error *err)
{
	const struct policy_desc *d = policy_desc(req->kind);

	memset(plan, 0, sizeof(*plan));
	plan->domain = -1;
	err->code = POLICY_OK;
	if (!cpulist_intersects(&req->allowed, &t->usable) || !d->plan)
		return fail(err, POLICY_E_NOTHING, 0, 0);
	if (d->plan(t, req, plan, err) < 0)
		return -1;
	if (slotorder_make(t, d->slots, plan) < 0) {
		policy_plan_free(plan);
		return fail(err, POLICY_E_NOMEM, 0, 0);
	}
	return 0;
}

void policy_plan_free(struct policy_plan *plan)
{
	free(plan->slot_start);
	free(plan->slot_cpus);
	plan->slot_start = NULL;
	plan->slot_cpus = NULL;
	plan->nslots = 0;
}

void policy_slot_cpus(const struct policy_plan *plan, unsigned i,
		      struct cpuset *set)
{
	cpulist_zero(set);
	for (unsigned k = plan->slot_start[i]; k < plan->slot_start[i + 1]; k++)
		cpulist_add(set, plan->slot_cpus[k]);
}

static void cover(const struct topology *t, const struct cpuset *set, int o,
		  int *out, unsigned max, unsigned *n)
{
	const struct topo_obj *obj = &t->objs[o];
	bool whole = obj->pu_count > 0;

	for (unsigned i = 0; i < obj->pu_count && whole; i++)
		whole = cpulist_has(set, tree_pu_os(t, obj->pu_first + i));
	if (whole) {
		/* A cache with the same CPUs as the object below it says less
		 * than that object: name the core, not its private L2. */
		while (obj->type >= TOPO_L5 && obj->type <= TOPO_L1 &&
		       obj->first_child != TOPO_NONE &&
		       t->objs[obj->first_child].pu_count == obj->pu_count) {
			o = obj->first_child;
			obj = &t->objs[o];
		}
		if (*n < max)
			out[*n] = o;
		(*n)++;
		return;
	}
	for (int c = obj->first_child; c != TOPO_NONE;
	     c = t->objs[c].next_sibling)
		cover(t, set, c, out, max, n);
}

unsigned policy_cover(const struct topology *t, const struct cpuset *set,
		      int *out, unsigned max)
{
	unsigned n = 0;

	if (t->nobjs)
		cover(t, set, 0, out, max, &n);
	return n;
}

int policy_share(const struct topology *t, const struct cpuset *allowed,
		 bool pus, unsigned index, unsigned count, struct cpuset *part,
		 struct policy_error *err)
{
	unsigned units = 0, u = 0, first, end;
	int last = TOPO_NONE;

	cpulist_zero(part);
	for (unsigned i = 0; i < t->npus; i++)
		if (cpulist_has(allowed, tree_pu_os(t, i)) &&
		    (pus || t->pu_core[i] != last)) {
			units++;
			last = t->pu_core[i];
		}
	if (count > units)
		return fail(err, POLICY_E_TOO_MANY, count, units);
	first = (unsigned)((unsigned long)index * units / count);
	end = (unsigned)((unsigned long)(index + 1) * units / count);
	last = TOPO_NONE;
	for (unsigned i = 0; i < t->npus; i++) {
		unsigned cpu = tree_pu_os(t, i);

		if (!cpulist_has(allowed, cpu))
			continue;
		if (pus || t->pu_core[i] != last)
			u++;
		last = t->pu_core[i];
		if (u > first && u <= end)
			cpulist_add(part, cpu);
	}
	return 0;
}

static const struct core_kind_desc core_kinds[POLICY_CORE_COUNT] = {
	[POLICY_CORE_ANY] = { "any", NULL },
	[POLICY_CORE_FAST] = { "fast", "fastest" },
	[POLICY_CORE_SLOW] = { "slow", "slowest" },
};

const struct core_kind_desc *policy_core_kind(enum policy_core kind)
{
	return &core_kinds[kind];
}

void policy_kind_cpus(const struct topology *t, enum policy_core kind,
		      struct cpuset *set)
{
	int want = kind == POLICY_CORE_FAST ? t->nkinds - 1 : 0;

	cpulist_zero(set);
	for (unsigned i = 0; i < t->npus; i++)
		if (t->nkinds <= 1 || kind == POLICY_CORE_ANY ||
		    t->objs[t->pus[i]].kind == want)
			cpulist_add(set, tree_pu_os(t, i));
}

const char *policy_strerror(enum policy_err code)
{
	switch (code) {
	case POLICY_OK:
		return "no error";
	case POLICY_E_NOMEM:
		return "out of memory";
	case POLICY_E_NO_LEVEL:
		return "no such level in the topology";
	case POLICY_E_NO_SUCH:
		return "no such domain";
	case POLICY_E_DOMAIN_EMPTY:
		return "no CPU of the domain is allowed";
	case POLICY_E_TOO_MANY:
		return "more units than are allowed";
	case POLICY_E_NOT_EXIST:
		return "no such CPU";
	case POLICY_E_OFFLINE:
		return "the CPU is offline or disallowed";
	case POLICY_E_NOT_ALLOWED:
		return "the CPU is not in the allowed set";
	case POLICY_E_HOT_NOT_ONE:
		return "--hot takes exactly one CPU";
	case POLICY_E_CURRENT:
		return "the current CPU is not in the allowed set";
	case POLICY_E_NOTHING:
		return "no CPU is allowed";
	case POLICY_E_NOT_UNDER:
		return "the current CPU is under no domain of the level";
	case POLICY_E_NONE_ALLOWED:
		return "no domain of the level has an allowed CPU";
	case POLICY_E_NCODES: /* a count, not a code */
		break;
	}
	return "unknown error";
}
